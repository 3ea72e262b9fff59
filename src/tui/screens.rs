//! Named screens: the app put into a known state, for `tooldojo render`, snapshot tests and
//! the bench. Each is drawn by the same `ui` code the terminal uses.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use crate::content::lessons::{Block, BlockKind, BlockSpec, Item, Lesson, Page};
use crate::course::{BlockEnv, LessonEntry, Progress};
use crate::error::UserError;
use crate::error::UserResult;
use crate::replay::{RunSource, ScenarioSource};
use crate::tui::app::{App, Focus, Options, Overlay};
use crate::tui::player::Player;

/// The fixed block screens: name, block kind, options.
const BLOCK_SCREENS: &[(&str, BlockKind, &str, &str)] = &[
    (
        "predict:get_ticket",
        BlockKind::Predict,
        "fixture",
        "get_ticket",
    ),
    (
        "predict:validator",
        BlockKind::Predict,
        "fixture",
        "validator",
    ),
    (
        "playground:validator",
        BlockKind::Playground,
        "mode",
        "validator",
    ),
    (
        "playground:executor",
        BlockKind::Playground,
        "mode",
        "executor",
    ),
];

/// Every screen name `render` accepts, given the lessons and scenarios available.
pub fn names(lessons: &[LessonEntry], scenarios: &[String]) -> Vec<String> {
    let mut out = vec!["home".to_owned(), "help".to_owned()];
    out.extend(lessons.iter().map(|l| format!("lesson:{}", l.id)));
    out.extend(BLOCK_SCREENS.iter().map(|(n, ..)| (*n).to_owned()));
    out.extend(scenarios.iter().map(|s| format!("trace:{s}")));
    out.extend(scenarios.iter().map(|s| format!("trace-block:{s}")));
    out.extend(["rehearse".to_owned(), "rehearse:scorecard".to_owned()]);
    out.push("audit".to_owned());
    out.extend(TOOLS_SCREENS.iter().map(|(n, _)| (*n).to_owned()));
    out
}

/// The Your tools screen on the shipped example, and the keys that open each of its views.
const TOOLS_SCREENS: &[(&str, &[char])] = &[
    ("tools", &[]),
    ("tools:predict", &['\n']),
    ("tools:playground", &['p']),
    ("tools:fixes", &['f']),
];

/// The Your tools screen on `file` (the shipped example when `None`), in the view `keys`
/// open.
pub fn tools_screen(
    opts: Options,
    env: BlockEnv,
    file: Option<crate::tools::ToolsFile>,
    keys: &[char],
    size: Rect,
) -> App {
    let mut opts = opts;
    opts.home = true;
    opts.lesson = None;
    let mut app = App::new(opts, env, Ok(Vec::new()), Progress::default(), size);
    match file {
        Some(f) => app.start_tools(f),
        None => app.open_tools_example(),
    }
    for &c in keys {
        let code = match c {
            '\n' => crossterm::event::KeyCode::Enter,
            other => crossterm::event::KeyCode::Char(other),
        };
        let key = crossterm::event::KeyEvent::new(code, crossterm::event::KeyModifiers::NONE);
        let _ = app.update(crate::tui::app::Input::Key(key));
    }
    app
}

/// Scenario names under `fixtures/scenarios/`.
pub fn scenario_names(env: &BlockEnv) -> Vec<String> {
    crate::orchestrator::scenario_names(&env.content).unwrap_or_default()
}

fn synthetic(title: &str, kind: BlockKind, options: Vec<(String, String)>) -> LessonEntry {
    let block = Block {
        kind,
        options,
        body: String::new(),
        line: 1,
        spec: BlockSpec::None,
    };
    LessonEntry::from_lesson(Lesson {
        id: "screen".into(),
        title: title.into(),
        minutes: 0,
        file: "(render)".into(),
        pages: vec![Page {
            title: String::new(),
            items: vec![Item::Block(block)],
        }],
    })
}

