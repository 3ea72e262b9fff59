//! The pattern compiler: ECMA-262's meaning of the shorthand classes, what Unicode mode
//! refuses, lookaround where it is honoured, and a differential run against node.

use super::*;

mod differential;
mod generate;

fn matches(pattern: &str, s: &str) -> bool {
    compile(pattern)
        .unwrap_or_else(|e| panic!("{pattern}: {e}"))
        .is_match(s)
}

#[test]
fn shorthand_classes_are_ascii() {
    assert!(matches(r"^TKT-\d{3}$", "TKT-104"));
    assert!(!matches(r"^TKT-\d{3}$", "TKT-١٠٤"));
    assert!(!matches(r"^TKT-\d{3}$", "TKT-１０４"));
    assert!(matches(r"^\D$", "٤"));
    assert!(matches(r"^\w+$", "hello_42"));
    assert!(!matches(r"^\w+$", "héllo"));
    assert!(matches(r"^\W$", "é"));
    assert!(matches(r"^[\w-]+$", "a-b_c"));
    assert!(!matches(r"^[\w]+$", "é"));
    assert!(matches(r"^[^\d]$", "x"));
    assert!(!matches(r"^[^\d]$", "5"));
    assert!(matches(r"^[^\D]$", "5"));
    assert!(!matches(r"^[^\D]$", "٥"));
}

#[test]
fn whitespace_is_ecma_262s_list() {
    for ws in ['\u{FEFF}', '\u{A0}', '\u{2028}', '\u{3000}', '\t', '\u{B}'] {
        assert!(matches(r"^\s$", &ws.to_string()), "{ws:?}");
        assert!(matches(r"^[\s]$", &ws.to_string()), "{ws:?}");
        assert!(!matches(r"^\S$", &ws.to_string()), "{ws:?}");
    }
    // NEL is Unicode White_Space but not ECMA-262 whitespace.
    assert!(!matches(r"^\s$", "\u{85}"));
    assert!(matches(r"^\S$", "\u{85}"));
    assert!(matches(r"^[\S]$", "\u{85}"));
}

#[test]
fn word_boundaries_know_only_ascii_words() {
    assert!(matches(r"\bcole\b", "a cole b"));
    // `é` is not a word character in ECMA-262, so there is a boundary before `cole`.
    assert!(matches(r"\bcole", "écoles"));
    assert!(!matches(r"\Bcole", "écoles"));
    assert!(matches(r"\Bcole", "xcole"));
    // Inside a class \b is a backspace.
    assert!(matches(r"^[\b]$", "\u{8}"));
}

#[test]
fn a_non_boundary_never_splits_a_character() {
    // Between the bytes of `５` both sides are non-word, but that is no position of the
    // string; the match of `５` itself must still be seen.
    assert!(matches(r"５|\B", "b５B"));
    assert!(!matches(r"\B", "c😀Z"));
    assert!(matches(r"\B", "😀"));
    assert!(matches(r"a\Bb", "xab"));
}

#[test]
fn dot_stops_at_every_line_terminator() {
    assert!(matches("^.$", "é"));
    assert!(matches("^.$", "🐲"));
    for lt in ["\n", "\r", "\u{2028}", "\u{2029}"] {
        assert!(!matches("^.$", lt), "{lt:?}");
    }
    assert!(matches("^.$", "\u{85}"));
    assert!(!matches("^abc$", "abc\n"));
}

#[test]
fn escapes_and_classes_spelled_for_the_regex_crate() {
    assert!(matches(r"^\cC$", "\u{3}"));
    assert!(matches(r"^\cc$", "\u{3}"));
    assert!(matches(r"^\x41\u0042\u{43}$", "ABC"));
    assert!(matches(r"^\ud83d\udc32+$", "🐲🐲"));
    assert!(matches(r"^[a-c&&]+$", "a&&b"));
    assert!(matches(r"^[[a]+$", "[a"));
    assert!(matches(r"^[a~-]+$", "a~-"));
    assert!(matches(r"^[\-]$", "-"));
    assert!(!matches("^[]$", "a"));
    assert!(matches("^[^]$", "\n"));
    assert!(matches(r"^\p{Letter}cole$", "école"));
    assert!(matches(r"^\P{L}$", "1"));
    assert!(matches(r"^\p{Script=Greek}+$", "αβ"));
    assert!(matches(r"^\p{sc=Grek}$", "α"));
    assert!(matches(r"^a{2,}\}\]$", "aaa}]"));
    assert!(matches(r"^\/\.-$", "/.-"));
    assert!(matches(r"^(?:ab)+(?<x>c)$", "ababc"));
    assert!(matches(r"^a{0001,02}$", "aa"));
}

