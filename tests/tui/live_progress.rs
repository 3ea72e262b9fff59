//! Progress saved in another window shows in this one without a restart: the home screen,
//! a lesson and the Your tools screen take it in on their tick, laid under this window's
//! own work not saved yet.

use ratatui::layout::Rect;
use tooldojo::content::Content;
use tooldojo::course::LessonEntry;
use tooldojo::course::progress::Store;
use tooldojo::tui::app::{App, Input, Update};
use tooldojo::tui::theme::ThemeName;

use crate::tui_common::{env, lessons, options, press, screen};

fn shipped() -> Vec<LessonEntry> {
    tooldojo::course::load_lessons(&Content::embedded()).expect("shipped lessons")
}

/// The home screen of a window opened on the progress file in `dir`.
fn home_window(dir: &std::path::Path) -> App {
    window(dir, true, false).0
}

/// A window opened on the progress file in `dir`, on the home screen or the first lesson,
/// shown to a room or not, with the store its event loop saves through.
fn window(dir: &std::path::Path, home: bool, present: bool) -> (App, Store) {
    let opened = Store::open(Some(dir.to_path_buf()), false);
    let mut opts = options(ThemeName::Default, false);
    opts.home = home;
    opts.present = present;
    let mut app = App::new(
        opts,
        env(),
        Ok(shipped()),
        opened.progress,
        Rect::new(0, 0, 120, 35),
    );
    let store = opened.store.clone();
    app.watch_progress(opened.store);
    (app, store)
}

/// Wait until a window looks at the file again on its tick (it looked when its screen
/// came into view).
fn next_look() {
    std::thread::sleep(std::time::Duration::from_millis(1100));
}

#[test]
fn a_lesson_finished_in_another_window_shows_on_the_home_screen_after_the_tick() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = home_window(dir.path());
    assert!(app.animating(), "the home screen ticks to look at the file");
    let before = screen(&app);
    // This window's own work, not saved yet.
    app.progress_mut()
        .rehearsal
        .answer("explain/05-z#3", false, 100);
    // Another window finishes the first lesson and saves.
    let other = Store::open(Some(dir.path().to_path_buf()), false);
    let mut theirs = other.progress.clone();
    let first = shipped()[0].id.clone();
    let lp = theirs.lessons.entry(first.clone()).or_default();
    lp.done = true;
    lp.pages_seen.insert(0);
    other.store.save(&theirs).unwrap();
    assert_eq!(app.update(Input::Tick), Update::Redraw);
    let after = screen(&app);
    assert!(
        before.contains("0 done") && after.contains("1 done"),
        "{after}"
    );
    let row = |text: &str| {
        text.lines()
            .find(|l| l.contains("01 Untrusted input") && !l.contains("Start"))
            .map(str::to_owned)
            .unwrap_or_default()
    };
    assert!(row(&before).contains("to do"), "{before}");
    assert!(row(&after).contains("done"), "{after}");
    // Continue offers the next lesson now.
    assert!(
        after.contains("Start      02 validate_tool_args"),
        "{after}"
    );
    assert!(app.progress().lessons[&first].done);
    assert!(
        app.progress()
            .rehearsal
            .cards
            .contains_key("explain/05-z#3"),
        "this window's unsaved answer is kept"
    );
    // Nothing new: the next tick reads nothing.
    assert_eq!(app.update(Input::Tick), Update::None);
}

#[test]
fn a_block_answered_in_another_window_shows_on_the_open_page_and_stays_saved() {
    let dir = tempfile::tempdir().unwrap();
    let opened = Store::open(Some(dir.path().to_path_buf()), false);
    let store = opened.store.clone();
    let mut app = App::new(
        options(ThemeName::Default, false),
        env(),
        Ok(lessons()),
        opened.progress,
        Rect::new(0, 0, 120, 35),
    );
    app.watch_progress(opened.store);
    let id = "01-untrusted-input";
    let state = |app: &App| app.progress_snapshot().lessons[id].blocks["0/0"].clone();
    assert_eq!(state(&app)["cursor"], 0);
    // Opening the page saved it, as the event loop does.
    store.save(&app.progress_snapshot()).unwrap();
    // Another window moved on in the same block of the same page.
    let other = Store::open(Some(dir.path().to_path_buf()), false);
    let mut theirs = other.progress.clone();
    let mut moved = state(&app);
    moved["cursor"] = 1.into();
    let lp = theirs.lessons.entry(id.into()).or_default();
    lp.pages_seen.insert(0);
    lp.blocks.insert("0/0".into(), moved.clone());
    other.store.save(&theirs).unwrap();
    assert_eq!(app.update(Input::Tick), Update::Redraw);
    // The block on screen is the one saved, so this window's next save keeps it.
    assert_eq!(state(&app), moved);
    store.save(&app.progress_snapshot()).unwrap();
    let saved = Store::open(Some(dir.path().to_path_buf()), false).progress;
    assert_eq!(saved.lessons[id].blocks["0/0"], moved);
}

#[test]
fn continue_names_the_page_another_window_moved_on_to() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = home_window(dir.path());
    let other = Store::open(Some(dir.path().to_path_buf()), false);
    let mut theirs = other.progress.clone();
    let first = shipped()[0].id.clone();
    let lp = theirs.lessons.entry(first.clone()).or_default();
    lp.pages_seen.extend([0, 1, 2]);
    lp.last_page = 2;
    theirs.current = Some(tooldojo::course::progress::Position {
        lesson: first,
        page: 2,
        ..Default::default()
    });
    other.store.save(&theirs).unwrap();
    assert_eq!(app.update(Input::Tick), Update::Redraw);
    let text = screen(&app);
    assert!(
        text.contains("Continue   01 Untrusted input • page 3 of 6"),
        "{text}"
    );
}