/// Build the app in the state the screen `name` names.
pub fn build(
    name: &str,
    opts: Options,
    env: BlockEnv,
    lessons: UserResult<Vec<LessonEntry>>,
    size: Rect,
) -> Result<App, UserError> {
    let scenarios = scenario_names(&env);
    let list = lessons.clone().unwrap_or_default();
    let unknown = || {
        UserError::new(format!(
            "unknown screen {q_name}; screens: {}",
            names(&list, &scenarios).join(", "),
            q_name = crate::sanitize::quote(name)
        ))
    };
    if name == "home" || name == "help" {
        return Ok(home_screen(name == "help", opts, env, lessons, size));
    }
    // Every other screen is a lesson page.
    let mut opts = opts;
    opts.home = false;
    if name == "rehearse" || name == "rehearse:scorecard" {
        let mut app = App::new(opts, env, lessons, Progress::default(), size);
        app.start_drill(crate::course::rehearsal::DrillConfig::fixed());
        if name.ends_with(":scorecard") {
            app.drill_play_through();
        }
        return Ok(app);
    }
    if let Some(rest) = name.strip_prefix("lesson:") {
        let (id, page) = lesson_place(name, rest)?;
        let Some(idx) = list.iter().position(|l| l.id == id) else {
            return Err(unknown());
        };
        let pages = list[idx].page_count();
        if page >= pages {
            return Err(UserError::new(format!(
                "{q_name}: {id} has {pages} page{}, numbered from 1",
                if pages == 1 { "" } else { "s" },
                q_name = crate::sanitize::quote(name)
            )));
        }
        let mut opts = opts;
        opts.lesson = Some(list[idx].id.clone());
        let mut app = App::new(opts, env, lessons, Progress::default(), size);
        app.open(idx, page);
        return Ok(app);
    }
    if let Some((_, keys)) = TOOLS_SCREENS.iter().find(|(n, _)| *n == name) {
        return Ok(tools_screen(opts, env, None, keys, size));
    }
    if let Some((_, kind, key, value)) = BLOCK_SCREENS.iter().find(|(n, ..)| *n == name) {
        let title = format!("{}: {value}", kind.title());
        let entry = synthetic(&title, kind.clone(), vec![((*key).into(), (*value).into())]);
        let mut opts = opts;
        opts.lesson = None;
        return Ok(one_block_screen(opts, env, entry, size));
    }
    if let Some(rest) = name.strip_prefix("trace-block:") {
        let (scenario, t) = trace_moment(name, rest)?;
        if !scenarios.iter().any(|s| s == scenario) {
            return Err(unknown());
        }
        let entry = synthetic(
            &format!("Trace {scenario}"),
            BlockKind::Trace,
            vec![("scenario".into(), scenario.into())],
        );
        let mut app = one_block_screen(opts, env, entry, size);
        if let Some(w) = app.widget_mut(0) {
            w.seek_ms(t);
        }
        return Ok(app);
    }
    if name == "audit" || name.starts_with("audit:") {
        return audit_screen(name, opts, env, lessons, size);
    }
    if let Some(rest) = name.strip_prefix("trace:") {
        let (scenario, t) = trace_moment(name, rest)?;
        let Some(source) = run_source(&env, &scenarios, scenario)? else {
            return Err(unknown());
        };
        let mut player =
            Player::open(source.as_ref()).map_err(|e| UserError::new(e.to_string()))?;
        player.seek(t);
        let mut app = App::new(opts, env, lessons, Progress::default(), size);
        app.open_player(player);
        return Ok(app);
    }
    Err(unknown())
}

/// The run source a `trace:NAME` screen plays: a shipped scenario by name (run with the
/// environment's seed). `None` for a name that is none.
fn run_source(
    env: &BlockEnv,
    scenarios: &[String],
    name: &str,
) -> Result<Option<Box<dyn RunSource>>, UserError> {
    if !scenarios.iter().any(|s| s == name) {
        return Ok(None);
    }
    let loaded = crate::orchestrator::load_scenario(&env.content, name)?;
    Ok(Some(Box::new(ScenarioSource::new(loaded, env.seed))))
}

