//! The terminal app. `App` owns all UI state; keys become actions; drawing reads `&App`.
//!
//! One event loop (`tokio::select!`) waits on terminal events, an app message channel
//! (the lesson watcher sends there; background work never touches `App`), SIGTERM/SIGHUP,
//! and a tick timer that only runs while a block animates or the trace player plays. Idle
//! (a paused player included) means no wake-ups.

pub mod app;
pub mod audit_screen;
pub mod blocks;
pub mod draw;
mod fault;
pub mod grader;
pub mod help;
pub mod home;
pub mod keybar;
pub mod keys;
pub mod markdown;
mod page;
pub mod player;
pub mod practice_screen;
pub mod rehearse;
pub mod render;
pub mod screens;
pub mod term_input;
pub mod theme;
pub mod tools;
pub mod ui;

pub use theme::ThemeName;

use std::io::stdout;
use std::process::ExitCode;
use std::time::Duration;

use color_eyre::eyre::WrapErr;
use crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture, Event,
};
use ratatui::DefaultTerminal;
use tokio::sync::mpsc;

use crate::content::Content;
use crate::course::progress;
use crate::error::UserError;
use crate::replay::RunSource;
use app::{App, Input, Update};

/// Messages from background work into the loop.
enum AppMsg {
    Lessons(crate::error::UserResult<Vec<crate::course::LessonEntry>>),
    Status(String),
    Rerun(Box<player::rerun::RerunDone>),
    Grader(grader::GraderMsg),
}

/// What the app starts with, already read from the command line by its caller.
#[derive(Debug, Clone)]
pub struct Config {
    /// The theme asked for by name, if any.
    pub theme: Option<theme::ThemeName>,
    /// Draw with ASCII only.
    pub ascii: bool,
    /// Presenter mode.
    pub present: bool,
    /// Open this lesson (its id) instead of the first unfinished one.
    pub lesson: Option<String>,
    /// A ticket store to use instead of the fixtures' (`@FILE`).
    pub records: Option<String>,
    /// Forget all saved progress and start over.
    pub reset_progress: bool,
    /// Where lessons and fixtures come from.
    pub content: Content,
    /// Open straight in a rehearsal drill set up like this.
    pub drill: Option<crate::course::rehearsal::DrillConfig>,
    /// Open straight in the full-screen trace player on this run.
    pub play: Option<Play>,
    /// A recorded log's conversations, listed before the terminal is touched: `A` on the
    /// home screen audits it.
    pub audit: Option<crate::audit::listing::Listing>,
    /// Open on the audit at once (`tooldojo audit FILE --tui`).
    pub open_audit: bool,
    /// `--tools FILE`: open on the Your tools screen with this file loaded.
    pub tools: Option<crate::tools::ToolsFile>,
}

/// `tooldojo play`: what to play (any run source: a scenario run by the orchestrator, ...)
/// and the playback speed (none said: 1x, or in presenter mode a speed a room can follow).
#[derive(Clone)]
pub struct Play {
    pub source: std::sync::Arc<dyn RunSource + Send + Sync>,
    pub speed: Option<f64>,
}

impl std::fmt::Debug for Play {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Play")
            .field("source", &self.source.name())
            .field("speed", &self.speed)
            .finish()
    }
}

impl Play {
    /// Build the run and open the player on it, paused at 0; `present`: for a room.
    pub fn player(&self, present: bool) -> Result<player::Player, UserError> {
        let mut p = player::Player::open(self.source.as_ref())
            .map_err(|e| UserError::new(e.to_string()))?;
        let speed = match self.speed {
            Some(s) => s,
            None if present => crate::replay::playback::room_speed(p.tl.end_ms),
            None => 1.0,
        };
        p.pb.set_speed(speed);
        p.demo = present;
        Ok(p)
    }
}

impl Config {
    /// Built-in content and default options.
    pub fn new(content: Content) -> Config {
        Config {
            theme: None,
            ascii: false,
            present: false,
            lesson: None,
            records: None,
            reset_progress: false,
            content,
            drill: None,
            play: None,
            audit: None,
            open_audit: false,
            tools: None,
        }
    }

    /// The lesson directory on disk, when lessons are read from one (it is then watched).
    fn lessons_dir(&self) -> Option<&std::path::Path> {
        self.content.lessons.disk_root()
    }
}

/// The theme the config and environment ask for (`--present` implies the projector theme
/// unless a theme was named; `NO_COLOR` wins over both).
fn theme_for(config: &Config) -> theme::Theme {
    let requested = config
        .theme
        .or(config.present.then_some(theme::ThemeName::Projector));
    theme::Theme::from_env(requested, config.ascii)
}

