//! The lesson lint of `tooldojo check`: every block parses, every fixture, row, scenario and
//! schema a block names exists, every fixture row is predicted somewhere, every scenario is
//! traced somewhere, every lesson has a study time and an interactive block, and what the
//! prose names (commands, lessons, scenarios, pages, trace events) exists (see `prose`).

use serde_json::Value;

use super::CheckRow;
use crate::content::Content;
use crate::content::lessons::{Block, BlockKind, BlockSpec, Lesson, load_all};
use crate::course::lab::wire::wire_cases;
use crate::error::{UserError, UserResult};
use crate::executor::cases as exec_cases;
use crate::orchestrator::{EventKind, scenario_names};

use super::prose;
use crate::validate::cases as val_cases;

/// The names the lint checks blocks against, read from the fixtures.
#[derive(Debug, Clone, Default)]
pub struct LintTables {
    /// get_ticket rows: (id, group), in file order.
    pub get_ticket: Vec<(String, String)>,
    /// validator rows: (id, group), in file order.
    pub validator: Vec<(String, String)>,
    /// wire rows: (id, group), in file order.
    pub wire: Vec<(String, String)>,
    pub schemas: Vec<String>,
    pub scenarios: Vec<String>,
    /// The binary's subcommand names (given by the caller: the lint knows no command line).
    pub commands: Vec<String>,
}

impl LintTables {
    /// Read the fixture tables of `content`. A fixture that does not parse is an error.
    pub fn load(content: &Content, commands: &[String]) -> UserResult<LintTables> {
        let get_ticket = exec_cases::get_ticket_cases(content)?
            .into_iter()
            .map(|c| (c.id, c.group))
            .collect();
        let validator = val_cases::validator_cases(content)?
            .into_iter()
            .map(|c| (c.id, c.group))
            .collect();
        let wire = wire_cases(content)?
            .into_iter()
            .map(|c| (c.id, c.group))
            .collect();
        let schemas = val_cases::schemas(content)?
            .into_iter()
            .map(|(n, _)| n)
            .collect();
        let scenarios = scenario_names(content)?;
        Ok(LintTables {
            get_ticket,
            validator,
            wire,
            schemas,
            scenarios,
            commands: commands.to_vec(),
        })
    }

    fn rows(&self, fixture: &str) -> (&[(String, String)], &'static str) {
        match fixture {
            "validator" => (&self.validator, "fixtures/validator_cases.json"),
            "wire" => (&self.wire, "fixtures/wire_cases.json"),
            _ => (&self.get_ticket, "fixtures/get_ticket_cases.json"),
        }
    }
}

/// The fixture rows a predict block shows, or what it names that does not exist.
pub fn predict_rows(block: &Block, tables: &LintTables) -> Result<Vec<String>, String> {
    let fixture = block.option("fixture").unwrap_or("");
    let (rows, file) = tables.rows(fixture);
    let group = block.option("group");
    let mut missing = Vec::new();
    if let Some(g) = group {
        if !rows.iter().any(|(_, rg)| rg == g) {
            missing.push(format!("group `{g}` in {file}"));
        }
    }
    let wanted = block.rows();
    for id in &wanted {
        match rows.iter().find(|(rid, _)| rid == id) {
            None => missing.push(format!("row `{id}` in {file}")),
            Some((_, rg)) => {
                if let Some(g) = group {
                    if rg != g {
                        missing.push(format!("row `{id}` in group `{g}` (it is in `{rg}`)"));
                    }
                }
            }
        }
    }
    if !missing.is_empty() {
        return Err(format!("missing: {}", missing.join(", ")));
    }
    Ok(if !wanted.is_empty() {
        wanted
    } else {
        rows.iter()
            .filter(|(_, rg)| group.is_none_or(|g| rg == g))
            .map(|(id, _)| id.clone())
            .collect()
    })
}

fn short(file: &str) -> &str {
    file.rsplit(['/', '\\']).next().unwrap_or(file)
}

fn row(name: String, expected: &str, actual: String, pass: bool) -> CheckRow {
    CheckRow {
        suite: "lessons".to_owned(),
        name,
        expected: Value::String(expected.to_owned()),
        actual: Value::String(actual),
        pass,
    }
}

