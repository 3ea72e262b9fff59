//! The command line's spelling of the core's enums: each flag value is a small enum here,
//! derived for clap, that maps onto the core's own, so the core knows nothing of flags.
//! Their names and the words under them are what `--help` lists.

use clap::ValueEnum;

use crate::executor::Safeguard;
use crate::practice::Lang;
use crate::tui::ThemeName;

/// `--theme`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ThemeArg {
    /// Dark background, soft colours.
    Default,
    /// Light background.
    Light,
    /// High contrast for a projector: every text pair at least 7:1, bold headings.
    Projector,
    /// No colour at all (what `NO_COLOR` selects): emphasis by weight and marks only.
    Mono,
}

impl From<ThemeArg> for ThemeName {
    fn from(t: ThemeArg) -> ThemeName {
        match t {
            ThemeArg::Default => ThemeName::Default,
            ThemeArg::Light => ThemeName::Light,
            ThemeArg::Projector => ThemeName::Projector,
            ThemeArg::Mono => ThemeName::Mono,
        }
    }
}

/// `--lang`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum LangArg {
    #[value(alias = "py")]
    Python,
    #[value(alias = "javascript")]
    Js,
}

impl From<LangArg> for Lang {
    fn from(l: LangArg) -> Lang {
        match l {
            LangArg::Python => Lang::Python,
            LangArg::Js => Lang::Js,
        }
    }
}

/// `exec --off`: the safeguards as the command line has always spelt them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum SafeguardArg {
    /// Only registered names run. Off: a naive adapter that never reads the name runs its
    /// one handler for any name (so `delete_ticket` returns a ticket).
    #[value(name = "allowlist")]
    Allowlist,
    /// Args must be an object with exactly the declared fields. Off: extra fields (such as
    /// `tenant`) are ignored and only `ticket_id` is read.
    #[value(name = "exact_shape")]
    ExactShape,
    /// ticket_id must be a string `TKT-` + three ASCII digits. Off: any value is looked up
    /// as it is (a number by its digits).
    #[value(name = "id_format")]
    IdFormat,
    /// The context must allow reading. Off: anyone may read.
    #[value(name = "read_permission")]
    ReadPermission,
    /// Look up by (tenant, id). Off: by id alone, across tenants (the first stored record
    /// with that id wins), so one tenant can read another's ticket.
    #[value(name = "tenant_scoping")]
    TenantScoping,
    /// Return a copy. Off: the caller's handle aliases the stored record, so changing the
    /// result changes the store.
    #[value(name = "copy_on_return")]
    CopyOnReturn,
}

impl From<SafeguardArg> for Safeguard {
    fn from(s: SafeguardArg) -> Safeguard {
        match s {
            SafeguardArg::Allowlist => Safeguard::Allowlist,
            SafeguardArg::ExactShape => Safeguard::ExactShape,
            SafeguardArg::IdFormat => Safeguard::IdFormat,
            SafeguardArg::ReadPermission => Safeguard::ReadPermission,
            SafeguardArg::TenantScoping => Safeguard::TenantScoping,
            SafeguardArg::CopyOnReturn => Safeguard::CopyOnReturn,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::switches::Switch;

    fn names<T: ValueEnum>() -> Vec<String> {
        T::value_variants()
            .iter()
            .map(|v| v.to_possible_value().unwrap().get_name().to_owned())
            .collect()
    }

    #[test]
    fn every_core_value_has_its_spelling() {
        // One flag value per core variant, in the core's order.
        let mapped: Vec<Safeguard> = SafeguardArg::value_variants()
            .iter()
            .map(|&s| s.into())
            .collect();
        assert_eq!(mapped, Safeguard::ALL);
        assert_eq!(
            names::<SafeguardArg>(),
            [
                "allowlist",
                "exact_shape",
                "id_format",
                "read_permission",
                "tenant_scoping",
                "copy_on_return"
            ]
        );
        assert_eq!(
            names::<ThemeArg>(),
            ["default", "light", "projector", "mono"]
        );
        assert_eq!(names::<LangArg>(), ["python", "js"]);
        let themes: Vec<ThemeName> = ThemeArg::value_variants()
            .iter()
            .map(|&t| t.into())
            .collect();
        assert_eq!(themes.len(), 4);
        assert!(themes.contains(&ThemeName::Mono) && themes.contains(&ThemeName::Projector));
    }
}
