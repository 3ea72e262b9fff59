//! IDNA2008 for one label in Unicode form (a U-label): which code points it may hold
//! (RFC 5892's derived property), the contextual rules for the joiners (CONTEXTJ) and for a
//! few punctuation marks and digits (CONTEXTO, RFC 5892 Appendix A), and the Bidi rule
//! (RFC 5893). The Unicode properties come from ICU4X (`icu_properties`), the normalisation
//! check from `icu_normalizer`.
//!
//! UTS 46 (the `idna` crate) is not used for this part: it maps what IDNA2008 refuses
//! (`K` KELVIN SIGN to `k`, capitals to small letters) and would let such labels through.

use icu_normalizer::ComposingNormalizer;
use icu_properties::props::{
    BidiClass, CanonicalCombiningClass, ChangesWhenNfkcCasefolded, DefaultIgnorableCodePoint,
    GeneralCategory, HangulSyllableType, JoiningType, NoncharacterCodePoint, Script, WhiteSpace,
};
use icu_properties::{CodePointMapData, CodePointSetData};

/// RFC 5892's derived property value of one code point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Derived {
    Pvalid,
    ContextJ,
    ContextO,
    Disallowed,
}

const ZWNJ: char = '\u{200C}';
const ZWJ: char = '\u{200D}';

/// RFC 5892 §2.6: code points whose value is fixed by hand, whatever their properties say.
fn exception(c: char) -> Option<Derived> {
    Some(match c {
        '\u{00DF}' | '\u{03C2}' | '\u{06FD}' | '\u{06FE}' | '\u{0F0B}' | '\u{3007}' => {
            Derived::Pvalid
        }
        '\u{00B7}' | '\u{0375}' | '\u{05F3}' | '\u{05F4}' | '\u{30FB}' => Derived::ContextO,
        '\u{0660}'..='\u{0669}' | '\u{06F0}'..='\u{06F9}' => Derived::ContextO,
        '\u{0640}'
        | '\u{07FA}'
        | '\u{302E}'
        | '\u{302F}'
        | '\u{3031}'..='\u{3035}'
        | '\u{303B}' => Derived::Disallowed,
        _ => return None,
    })
}

/// RFC 5892 §3: the rules applied in order, for code points outside the exceptions.
fn derived(c: char) -> Derived {
    if let Some(d) = exception(c) {
        return d;
    }
    if matches!(c, 'a'..='z' | '0'..='9' | '-') {
        return Derived::Pvalid;
    }
    if c == ZWNJ || c == ZWJ {
        return Derived::ContextJ;
    }
    let gc = CodePointMapData::<GeneralCategory>::new().get(c);
    let unstable = CodePointSetData::new::<ChangesWhenNfkcCasefolded>().contains(c);
    let ignorable = CodePointSetData::new::<DefaultIgnorableCodePoint>().contains(c)
        || CodePointSetData::new::<WhiteSpace>().contains(c)
        || CodePointSetData::new::<NoncharacterCodePoint>().contains(c);
    let ignorable_block = matches!(c,
        '\u{20D0}'..='\u{20FF}' | '\u{1D100}'..='\u{1D1FF}' | '\u{1D200}'..='\u{1D24F}');
    let hst = CodePointMapData::<HangulSyllableType>::new().get(c);
    let old_jamo = matches!(
        hst,
        HangulSyllableType::LeadingJamo
            | HangulSyllableType::VowelJamo
            | HangulSyllableType::TrailingJamo
    );
    if gc == GeneralCategory::Unassigned || unstable || ignorable || ignorable_block || old_jamo {
        return Derived::Disallowed;
    }
    use GeneralCategory as G;
    match gc {
        G::LowercaseLetter
        | G::UppercaseLetter
        | G::OtherLetter
        | G::DecimalNumber
        | G::ModifierLetter
        | G::NonspacingMark
        | G::SpacingMark => Derived::Pvalid,
        _ => Derived::Disallowed,
    }
}

fn is_mark(c: char) -> bool {
    use GeneralCategory as G;
    matches!(
        CodePointMapData::<GeneralCategory>::new().get(c),
        G::NonspacingMark | G::SpacingMark | G::EnclosingMark
    )
}

fn is_virama(c: char) -> bool {
    CodePointMapData::<CanonicalCombiningClass>::new().get(c) == CanonicalCombiningClass::Virama
}

fn script(c: char) -> Script {
    CodePointMapData::<Script>::new().get(c)
}

/// Is `label` a valid U-label: in NFC, no hyphen first, last or in both the third and fourth
/// places, no combining mark first, and every code point allowed, in its context?
/// (The DNS length of its A-label form and the Bidi rule are checked by the caller.)
pub(super) fn is_u_label(label: &str) -> bool {
    let chars: Vec<char> = label.chars().collect();
    if chars.is_empty()
        || chars[0] == '-'
        || chars[chars.len() - 1] == '-'
        || chars.get(2..4) == Some(&['-', '-'])
        || is_mark(chars[0])
        || !ComposingNormalizer::new_nfc().is_normalized(label)
    {
        return false;
    }
    (0..chars.len()).all(|i| match derived(chars[i]) {
        Derived::Pvalid => true,
        Derived::ContextJ => joiner_allowed(&chars, i),
        Derived::ContextO => other_allowed(&chars, i),
        Derived::Disallowed => false,
    })
}

