//! `P` from the home screen: with no solution in the directory the practice screen asks
//! before it writes a starter there, naming the whole path; Esc leaves nothing behind,
//! Enter writes the starter, and a file that is there is graded as it is, never replaced.

use ratatui::layout::Rect;
use tooldojo::course::progress::Progress;
use tooldojo::tui::app::App;
use tooldojo::tui::theme::ThemeName;

use crate::tui_common::{env, lessons, options, press, screen};

fn home(w: u16, h: u16, dir: &std::path::Path) -> App {
    let mut opts = options(ThemeName::Default, false);
    opts.home = true;
    let mut app = App::new(
        opts,
        env(),
        Ok(lessons()),
        Progress::default(),
        Rect::new(0, 0, w, h),
    );
    app.set_practice_dir(dir.to_path_buf());
    app
}

/// The screen's text with the lines joined, so a wrapped path reads whole.
fn joined(app: &App) -> String {
    screen(app).split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn p_asks_before_writing_a_starter_and_esc_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("solution.py");
    for (w, h) in [(80, 24), (120, 35), (160, 45)] {
        let mut app = home(w, h, dir.path());
        assert_eq!(app.screen().name(), "home");
        let _ = press(&mut app, "P");
        assert_eq!(app.screen().name(), "practice");
        assert!(app.practice_screen().unwrap().asking());
        let text = joined(&app);
        let ask = format!("Write a starter at {}?", file.display());
        assert!(text.contains(&ask), "{w}x{h}: {text}");
        assert!(text.contains("Enter write"), "{w}x{h}: {text}");
        assert!(!file.exists(), "{w}x{h}: written before Enter");
        // `g` grades nothing yet, and Esc goes back with nothing written.
        let _ = press(&mut app, "g<Esc>");
        assert_eq!(app.screen().name(), "home");
        assert!(
            std::fs::read_dir(dir.path()).unwrap().next().is_none(),
            "{w}x{h}: the directory is left empty"
        );
    }
}

#[test]
fn enter_writes_the_starter_and_a_file_there_is_never_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("solution.py");
    let mut app = home(100, 30, dir.path());
    let _ = press(&mut app, "P<Enter>");
    let practice = app.practice_screen().unwrap();
    assert!(!practice.asking());
    assert!(practice.grader().is_some());
    assert!(file.exists());
    assert!(joined(&app).contains("A starter is at"), "{}", joined(&app));
    // Edited, then opened again: graded as it is, with no question.
    let _ = press(&mut app, "<Esc>");
    std::fs::write(
        &file,
        "def execute_tool(name, args, context, records):\n    pass\n",
    )
    .unwrap();
    let _ = press(&mut app, "P");
    let practice = app.practice_screen().unwrap();
    assert!(!practice.asking());
    assert!(joined(&app).contains("Grading "), "{}", joined(&app));
    assert!(std::fs::read_to_string(&file).unwrap().contains("pass"));
}

#[test]
fn a_javascript_solution_there_is_graded_without_asking() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("solution.js"), "module.exports = {};\n").unwrap();
    let mut app = home(100, 30, dir.path());
    let _ = press(&mut app, "P");
    assert!(!app.practice_screen().unwrap().asking());
    assert!(!dir.path().join("solution.py").exists());
}
