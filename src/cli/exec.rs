//! `tooldojo exec`: the get_ticket executor, live.
//!
//! ```text
//! tooldojo exec --tool NAME --args JSON --tenant T [--deny-read] [--records @FILE] [--off RULE]
//! tooldojo exec --jsonl [FILE] [--records @FILE] [--off RULE]
//! ```
//! JSON-lines case: `{"tool": ..., "args": ..., "context": {"tenant": ..., "can_read_tickets": bool}}`
//! (`"args_text"` may stand instead of `"args"`). A line that is not a case prints
//! `{"ok": false, "error": "bad case: ..."}` and the run goes on.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use serde_json::json;

use super::{ContentArgs, SafeguardArg, inline_or_file};
use crate::error::UserError;
use crate::executor::cases::{records_from_flag, tickets};
use crate::executor::{
    Context, Envelope, ErrorCode, ExecRules, Registry, Safeguard, Store, execute_text,
};
use crate::validate::json::{self as vjson, Json, ParseError};

#[derive(Debug, clap::Args)]
pub(crate) struct ExecArgs {
    /// The tool name the model asked for.
    #[arg(long, value_name = "NAME", required_unless_present = "jsonl")]
    pub(crate) tool: Option<String>,
    /// The arguments the model wrote: JSON text (or @FILE).
    #[arg(
        long,
        value_name = "JSON",
        required_unless_present = "jsonl",
        allow_hyphen_values = true
    )]
    pub(crate) args: Option<String>,
    /// The session's tenant (trusted context, never from the model).
    #[arg(long, value_name = "T", required_unless_present = "jsonl")]
    pub(crate) tenant: Option<String>,
    /// The session may not read tickets.
    #[arg(long)]
    pub(crate) deny_read: bool,
    /// Use this ticket store instead of fixtures/tickets.json.
    #[arg(long, value_name = "@FILE")]
    pub(crate) records: Option<String>,
    /// Read cases as JSON lines from FILE (or stdin when FILE is absent or `-`).
    #[arg(long, value_name = "FILE", num_args = 0..=1, default_missing_value = "-",
          conflicts_with_all = ["tool", "args", "tenant", "deny_read"])]
    pub(crate) jsonl: Option<String>,
    /// Switch one safeguard off to see what it was preventing (repeatable).
    #[arg(long, value_name = "RULE", value_enum)]
    pub(crate) off: Vec<SafeguardArg>,
}

/// The store: `--records @FILE` or the built-in fixtures/tickets.json.
pub(crate) fn load_store(records: Option<&str>, content: &ContentArgs) -> Result<Store, UserError> {
    let (name, recs) = match records {
        Some(flag) => (
            flag.trim_start_matches('@').to_owned(),
            records_from_flag(flag)?,
        ),
        None => (
            "fixtures/tickets.json".to_owned(),
            tickets(&content.content())?,
        ),
    };
    Store::try_from_records(recs).map_err(|e| UserError::new(format!("{name}: {e}")))
}

pub(crate) fn run(args: ExecArgs, content: &ContentArgs) -> super::CliResult {
    let rules = ExecRules::without(args.off.iter().map(|&s| Safeguard::from(s)));
    let store = load_store(args.records.as_deref(), content)?;
    if let Some(file) = &args.jsonl {
        let stdout = io::stdout().lock();
        let result = if file == "-" {
            run_jsonl(io::stdin().lock(), stdout, &store, &rules)
        } else {
            let f =
                std::fs::File::open(file).map_err(|e| UserError::new(format!("{file}: {e}")))?;
            run_jsonl(io::BufReader::new(f), stdout, &store, &rules)
        };
        return match result {
            Ok(()) => Ok(ExitCode::SUCCESS),
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
            Err(e) => Err(UserError::new(format!("{file}: {e}")).into()),
        };
    }
    let (Some(tool), Some(text), Some(tenant)) = (&args.tool, &args.args, &args.tenant) else {
        return Err(UserError::new("give --tool, --args and --tenant, or --jsonl").into());
    };
    let (_, text) = inline_or_file(text)?;
    let ctx = Context {
        tenant: tenant.clone(),
        can_read_tickets: !args.deny_read,
        can_write_tickets: false,
    };
    let out = execute_text(tool, &text, &ctx, &store, &rules);
    super::print_out(&format!("{}\n", out.envelope.to_json()))?;
    Ok(ExitCode::SUCCESS)
}

