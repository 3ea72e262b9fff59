//! What a record holds once read, whatever its format: the declarations the model was given
//! and the conversation as steps in order (model turns, the calls they propose, the results
//! that come back). Steps borrow from the record's parsed text; the checks keep only what
//! they need of them.

use std::borrow::Cow;

use crate::validate::Json;

/// The formats a record may be in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Anthropic Messages: `tool_use` / `tool_result` blocks.
    Anthropic,
    /// OpenAI Chat Completions: `tool_calls`, `role: "tool"`.
    OpenaiChat,
    /// OpenAI Responses: `function_call` / `function_call_output` items.
    OpenaiResponses,
    /// MCP JSON-RPC traffic, one message a line.
    Mcp,
    /// One tool call a record: `{"tool", "arguments"}` (an eval set, a call log).
    Calls,
}

impl Format {
    pub const ALL: [Format; 5] = [
        Format::Anthropic,
        Format::OpenaiChat,
        Format::OpenaiResponses,
        Format::Mcp,
        Format::Calls,
    ];

    /// The name `--format` takes.
    pub fn name(self) -> &'static str {
        match self {
            Format::Anthropic => "anthropic",
            Format::OpenaiChat => "openai-chat",
            Format::OpenaiResponses => "openai-responses",
            Format::Mcp => "mcp",
            Format::Calls => "calls",
        }
    }

    /// The name a person reads.
    pub fn title(self) -> &'static str {
        match self {
            Format::Anthropic => "Anthropic Messages",
            Format::OpenaiChat => "OpenAI Chat",
            Format::OpenaiResponses => "OpenAI Responses",
            Format::Mcp => "MCP",
            Format::Calls => "tool calls",
        }
    }

    pub fn parse(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// The arguments of a call as the record holds them.
#[derive(Debug, Clone)]
pub enum ArgsIn<'j> {
    /// A JSON value (Anthropic's `input`, MCP's `arguments`).
    Json(&'j Json<'j>),
    /// Text the model wrote, to be parsed (OpenAI's `arguments` string, a streamed input).
    Text(Cow<'j, str>),
    /// None at all (a provider that left `arguments` out).
    Missing,
}

/// A tool call the model proposed.
#[derive(Debug, Clone)]
pub struct CallStep<'j> {
    pub id: Option<Cow<'j, str>>,
    pub tool: Cow<'j, str>,
    pub args: ArgsIn<'j>,
    /// A repeated key inside the arguments object, read past (its path inside the args).
    pub duplicate: Option<String>,
    pub at_ms: Option<u64>,
}

/// What came back for a call.
#[derive(Debug, Clone)]
pub struct ResultStep<'j> {
    /// The call id it answers (`None`: a result that names no call).
    pub id: Option<Cow<'j, str>>,
    /// The id is a tool name (OpenAI's legacy `role: "function"` results).
    pub by_name: bool,
    /// Recorded beside its call, in the same record (an eval's call log with its outcome):
    /// it answers the call just before it, id or not.
    pub beside: bool,
    /// The text as the model saw it (blocks joined, pictures named).
    pub text: Cow<'j, str>,
    /// The format's error flag: `Some(true)` when set, `Some(false)` when the format has one
    /// and it was not set, `None` when the format has none.
    pub flagged: Option<bool>,
    /// A result only when a call awaits its id: a JSON-RPC error answers any request, and
    /// one that answers no call was an answer to something else.
    pub optional: bool,
    pub at_ms: Option<u64>,
}

/// Who said a message that is not a tool call or result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Speaker {
    User,
    Model,
}

/// One step of a conversation, in order.
#[derive(Debug, Clone)]
pub enum Step<'j> {
    /// A model turn begins (an assistant message, a response).
    Turn {
        at_ms: Option<u64>,
    },
    /// Text from the user or the model (kept for the replay only).
    Say {
        who: Speaker,
        text: Cow<'j, str>,
    },
    Call(CallStep<'j>),
    Result(ResultStep<'j>),
    /// Declarations seen mid-stream (an MCP `tools/list` result): they replace the ones
    /// before for the calls after.
    Declare(Vec<&'j Json<'j>>),
    /// A new session starts (an MCP `initialize`): the conversation before it ends.
    Restart,
    /// The record names the session, task or run it belongs to (an eval's call log): a
    /// record that names another ends the conversation before it.
    Session(String),
}

impl Step<'_> {
    /// A call, a result or declarations: what only a record of its format holds.
    pub fn is_traffic(&self) -> bool {
        matches!(self, Step::Call(_) | Step::Result(_) | Step::Declare(_))
    }
}

/// A record read: its format, its declarations and its steps.
#[derive(Debug, Clone)]
pub struct Record<'j> {
    pub format: Format,
    /// The declarations the model was given (each a tool in its provider's shape), or
    /// `None` when the record carries no `tools` at all.
    pub tools: Option<Vec<&'j Json<'j>>>,
    pub steps: Vec<Step<'j>>,
}

impl<'j> Record<'j> {
    pub fn new(format: Format) -> Record<'j> {
        Record {
            format,
            tools: None,
            steps: Vec::new(),
        }
    }

    /// Add declarations (the record's `tools`, or more of them found in its items).
    pub(crate) fn declare(&mut self, more: impl IntoIterator<Item = &'j Json<'j>>) {
        self.tools.get_or_insert_with(Vec::new).extend(more);
    }
}
