//! The names `\p{..}` accepts in Unicode mode, exactly as ECMA-262 lists them: no loose
//! matching, so `\p{letter}` and `\p{Greek}` are errors (a script needs `Script=` or `sc=`).
//! Sorted, for binary search. Script names are those of the Unicode version the regex crate
//! carries, since a name it does not know could not be matched.

/// `General_Category` values and their aliases (`\p{L}`, `\p{gc=Lu}`).
#[rustfmt::skip]
pub(super) const GENERAL_CATEGORY: &[&str] = &[
    "C", "Cased_Letter", "Cc", "Cf", "Close_Punctuation", "Cn", "Co", "Combining_Mark",
    "Connector_Punctuation", "Control", "Cs", "Currency_Symbol", "Dash_Punctuation",
    "Decimal_Number", "Enclosing_Mark", "Final_Punctuation", "Format", "Initial_Punctuation", "L",
    "LC", "Letter", "Letter_Number", "Line_Separator", "Ll", "Lm", "Lo", "Lowercase_Letter", "Lt",
    "Lu", "M", "Mark", "Math_Symbol", "Mc", "Me", "Mn", "Modifier_Letter", "Modifier_Symbol", "N",
    "Nd", "Nl", "No", "Nonspacing_Mark", "Number", "Open_Punctuation", "Other", "Other_Letter",
    "Other_Number", "Other_Punctuation", "Other_Symbol", "P", "Paragraph_Separator", "Pc", "Pd",
    "Pe", "Pf", "Pi", "Po", "Private_Use", "Ps", "Punctuation", "S", "Sc", "Separator", "Sk", "Sm",
    "So", "Space_Separator", "Spacing_Mark", "Surrogate", "Symbol", "Titlecase_Letter",
    "Unassigned", "Uppercase_Letter", "Z", "Zl", "Zp", "Zs", "cntrl", "digit", "punct",
];

/// The binary properties of ECMA-262's table, by name and alias (`\p{Alpha}`).
#[rustfmt::skip]
pub(super) const BINARY: &[&str] = &[
    "AHex", "ASCII", "ASCII_Hex_Digit", "Alpha", "Alphabetic", "Any", "Assigned", "Bidi_C",
    "Bidi_Control", "Bidi_M", "Bidi_Mirrored", "CI", "CWCF", "CWCM", "CWKCF", "CWL", "CWT", "CWU",
    "Case_Ignorable", "Cased", "Changes_When_Casefolded", "Changes_When_Casemapped",
    "Changes_When_Lowercased", "Changes_When_NFKC_Casefolded", "Changes_When_Titlecased",
    "Changes_When_Uppercased", "DI", "Dash", "Default_Ignorable_Code_Point", "Dep", "Deprecated",
    "Dia", "Diacritic", "EBase", "EComp", "EMod", "EPres", "Emoji", "Emoji_Component",
    "Emoji_Modifier", "Emoji_Modifier_Base", "Emoji_Presentation", "Ext", "ExtPict",
    "Extended_Pictographic", "Extender", "Gr_Base", "Gr_Ext", "Grapheme_Base", "Grapheme_Extend",
    "Hex", "Hex_Digit", "IDC", "IDS", "IDSB", "IDST", "IDS_Binary_Operator",
    "IDS_Trinary_Operator", "ID_Continue", "ID_Start", "Ideo", "Ideographic", "Join_C",
    "Join_Control", "LOE", "Logical_Order_Exception", "Lower", "Lowercase", "Math", "NChar",
    "Noncharacter_Code_Point", "Pat_Syn", "Pat_WS", "Pattern_Syntax", "Pattern_White_Space",
    "QMark", "Quotation_Mark", "RI", "Radical", "Regional_Indicator", "SD", "STerm",
    "Sentence_Terminal", "Soft_Dotted", "Term", "Terminal_Punctuation", "UIdeo",
    "Unified_Ideograph", "Upper", "Uppercase", "VS", "Variation_Selector", "White_Space", "XIDC",
    "XIDS", "XID_Continue", "XID_Start", "space",
];