/// `audit`: the shipped example log's conversations; `audit:N@T`: conversation N of it
/// played to T on its clock (at its end without `@T`).
fn audit_screen(
    name: &str,
    opts: Options,
    env: BlockEnv,
    lessons: UserResult<Vec<LessonEntry>>,
    size: Rect,
) -> Result<App, UserError> {
    let listing = crate::tui::app::example_log(&env.content)?;
    let mut app = App::new(opts, env, lessons, Progress::default(), size);
    app.set_audit_log(listing);
    let _ = app.open_audit_now();
    if let Some(rest) = name.strip_prefix("audit:") {
        let (n, t) = trace_moment(name, rest)?;
        let row: usize = n
            .parse::<usize>()
            .ok()
            .and_then(|n| n.checked_sub(1))
            .ok_or_else(|| {
                UserError::new(format!(
                    "{q_name}: N counts conversations from 1",
                    q_name = crate::sanitize::quote(name)
                ))
            })?;
        let screen = app
            .audit_screen_mut()
            .ok_or_else(|| UserError::new("no audit screen"))?;
        if !screen.play(row) {
            return Err(UserError::new(format!(
                "{q_name}: no conversation {n} in the log",
                q_name = crate::sanitize::quote(name)
            )));
        }
        if let Some(p) = screen.player_mut() {
            let at = if rest.contains('@') {
                t
            } else {
                p.tl.axis_end()
            };
            p.seek(at);
        }
    }
    Ok(app)
}

/// The home screen a new learner sees first, or the help over the first lesson page.
fn home_screen(
    help: bool,
    opts: Options,
    env: BlockEnv,
    lessons: UserResult<Vec<LessonEntry>>,
    size: Rect,
) -> App {
    let mut opts = opts;
    // The help is shown over a lesson page, where most keys live.
    opts.home = !help;
    opts.lesson = None;
    let mut app = App::new(opts, env, lessons, Progress::default(), size);
    if help {
        app.show_overlay(Overlay::Help);
    }
    app
}

/// A lesson of one block, focused, without the lesson list.
fn one_block_screen(opts: Options, env: BlockEnv, entry: LessonEntry, size: Rect) -> App {
    let mut app = App::new(opts, env, Ok(vec![entry]), Progress::default(), size);
    app.hide_sidebar();
    app.set_focus(Focus::Block(0));
    app
}

/// `ID#PAGE` (pages count from 1) as a lesson id and a page index.
fn lesson_place<'a>(name: &str, rest: &'a str) -> Result<(&'a str, usize), UserError> {
    match rest.split_once('#') {
        Some((id, p)) => {
            let n: usize = p.parse().map_err(|_| {
                UserError::new(format!(
                    "{q_name}: page must be a number from 1",
                    q_name = crate::sanitize::quote(name)
                ))
            })?;
            // Pages count from 1: `#0` names no page.
            match n.checked_sub(1) {
                Some(page) => Ok((id, page)),
                None => Err(UserError::new(format!(
                    "{q_name}: page must be a number from 1 (pages count from 1)",
                    q_name = crate::sanitize::quote(name)
                ))),
            }
        }
        None => Ok((rest, 0)),
    }
}

/// `SCENARIO@MS` as a scenario name and a moment in milliseconds.
fn trace_moment<'a>(name: &str, rest: &'a str) -> Result<(&'a str, u64), UserError> {
    match rest.split_once('@') {
        Some((s, t)) => {
            let t: u64 = t.parse().map_err(|_| {
                UserError::new(format!(
                    "{q_name}: the time after @ must be milliseconds",
                    q_name = crate::sanitize::quote(name)
                ))
            })?;
            Ok((s, t))
        }
        None => Ok((rest, 0)),
    }
}

/// Draw `app` into a fresh buffer of its size.
pub fn draw_to_buffer(app: &App) -> Buffer {
    let mut buf = crate::tui::page::blank_buffer(app.size());
    app.render(app.size(), &mut buf);
    buf
}
