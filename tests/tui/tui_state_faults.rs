//! Faults around the app rather than in it: a save cut short by a crash, a state directory
//! that cannot be written, and every terminal size from 1x1 to 300x100 with resizes while
//! an overlay is open.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;

use tooldojo::content::Content;
use tooldojo::course::progress::{Progress, Store};
use tooldojo::tui::app::{App, Input};
use tooldojo::tui::theme::ThemeName;

use crate::tui_common::options;

fn saved_progress(dir: &std::path::Path) -> Progress {
    let opened = Store::open(Some(dir.to_path_buf()), false);
    let mut p = opened.progress;
    p.lessons
        .entry("01-untrusted-input".into())
        .or_default()
        .done = true;
    opened.store.save(&p).unwrap();
    p
}

fn names(dir: &std::path::Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// A save is a temporary file, then a rename. A crash between the two leaves the temporary
/// file half written and the old progress file as it was: the next start reads the old
/// progress, says nothing alarming, and removes the leftover once it is clearly stale.
#[test]
fn a_save_cut_short_loses_nothing_and_its_leftover_is_cleaned() {
    let dir = tempfile::tempdir().unwrap();
    let before = saved_progress(dir.path());
    assert_eq!(
        names(dir.path()),
        vec!["progress.json"],
        "a save leaves no temp file"
    );
    // What a kill between the write and the rename leaves behind.
    let stray = dir.path().join(".progress.json-Ab12Cd.tmp");
    std::fs::write(&stray, "{\"version\": 1, \"lessons\": {\"01-untr").unwrap();
    let fresh = dir.path().join(".progress.json-Zz99Yy.tmp");
    std::fs::write(&fresh, "{").unwrap();
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(600);
    std::fs::File::options()
        .write(true)
        .open(&stray)
        .unwrap()
        .set_modified(old)
        .unwrap();

    let opened = Store::open(Some(dir.path().to_path_buf()), false);
    assert_eq!(opened.progress, before, "the old progress is intact");
    assert!(opened.notice.is_none(), "{:?}", opened.notice);
    assert!(!stray.exists(), "the stale leftover was removed");
    assert!(
        fresh.exists(),
        "a temp file that may be another save's is left alone"
    );
    opened.store.save(&before).unwrap();
}

/// A state directory nobody can write in: the learner is told, progress is still read,
/// and saving is skipped quietly instead of failing on every key (the app running on such a
/// directory is tried in a real terminal in `tui_faults`).
#[test]
fn a_read_only_state_directory_is_reported_and_the_app_runs_on() {
    let dir = tempfile::tempdir().unwrap();
    let before = saved_progress(dir.path());
    let mut perms = std::fs::metadata(dir.path()).unwrap().permissions();
    use std::os::unix::fs::PermissionsExt;
    perms.set_mode(0o555);
    std::fs::set_permissions(dir.path(), perms.clone()).unwrap();
    // Permissions do not stop root: then use a directory no one can create files in.
    let writable_anyway = std::fs::write(dir.path().join("probe"), "x").is_ok();
    let (state, expect_progress) = if writable_anyway {
        (std::path::PathBuf::from("/proc/self"), Progress::default())
    } else {
        (dir.path().to_path_buf(), before)
    };
    let opened = Store::open(Some(state), false);
    let notice = opened.notice.clone().expect("the learner is told");
    assert!(notice.contains("will not be saved"), "{notice}");
    assert_eq!(opened.progress.lessons, expect_progress.lessons);
    assert!(!opened.store.writable);
    opened
        .store
        .save(&opened.progress)
        .expect("saving is skipped, not an error");

    perms.set_mode(0o755);
    std::fs::set_permissions(dir.path(), perms).unwrap();
}

/// Sizes from 1x1 to 300x100, reached by resizes while the help overlay is open (and then
/// with it closed and a block focused): every frame draws without a panic.
#[test]
fn every_size_from_1x1_to_300x100_draws_with_an_overlay_open() {
    let content = Content::embedded();
    let mut app = App::new(
        options(ThemeName::Default, false),
        tooldojo::course::BlockEnv::new(content.clone(), Vec::new(), 0),
        tooldojo::course::load_lessons(&content),
        Progress::default(),
        Rect::new(0, 0, 80, 24),
    );
    let key = |c: KeyCode| Input::Key(KeyEvent::new(c, KeyModifiers::NONE));
    let widths = [
        1u16, 2, 3, 4, 5, 7, 9, 12, 17, 24, 33, 39, 40, 41, 59, 80, 121, 199, 257, 300,
    ];
    let heights = [
        1u16, 2, 3, 4, 5, 6, 8, 11, 12, 13, 19, 24, 37, 50, 77, 99, 100,
    ];
    let mut frames = 0;
    for round in 0..2 {
        let _ = app.update(key(KeyCode::Char('?')));
        if round == 1 {
            let _ = app.update(key(KeyCode::Esc));
            let _ = app.update(key(KeyCode::Tab));
        }
        for (i, &w) in widths.iter().enumerate() {
            // Heights up and down in turn: every resize changes both sides.
            let hs: Vec<u16> = if i % 2 == 0 {
                heights.to_vec()
            } else {
                heights.iter().rev().copied().collect()
            };
            for h in hs {
                let _ = app.update(Input::Resize(w, h));
                let buf = tooldojo::tui::screens::draw_to_buffer(&app);
                assert_eq!((buf.area.width, buf.area.height), (w, h));
                frames += 1;
            }
            let _ = app.update(key(KeyCode::Char('j')));
        }
        let _ = app.update(key(KeyCode::Char('n')));
    }
    assert_eq!(frames, 2 * widths.len() * heights.len());
}
