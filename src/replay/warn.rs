//! Warnings a reviewer wants from a run: the same call repeated, a retry storm, a budget
//! hit, a write whose outcome is unknown, instruction-like text inside a tool result,
//! arguments refused, a call repaired. Each carries the time it becomes true. A source marks
//! its own findings (a scenario's are found in `scenario`, once, from its lanes and trace).

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WarnKind {
    Repeated,
    RetryStorm,
    BudgetHit,
    UnknownWrite,
    Injection,
    /// The arguments did not pass the validator.
    InvalidArguments,
    /// A call was sent again with its arguments repaired.
    Repaired,
    /// The arguments passed the validator but walk into a trap the schema lets through.
    LetThrough,
}

impl WarnKind {
    pub fn word(self) -> &'static str {
        match self {
            WarnKind::Repeated => "repeated call",
            WarnKind::RetryStorm => "retry storm",
            WarnKind::BudgetHit => "budget hit",
            WarnKind::UnknownWrite => "unknown write",
            WarnKind::Injection => "instructions in data",
            WarnKind::InvalidArguments => "invalid arguments",
            WarnKind::Repaired => "repaired",
            WarnKind::LetThrough => "let through",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    pub t_ms: u64,
    pub kind: WarnKind,
    /// The call lane it is about, if one.
    pub call: Option<usize>,
    pub text: String,
}