#[test]
fn lone_surrogates_match_nothing() {
    // Valid ECMA-262, but no string here holds a lone surrogate.
    assert!(!matches(r"\ud800", "\u{FFFD}"));
    assert!(matches(r"^[^\udc00]$", "x"));
    assert!(matches(r"^[\u{d000}-\u{e000}]$", "\u{D7FF}"));
    assert!(matches(r"^[\u{d000}-\u{e000}]$", "\u{E000}"));
}

proptest::proptest! {
    /// No text makes the parser or the compiler panic.
    #[test]
    fn any_text_is_compiled_or_refused(src in "[\\\\()\\[\\]{}?*+^$|.,:=!<>a-z0-9dDwWsSbBpPcuxk-]{0,24}|\\PC{0,12}") {
        let _ = compile(&src);
        let _ = is_valid(&src);
    }

    /// On ASCII text without a carriage return the two dialects agree, so a pattern
    /// means the same translated or not.
    #[test]
    fn ascii_text_matches_as_before(
        src in "(\\^)?([a-c.]|\\\\[dDwWsSbB]|\\[\\^?([a-c0-9 ]|\\\\[dws]){1,3}\\]|\\((a|b\\\\d)\\)[*+?]?)([a-c.]|\\\\[dDwWsSbB]|[*+?]){0,6}(\\$)?",
        text in "[a-c0-9 _\t\n.-]{0,8}",
    ) {
        let Ok(plain) = Regex::new(&src) else { return Ok(()) };
        let Ok(ours) = compile(&src) else { return Ok(()) };
        proptest::prop_assert_eq!(ours.is_match(&text), plain.is_match(&text), "{} on {:?}", src, text);
    }
}

/// Issue 19: patterns ECMA-262 refuses in Unicode mode were accepted.
#[test]
fn what_unicode_mode_refuses_is_refused() {
    for (p, why) in [
        ("a**", "nothing to repeat"),
        ("a*+", "nothing to repeat"),
        ("a+*", "nothing to repeat"),
        ("a*??", "nothing to repeat"),
        ("a{1}{2}", "nothing to repeat"),
        ("*a", "nothing to repeat"),
        (r"\b+", "assertion"),
        (r"\B*", "assertion"),
        ("^*", "assertion"),
        ("$?", "assertion"),
        ("(?=a)*", "assertion"),
        ("(?<=a){2}", "assertion"),
        ("a}", "lone '}'"),
        ("a]", "lone ']'"),
        ("}", "lone '}'"),
        ("a{,3}", "quantifier"),
        ("a{", "quantifier"),
        ("a{2,1}", "greater"),
        (r"\_", "escape"),
        (r"\-", "escape"),
        (r"\a", "escape"),
        (r"\A", "escape"),
        (r"\z", "escape"),
        (r"\@", "escape"),
        (r"[\_]", "escape"),
        (r"[\B]", "escape"),
        (r"[\1]", "escape"),
        (r"\p{Greek}", "Script="),
        (r"\p{letter}", "property"),
        (r"\p{Script=greek}", "value"),
        (r"\p{Block=Basic_Latin}", "property"),
        (r"\p{Lu=Y}", "property"),
        (r"\pL", "followed by {name}"),
        ("(?<n>a)(?<n>b)", "twice"),
        ("(?<n>a)|(?<n>b)", "twice"),
        (r"\k<n>", "names no group"),
        (r"\k", "<name>"),
        (r"(a)\2", "past the last group"),
        (r"\1", "past the last group"),
        (r"\01", "escape"),
        (r"\c1", "letter"),
        (r"[\c1]", "letter"),
        (r"\x4", "two hex digits"),
        (r"\u12", "four hex digits"),
        (r"\u{110000}", "10FFFF"),
        (r"[\d-z]", "class escape"),
        (r"[a-\w]", "class escape"),
        ("[z-a]", "out of order"),
        ("[a", "unterminated"),
        ("a\\", "lone '\\'"),
        ("(", "unclosed"),
        (")", "unmatched"),
        ("(?i)a", "inline flags"),
        ("(?P<n>a)", "inline flags"),
        ("(?#c)a", "inline flags"),
        ("(?<1a>x)", "identifier"),
    ] {
        let e = compile(p)
            .err()
            .unwrap_or_else(|| panic!("{p} was accepted"));
        assert!(e.contains(why), "{p}: {e}");
        assert!(!is_valid(p), "{p} is not a valid regex");
    }
}

