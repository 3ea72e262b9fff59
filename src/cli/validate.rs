//! `tooldojo validate`: the seed validator, live.
//!
//! ```text
//! tooldojo validate --schema SCHEMA [--required a,b] --args JSON [--all] [--off RULE] [--form F]
//! tooldojo validate --jsonl [FILE] [--all] [--off RULE] [--form F]
//! ```
//! SCHEMA is inline JSON, `@path`, or the name of a schema in `fixtures/schemas.json`.

use std::io;
use std::process::ExitCode;

use serde_json::json;

use super::{ContentArgs, inline_or_file};
use crate::error::UserError;
use crate::validate::{self, Form, Rule, Schema, ValidatorRules, jsonl};

#[derive(Debug, clap::Args)]
pub(crate) struct ValidateArgs {
    /// The schema: inline JSON, @FILE, or a name from fixtures/schemas.json (e.g. weather).
    #[arg(long, value_name = "SCHEMA", required_unless_present = "jsonl")]
    pub(crate) schema: Option<String>,
    /// Required names for a flat-form schema, comma separated, in the order to check them.
    #[arg(long, value_name = "a,b,...", value_delimiter = ',')]
    pub(crate) required: Vec<String>,
    /// The arguments the model wrote: JSON text (or @FILE).
    #[arg(
        long,
        value_name = "JSON",
        required_unless_present = "jsonl",
        allow_hyphen_values = true
    )]
    pub(crate) args: Option<String>,
    /// Read cases as JSON lines from FILE (or stdin when FILE is absent or `-`).
    #[arg(long, value_name = "FILE", num_args = 0..=1, default_missing_value = "-",
          conflicts_with_all = ["schema", "args", "required"])]
    pub(crate) jsonl: Option<String>,
    /// List every failure in check order (`"errors": [...]`), not just the first, and the
    /// form the schema was read in (`"form"`).
    #[arg(long)]
    pub(crate) all: bool,
    /// Name the schema's form (flat, json-schema, tool) instead of reading it from its
    /// shape; needed when the shape reads both ways (`{"title": "int"}`, `{}`).
    #[arg(long, value_name = "FORM", value_enum)]
    pub(crate) form: Option<Form>,
    /// Switch one check off to see what it was catching (repeatable).
    #[arg(long, value_name = "RULE", value_enum)]
    pub(crate) off: Vec<Rule>,
}

/// Resolve `--schema`: `@file`, inline JSON, or a named schema.
pub(crate) fn load_schema(
    value: &str,
    required: &[String],
    form: Option<Form>,
    content: &ContentArgs,
) -> Result<Schema, UserError> {
    let trimmed = value.trim_start();
    if value.starts_with('@') || trimmed.starts_with('{') || trimmed.starts_with('[') {
        let (name, text) = inline_or_file(value)?;
        let v = validate::json::parse(&text).map_err(|e| match e {
            validate::ParseError::Syntax { what, line, column } => UserError::new(format!(
                "{name}:{line}:{column}: schema is not JSON: {what}"
            )),
            validate::ParseError::Duplicate { path } => {
                UserError::new(format!("{name}: the schema repeats the key {path:?}"))
            }
        })?;
        return validate::schema::compile(&v, required, form)
            .map_err(|e| UserError::new(format!("{name}: bad schema: {e}")));
    }
    let named = validate::cases::schemas(&content.content())?;
    let name = validate::Json::Str(value.into());
    validate::cases::resolve_schema_as(&name, required, &named, form)
        .map_err(|e| UserError::new(format!("--schema: {e}")))
}

/// The contract's output line for a verdict (and, with `--all`, `errors` and the `form`
/// the schema was read in).
pub(crate) fn verdict_line(violations: &[validate::Violation], all: bool, form: Form) -> String {
    let mut v = json!({
        "ok": violations.is_empty(),
        "error": violations.first().map_or("", |v| v.message.as_str()),
    });
    if all {
        v["errors"] = violations.iter().map(|v| v.message.clone()).collect();
        v["form"] = form.name().into();
    }
    validate::json::dumps(&v)
}

pub(crate) fn run(args: ValidateArgs, content: &ContentArgs) -> super::CliResult {
    let rules = ValidatorRules::without(args.off.iter().copied());
    if let Some(file) = &args.jsonl {
        let opts = jsonl::Options {
            all: args.all,
            rules,
            form: args.form,
            named: validate::cases::schemas(&content.content())?,
        };
        let stdout = io::stdout().lock();
        let result = if file == "-" {
            jsonl::run(io::stdin().lock(), stdout, &opts)
        } else {
            let f =
                std::fs::File::open(file).map_err(|e| UserError::new(format!("{file}: {e}")))?;
            jsonl::run(f, stdout, &opts)
        };
        return match result {
            Ok(_) => Ok(ExitCode::SUCCESS),
            // A closed pipe (`| head`) is the reader's choice, not our failure.
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
            Err(e) => Err(UserError::new(format!("{file}: {e}")).into()),
        };
    }
    let (Some(schema), Some(args_value)) = (&args.schema, &args.args) else {
        return Err(UserError::new("give --schema and --args, or --jsonl").into());
    };
    let schema = load_schema(schema, &args.required, args.form, content)?;
    let (_, text) = inline_or_file(args_value)?;
    let violations = if args.all {
        validate::validate_text_all(&schema, &text, &rules)
    } else {
        validate::validate_text(&schema, &text, &rules)
            .err()
            .into_iter()
            .collect()
    };
    println!("{}", verdict_line(&violations, args.all, schema.form));
    Ok(ExitCode::SUCCESS)
}
