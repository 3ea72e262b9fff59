//! `tooldojo validate`: the validator, live.
//!
//! ```text
//! tooldojo validate --schema SCHEMA [--required a,b] --args JSON [--all] [--off RULE] [--form F] [--formats M]
//! tooldojo validate --jsonl [FILE] [--all] [--off RULE] [--form F] [--formats M]
//! tooldojo validate --tools FILE --tool NAME [--tools-format F] --args JSON [--all] [--off RULE]
//! ```
//! SCHEMA is inline JSON, `@path`, or the name of a schema in `fixtures/schemas.json`, in any
//! shape the validator reads. The flags' words for forms, rules and formats modes are mapped
//! here, so the validator itself knows nothing of the command line.

use std::io;
use std::process::ExitCode;

use serde_json::json;

use super::{ContentArgs, inline_or_file};
use crate::error::UserError;
use clap::builder::TypedValueParser as _;

use crate::validate::{self, Form, Formats, Rule, Validator, ValidatorRules, jsonl};

/// `--form`'s words (and `anthropic`, another name for `tool`).
fn form_flag() -> impl clap::builder::TypedValueParser<Value = Form> {
    let mut names: Vec<&'static str> = Form::NAMES.to_vec();
    names.push("anthropic");
    clap::builder::PossibleValuesParser::new(names)
        .map(|s: String| Form::parse(&s).unwrap_or(Form::Tool))
}

/// `--off`'s words.
fn rule_flag() -> impl clap::builder::TypedValueParser<Value = Rule> {
    use crate::switches::Switch;
    let names: Vec<&'static str> = Rule::ALL.iter().map(|r| r.flag()).collect();
    clap::builder::PossibleValuesParser::new(names)
        .map(|s: String| s.parse::<Rule>().unwrap_or(Rule::Required))
}

/// `--formats`' words.
fn formats_flag() -> impl clap::builder::TypedValueParser<Value = Formats> {
    clap::builder::PossibleValuesParser::new(["assert", "annotate"])
        .map(|s: String| Formats::parse(&s).unwrap_or_default())
}

#[derive(Debug, clap::Args)]
pub(crate) struct ValidateArgs {
    /// The schema: inline JSON, @FILE, or a name from fixtures/schemas.json (e.g. weather).
    #[arg(long, value_name = "SCHEMA", required_unless_present_any = ["jsonl", "tools"],
          conflicts_with = "tools")]
    pub(crate) schema: Option<String>,
    /// Judge the call against a declaration of this tools file (any shape `tools` reads);
    /// --tool names it.
    #[arg(long, value_name = "FILE", requires = "tool", conflicts_with_all = ["jsonl", "form", "required"])]
    pub(crate) tools: Option<std::path::PathBuf>,
    /// The declaration of --tools to judge against (the first one of that name).
    #[arg(long, value_name = "NAME", requires = "tools")]
    pub(crate) tool: Option<String>,
    /// Name the shape of --tools where two read alike.
    #[arg(long, value_name = "F", requires = "tools", value_parser = super::tools::format_flag())]
    pub(crate) tools_format: Option<crate::tools::ToolsFormat>,
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
    /// List every failure in order (`"errors": [...]`), not just the first, the form the
    /// schema was read in (`"form"`), and the keywords and formats it ignored.
    #[arg(long)]
    pub(crate) all: bool,
    /// Name the schema's form (flat, json-schema, tool, mcp, openai-chat, openai-responses)
    /// instead of reading it from its shape; needed when the shape reads both ways.
    #[arg(long, value_name = "FORM", value_parser = form_flag())]
    pub(crate) form: Option<Form>,
    /// What `format` does: assert (check it, the default) or annotate (a note only).
    #[arg(long, value_name = "MODE", value_parser = formats_flag(), default_value = "assert")]
    pub(crate) formats: Formats,
    /// Switch one check off to see what it was catching (repeatable).
    #[arg(long, value_name = "RULE", value_parser = rule_flag())]
    pub(crate) off: Vec<Rule>,
}