/// Issue 19: `^a*+a$` was read as a possessive quantifier and accepted `"aa"`.
#[test]
fn a_doubled_quantifier_is_not_possessive() {
    assert!(compile("^a*+a$").is_err());
    assert!(matches("^a*?a$", "aa"));
}

#[test]
fn valid_syntax_the_matcher_cannot_run_is_still_a_valid_regex() {
    for p in [
        r"(a)\1",
        r"(?<n>a)\k<n>",
        r"\k<n>(?<n>a)",
        "(?<=a+)b",
        "a(?!b)",
        r"(?<$é_1>x)",
        r"(?<\u{61}b>x)",
        "[]",
        "[^]",
        r"\cA",
        r"\ud800",
        r"\p{Script_Extensions=Latin}",
        r"\P{Any}",
        "a{99999999999999999999}",
    ] {
        assert!(is_valid(p), "{p}");
    }
    let e = compile(r"(a)\1").unwrap_err();
    assert!(e.contains("backreference"), "{e}");
}

#[test]
fn leading_lookaheads_and_trailing_lookbehinds_are_honoured() {
    let password = r"^(?=.*[A-Z])(?=.*\d)(?!.*\s).{8,}$";
    assert!(matches(password, "Secret123"));
    assert!(!matches(password, "secret123"));
    assert!(!matches(password, "Secretabc"));
    assert!(!matches(password, "Secret 123"));
    assert!(!matches(password, "Sec1"));
    assert!(matches(r"^\w+(?<!_)$", "abc"));
    assert!(!matches(r"^\w+(?<!_)$", "abc_"));
    assert!(matches(r"(?<=\.json)$|^none$", "a.json"));
    assert!(matches(r"(?<=\.json)$|^none$", "none"));
    assert!(!matches(r"(?<=\.json)$|^none$", "a.txt"));
    assert!(matches(r"(?:^(?=a)\w)", "ab"));
    for (p, why) in [
        ("a(?=b)", "lookahead"),
        ("(?<!a)b", "lookbehind"),
        ("^(?=(?=a))", "inside lookaround"),
        ("^a(?=b)", "lookahead"),
    ] {
        let e = compile(p).unwrap_err();
        assert!(e.contains(why), "{p}: {e}");
    }
}

#[test]
fn every_property_name_compiles() {
    for name in props::GENERAL_CATEGORY {
        compile(&format!(
            r"\p{{{name}}}\p{{gc={name}}}\P{{General_Category={name}}}"
        ))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    for name in props::BINARY {
        compile(&format!(r"\p{{{name}}}[\P{{{name}}}]")).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    for name in props::SCRIPT {
        compile(&format!(r"\p{{sc={name}}}\p{{Script_Extensions={name}}}"))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    for list in [props::GENERAL_CATEGORY, props::BINARY, props::SCRIPT] {
        assert!(
            list.windows(2).all(|w| w[0] < w[1]),
            "sorted for binary search"
        );
    }
}

#[test]
fn deep_nesting_is_a_clean_error_not_a_crash() {
    let ok = format!("{}a{}", "(".repeat(128), ")".repeat(128));
    assert!(is_valid(&ok));
    let deep = format!("{}a{}", "(?:".repeat(129), ")".repeat(129));
    let e = compile(&deep).unwrap_err();
    assert!(e.contains("nested more than 128"), "{e}");
    assert!(!is_valid(&deep));
    // On a small stack, the deepest pattern allowed is read and compiled without trouble.
    let lookahead = format!("^{}a{}", "(?=".repeat(128), ")".repeat(128));
    let h = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || {
            (
                is_valid(&lookahead),
                compile(&lookahead).is_ok(),
                compile(&ok).is_ok(),
            )
        })
        .unwrap();
    assert_eq!(h.join().unwrap(), (true, false, true));
}
