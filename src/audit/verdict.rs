//! What the validator (or the lack of declarations) said of a call's arguments: the
//! verdict each call of a conversation carries.

use crate::validate::Violation;

/// What the validator (or the lack of declarations) said of a call's arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Passed,
    /// The validator's first failure (a repeated key and arguments that are not an object
    /// among them).
    Failed(Violation),
    /// The arguments text is not JSON (the parser's message), or there is none.
    NotJson(String),
    /// Not among the declared tools.
    UnknownTool,
    /// No declarations to judge it by.
    Undeclared,
    /// Declared, but its schema cannot be honoured (why): not judged.
    Refused(String),
    /// Declared as a provider-defined tool of this `type`, which has no input schema: not
    /// judged.
    Provided(String),
}

impl Verdict {
    /// `Some(passed)`, or `None` when the call was not judged.
    pub fn ok(&self) -> Option<bool> {
        match self {
            Verdict::Passed => Some(true),
            Verdict::Failed(_) | Verdict::NotJson(_) | Verdict::UnknownTool => Some(false),
            Verdict::Undeclared | Verdict::Refused(_) | Verdict::Provided(_) => None,
        }
    }

    /// The message a rejected call gets (`None` when it passed or was not judged).
    pub fn error(&self, tool: &str) -> Option<String> {
        self.error_text(tool).map(std::borrow::Cow::into_owned)
    }

    /// [`Verdict::error`], borrowed where the verdict holds it.
    pub fn error_text(&self, tool: &str) -> Option<std::borrow::Cow<'_, str>> {
        match self {
            Verdict::Failed(v) => Some(v.message.as_str().into()),
            Verdict::NotJson(m) => Some(m.as_str().into()),
            Verdict::UnknownTool => Some(format!("unknown tool: {tool}").into()),
            Verdict::Passed | Verdict::Undeclared | Verdict::Refused(_) | Verdict::Provided(_) => {
                None
            }
        }
    }

    /// The path of the value the failure is about.
    pub fn path(&self) -> &str {
        match self {
            Verdict::Failed(v) => &v.path,
            _ => "",
        }
    }

    /// The model got it wrong: the call should never have run as it was.
    pub fn invalid(&self) -> bool {
        matches!(
            self,
            Verdict::Failed(_) | Verdict::NotJson(_) | Verdict::UnknownTool
        )
    }
}
