//! Blocks in presenter mode (`--present`): a predict table asks the room nothing, it only
//! shows rows and, row by row, the real verdicts.

use tooldojo::course::progress::Progress;
use tooldojo::tui::app::Focus;

use crate::stage_app::app_with;
use crate::tui_common::{press, screen};

#[test]
fn a_presenter_table_shows_rows_and_verdicts_and_asks_for_no_prediction() {
    let mut app = app_with(Progress::default(), Some("01-reading"), false, true);
    let _ = press(&mut app, "  ");
    assert_eq!(app.focus(), Focus::Block(0), "the table appears, focused");
    let text = screen(&app);
    assert!(
        text.contains("Row 1:") && text.contains("call "),
        "the row: {text}"
    );
    for asked in ["( ) 1", "predict ", "Pick an outcome", "predict the table"] {
        assert!(!text.contains(asked), "{asked:?}:\n{text}");
    }
    assert!(
        text.contains("Space shows the next row's real verdict"),
        "{text}"
    );
    // Entered, the table moves between rows; a number picks nothing, Space shows a verdict.
    let _ = press(&mut app, "<Enter>");
    let bar = screen(&app);
    assert!(bar.contains("Space/Right next verdict"), "{bar}");
    assert!(bar.contains("Left take it back"), "{bar}");
    assert!(!bar.contains("pick") && !bar.contains("lock"), "{bar}");
    let _ = press(&mut app, "1");
    let text = screen(&app);
    assert!(!text.contains("(●)") && !text.contains("( )"), "{text}");
    let _ = press(&mut app, " ");
    let text = screen(&app);
    assert!(
        text.contains("shown    the real executor returned"),
        "{text}"
    );
    assert!(text.contains("1 of 3 rows shown"), "{text}");
    assert!(
        !text.contains("Pick an outcome") && !text.contains("score"),
        "{text}"
    );
    // Left takes the verdict back and Right (l) shows it again, as on the page; the help
    // does not offer Left for the lesson list here, since the table takes it.
    let _ = press(&mut app, "<Left>");
    assert!(
        !screen(&app).contains("1 of 3 rows shown"),
        "{}",
        screen(&app)
    );
    let _ = press(&mut app, "l");
    assert!(
        screen(&app).contains("1 of 3 rows shown"),
        "{}",
        screen(&app)
    );
    let _ = press(&mut app, "?");
    let help = screen(&app);
    assert!(!help.contains("lesson list"), "{help}");
}

#[test]
fn out_of_presenter_mode_the_table_still_asks_for_a_prediction() {
    let mut app = app_with(Progress::default(), Some("01-reading"), false, false);
    let _ = press(&mut app, "<Tab>");
    let text = screen(&app);
    assert!(text.contains("Enter predict the table"), "{text}");
    let _ = press(&mut app, "<Enter>");
    let text = screen(&app);
    assert!(
        text.contains("( ) 1") && text.contains("Pick an outcome"),
        "{text}"
    );
    let _ = press(&mut app, "1");
    assert!(screen(&app).contains("Enter locks your prediction."));
}

/// A shipped lesson in presenter mode at 80x24, after `keys`.
fn presenter_at(lesson: &str, keys: &str) -> tooldojo::tui::app::App {
    use ratatui::layout::Rect;
    use tooldojo::content::Content;
    use tooldojo::tui::theme::ThemeName;
    let mut opts = crate::tui_common::options(ThemeName::Projector, false);
    opts.demo = true;
    opts.lesson = Some(lesson.to_owned());
    let lessons = tooldojo::course::load_lessons(&Content::embedded());
    let mut app = tooldojo::tui::app::App::new(
        opts,
        crate::tui_common::env(),
        lessons,
        Progress::default(),
        Rect::new(0, 0, 80, 24),
    );
    let _ = press(&mut app, keys);
    app
}

/// The shipped lesson 01 in presenter mode at 80x24, its quiz shown and focused.
fn presenter_quiz() -> tooldojo::tui::app::App {
    let app = presenter_at("01-untrusted-input", "nn        ");
    assert!(matches!(app.focus(), Focus::Block(_)), "{}", screen(&app));
    app
}