/// RFC 5892 Appendix A.1 and A.2: a joiner after a virama; a ZWNJ also between a left- or
/// dual-joining letter and a right- or dual-joining one, with only transparent ones between.
fn joiner_allowed(chars: &[char], i: usize) -> bool {
    if i > 0 && is_virama(chars[i - 1]) {
        return true;
    }
    if chars[i] != ZWNJ {
        return false;
    }
    let jt = |c: char| CodePointMapData::<JoiningType>::new().get(c);
    let before = chars[..i]
        .iter()
        .rev()
        .find(|&&c| jt(c) != JoiningType::Transparent);
    let after = chars[i + 1..]
        .iter()
        .find(|&&c| jt(c) != JoiningType::Transparent);
    let joins_left = before
        .is_some_and(|&c| matches!(jt(c), JoiningType::LeftJoining | JoiningType::DualJoining));
    let joins_right = after
        .is_some_and(|&c| matches!(jt(c), JoiningType::RightJoining | JoiningType::DualJoining));
    joins_left && joins_right
}

/// RFC 5892 Appendix A.3 to A.9.
fn other_allowed(chars: &[char], i: usize) -> bool {
    let before = i.checked_sub(1).map(|j| chars[j]);
    let after = chars.get(i + 1).copied();
    match chars[i] {
        '\u{00B7}' => before == Some('l') && after == Some('l'),
        '\u{0375}' => after.is_some_and(|c| script(c) == Script::Greek),
        '\u{05F3}' | '\u{05F4}' => before.is_some_and(|c| script(c) == Script::Hebrew),
        '\u{30FB}' => chars
            .iter()
            .any(|&c| matches!(script(c), Script::Hiragana | Script::Katakana | Script::Han)),
        '\u{0660}'..='\u{0669}' => !chars.iter().any(|c| ('\u{06F0}'..='\u{06F9}').contains(c)),
        '\u{06F0}'..='\u{06F9}' => !chars.iter().any(|c| ('\u{0660}'..='\u{0669}').contains(c)),
        _ => false,
    }
}

fn bidi(c: char) -> BidiClass {
    CodePointMapData::<BidiClass>::new().get(c)
}

/// Does `label` hold a right-to-left character (Bidi class R, AL or AN)? A name with such a
/// label is a Bidi domain name, and then every label must pass [`passes_bidi_rule`].
pub(super) fn is_rtl_label(label: &str) -> bool {
    label.chars().any(|c| {
        matches!(
            bidi(c),
            BidiClass::RightToLeft | BidiClass::ArabicLetter | BidiClass::ArabicNumber
        )
    })
}

/// RFC 5893 §2, rules 1 to 6.
pub(super) fn passes_bidi_rule(label: &str) -> bool {
    use BidiClass as B;
    let classes: Vec<BidiClass> = label.chars().map(bidi).collect();
    let Some(&first) = classes.first() else {
        return false;
    };
    let last = classes.iter().rev().find(|&&b| b != B::NonspacingMark);
    let neutral = |b: BidiClass| {
        matches!(
            b,
            B::EuropeanNumber
                | B::EuropeanSeparator
                | B::CommonSeparator
                | B::EuropeanTerminator
                | B::OtherNeutral
                | B::BoundaryNeutral
                | B::NonspacingMark
        )
    };
    match first {
        B::RightToLeft | B::ArabicLetter => {
            let allowed = classes.iter().all(|&b| {
                neutral(b) || matches!(b, B::RightToLeft | B::ArabicLetter | B::ArabicNumber)
            });
            let ends_well = last.is_some_and(|&b| {
                matches!(
                    b,
                    B::RightToLeft | B::ArabicLetter | B::EuropeanNumber | B::ArabicNumber
                )
            });
            let en = classes.contains(&B::EuropeanNumber);
            let an = classes.contains(&B::ArabicNumber);
            allowed && ends_well && !(en && an)
        }
        B::LeftToRight => {
            let allowed = classes.iter().all(|&b| neutral(b) || b == B::LeftToRight);
            let ends_well = last.is_some_and(|&b| matches!(b, B::LeftToRight | B::EuropeanNumber));
            allowed && ends_well
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_derived_property_follows_rfc_5892() {
        assert_eq!(derived('a'), Derived::Pvalid);
        assert_eq!(derived('A'), Derived::Disallowed);
        assert_eq!(derived('\u{212A}'), Derived::Disallowed);
        assert_eq!(derived('ß'), Derived::Pvalid);
        assert_eq!(derived('é'), Derived::Pvalid);
        assert_eq!(derived('_'), Derived::Disallowed);
        assert_eq!(derived('\u{1100}'), Derived::Disallowed);
        assert_eq!(derived('\u{00AD}'), Derived::Disallowed);
        assert_eq!(derived('€'), Derived::Disallowed);
        assert_eq!(derived('\u{0378}'), Derived::Disallowed);
        assert_eq!(derived(ZWJ), Derived::ContextJ);
        assert_eq!(derived('\u{30FB}'), Derived::ContextO);
    }

    #[test]
    fn u_labels_need_nfc_and_their_contexts() {
        assert!(is_u_label("café"));
        assert!(!is_u_label("cafe\u{301}"));
        assert!(!is_u_label("Café"));
        assert!(is_u_label("l·l"));
        assert!(!is_u_label("a·l"));
        assert!(is_u_label("क्\u{200D}ष"));
        assert!(!is_u_label("क\u{200D}ष"));
        assert!(is_u_label("بي\u{200C}بي"));
        assert!(!is_u_label("x\u{200C}y"));
        assert!(!is_u_label("ab--c"));
    }

    #[test]
    fn the_bidi_rule_holds_in_both_directions() {
        assert!(passes_bidi_rule("abc1"));
        assert!(!passes_bidi_rule("1abc"));
        assert!(passes_bidi_rule("שלום"));
        assert!(!passes_bidi_rule("aש"));
        assert!(!passes_bidi_rule("ש0٠"));
        assert!(is_rtl_label("ب٠ب"));
        assert!(!is_rtl_label("۰0"));
    }
}
