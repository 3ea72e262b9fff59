//! Sensitive arguments in the trace: masked, never hashed.
//!
//! A bare hash of a value is no protection when the value can be guessed: anyone can hash
//! `"billing"` and compare. A keyed hash (HMAC) only helps while the key stays secret, and a
//! trace must replay byte for byte from its scenario and seed: a key that reproduces the run
//! (derived from the run id or the seed, both printed) is no secret, and a secret one (random
//! per run, or kept per installation) makes two runs of the same scenario differ. So the
//! trace masks: a sensitive value is shown as `<redacted #N, L chars>`. `L` is its length in
//! characters; `N` numbers the distinct sensitive values of the run in order of first
//! appearance, so a reader can still see that two calls used the same value (the
//! correlation a hash was for) without learning anything else about it. The model's own
//! transcript is not the trace and keeps what the model wrote.

use serde_json::{Value, json};

use super::services::ToolKind;

/// The masks of one run: the same value gets the same number every time it appears.
#[derive(Debug, Default)]
pub struct Redactor {
    /// Scenario-wide sensitive argument names, beside each tool's own list.
    extra: Vec<String>,
    /// The distinct values masked so far, in order of first appearance.
    seen: Vec<String>,
}

impl Redactor {
    pub fn new(extra: &[String]) -> Redactor {
        Redactor {
            extra: extra.to_vec(),
            seen: Vec::new(),
        }
    }

    /// Is `arg` of `tool` sensitive (the tool's list or the scenario's)?
    pub fn is_sensitive(&self, tool: &str, arg: &str) -> bool {
        let builtin = ToolKind::from_name(tool).map_or(&[][..], |t| t.sensitive_args());
        builtin.contains(&arg) || self.extra.iter().any(|e| e == arg)
    }

    /// Could any argument of `tool` be sensitive?
    pub fn applies_to(&self, tool: &str) -> bool {
        !self.extra.is_empty()
            || ToolKind::from_name(tool).is_some_and(|t| !t.sensitive_args().is_empty())
    }

    /// The mask of one value: its number in this run and its length.
    pub fn mask(&mut self, raw: &str) -> String {
        let n = match self.seen.iter().position(|s| s == raw) {
            Some(i) => i + 1,
            None => {
                self.seen.push(raw.to_owned());
                self.seen.len()
            }
        };
        format!("<redacted #{n}, {} chars>", raw.chars().count())
    }

    /// The arguments as the trace shows them: every sensitive value masked. Raw text that
    /// names a sensitive argument is masked whole (it could not be parsed to pick it apart).
    pub fn args(&mut self, tool: &str, args: Option<&Value>, args_text: Option<&str>) -> Value {
        match (args, args_text) {
            (Some(Value::Object(m)), _) => Value::Object(
                m.iter()
                    .map(|(k, v)| {
                        let shown = if self.is_sensitive(tool, k) {
                            Value::String(self.mask(&text_of(v)))
                        } else {
                            v.clone()
                        };
                        (k.clone(), shown)
                    })
                    .collect(),
            ),
            (Some(v), _) => v.clone(),
            (None, Some(text)) => {
                let builtin = ToolKind::from_name(tool).map_or(&[][..], |t| t.sensitive_args());
                let names = builtin
                    .iter()
                    .copied()
                    .chain(self.extra.iter().map(String::as_str));
                let mentions = names.into_iter().any(|k| text.contains(k));
                let shown = if mentions {
                    self.mask(text)
                } else {
                    text.to_owned()
                };
                json!({ "args_text": shown })
            }
            (None, None) => Value::Null,
        }
    }

    /// A validation message as the trace shows it. Only a value check quotes a value
    /// (`value error: NAME ..., got VALUE`); when NAME is sensitive, what follows `got` is
    /// replaced by the mask of the argument's value.
    pub fn error(&mut self, tool: &str, args: Option<&Value>, msg: &str) -> String {
        let Some(rest) = msg.strip_prefix("value error: ") else {
            return msg.to_owned();
        };
        let name = rest.split(' ').next().unwrap_or_default();
        if !self.is_sensitive(tool, name) {
            return msg.to_owned();
        }
        let head = msg.find(", got ").map_or(msg, |at| &msg[..at]);
        match args.and_then(|a| a.get(name)) {
            Some(v) => format!("{head}, got {}", self.mask(&text_of(v))),
            None => format!("{head}, got <redacted>"),
        }
    }
}

/// A value as text: a string's own characters, anything else as JSON.
fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_value_gets_the_same_mask_and_nothing_of_it_shows() {
        let mut r = Redactor::new(&[]);
        let a = r.args("search_tickets", Some(&json!({"query": "billing"})), None);
        let b = r.args("search_tickets", Some(&json!({"query": "crash"})), None);
        let c = r.args(
            "search_tickets",
            Some(&json!({"query": "billing", "page_size": 5})),
            None,
        );
        assert_eq!(a["query"], "<redacted #1, 7 chars>");
        assert_eq!(b["query"], "<redacted #2, 5 chars>");
        assert_eq!(c["query"], a["query"]);
        assert_eq!(c["page_size"], 5);
        for v in [a, b, c] {
            assert!(!v.to_string().contains("billing") && !v.to_string().contains("crash"));
        }
    }

    #[test]
    fn value_errors_about_a_sensitive_arg_do_not_quote_it() {
        let mut r = Redactor::new(&["ticket_id".to_owned()]);
        let args = json!({"ticket_id": "TKT-1040"});
        let msg = "value error: ticket_id must match the pattern ^TKT-[0-9]{3}$, got \"TKT-1040\"";
        let shown = r.error("get_ticket", Some(&args), msg);
        assert_eq!(
            shown,
            "value error: ticket_id must match the pattern ^TKT-[0-9]{3}$, got <redacted #1, 8 chars>"
        );
        let plain = "type error: query expected str, got int";
        assert_eq!(r.error("search_tickets", None, plain), plain);
    }

    #[test]
    fn raw_text_naming_a_sensitive_arg_is_masked_whole() {
        let mut r = Redactor::new(&[]);
        let shown = r.args("search_tickets", None, Some("{\"query\": \"secret\""));
        assert!(!shown.to_string().contains("secret"));
        let other = r.args("get_ticket", None, Some("{\"ticket_id\": 1"));
        assert_eq!(other["args_text"], "{\"ticket_id\": 1");
    }
}
