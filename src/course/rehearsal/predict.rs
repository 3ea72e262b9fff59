//! A row to predict: what the real code is asked, the outcomes to pick from, and what it
//! said; from the fixtures (the rows the lessons show) or held back from them.

/// Where a prediction row comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// A row of `fixtures/`, the same the lessons show.
    Fixture,
    /// An edge case the lessons never show.
    HeldBack,
}

impl Source {
    pub fn word(self) -> &'static str {
        match self {
            Source::Fixture => "fixture row",
            Source::HeldBack => "held-back edge case",
        }
    }
}

/// A row to predict: what the real code is asked, the outcomes to pick from, and what it said.
#[derive(Debug, Clone, PartialEq)]
pub struct Predict {
    /// Unique across the drill: `validator/ID`, `get_ticket/ID`, `wire/ID` or `held/ID`.
    pub id: String,
    pub source: Source,
    /// The lesson to revisit (a lesson id).
    pub lesson: String,
    /// Which code answers: "the real validator", "the real executor".
    pub who: &'static str,
    /// Labelled lines of the question (already cleaned).
    pub prompt: Vec<(&'static str, String)>,
    pub choices: Vec<&'static str>,
    /// The outcome word the real code gave.
    pub answer: String,
    /// What the real code returned, compact (already cleaned).
    pub result: String,
    /// Why, in the course's words (already cleaned; may be empty).
    pub reason: String,
    /// The rule or trap the row tests (`the type check`, `not anchored`).
    pub tests: String,
}

/// The rule a row whose real outcome is `answer` tests: the check that decides it.
pub fn rule_tested(answer: &str) -> &'static str {
    match answer {
        "missing" => "the required check",
        "unknown" => "the unknown-key check",
        "type" => "the type check",
        "value" => "the value constraints",
        "parse" => "strict JSON parsing",
        "unknown_tool" => "the tool allowlist",
        "invalid_arguments" => "the argument contract (shape and id format)",
        "forbidden" => "the read permission, from the context",
        "not_found" => "the lookup by (tenant, id)",
        "store unchanged" | "store changed" => "copy on return",
        _ => "a call that passes every check",
    }
}

/// The rule a validator row tests, with the trap its real message names when it names one:
/// `message` is the real validator's (`type error: state expected str, got NoneType`) and
/// `required` the names the row requires.
pub fn validator_rule(answer: &str, message: &str, required: &[String]) -> String {
    if answer != "type" {
        return rule_tested(answer).to_owned();
    }
    match type_trap(message, required) {
        Some(trap) => format!("the type check: {trap}"),
        None => rule_tested(answer).to_owned(),
    }
}

/// The trap a type error falls into, read off its message: a bool or a float where an int
/// is declared, an int where a float is, null, or one item where a list is declared.
fn type_trap(message: &str, required: &[String]) -> Option<&'static str> {
    let rest = message.strip_prefix("type error: ")?;
    let (path, types) = rest.rsplit_once(" expected ")?;
    let (want, got) = types.rsplit_once(", got ")?;
    let declared: Vec<&str> = want.split(" or ").collect();
    let wants = |t: &str| declared.contains(&t);
    match got {
        "bool" if wants("int") => Some("bool before int (Python counts True as an int)"),
        "bool" if wants("float") => Some("a bool is not a float (Python counts True as an int)"),
        "float" if wants("int") => Some("a float is not an int (2.0 is a float)"),
        "int" if wants("float") => Some("an int is not a float (3 is an int)"),
        "NoneType" => {
            let top_level = !path.contains(['.', '[']);
            if top_level && !required.iter().any(|r| r == path) {
                Some("null for an optional field (leave the field out instead)")
            } else {
                Some("null where a value is declared")
            }
        }
        "dict" if wants("list") => Some("an object where a list is declared"),
        _ if wants("list") => Some("a lone item where a list is declared"),
        _ => None,
    }
}
