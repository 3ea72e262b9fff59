//! The model side of the loop: a transcript shaped like the big providers' tool-use messages
//! (assistant `tool_use` blocks with ids, user `tool_result` blocks with `is_error`), the
//! `Model` trait, and `ScriptedModel`, which plays a scenario's turns.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use serde_json::{Value, json};

use super::scenario::{ProposedCall, Turn};

/// Who wrote a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    User,
    Assistant,
}

/// One content block of a message.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Block {
    Text {
        text: String,
    },
    ToolUse {
        id: String,
        name: String,
        /// The arguments as the model wrote them (raw text that is not JSON stays a string).
        #[serde(serialize_with = "shared_value")]
        input: Arc<Value>,
    },
    ToolResult {
        tool_use_id: String,
        content: String,
        is_error: bool,
    },
}

fn shared_value<S: serde::Serializer>(v: &Arc<Value>, s: S) -> Result<S::Ok, S::Error> {
    Value::serialize(v, s)
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Message {
    pub role: Role,
    pub content: Vec<Block>,
}

impl Message {
    pub fn user_text(text: &str) -> Message {
        Message {
            role: Role::User,
            content: vec![Block::Text {
                text: text.to_owned(),
            }],
        }
    }

    /// The assistant's turn that proposes `calls`. `inputs[i]`, when given, stands for
    /// `calls[i].args` (already moved out and shared).
    pub fn assistant_calls(calls: Vec<ProposedCall>, inputs: Vec<Option<Arc<Value>>>) -> Message {
        let mut inputs = inputs.into_iter();
        Message {
            role: Role::Assistant,
            content: calls
                .into_iter()
                .map(|c| {
                    let shared = inputs.next().flatten();
                    Block::ToolUse {
                        id: c.id,
                        name: c.tool,
                        input: match (shared, c.args, c.args_text) {
                            (Some(v), _, _) => v,
                            (None, Some(v), _) => v,
                            (None, None, Some(t)) => Arc::new(Value::String(t)),
                            (None, None, None) => Arc::new(Value::Null),
                        },
                    }
                })
                .collect(),
        }
    }

    pub fn assistant_text(text: &str) -> Message {
        Message {
            role: Role::Assistant,
            content: vec![Block::Text {
                text: text.to_owned(),
            }],
        }
    }
}

/// A tool the model may call, as declared to it (name, description, JSON Schema input).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolDecl {
    pub name: String,
    pub description: String,
    pub input_schema: Value,
}

impl ToolDecl {
    pub fn to_json(&self) -> Value {
        json!({"name": self.name, "description": self.description, "input_schema": self.input_schema})
    }
}

/// What the model answered.
#[derive(Debug, Clone, PartialEq)]
pub enum ModelReply {
    Final(String),
    Calls(Vec<ProposedCall>),
}

/// A language model, as the loop sees it: the conversation so far and the permitted tools
/// in, one reply out. A real provider client could implement this.
pub trait Model: Send {
    fn respond(
        &mut self,
        conversation: &[Message],
        tools: &[ToolDecl],
    ) -> impl Future<Output = ModelReply> + Send;
}

/// Plays a scenario's `turns` in order, taking `latency_ms` of (virtual) time per reply.
/// It keeps what it was shown, so tests can check the transcript it received.
#[derive(Debug, Clone)]
pub struct ScriptedModel<'a> {
    turns: &'a [Turn],
    next: usize,
    latency: Duration,
    /// The conversation as handed over at each reply.
    pub seen: Vec<Vec<Message>>,
    record_seen: bool,
}

impl<'a> ScriptedModel<'a> {
    pub fn new(turns: &'a [Turn], latency_ms: u64) -> ScriptedModel<'a> {
        ScriptedModel {
            turns,
            next: 0,
            latency: Duration::from_millis(latency_ms),
            seen: Vec::new(),
            record_seen: false,
        }
    }

    /// Keep a copy of every conversation the model is handed (tests).
    pub fn recording(mut self) -> ScriptedModel<'a> {
        self.record_seen = true;
        self
    }
}

impl Model for ScriptedModel<'_> {
    #[allow(clippy::manual_async_fn)]
    fn respond(
        &mut self,
        conversation: &[Message],
        _tools: &[ToolDecl],
    ) -> impl Future<Output = ModelReply> + Send {
        if self.record_seen {
            self.seen.push(conversation.to_vec());
        }
        let reply = match self.turns.get(self.next) {
            Some(Turn::Final { r#final }) => ModelReply::Final(r#final.clone()),
            Some(Turn::Calls { calls }) => ModelReply::Calls(calls.clone()),
            None => ModelReply::Final("(the script has no more turns)".to_owned()),
        };
        self.next += 1;
        let latency = self.latency;
        async move {
            if !latency.is_zero() {
                tokio::time::sleep(latency).await;
            }
            reply
        }
    }
}
