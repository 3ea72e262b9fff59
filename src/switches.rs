//! A set of on/off switches over a small enum of checks: every check is on unless it was
//! switched off. The validator's rules and the executor's safeguards are both such sets.

use std::fmt;
use std::marker::PhantomData;

/// An enum of checks that can be switched off, listed in check order.
pub trait Switch: Copy + Eq + 'static {
    /// Every variant, in check order.
    const ALL: &'static [Self];

    /// The variant's place in [`Switch::ALL`].
    fn index(self) -> usize {
        Self::ALL
            .iter()
            .position(|s| *s == self)
            .expect("every switch is listed in ALL")
    }
}

/// Which checks of `S` are on. The default has every check on.
pub struct Switches<S> {
    off: u32,
    kind: PhantomData<S>,
}

impl<S: Switch> Switches<S> {
    /// Every check on.
    pub const ALL_ON: Switches<S> = Switches {
        off: 0,
        kind: PhantomData,
    };

    /// Every check on except those in `off`.
    pub fn without(off: impl IntoIterator<Item = S>) -> Switches<S> {
        let mut set = Switches::ALL_ON;
        for s in off {
            set.set(s, false);
        }
        set
    }

    pub(crate) fn is_on(&self, s: S) -> bool {
        self.off & Self::bit(s) == 0
    }

    /// Turn one check on or off.
    pub fn set(&mut self, s: S, on: bool) {
        if on {
            self.off &= !Self::bit(s);
        } else {
            self.off |= Self::bit(s);
        }
    }

    /// The checks switched off, in check order.
    pub(crate) fn switched_off(&self) -> impl Iterator<Item = S> + '_ {
        S::ALL.iter().copied().filter(|s| !self.is_on(*s))
    }

    fn bit(s: S) -> u32 {
        1 << s.index()
    }
}

impl<S> Clone for Switches<S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S> Copy for Switches<S> {}

impl<S> PartialEq for Switches<S> {
    fn eq(&self, other: &Self) -> bool {
        self.off == other.off
    }
}

impl<S> Eq for Switches<S> {}

impl<S: Switch> Default for Switches<S> {
    fn default() -> Self {
        Switches::ALL_ON
    }
}

impl<S: Switch + fmt::Debug> fmt::Debug for Switches<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Switches")
            .field("off", &self.switched_off().collect::<Vec<_>>())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum Check {
        A,
        B,
        C,
    }

    impl Switch for Check {
        const ALL: &'static [Check] = &[Check::A, Check::B, Check::C];
    }

    #[test]
    fn switches_start_on_and_turn_off_one_at_a_time() {
        let mut s = Switches::<Check>::ALL_ON;
        assert!(Check::ALL.iter().all(|c| s.is_on(*c)));
        s.set(Check::B, false);
        assert!(s.is_on(Check::A) && !s.is_on(Check::B) && s.is_on(Check::C));
        assert_eq!(s.switched_off().collect::<Vec<_>>(), [Check::B]);
        s.set(Check::B, true);
        assert_eq!(s, Switches::default());
        assert_eq!(
            Switches::without([Check::C, Check::A])
                .switched_off()
                .collect::<Vec<_>>(),
            [Check::A, Check::C]
        );
    }
}
