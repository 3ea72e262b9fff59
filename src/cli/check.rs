//! `tooldojo check`: every fixture row, scenario and lesson through the real code (the rows
//! come from `crate::check`; this file prints them and sets the exit code).
//!
//! Human table by default (suite, row, expected, actual, mark and PASS/FAIL), `--json` one
//! object per row. Exit 1 on any mismatch, 2 when a file cannot be read or is malformed.

use std::process::ExitCode;

use serde_json::{Value, json};

use super::ContentArgs;
use crate::check::{CheckRow, all_rows};
use crate::validate::json as vjson;

#[derive(Debug, clap::Args)]
pub(crate) struct CheckArgs {
    /// One JSON object per row: suite, name, expected, actual, pass.
    #[arg(long)]
    pub(crate) json: bool,
    /// Use plain ASCII marks.
    #[arg(long)]
    pub(crate) ascii: bool,
}

/// A short human form of an expected/actual value for the table.
pub(crate) fn short(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Object(m) => {
            if let Some(Value::Object(t)) = m.get("ticket") {
                let f = |k: &str| t.get(k).and_then(Value::as_str).unwrap_or("?").to_owned();
                let mut s = format!("ok {} ({})", f("id"), f("status"));
                if let Some(Value::String(after)) = m.get("store_after_mutation") {
                    s.push_str(&format!(", store {after}"));
                }
                return s;
            }
            if let (Some(answers), Some(Value::String(flag))) = (m.get("answers"), m.get("flag")) {
                let call = answers.as_str().unwrap_or("no call");
                return format!("{call}, {}", flag.replace('_', " "));
            }
            if let Some(Value::String(code)) = m.get("code") {
                return code.clone();
            }
            if m.get("ok") == Some(&Value::Bool(true)) && m.len() <= 2 {
                return "ok".into();
            }
            if let Some(Value::String(e)) = m.get("error") {
                return e.clone();
            }
            vjson::dumps(v)
        }
        other => vjson::dumps(other),
    }
}

fn fit(s: &str, width: usize) -> String {
    let clean = crate::sanitize::clean(s, false);
    let n = clean.chars().count();
    if n <= width {
        format!("{clean}{}", " ".repeat(width - n))
    } else {
        let cut: String = clean.chars().take(width.saturating_sub(1)).collect();
        format!("{cut}~")
    }
}

pub(crate) fn run(args: CheckArgs, content: &ContentArgs) -> super::CliResult {
    let rows = all_rows(&content.content(), &super::command_names())?;
    let failed = rows.iter().filter(|r| !r.pass).count();
    let out = if args.json {
        json_lines(&rows)
    } else {
        table(&rows, failed, args.ascii)
    };
    super::print_out(&out)?;
    Ok(if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// `--json`: one object per row.
fn json_lines(rows: &[CheckRow]) -> String {
    let mut out = String::new();
    for r in rows {
        out.push_str(&vjson::dumps(&json!({
            "suite": r.suite, "name": r.name, "expected": r.expected,
            "actual": r.actual, "pass": r.pass,
        })));
        out.push('\n');
    }
    out
}

/// The human table, a count line, then every mismatch in full.
fn table(rows: &[CheckRow], failed: usize, ascii: bool) -> String {
    let (ok_mark, bad_mark) = if ascii { ("+", "x") } else { ("✓", "✗") };
    let name_w = rows
        .iter()
        .map(|r| r.name.chars().count())
        .max()
        .unwrap_or(4)
        .clamp(4, 34);
    let mut out = format!(
        "{} {} {} {} RESULT\n",
        fit("SUITE", 10),
        fit("ROW", name_w),
        fit("EXPECTED", 38),
        fit("ACTUAL", 38)
    );
    for r in rows {
        let mark = if r.pass {
            format!("{ok_mark} PASS")
        } else {
            format!("{bad_mark} FAIL")
        };
        out.push_str(&format!(
            "{} {} {} {} {mark}\n",
            fit(&r.suite, 10),
            fit(&r.name, name_w),
            fit(&short(&r.expected), 38),
            fit(&short(&r.actual), 38)
        ));
    }
    out.push_str(&format!(
        "{} passed, {failed} failed\n",
        rows.len() - failed
    ));
    // Mismatches in full, so nothing hides behind a cut column.
    for r in rows.iter().filter(|r| !r.pass) {
        out.push_str(&format!(
            "FAIL {}/{}\n  expected: {}\n  actual:   {}\n",
            crate::sanitize::clean(&r.suite, false),
            crate::sanitize::clean(&r.name, false),
            crate::sanitize::clean(&vjson::dumps(&r.expected), false),
            crate::sanitize::clean(&vjson::dumps(&r.actual), false)
        ));
    }
    out
}