/// `Script` / `Script_Extensions` values and aliases (`\p{sc=Grek}`, `\p{Script=Greek}`).
#[rustfmt::skip]
pub(super) const SCRIPT: &[&str] = &[
    "Adlam", "Adlm", "Aghb", "Ahom", "Anatolian_Hieroglyphs", "Arab", "Arabic", "Armenian", "Armi",
    "Armn", "Avestan", "Avst", "Bali", "Balinese", "Bamu", "Bamum", "Bass", "Bassa_Vah", "Batak",
    "Batk", "Beng", "Bengali", "Bhaiksuki", "Bhks", "Bopo", "Bopomofo", "Brah", "Brahmi", "Brai",
    "Braille", "Bugi", "Buginese", "Buhd", "Buhid", "Cakm", "Canadian_Aboriginal", "Cans", "Cari",
    "Carian", "Caucasian_Albanian", "Chakma", "Cham", "Cher", "Cherokee", "Chorasmian", "Chrs",
    "Common", "Copt", "Coptic", "Cpmn", "Cprt", "Cuneiform", "Cypriot", "Cypro_Minoan", "Cyrillic",
    "Cyrl", "Deseret", "Deva", "Devanagari", "Diak", "Dives_Akuru", "Dogr", "Dogra", "Dsrt",
    "Dupl", "Duployan", "Egyp", "Egyptian_Hieroglyphs", "Elba", "Elbasan", "Elym", "Elymaic",
    "Ethi", "Ethiopic", "Gara", "Garay", "Geor", "Georgian", "Glag", "Glagolitic", "Gong", "Gonm",
    "Goth", "Gothic", "Gran", "Grantha", "Greek", "Grek", "Gujarati", "Gujr", "Gukh",
    "Gunjala_Gondi", "Gurmukhi", "Guru", "Gurung_Khema", "Han", "Hang", "Hangul", "Hani",
    "Hanifi_Rohingya", "Hano", "Hanunoo", "Hatr", "Hatran", "Hebr", "Hebrew", "Hira", "Hiragana",
    "Hluw", "Hmng", "Hmnp", "Hung", "Imperial_Aramaic", "Inherited", "Inscriptional_Pahlavi",
    "Inscriptional_Parthian", "Ital", "Java", "Javanese", "Kaithi", "Kali", "Kana", "Kannada",
    "Katakana", "Kawi", "Kayah_Li", "Khar", "Kharoshthi", "Khitan_Small_Script", "Khmer", "Khmr",
    "Khoj", "Khojki", "Khudawadi", "Kirat_Rai", "Kits", "Knda", "Krai", "Kthi", "Lana", "Lao",
    "Laoo", "Latin", "Latn", "Lepc", "Lepcha", "Limb", "Limbu", "Lina", "Linb", "Linear_A",
    "Linear_B", "Lisu", "Lyci", "Lycian", "Lydi", "Lydian", "Mahajani", "Mahj", "Maka", "Makasar",
    "Malayalam", "Mand", "Mandaic", "Mani", "Manichaean", "Marc", "Marchen", "Masaram_Gondi",
    "Medefaidrin", "Medf", "Meetei_Mayek", "Mend", "Mende_Kikakui", "Merc", "Mero",
    "Meroitic_Cursive", "Meroitic_Hieroglyphs", "Miao", "Mlym", "Modi", "Mong", "Mongolian", "Mro",
    "Mroo", "Mtei", "Mult", "Multani", "Myanmar", "Mymr", "Nabataean", "Nag_Mundari", "Nagm",
    "Nand", "Nandinagari", "Narb", "Nbat", "New_Tai_Lue", "Newa", "Nko", "Nkoo", "Nshu", "Nushu",
    "Nyiakeng_Puachue_Hmong", "Ogam", "Ogham", "Ol_Chiki", "Ol_Onal", "Olck", "Old_Hungarian",
    "Old_Italic", "Old_North_Arabian", "Old_Permic", "Old_Persian", "Old_Sogdian",
    "Old_South_Arabian", "Old_Turkic", "Old_Uyghur", "Onao", "Oriya", "Orkh", "Orya", "Osage",
    "Osge", "Osma", "Osmanya", "Ougr", "Pahawh_Hmong", "Palm", "Palmyrene", "Pau_Cin_Hau", "Pauc",
    "Perm", "Phag", "Phags_Pa", "Phli", "Phlp", "Phnx", "Phoenician", "Plrd", "Prti",
    "Psalter_Pahlavi", "Qaac", "Qaai", "Rejang", "Rjng", "Rohg", "Runic", "Runr", "Samaritan",
    "Samr", "Sarb", "Saur", "Saurashtra", "Sgnw", "Sharada", "Shavian", "Shaw", "Shrd", "Sidd",
    "Siddham", "SignWriting", "Sind", "Sinh", "Sinhala", "Sogd", "Sogdian", "Sogo", "Sora",
    "Sora_Sompeng", "Soyo", "Soyombo", "Sund", "Sundanese", "Sunu", "Sunuwar", "Sylo",
    "Syloti_Nagri", "Syrc", "Syriac", "Tagalog", "Tagb", "Tagbanwa", "Tai_Le", "Tai_Tham",
    "Tai_Viet", "Takr", "Takri", "Tale", "Talu", "Tamil", "Taml", "Tang", "Tangsa", "Tangut",
    "Tavt", "Telu", "Telugu", "Tfng", "Tglg", "Thaa", "Thaana", "Thai", "Tibetan", "Tibt",
    "Tifinagh", "Tirh", "Tirhuta", "Tnsa", "Todhri", "Todr", "Toto", "Tulu_Tigalari", "Tutg",
    "Ugar", "Ugaritic", "Unknown", "Vai", "Vaii", "Vith", "Vithkuqi", "Wancho", "Wara",
    "Warang_Citi", "Wcho", "Xpeo", "Xsux", "Yezi", "Yezidi", "Yi", "Yiii", "Zanabazar_Square",
    "Zanb", "Zinh", "Zyyy", "Zzzz",
];