/// Build the app's options and block environment from the config (shared by `run_app` and
/// the one-screen renderer).
pub fn setup(config: &Config) -> Result<(app::Options, blocks::BlockEnv), UserError> {
    let c = config.content.clone();
    let records = match &config.records {
        Some(flag) => crate::executor::cases::records_from_flag(flag)?,
        None => crate::executor::cases::tickets(&c).unwrap_or_default(),
    };
    let theme = theme_for(config);
    let mut opts = app::Options::new(theme);
    // The projector layout is asked for by name; NO_COLOR takes the colours away, not the layout.
    opts.present = config.present || config.theme == Some(theme::ThemeName::Projector);
    opts.lesson = config.lesson.clone();
    opts.home = config.lesson.is_none();
    opts.demo = config.present;
    opts.watching = config.lessons_dir().is_some();
    opts.lessons_from = match config.lessons_dir() {
        Some(p) => crate::sanitize::clean(&p.display().to_string(), false),
        None => "the built-in lessons".into(),
    };
    Ok((opts, crate::course::BlockEnv::new(c, records, 0)))
}

/// Run the interactive app until the learner quits: with `render`, all the command line
/// reaches of the app.
pub fn run(config: Config) -> color_eyre::Result<ExitCode> {
    if let Some(dir) = config.lessons_dir()
        && !dir.is_dir()
    {
        let shown = crate::sanitize::clean(&dir.display().to_string(), false);
        return Err(UserError::new(format!("--lessons {shown}: not a directory")).into());
    }
    let (opts, env) = setup(&config)?;
    let lessons = crate::course::load_lessons(&env.content);
    if let (Some(id), Ok(list)) = (&config.lesson, &lessons)
        && !list.iter().any(|l| &l.id == id)
    {
        let names: Vec<&str> = list.iter().map(|l| l.id.as_str()).collect();
        return Err(UserError::new(format!(
            "no lesson {q_id}; lessons: {}",
            names.join(", "),
            q_id = crate::sanitize::quote(id)
        ))
        .into());
    }
    // The run is made before the terminal is taken: nothing to restore if it fails.
    let player = config
        .play
        .as_ref()
        .map(|p| p.player(config.present))
        .transpose()?;
    // A presenter's demo never reads or writes the learner's progress.
    let mut opened = if config.present {
        progress::Opened {
            store: progress::Store::memory(),
            progress: progress::Progress::default(),
            notice: None,
        }
    } else {
        progress::Store::open(progress::state_dir(), config.reset_progress)
    };
    // A lesson that changed its number keeps the learner's progress.
    if let Ok(list) = &lessons {
        let ids: Vec<String> = list.iter().map(|l| l.id.clone()).collect();
        opened.progress.follow_renames(&ids);
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .wrap_err("starting the async runtime")?;
    let result = rt.block_on(async move {
        let mut terminal = init_terminal()?;
        let _guard = RestoreGuard;
        let size = terminal.size()?;
        let mut app = App::new(
            opts,
            env,
            lessons,
            opened.progress,
            ratatui::layout::Rect::new(0, 0, size.width, size.height),
        );
        if let Some(notice) = opened.notice {
            app.show_overlay(app::Overlay::Notice(notice));
        }
        // What other windows save meanwhile shows here too.
        app.watch_progress(opened.store.clone());
        app.run_jobs_in_background();
        if let Some(p) = player {
            app.open_player(p);
        }
        if let Some(listing) = config.audit.clone() {
            app.set_audit_log(listing);
            if config.open_audit {
                let _ = app.open_audit_now();
            }
        }
        let (tx, rx) = mpsc::unbounded_channel();
        // Grading runs and file watchers only send messages into the loop.
        let grader_tx = tx.clone();
        app.set_notify(std::sync::Arc::new(move |msg| {
            let _ = grader_tx.send(AppMsg::Grader(msg));
        }));
        if let Some(drill) = config.drill.clone() {
            app.start_drill(drill);
        }
        if let Some(file) = config.tools.clone() {
            app.start_tools(file);
        }
        // Keep the watcher alive for the whole run.
        let _watcher = match config.lessons_dir() {
            Some(dir) => match watch_lessons(dir, &config.content, tx.clone()) {
                Ok(w) => Some(w),
                Err(e) => {
                    let _ = tx.send(AppMsg::Status(format!("Not watching lessons: {e}")));
                    None
                }
            },
            None => None,
        };
        let result = event_loop(&mut terminal, &mut app, (tx, rx), &opened.store).await;
        let told = match opened.store.save(&app.progress_snapshot()) {
            Ok(notice) => notice,
            Err(e) => Some(format!("could not save progress: {e}")),
        };
        if let Some(told) = told {
            restore_terminal();
            // Nothing is left to tell when stderr is closed too: the exit code says it.
            use std::io::Write;
            let _ = writeln!(std::io::stderr(), "tooldojo: {told}");
        }
        result
    });
    // A re-run still going when the learner quits is not waited for.
    rt.shutdown_background();
    result?;
    Ok(ExitCode::SUCCESS)
}

fn init_terminal() -> color_eyre::Result<DefaultTerminal> {
    // No terminal to draw on is the user's to fix (a pipe, a job without a tty): one line.
    let terminal = ratatui::try_init().map_err(|e| {
        UserError::new(format!(
            "the app needs an interactive terminal ({e}); the subcommands work without one"
        ))
    })?;
    // ratatui's panic hook restores the screen and prints the report; ours turns mouse
    // reporting off first and then ends the process, so that a panic in a background task
    // cannot leave the app drawing on a terminal that has already been given back.
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = crossterm::execute!(stdout(), DisableMouseCapture, DisableBracketedPaste);
        previous(info);
        std::process::exit(101);
    }));
    // A paste comes as one event (typed keys would each cost a frame, and a pasted `q`
    // would quit).
    crossterm::execute!(stdout(), EnableMouseCapture, EnableBracketedPaste)?;
    Ok(terminal)
}

