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
        "type" => "the type check (bool before int, float apart)",
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