#[test]
fn a_presenter_quiz_shows_its_options_and_asks_the_room_to_pick_none() {
    let mut app = presenter_quiz();
    let text = screen(&app);
    assert!(
        text.contains("1. It raises a TypeError") && text.contains("4. The model notices"),
        "the question's options: {text}"
    );
    for asked in ["( )", "Pick an answer", "pick", "answer the quiz"] {
        assert!(!text.contains(asked), "{asked:?}:\n{text}");
    }
    assert!(text.contains("Space shows the right answer"), "{text}");
    // A number picks nothing, focused or entered.
    let _ = press(&mut app, "1");
    assert_eq!(screen(&app), text);
    let _ = press(&mut app, "<Enter>1<Esc>");
    assert!(!screen(&app).contains('✗'), "{}", screen(&app));
    // Space: the right option and its explanation, and no other option's.
    let _ = press(&mut app, " ");
    let text = screen(&app);
    let right = text
        .lines()
        .find(|l| l.contains("2. It runs and quietly"))
        .unwrap_or_default();
    assert!(right.contains('✓'), "the right option is marked: {text}");
    assert!(
        text.contains("\"3\" * 2 is \"33\""),
        "its explanation: {text}"
    );
    for other in [
        "A crash is loud",
        "Providers do not promise",
        "Only if something",
    ] {
        assert!(!text.contains(other), "{other:?}:\n{text}");
    }
    assert!(
        !text.contains("Correct") && !text.contains("first try") && !text.contains("(●)"),
        "nobody answered: {text}"
    );
}

/// The shipped lesson 01 in presenter mode at 80x24, its explain block shown and focused.
fn presenter_explain() -> tooldojo::tui::app::App {
    let app = presenter_at("01-untrusted-input", "nnnn     ");
    assert!(
        screen(&app).contains("Explain in your own words"),
        "{}",
        screen(&app)
    );
    app
}

/// The key bar: the screen's last two rows.
fn bar(app: &tooldojo::tui::app::App) -> String {
    let text = screen(app);
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len() - 2..].join("\n")
}

#[test]
fn a_presenter_explain_block_asks_nobody_to_write_and_the_bar_says_what_is_left() {
    let mut app = presenter_explain();
    for asked in ["answer in your words", "write your answer", "edit"] {
        assert!(
            !screen(&app).contains(asked),
            "{asked:?}:\n{}",
            screen(&app)
        );
    }
    assert!(
        screen(&app).contains("Space shows the model answer"),
        "{}",
        screen(&app)
    );
    // The presenter's Space shows the model answer: what is left is ticking key points.
    let _ = press(&mut app, " ");
    let text = screen(&app);
    assert!(text.contains("Model answer"), "{text}");
    let bar = bar(&app);
    assert!(!bar.contains("answer in your words"), "{bar}");
    assert!(bar.contains("Enter tick key points"), "{bar}");
    // Entered: ticking and hiding the answer, nothing to write; `e` writes nothing.
    let _ = press(&mut app, "<Enter>");
    let bar_in = self::bar(&app);
    assert!(
        bar_in.contains("Space/Enter/1-5 tick") && bar_in.contains("c hide answer"),
        "{bar_in}"
    );
    assert!(!bar_in.contains("edit"), "{bar_in}");
    let _ = press(&mut app, "e");
    assert!(!app.takes_text(), "e starts no writing:\n{}", screen(&app));
}

#[test]
fn a_presenter_explain_block_shows_no_answer_box_and_no_learner_hints() {
    let mut app = presenter_explain();
    let learner_only = [
        "Your answer",
        "(empty)",
        "no answer written",
        "no shared words",
        "tick the ones your answer covered",
        "Hint, not a grade",
    ];
    for step in ["question", "model answer"] {
        let text = screen(&app);
        for part in learner_only {
            assert!(!text.contains(part), "{step}: {part:?}:\n{text}");
        }
        let _ = press(&mut app, " ");
    }
    // The model answer and its key points are shown (the room sees them, ticked or not).
    let _ = press(&mut app, "h");
    let text = screen(&app);
    assert!(text.contains("Model answer"), "{text}");
    assert!(text.contains("Key points"), "{text}");
}
