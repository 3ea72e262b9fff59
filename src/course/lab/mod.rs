//! The real validator and executor run on a fixture row or on the learner's own input, as
//! the lessons' playgrounds and predict tables and the drill's questions show them:
//! [`validator_run`] and [`executor_run`].

pub mod executor_run;
pub mod validator_run;
pub mod wire;

use serde_json::Value;

/// Arguments as the model wrote them: a JSON value, or raw text to parse first.
#[derive(Debug, Clone, PartialEq)]
pub enum ArgsInput {
    Value(Value),
    Text(String),
}

impl ArgsInput {
    pub fn from_case(args: &Option<Value>, args_text: &Option<String>) -> ArgsInput {
        match (args_text, args) {
            (Some(t), _) => ArgsInput::Text(t.clone()),
            (None, Some(v)) => ArgsInput::Value(v.clone()),
            (None, None) => ArgsInput::Value(Value::Null),
        }
    }

    /// Text for display and editors.
    pub fn display(&self) -> String {
        match self {
            ArgsInput::Text(t) => t.clone(),
            ArgsInput::Value(v) => crate::json_text::json_compact(v),
        }
    }
}