/// Resolve `--schema`: `@file`, inline JSON, or a named schema.
pub(crate) fn load_schema(
    value: &str,
    required: &[String],
    form: Option<Form>,
    formats: Formats,
    content: &ContentArgs,
) -> Result<Validator, UserError> {
    let trimmed = value.trim_start();
    let inline = trimmed.starts_with('{') || trimmed.starts_with('[');
    if value.starts_with('@') || inline || trimmed == "true" || trimmed == "false" {
        let (name, text) = inline_or_file(value)?;
        let v = validate::json::parse(&text).map_err(|e| match e {
            validate::ParseError::Syntax { what, line, column } => UserError::new(format!(
                "{name}:{line}:{column}: schema is not JSON: {what}"
            )),
            validate::ParseError::Duplicate { path } => UserError::new(format!(
                "{name}: the schema repeats the key {}",
                crate::sanitize::quote(&path)
            )),
        })?;
        return Validator::options()
            .form(form)
            .required(required)
            .formats(formats)
            .compile(&v)
            .map_err(|e| UserError::new(format!("{name}: bad schema: {e}")));
    }
    let named = validate::cases::schemas(&content.content())?;
    let name = validate::Json::Str(value.into());
    validate::cases::resolve_schema_as(&name, required, &named, form, formats)
        .map_err(|e| UserError::new(format!("--schema: {e}")))
}

/// The contract's output line for a verdict (and, with `--all`, `errors`, the `form` the
/// schema was read in, and what it ignored when it ignored anything).
pub(crate) fn verdict_line(violations: &[validate::Violation], all: bool, v: &Validator) -> String {
    let mut line = json!({
        "ok": violations.is_empty(),
        "error": violations.first().map_or("", |v| v.message.as_str()),
    });
    if all {
        line["errors"] = violations.iter().map(|v| v.message.clone()).collect();
        line["form"] = v.form().name().into();
        if !v.unknown_keywords().is_empty() {
            line["unknown_keywords"] =
                serde_json::to_value(v.unknown_keywords()).unwrap_or_default();
        }
        if !v.unknown_formats().is_empty() {
            line["unknown_formats"] = serde_json::to_value(v.unknown_formats()).unwrap_or_default();
        }
    }
    validate::json::dumps(&line)
}

/// The validator of the declaration `name` in a tools file, compiled with `formats`.
fn from_tools(
    file: &std::path::Path,
    name: &str,
    format: Option<crate::tools::ToolsFormat>,
    formats: Formats,
) -> Result<Validator, UserError> {
    let set = super::tools::load(file, format)?;
    let shown = file.display();
    let Some(tool) = set.get(name) else {
        let mut names: Vec<&str> = set.tools.iter().map(|t| t.name.as_str()).collect();
        names.dedup();
        let listed = if names.len() > 12 {
            format!("{}, ... ({} in all)", names[..12].join(", "), names.len())
        } else {
            names.join(", ")
        };
        return Err(UserError::new(format!(
            "{shown}: no tool named {name:?} (it declares: {listed})"
        )));
    };
    Validator::options()
        .form(Some(tool.format.form()))
        .formats(formats)
        .compile_value(&tool.declaration)
        .map_err(|e| {
            UserError::new(format!(
                "{shown}: the validator refuses {name:?} ({}): {}",
                tool.place(),
                tool.refusal().unwrap_or_else(|| e.to_string())
            ))
        })
}

pub(crate) fn run(args: ValidateArgs, content: &ContentArgs) -> super::CliResult {
    let rules = ValidatorRules::without(args.off.iter().copied());
    if let Some(file) = &args.jsonl {
        let opts = jsonl::Options {
            all: args.all,
            rules,
            form: args.form,
            formats: args.formats,
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
    let validator = match (&args.schema, &args.tools, &args.tool) {
        (Some(schema), _, _) => {
            load_schema(schema, &args.required, args.form, args.formats, content)?
        }
        (None, Some(file), Some(name)) => from_tools(file, name, args.tools_format, args.formats)?,
        _ => {
            return Err(UserError::new(
                "give --schema (or --tools and --tool) and --args, or --jsonl",
            )
            .into());
        }
    };
    let Some(args_value) = &args.args else {
        return Err(UserError::new("give --args").into());
    };
    let (_, text) = inline_or_file(args_value)?;
    let violations = if args.all {
        validator.check_all(text.as_str(), &rules)
    } else {
        validator
            .check(text.as_str(), &rules)
            .err()
            .into_iter()
            .collect()
    };
    super::print_out(&format!(
        "{}\n",
        verdict_line(&violations, args.all, &validator)
    ))?;
    Ok(ExitCode::SUCCESS)
}