/// Where the lessons use each fixture row, scenario and playground mode (as `file:line`),
/// gathered while their blocks are linted.
#[derive(Debug, Default)]
struct Uses {
    /// (fixture, row id, where)
    predicted: Vec<(String, String, String)>,
    /// (scenario, where)
    traced: Vec<(String, String)>,
    /// (mode, where)
    playgrounds: Vec<(String, String)>,
}

/// The lint over already-parsed lessons and fixture tables (see [`lint`]).
pub fn lint_lessons(lessons: &[Lesson], tables: &LintTables) -> Vec<CheckRow> {
    let mut out = Vec::new();
    let mut uses = Uses::default();
    let known = prose::Known {
        commands: tables.commands.clone(),
        lessons: lessons.iter().map(|l| l.id.clone()).collect(),
        scenarios: tables.scenarios.clone(),
        events: EventKind::NAMES.iter().map(|e| (*e).to_owned()).collect(),
    };
    for lesson in lessons {
        out.push(lesson_row(lesson));
        for block in lesson.blocks() {
            out.push(block_row(lesson, block, tables, &mut uses));
        }
        out.push(prose_row(lesson, &known));
    }
    out.extend(coverage_rows(tables, &uses));
    out
}

/// Does everything the lesson's prose names exist?
fn prose_row(l: &Lesson, known: &prose::Known) -> CheckRow {
    let problems = prose::problems(l, known);
    let actual = if problems.is_empty() {
        "all found".to_owned()
    } else {
        problems.join("; ")
    };
    row(
        format!("{} prose", short(&l.file)),
        "commands, lessons, scenarios, pages and events it names exist",
        actual,
        problems.is_empty(),
    )
}

/// Does the lesson have a study time and at least one interactive block?
fn lesson_row(l: &Lesson) -> CheckRow {
    let blocks = l.blocks().count();
    let mut problems = Vec::new();
    if l.minutes == 0 {
        problems.push("no study-time line (`*About N minutes*` before the first page)");
    }
    if blocks == 0 {
        problems.push("no interactive block");
    }
    let actual = if problems.is_empty() {
        format!("{} min, {blocks} interactive blocks", l.minutes)
    } else {
        problems.join("; ")
    };
    row(
        format!("{} lesson", short(&l.file)),
        "a study time and at least one interactive block",
        actual,
        problems.is_empty(),
    )
}

/// Does what the block names exist? Records in `uses` what it predicts, traces or plays.
fn block_row(l: &Lesson, b: &Block, tables: &LintTables, uses: &mut Uses) -> CheckRow {
    let at = format!("{}:{}", short(&l.file), b.line);
    let name = format!("{at} {}", b.kind.name());
    let (expected, result) = match b.kind {
        BlockKind::Predict => predict_check(b, tables, &at, uses),
        BlockKind::Playground => playground_check(b, tables, &at, uses),
        BlockKind::Trace => trace_check(b, tables, &at, uses),
        // The kinds that name nothing in the fixtures: only their body is checked.
        _ => body_check(b),
    };
    let pass = result.is_ok();
    row(name, &expected, result.unwrap_or_else(|e| e), pass)
}

/// What a block check expects, and what it found (`Err` for a failure).
type BlockCheck = (String, Result<String, String>);

fn predict_check(b: &Block, tables: &LintTables, at: &str, uses: &mut Uses) -> BlockCheck {
    let fixture = b.option("fixture").unwrap_or("").to_owned();
    let expected = format!("fixture {fixture} rows exist");
    let r = predict_rows(b, tables).map(|ids| {
        let n = ids.len();
        for id in ids {
            uses.predicted.push((fixture.clone(), id, at.to_owned()));
        }
        format!("{n} rows")
    });
    (expected, r)
}