/// One envelope line per case line, in order.
pub(crate) fn run_jsonl(
    mut input: impl BufRead,
    output: impl Write,
    store: &Store,
    rules: &ExecRules,
) -> io::Result<()> {
    let mut out = io::BufWriter::new(output);
    let mut line = Vec::new();
    let mut number = 0;
    loop {
        number += 1;
        if !crate::input::next_line(&mut input, &mut line, number)? {
            break;
        }
        let mut bytes = &line[..];
        if let Some(rest) = bytes.strip_suffix(b"\r") {
            bytes = rest;
        }
        let reply = match std::str::from_utf8(bytes) {
            Ok(text) => match exec_case(text, store, rules) {
                Ok(env) => env.to_json(),
                Err(bad) => {
                    vjson::dumps(&json!({"ok": false, "error": format!("bad case: {bad}")}))
                }
            },
            Err(_) => {
                vjson::dumps(&json!({"ok": false, "error": "bad case: the line is not UTF-8"}))
            }
        };
        out.write_all(reply.as_bytes())?;
        out.write_all(b"\n")?;
    }
    out.flush()
}

fn exec_case(text: &str, store: &Store, rules: &ExecRules) -> Result<Envelope, String> {
    if text.trim().is_empty() {
        return Err("empty line".into());
    }
    // A repeat inside args is the model's doing (invalid_arguments); anywhere else the
    // case itself is broken.
    let (case, args_duplicate) = match vjson::parse(text) {
        Ok(c) => (c, None),
        Err(ParseError::Duplicate { path })
            if path.starts_with("args.") || path.starts_with("args[") =>
        {
            let c = vjson::parse_allowing_duplicates(text).map_err(|e| e.message())?;
            (
                c,
                Some(path["args".len()..].trim_start_matches('.').to_owned()),
            )
        }
        Err(ParseError::Duplicate { path }) => {
            return Err(format!(
                "the case repeats the key {}",
                crate::sanitize::quote(&path)
            ));
        }
        Err(e) => {
            return Err(format!(
                "not JSON: {}",
                e.message().trim_start_matches("invalid JSON: ")
            ));
        }
    };
    let Json::Object(_) = case else {
        return Err("a case must be a JSON object".into());
    };
    let tool = match case.get("tool") {
        Some(Json::Str(s)) => s.to_string(),
        Some(_) => return Err("\"tool\" must be a string".into()),
        None => return Err("missing \"tool\"".into()),
    };
    let ctx: Context = match case.get("context") {
        Some(c) => serde_json::from_value(c.to_value()).map_err(|e| format!("context: {e}"))?,
        None => return Err("missing \"context\"".into()),
    };
    let registry = Registry::shared();
    let args = case.get("args");
    let args_text = case.get("args_text");
    match (args, args_text) {
        (Some(_), Some(_)) => Err("both \"args\" and \"args_text\"".into()),
        (None, None) => Err("missing \"args\" (or \"args_text\")".into()),
        (Some(a), None) => Ok(match args_duplicate {
            Some(path) if registry.lookup(&tool, rules).is_some() => Envelope::Err {
                code: ErrorCode::InvalidArguments,
                detail: format!("duplicate arg: {path}"),
            },
            _ => registry.execute(&tool, a, &ctx, store, rules).envelope,
        }),
        (None, Some(Json::Str(t))) => Ok(execute_text(&tool, t, &ctx, store, rules).envelope),
        (None, Some(_)) => Err("\"args_text\" must be a string".into()),
    }
}