fn restore_terminal() {
    let _ = crossterm::execute!(stdout(), DisableMouseCapture, DisableBracketedPaste);
    ratatui::restore();
}

/// Restores the terminal on every way out of the loop, early returns included.
struct RestoreGuard;

impl Drop for RestoreGuard {
    fn drop(&mut self) {
        restore_terminal();
    }
}

const SAVE_EVERY: Duration = Duration::from_millis(400);

async fn event_loop(
    terminal: &mut DefaultTerminal,
    app: &mut App,
    (tx, mut rx): (
        mpsc::UnboundedSender<AppMsg>,
        mpsc::UnboundedReceiver<AppMsg>,
    ),
    store: &progress::Store,
) -> color_eyre::Result<()> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut events = term_input::TermInput::start().wrap_err("reading the terminal")?;
    let mut sigterm = signal(SignalKind::terminate())?;
    let mut sighup = signal(SignalKind::hangup())?;
    let mut sigint = signal(SignalKind::interrupt())?;
    let mut winch = signal(SignalKind::window_change())?;
    fault::panic_in_task_if_asked();
    let mut ticker = tokio::time::interval(Duration::from_millis(50));
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    let mut redraw = true;
    // Progress is written at most every SAVE_EVERY while keys arrive (an editor changes on
    // every key); whatever is left is written on the way out.
    let mut dirty = false;
    let mut last_save = std::time::Instant::now() - SAVE_EVERY;
    loop {
        if dirty && last_save.elapsed() >= SAVE_EVERY {
            dirty = false;
            last_save = std::time::Instant::now();
            match store.save(&app.progress_snapshot()) {
                Ok(None) => {}
                Ok(Some(notice)) => {
                    app.show_overlay(app::Overlay::Notice(notice));
                    redraw = true;
                }
                Err(e) => {
                    let _ = app.update(Input::Status(format!("Could not save progress: {e}")));
                    redraw = true;
                }
            }
        }
        if redraw {
            terminal.draw(|f| {
                fault::panic_in_draw_if_asked();
                ui::draw(f, app)
            })?;
            redraw = false;
        }
        // The player plays at 30 frames a second, blocks animate at 20.
        let period = Duration::from_millis(app.tick_ms());
        if ticker.period() != period {
            ticker = tokio::time::interval(period);
            ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        }
        let input = tokio::select! {
            ev = events.next() => match ev {
                Some(ev) => match typed_input(ev, &mut events, app) {
                    Some(i) => i,
                    None => continue,
                },
                None => return Ok(()),
            },
            _ = winch.recv() => match crossterm::terminal::size() {
                Ok((w, h)) => Input::Resize(w, h),
                Err(_) => continue,
            },
            Some(msg) = rx.recv() => match msg {
                AppMsg::Lessons(l) => Input::Lessons(l),
                AppMsg::Status(s) => Input::Status(s),
                AppMsg::Rerun(done) => Input::Rerun(done),
                AppMsg::Grader(m) => Input::Grader(m),
            },
            _ = sigterm.recv() => return Ok(()),
            _ = sighup.recv() => return Ok(()),
            _ = sigint.recv() => return Ok(()),
            _ = ticker.tick(), if app.animating() => Input::Tick,
            // Write pending progress once the burst of changes is over.
            _ = tokio::time::sleep_until((last_save + SAVE_EVERY).into()), if dirty => continue,
            // The presenter's clock shows seconds: redraw when the next one begins.
            _ = tokio::time::sleep(until_next_second(app.elapsed())), if app.demo() => {
                redraw = true;
                continue;
            }
        };
        let mut update = apply(app, input, &tx);
        // Input that has already arrived is taken before the next frame (a burst of keys
        // costs one frame), but a frame is drawn at least every BURST.
        let burst = std::time::Instant::now();
        while !matches!(update, Update::Quit | Update::Suspend) && burst.elapsed() < BURST {
            let Some(ev) = events.ready() else { break };
            if let Some(input) = typed_input(ev, &mut events, app) {
                update = update.or(apply(app, input, &tx));
            }
        }
        match update {
            Update::None => {}
            Update::Redraw => redraw = true,
            Update::Save => {
                redraw = true;
                dirty = true;
            }
            Update::Quit => return Ok(()),
            Update::Suspend => {
                if let Ok(Some(notice)) = store.save(&app.progress_snapshot()) {
                    app.show_overlay(app::Overlay::Notice(notice));
                }
                dirty = false;
                suspend(terminal)?;
                redraw = true;
            }
        }
    }
}