fn playground_check(b: &Block, tables: &LintTables, at: &str, uses: &mut Uses) -> BlockCheck {
    let mode = b.option("mode").unwrap_or("").to_owned();
    uses.playgrounds.push((mode.clone(), at.to_owned()));
    if mode != "validator" {
        return ("an executor playground".to_owned(), Ok("ok".to_owned()));
    }
    let schema = b.option("schema").unwrap_or("");
    let r = if tables.schemas.iter().any(|s| s == schema) {
        Ok(format!("schema {schema}"))
    } else {
        Err(format!(
            "missing: schema `{schema}` in fixtures/schemas.json"
        ))
    };
    ("the schema exists".to_owned(), r)
}

fn trace_check(b: &Block, tables: &LintTables, at: &str, uses: &mut Uses) -> BlockCheck {
    let sc = b.option("scenario").unwrap_or("");
    uses.traced.push((sc.to_owned(), at.to_owned()));
    let r = if tables.scenarios.iter().any(|s| s == sc) {
        Ok(format!("scenario {sc}"))
    } else {
        Err(format!("missing: fixtures/scenarios/{sc}.json"))
    };
    ("the scenario exists".to_owned(), r)
}

fn body_check(b: &Block) -> BlockCheck {
    let what = match &b.spec {
        BlockSpec::Quiz(q) => format!("{} choices", q.choices.len()),
        BlockSpec::Explain(e) => format!("{} key points", e.key_points.len()),
        BlockSpec::Checklist(c) => format!("{} items", c.items.len()),
        BlockSpec::None => String::new(),
    };
    ("parses".to_owned(), Ok(what))
}

/// Every fixture row predicted, every scenario traced, each playground mode used somewhere.
fn coverage_rows(tables: &LintTables, uses: &Uses) -> Vec<CheckRow> {
    let mut out = Vec::new();
    for (fixture, rows) in [
        ("get_ticket", &tables.get_ticket),
        ("validator", &tables.validator),
        ("wire", &tables.wire),
    ] {
        for (id, _) in rows {
            let wher = uses
                .predicted
                .iter()
                .filter(|(f, rid, _)| f == fixture && rid == id)
                .map(|(_, _, at)| at.as_str());
            out.push(used_row(
                format!("predicted {fixture} {id}"),
                "predicted by a lesson",
                wher,
                format!("row {id} is not predicted by any lesson"),
            ));
        }
    }
    for sc in &tables.scenarios {
        let wher = uses
            .traced
            .iter()
            .filter(|(s, _)| s == sc)
            .map(|(_, at)| at.as_str());
        out.push(used_row(
            format!("traced {sc}"),
            "traced by a lesson",
            wher,
            format!("scenario {sc} has no trace block in any lesson"),
        ));
    }
    for mode in ["validator", "executor"] {
        let wher = uses
            .playgrounds
            .iter()
            .filter(|(m, _)| m == mode)
            .map(|(_, at)| at.as_str());
        out.push(used_row(
            format!("playground {mode}"),
            "a lesson has one",
            wher,
            format!("no lesson has a {mode} playground"),
        ));
    }
    out
}

/// A coverage row: passes when `wher` names at least one place, which it then lists.
fn used_row<'a>(
    name: String,
    expected: &str,
    wher: impl Iterator<Item = &'a str>,
    unused: String,
) -> CheckRow {
    let wher: Vec<&str> = wher.collect();
    let pass = !wher.is_empty();
    let actual = if pass { wher.join(", ") } else { unused };
    row(name, expected, actual, pass)
}

/// `tooldojo check`'s lesson lint (see the module doc). Returns rows for the check table
/// (suite `lessons`); a lesson that cannot be parsed at all is an `Err` (exit 2, naming file
/// and line).
/// `commands` are the subcommand names lessons may write as `tooldojo NAME`.
pub fn lint(content: &Content, commands: &[String]) -> UserResult<Vec<CheckRow>> {
    let lessons = load_all(content)?;
    if lessons.is_empty()
        && let Some(dir) = content.lessons.disk_root()
    {
        // A directory with no lesson is a wrong path, not a course whose checks all fail.
        return Err(UserError::new(format!(
            "{}: no lessons in it (a lesson is a .md file)",
            crate::sanitize::clean(&dir.display().to_string(), false)
        )));
    }
    let tables = LintTables::load(content, commands)?;
    Ok(lint_lessons(&lessons, &tables))
}