use icu_properties::props::{ChangesWhenNfkcCasefolded, Script};
use icu_properties::{CodePointMapData, CodePointSetData};

/// The class escapes: `\d`, `\w`, `\s`, and `\p{..}` with the name the regex crate reads.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Set {
    Digit,
    Word,
    Space,
    Property(String),
    /// A property the regex crate lacks, spelled out from ICU4X's tables as ranges of code
    /// points (`\p{CWKCF}`, `\p{sc=Unknown}`; `\p{Cs}`, the surrogates, is none at all).
    Ranges(Vec<(u32, u32)>),
}

/// Which property a `\p{..}` names, as the regex crate should read it.
pub(super) fn property(body: &str) -> Result<Set, String> {
    if matches!(
        body,
        "Cs" | "Surrogate"
            | "gc=Cs"
            | "gc=Surrogate"
            | "General_Category=Cs"
            | "General_Category=Surrogate"
    ) {
        return Ok(Set::Ranges(Vec::new()));
    }
    if matches!(body, "Changes_When_NFKC_Casefolded" | "CWKCF") {
        let table = CodePointSetData::new::<ChangesWhenNfkcCasefolded>();
        return Ok(Set::Ranges(
            table
                .iter_ranges()
                .map(|r| (*r.start(), *r.end()))
                .collect(),
        ));
    }
    if let Some(("Script" | "sc" | "Script_Extensions" | "scx", "Unknown" | "Zzzz")) =
        body.split_once('=')
    {
        let table = CodePointMapData::<Script>::new();
        let ranges = table.iter_ranges_for_value(Script::Unknown);
        return Ok(Set::Ranges(
            ranges.map(|r| (*r.start(), *r.end())).collect(),
        ));
    }
    let known = |list: &[&str], v: &str| list.binary_search(&v).is_ok();
    if let Some((name, value)) = body.split_once('=') {
        let list = match name {
            "General_Category" | "gc" => GENERAL_CATEGORY,
            "Script" | "sc" | "Script_Extensions" | "scx" => SCRIPT,
            _ => {
                return Err(format!(
                    "\\p{{{body}}}: {} is not a property ECMA-262 knows",
                    crate::sanitize::quote(name)
                ));
            }
        };
        if !known(list, value) {
            return Err(format!(
                "\\p{{{body}}}: {} is not a value of {name}",
                crate::sanitize::quote(value)
            ));
        }
        return Ok(Set::Property(body.to_owned()));
    }
    if known(GENERAL_CATEGORY, body) {
        return Ok(Set::Property(format!("gc={body}")));
    }
    if known(BINARY, body) {
        return Ok(Set::Property(body.to_owned()));
    }
    let hint = if known(SCRIPT, body) {
        " (a script needs Script= or sc=)"
    } else {
        ""
    };
    Err(format!(
        "\\p{{{body}}} is not a Unicode property ECMA-262 knows{hint}"
    ))
}