#[test]
fn a_prediction_made_in_another_window_shows_in_the_open_tools_screen() {
    let dir = tempfile::tempdir().unwrap();
    let (mut mine, store) = window(dir.path(), true, false);
    press(&mut mine, "T");
    assert_eq!(mine.screen().name(), "tools");
    assert!(
        mine.animating(),
        "the Your tools screen ticks to look at the file"
    );
    // This window predicts a row of the second declaration and has not saved it yet.
    press(&mut mine, "<Down><Enter>2<Enter><Enter><Esc><Up>");
    // The other window predicts a row of the first declaration and saves.
    let (mut theirs, their_store) = window(dir.path(), true, false);
    press(&mut theirs, "T<Enter>1<Enter><Enter><Esc>");
    their_store.save(&theirs.progress_snapshot()).unwrap();
    next_look();
    assert_eq!(mine.update(Input::Tick), Update::Redraw);
    let key = mine.tools_screen().unwrap().progress_key();
    let kept = |app: &App| {
        let p = app.progress_snapshot();
        let t = &p.tools[&key];
        (
            t.predict.contains_key("tools[0] search_issues"),
            t.predict.contains_key("tools[1] get_issue"),
        )
    };
    assert_eq!(kept(&mine), (true, true));
    // The first declaration's table shows the row the other window revealed.
    press(&mut mine, "<Enter>");
    let text = screen(&mine);
    assert!(text.contains("1 of 36 revealed"), "{text}");
    // Both are saved, and the other window takes this one's in.
    store.save(&mine.progress_snapshot()).unwrap();
    next_look();
    assert_eq!(theirs.update(Input::Tick), Update::Redraw);
    assert_eq!(kept(&theirs), (true, true));
    assert_eq!(mine.update(Input::Tick), Update::None, "nothing new");
}

#[test]
fn an_open_predict_table_shows_the_rows_another_window_revealed_in_it() {
    let dir = tempfile::tempdir().unwrap();
    let (mut mine, _) = window(dir.path(), true, false);
    press(&mut mine, "T<Enter>");
    assert!(screen(&mine).contains("0 of 36 revealed"));
    let (mut theirs, their_store) = window(dir.path(), true, false);
    press(&mut theirs, "T<Enter>1<Enter><Enter><Esc>");
    their_store.save(&theirs.progress_snapshot()).unwrap();
    next_look();
    assert_eq!(mine.update(Input::Tick), Update::Redraw);
    assert_eq!(mine.tools_screen().unwrap().mode_name(), "predict");
    let text = screen(&mine);
    assert!(text.contains("1 of 36 revealed"), "{text}");
}

#[test]
fn predictions_another_window_started_over_from_leave_the_open_tools_screen() {
    let dir = tempfile::tempdir().unwrap();
    let (mut mine, store) = window(dir.path(), true, false);
    press(&mut mine, "T<Enter>1<Enter><Enter><Esc>");
    store.save(&mine.progress_snapshot()).unwrap();
    // Another window starts over with --reset-progress (the file is moved aside).
    let reset = Store::open(Some(dir.path().to_path_buf()), true);
    assert!(reset.progress.tools.is_empty());
    next_look();
    assert_eq!(mine.update(Input::Tick), Update::Redraw);
    assert!(mine.tools_screen().unwrap().progress().predict.is_empty());
    press(&mut mine, "<Enter>");
    let text = screen(&mine);
    assert!(text.contains("0 of 36 revealed"), "{text}");
    // Nothing comes back with this window's next save.
    press(&mut mine, "<Esc>");
    store.save(&mine.progress_snapshot()).unwrap();
    let (mut later, _) = window(dir.path(), true, false);
    press(&mut later, "T<Enter>");
    let text = screen(&later);
    assert!(text.contains("0 of 36 revealed"), "{text}");
}

#[test]
fn the_lesson_list_hidden_in_another_window_hides_here_unless_this_one_chose_meanwhile() {
    let dir = tempfile::tempdir().unwrap();
    let (mut a, a_store) = window(dir.path(), false, false);
    let (mut b, b_store) = window(dir.path(), false, false);
    let (mut room, _) = window(dir.path(), false, true);
    press(&mut room, "s");
    assert!(a.sidebar_visible() && b.sidebar_visible() && room.sidebar_visible());
    // Hidden in one window and saved: the other follows on its tick.
    press(&mut b, "s");
    b_store.save(&b.progress_snapshot()).unwrap();
    assert_eq!(a.update(Input::Tick), Update::Redraw);
    assert!(!a.sidebar_visible());
    // The projector's list is not the learner's choice: it stays as it was.
    let _ = room.update(Input::Tick);
    assert!(room.sidebar_visible());
    // Shown again here, not saved yet, while the other window saves something else.
    press(&mut a, "s");
    assert!(a.sidebar_visible());
    b.progress_mut()
        .rehearsal
        .answer("explain/05-z#3", false, 100);
    b_store.save(&b.progress_snapshot()).unwrap();
    next_look();
    assert_eq!(a.update(Input::Tick), Update::Redraw);
    assert!(a.sidebar_visible(), "this window's unsaved choice stays");
    // Saved, it is the other window's to follow.
    a_store.save(&a.progress_snapshot()).unwrap();
    next_look();
    assert_eq!(b.update(Input::Tick), Update::Redraw);
    assert!(b.sidebar_visible());
}