/// The longest a burst of input is taken without drawing a frame.
const BURST: Duration = Duration::from_millis(30);

/// One input into the app; a re-run the player asked for is started off the loop (the
/// screen keeps going meanwhile).
fn apply(app: &mut App, input: Input, tx: &mpsc::UnboundedSender<AppMsg>) -> Update {
    let update = app.update(input);
    if let Some(job) = app.take_player_job() {
        let tx = tx.clone();
        tokio::task::spawn_blocking(move || {
            let _ = tx.send(AppMsg::Rerun(Box::new(job.run())));
        });
    }
    update
}

/// Time left until `elapsed` reaches its next whole second.
fn until_next_second(elapsed: Duration) -> Duration {
    Duration::from_nanos(u64::from(1_000_000_000 - elapsed.subsec_nanos()))
}

/// The input an event makes; while the app takes text, typed characters that arrived
/// together (a paste without bracketed paste) make one paste, typed in one edit.
fn typed_input(ev: Event, events: &mut term_input::TermInput, app: &App) -> Option<Input> {
    if let Some(c) = term_input::typed_char(&ev)
        && app.takes_text()
    {
        let mut text = String::from(c);
        events.typed_run(&mut text);
        if text.len() > c.len_utf8() {
            return Some(Input::Paste(text));
        }
    }
    event_input(ev)
}

/// Terminal events that matter: key presses (never releases or repeats), mouse, resize.
fn event_input(ev: Event) -> Option<Input> {
    if let Some(key) = ev.as_key_press_event() {
        return Some(Input::Key(key));
    }
    match ev {
        Event::Mouse(m) => Some(Input::Mouse(m)),
        Event::Resize(w, h) => Some(Input::Resize(w, h)),
        Event::Paste(text) => Some(Input::Paste(text)),
        _ => None,
    }
}

/// Ctrl-Z: give the terminal back, stop, and take it again on `fg`.
fn suspend(terminal: &mut DefaultTerminal) -> color_eyre::Result<()> {
    restore_terminal();
    signal_hook::low_level::raise(signal_hook::consts::SIGTSTP)?;
    // Continued (fg): take the terminal again and redraw everything.
    crossterm::terminal::enable_raw_mode()?;
    crossterm::execute!(
        stdout(),
        crossterm::terminal::EnterAlternateScreen,
        EnableMouseCapture,
        EnableBracketedPaste
    )?;
    terminal.clear()?;
    Ok(())
}

/// Watch the lesson directory; on changes, re-read the lessons off the loop and send them.
fn watch_lessons(
    dir: &std::path::Path,
    content: &Content,
    tx: mpsc::UnboundedSender<AppMsg>,
) -> notify::Result<notify::RecommendedWatcher> {
    let (ping_tx, mut ping_rx) = mpsc::unbounded_channel::<()>();
    let lesson_file = |p: &std::path::Path| p.extension().is_some_and(|e| e == "md");
    let watcher = crate::watch::watch_dir(dir, lesson_file, move || {
        let _ = ping_tx.send(());
    })?;
    let content = content.clone();
    tokio::spawn(async move {
        while ping_rx.recv().await.is_some() {
            // Editors save in bursts (write, rename, chmod): wait for the burst to end.
            tokio::time::sleep(Duration::from_millis(80)).await;
            while ping_rx.try_recv().is_ok() {}
            let c = content.clone();
            let lessons = tokio::task::spawn_blocking(move || crate::course::load_lessons(&c))
                .await
                .unwrap_or_else(|e| Err(UserError::new(e.to_string())));
            if tx.send(AppMsg::Lessons(lessons)).is_err() {
                break;
            }
        }
    });
    Ok(watcher)
}
