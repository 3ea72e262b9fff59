//! Presenter mode over the shipped lessons at 80x24, as a room sees it: every step's reveal
//! comes into view from its first line, `h` undoes exactly one step (at a page's first step
//! it goes back to the page before, as it was left), pages come back as new, the help
//! lists every key that works, and Enter on a block shows its top.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use tooldojo::content::Content;
use tooldojo::course::progress::Progress;
use tooldojo::tui::app::{App, Input, Update};
use tooldojo::tui::theme::ThemeName;

use crate::tui_common::{env, options, press, screen};

/// `--present --lesson ID` in a `w`x`h` window.
fn presenter(lesson: &str, w: u16, h: u16) -> App {
    let lessons = tooldojo::course::load_lessons(&Content::embedded()).expect("shipped lessons");
    let mut opts = options(ThemeName::Projector, false);
    opts.demo = true;
    opts.lesson = Some(lesson.to_owned());
    App::new(
        opts,
        env(),
        Ok(lessons),
        Progress::default(),
        Rect::new(0, 0, w, h),
    )
}

fn step_shows(app: &App, counter: &str) -> String {
    let text = screen(app);
    assert!(text.contains(counter), "{counter}:\n{text}");
    text
}

/// Let an animation (a trace playing) run to its end.
fn run_out(app: &mut App) {
    let mut ticks = 0;
    while app.animating() {
        let _ = app.update(Input::Tick);
        ticks += 1;
        assert!(ticks < 20_000, "the run ends");
    }
}

#[test]
fn a_code_step_taller_than_the_view_opens_at_its_first_line() {
    let mut app = presenter("02-validate-tool-args", 80, 24);
    let _ = press(&mut app, "nnnn ");
    let text = step_shows(&app, "step 2/6");
    assert!(text.contains("def validate_tool_args("), "{text}");
    assert!(text.contains("# 1. required"), "{text}");
    assert!(text.contains("more below"), "what is cut is marked: {text}");

    let mut app = presenter("06-get-ticket-contract", 80, 24);
    let _ = press(&mut app, "nn     ");
    let text = step_shows(&app, "step 6/7");
    assert!(text.contains("type Ticket = {"), "{text}");
}

#[test]
fn the_model_answer_step_shows_its_heading_and_the_next_paragraph_shows_too() {
    let mut app = presenter("07-tenant-scope-and-copies", 80, 24);
    let _ = press(&mut app, "nn   ");
    let text = step_shows(&app, "step 4/10");
    assert!(text.contains("│Model answer"), "{text}");
    assert!(
        text.contains("The tenant is not part of the tool's contract"),
        "{text}"
    );
    assert!(
        text.contains("more above"),
        "what is cut above is marked: {text}"
    );
    // Every step's reveal is seen: the paragraph after the block comes into view.
    let _ = press(&mut app, " ");
    let text = step_shows(&app, "step 5/10");
    assert!(
        text.contains("Now predict the rows where the tenant matters"),
        "{text}"
    );
}

#[test]
fn a_wire_row_reveal_shows_the_table_its_verdict_and_the_count() {
    let mut app = presenter("15-the-wire", 80, 24);
    let _ = press(&mut app, "nnn    ");
    let text = step_shows(&app, "step 5/11");
    assert!(text.contains("2 of 8 rows shown"), "{text}");
    let row = text
        .lines()
        .find(|l| l.contains("▶ 2 "))
        .unwrap_or_default();
    assert!(
        row.contains("→ toolu_01"),
        "the row with its verdict: {text}"
    );
    assert!(text.contains("Row 2: anthropic-id-not-text"), "{text}");
    // Opening the help and closing it leaves the view where the step put it.
    let _ = press(&mut app, "?<Esc>");
    assert_eq!(screen(&app), text);
}

#[test]
fn h_hides_the_last_row_of_a_table_and_the_counter_goes_down_by_one() {
    let mut app = presenter("02-validate-tool-args", 80, 24);
    let _ = press(&mut app, "nn");
    while !screen(&app).contains("2 of 4 rows shown") {
        let _ = press(&mut app, " ");
        assert!(app.page() == 2, "the table is on page 3");
    }
    let before = screen(&app);
    assert!(before.contains("step 9/11"), "{before}");
    let _ = press(&mut app, "h");
    let text = step_shows(&app, "step 8/11");
    assert!(
        text.contains("1 of 4 rows shown"),
        "one row hidden again: {text}"
    );
    let _ = press(&mut app, " ");
    let text = step_shows(&app, "step 9/11");
    assert!(text.contains("2 of 4 rows shown"), "{text}");
}

#[test]
fn h_steps_a_played_trace_back_and_a_page_comes_back_as_new() {
    let mut app = presenter("09-bounded-loop", 80, 24);
    let _ = press(&mut app, "n     ");
    run_out(&mut app);
    assert!(step_shows(&app, "step 6/6").contains("● end"));
    let _ = press(&mut app, "h");
    let text = step_shows(&app, "step 5/6");
    assert!(
        text.contains("paused · t=0 ms"),
        "back to its start: {text}"
    );
    // Played again, then left, then opened again with p: as new, like every block.
    let _ = press(&mut app, " ");
    run_out(&mut app);
    let _ = press(&mut app, " ");
    assert_eq!(app.page(), 2);
    let _ = press(&mut app, "p");
    assert_eq!(app.page(), 1);
    step_shows(&app, "step 1/6");
    let _ = press(&mut app, "    ");
    let text = step_shows(&app, "step 5/6");
    assert!(text.contains("paused · t=0 ms"), "{text}");
}

#[test]
fn h_at_a_pages_first_step_goes_back_to_the_page_as_it_was_left() {
    let mut app = presenter("09-bounded-loop", 80, 24);
    let _ = press(&mut app, "n     ");
    run_out(&mut app);
    let left = step_shows(&app, "step 6/6");
    let _ = press(&mut app, " ");
    assert_eq!(app.page(), 2, "one Space too many");
    step_shows(&app, "step 1/");
    let _ = press(&mut app, "<Left>");
    assert_eq!(app.page(), 1);
    assert_eq!(
        screen(&app),
        left,
        "the page as it was left, its last step shown"
    );
    // At the first page of the first lesson there is nothing before.
    let mut app = presenter("01-untrusted-input", 80, 24);
    let _ = press(&mut app, "h");
    assert_eq!((app.lesson(), app.page()), (0, 0));
}

#[test]
fn h_walks_back_through_several_pages_each_as_it_was_left() {
    // Lesson 9's trace page played to its end, then on across two pages (the last one
    // in the next lesson), then back with h: each page comes back as it was left.
    let mut app = presenter("09-bounded-loop", 80, 24);
    let _ = press(&mut app, "n     ");
    run_out(&mut app);
    let trace_page = step_shows(&app, "step 6/6");
    let start = (app.lesson(), app.page());
    let mut left = Vec::new();
    for _ in 0..200 {
        if app.lesson() != start.0 {
            break;
        }
        let before = (app.lesson(), app.page());
        let _ = press(&mut app, " ");
        if (app.lesson(), app.page()) != before && (app.lesson(), app.page()) != start {
            left.push(before);
        }
        run_out(&mut app);
    }
    assert_ne!(app.lesson(), start.0, "Space reaches the next lesson");
    assert!(left.len() >= 2, "crossed pages {left:?}");
    // Back to the trace page, a step at a time.
    for _ in 0..200 {
        if (app.lesson(), app.page()) == start {
            break;
        }
        let _ = press(&mut app, "h");
    }
    assert_eq!((app.lesson(), app.page()), start, "h walks back to it");
    assert_eq!(
        screen(&app),
        trace_page,
        "the trace page as it was left, its trace played to the end"
    );
}

#[test]
fn the_presenter_help_lists_every_key_that_works_on_a_focused_block() {
    let mut app = presenter("15-the-wire", 80, 24);
    let _ = press(&mut app, "nnn   ?");
    let rows = tooldojo::tui::help::help_lines(&app);
    let keys: Vec<&str> = rows.iter().map(|(k, _, _)| k.as_str()).collect();
    for key in [
        "Space",
        "Right/l",
        "h/Left",
        "Backspace",
        "x",
        "X",
        "j/Down",
        "k/Up",
        "g/Home",
        "G/End",
        "PgDn",
    ] {
        assert!(keys.contains(&key), "{key} in {keys:?}");
    }
    let lesson_list = rows.iter().any(|(_, what, _)| what == "lesson list");
    assert!(!lesson_list, "h/Left steps back here: {rows:?}");
    let _ = press(&mut app, "<Esc>j");
    assert!(screen(&app).contains("step 4/11"), "j scrolls");
}

#[test]
fn enter_on_a_block_whose_top_is_scrolled_away_shows_its_top() {
    let mut app = presenter("04-value-constraints", 80, 24);
    let _ = press(&mut app, "nnn      ");
    let text = step_shows(&app, "step 7/8");
    assert!(
        !text.contains("╭ arguments"),
        "the block's top is above: {text}"
    );
    let _ = press(&mut app, "<Enter>");
    let text = screen(&app);
    assert!(text.contains("Enter/e edit arguments"), "entered: {text}");
    assert!(text.contains("╭ arguments"), "its top in view: {text}");
}

/// The keys a help label names ("h/Left", "1-9", "1-3/Left/Right", "PgDn"); keys with Ctrl
/// are left out (the comparison below presses none).
pub(crate) fn keys_named(label: &str) -> Vec<KeyCode> {
    let mut out = Vec::new();
    for name in label.split('/') {
        let range: Vec<char> = name.chars().collect();
        if let [a @ '1'..='9', '-', b @ '1'..='9'] = range[..] {
            out.extend((a..=b).map(KeyCode::Char));
            continue;
        }
        match name {
            "Space" => out.push(KeyCode::Char(' ')),
            "Enter" => out.push(KeyCode::Enter),
            "Esc" => out.push(KeyCode::Esc),
            "Tab" => out.push(KeyCode::Tab),
            "S-Tab" => out.push(KeyCode::BackTab),
            "Up" => out.push(KeyCode::Up),
            "Down" => out.push(KeyCode::Down),
            "Left" => out.push(KeyCode::Left),
            "Right" => out.push(KeyCode::Right),
            "Home" => out.push(KeyCode::Home),
            "End" => out.push(KeyCode::End),
            "PgUp" => out.push(KeyCode::PageUp),
            "PgDn" => out.push(KeyCode::PageDown),
            "Backspace" => out.push(KeyCode::Backspace),
            ctrl if ctrl.starts_with("Ctrl") => {}
            one if one.chars().count() == 1 => out.extend(one.chars().map(KeyCode::Char)),
            other => panic!("a help label this test cannot read: {other:?} in {label:?}"),
        }
    }
    out
}

/// Every key without Ctrl or Alt a presenter might press.
pub(crate) fn every_plain_key() -> Vec<KeyCode> {
    let mut out: Vec<KeyCode> = ('a'..='z')
        .chain('A'..='Z')
        .chain('0'..='9')
        .chain(" ?/[]+-,.<>=!".chars())
        .map(KeyCode::Char)
        .collect();
    out.extend([
        KeyCode::Enter,
        KeyCode::Esc,
        KeyCode::Tab,
        KeyCode::BackTab,
        KeyCode::Up,
        KeyCode::Down,
        KeyCode::Left,
        KeyCode::Right,
        KeyCode::Home,
        KeyCode::End,
        KeyCode::PageUp,
        KeyCode::PageDown,
        KeyCode::Backspace,
        KeyCode::Delete,
    ]);
    out
}

/// The screen without the presenter's clock (it may tick between two draws).
fn without_clock(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        match line.find(" • ") {
            Some(at) if line.starts_with('╰') => {
                let rest = &line[at + " • ".len()..];
                let clock_end = rest.find(' ').unwrap_or(rest.len());
                out.push_str(&line[..at]);
                out.push_str(&rest[clock_end..]);
            }
            _ => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// Does `key` do anything to the app `open` builds: change what is on screen, or quit?
pub(crate) fn key_works(open: &dyn Fn() -> App, key: KeyCode) -> bool {
    let mut app = open();
    let before = without_clock(&screen(&app));
    let update = app.update(Input::Key(KeyEvent::new(key, KeyModifiers::NONE)));
    matches!(update, Update::Quit | Update::Suspend) || without_clock(&screen(&app)) != before
}

/// In presenter mode, on the page and on each kind of block with focus, every key that does
/// something is in the help, and every key the help gives for the block does something.
#[test]
fn the_presenter_help_names_every_key_that_works_and_no_other() {
    // (lesson, keys to the state, what is then on screen)
    let states: [(&str, &str, &str); 5] = [
        ("01-untrusted-input", "nn       ", "None of these is exotic"),
        ("01-untrusted-input", "nn        ", "Quiz"),
        ("01-untrusted-input", "nnnn      ", "Model answer"),
        (
            "16-your-tools-and-logs",
            "nn      ",
            "schema   search_issues (",
        ),
        ("09-bounded-loop", "n    ", "Trace: happy-path"),
    ];
    let mut problems = Vec::new();
    for (lesson, script, shows) in states {
        let open = || {
            let mut app = presenter(lesson, 80, 24);
            let _ = press(&mut app, script);
            app
        };
        let app = open();
        assert!(
            screen(&app).contains(shows),
            "{lesson} {script:?}:\n{}",
            screen(&app)
        );
        let help = tooldojo::tui::help::help_lines(&app);
        let listed: Vec<KeyCode> = help.iter().flat_map(|(k, _, _)| keys_named(k)).collect();
        let unlisted: Vec<KeyCode> = every_plain_key()
            .into_iter()
            .filter(|k| !listed.contains(k) && key_works(&open, *k))
            .collect();
        if !unlisted.is_empty() {
            problems.push(format!(
                "{lesson} {script:?}: {unlisted:?} work but the help does not name them: {help:?}"
            ));
        }
        let idle: Vec<KeyCode> = help
            .iter()
            .filter(|(_, _, section)| *section == Some("This block"))
            .flat_map(|(k, _, _)| keys_named(k))
            .filter(|k| !key_works(&open, *k))
            .collect();
        if !idle.is_empty() {
            problems.push(format!(
                "{lesson} {script:?}: the help gives {idle:?} for the block, which do nothing"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Press Space until `shows` is on screen (at most `max` times).
fn step_until(app: &mut App, shows: &str, max: usize) {
    for _ in 0..max {
        if screen(app).contains(shows) {
            return;
        }
        let _ = press(app, " ");
    }
    assert!(screen(app).contains(shows), "{shows}:\n{}", screen(app));
}

#[test]
fn h_hides_one_row_and_leaves_the_rest_of_the_table_as_it_was() {
    let mut app = presenter("16-your-tools-and-logs", 80, 24);
    let _ = press(&mut app, "nn       ");
    step_shows(&app, "2 of 8 rows shown");
    // The whole schema shown with `v`, a third row shown from inside the table.
    let _ = press(&mut app, "v<Enter><Enter><Esc>");
    let text = step_shows(&app, "step 9/14");
    assert!(text.contains("v schema by name"), "{text}");
    assert!(
        text.contains("the real validator said value"),
        "row 3: {text}"
    );
    let _ = press(&mut app, "h");
    let text = step_shows(&app, "step 8/14");
    assert!(
        text.contains("v schema by name"),
        "the schema still shown whole: {text}"
    );
    let _ = press(
        &mut app,
        "<Up><Up><Up><Up><Up><Up><Up><Up><Up><Up><Up><Up><Up><Up><Up>",
    );
    let text = step_shows(&app, "2 of 8 rows shown");
    assert!(text.contains("▶ 2 "), "on the row it was on: {text}");
    assert!(
        text.contains("schema   search_issues: {\"name\""),
        "the schema whole: {text}"
    );
}

#[test]
fn h_hides_the_model_answer_and_keeps_the_key_points_ticked() {
    let mut app = presenter("01-untrusted-input", 80, 24);
    let _ = press(&mut app, "nnnn      ");
    // A key point ticked; `G` shows the line under the block that counts them.
    let _ = press(&mut app, "<Enter> <Esc>G");
    step_shows(&app, "1 of 5 key points ticked");
    let _ = press(&mut app, "h");
    let text = step_shows(&app, "step 6/7");
    assert!(!text.contains("Model answer"), "{text}");
    let _ = press(&mut app, " G");
    step_shows(&app, "1 of 5 key points ticked");
}

#[test]
fn h_unticks_the_last_checklist_item_and_keeps_one_ticked_by_hand() {
    let mut app = presenter("16-your-tools-and-logs", 80, 24);
    let _ = press(&mut app, "nnnnnnnn");
    step_until(&mut app, "Checklist", 12);
    let ticked = |app: &App| -> Vec<bool> {
        let text = screen(app);
        [
            "I ran tooldojo tools",
            "I fixed one trap",
            "I ran tooldojo audit",
        ]
        .iter()
        .map(|item| {
            let line = text.lines().find(|l| l.contains(item));
            line.unwrap_or_else(|| panic!("{item}:\n{text}"))
                .contains('✓')
        })
        .collect()
    };
    // The third item ticked by hand, then the presenter's step ticks the first.
    let _ = press(&mut app, "<Enter>3<Esc> ");
    assert_eq!(ticked(&app), [true, false, true], "{}", screen(&app));
    let _ = press(&mut app, "h");
    assert_eq!(ticked(&app), [false, false, true], "{}", screen(&app));
}

#[test]
fn a_trace_paused_mid_run_counts_its_step_and_h_takes_back_only_that() {
    let mut app = presenter("09-bounded-loop", 80, 24);
    let _ = press(&mut app, "n    ");
    step_shows(&app, "step 5/6");
    // Played, then paused before its end.
    let _ = press(&mut app, " ");
    for _ in 0..10 {
        let _ = app.update(Input::Tick);
    }
    let _ = press(&mut app, " ");
    assert!(!app.animating());
    let text = step_shows(&app, "step 6/6");
    assert!(text.contains("paused") && !text.contains("● end"), "{text}");
    assert!(!text.contains("t=0 ms"), "mid-run: {text}");
    // One step back: the run at its start, the block still shown.
    let _ = press(&mut app, "h");
    let text = step_shows(&app, "step 5/6");
    assert!(text.contains("paused · t=0 ms"), "{text}");
    // Playing counts as well.
    let _ = press(&mut app, " ");
    assert!(app.animating());
    step_shows(&app, "step 6/6");
}

#[test]
fn the_bar_offers_block_keys_only_once_a_block_is_on_screen() {
    // The key bar: the screen's last two rows.
    let bar = |app: &App| {
        let text = screen(app);
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len() - 2..].join("\n")
    };
    // A page of text only: no block to reach, reset or use.
    let app = presenter("14-real-declarations", 80, 24);
    let text = bar(&app);
    assert!(!text.contains("reset"), "{text}");
    assert!(
        !text.contains("next block") && !text.contains("use block"),
        "{text}"
    );
    // A page whose blocks come later: none of them is offered before its step.
    let mut app = presenter("12-parallel-and-partial", 80, 24);
    let _ = press(&mut app, "n");
    let text = step_shows(&app, "step 1/");
    let keys = bar(&app);
    assert!(
        !keys.contains("next block") && !keys.contains("use block"),
        "{keys}"
    );
    assert!(!keys.contains("reset"), "{keys}");
    // Tab does not go to a block not stepped to yet.
    let _ = press(&mut app, "<Tab>");
    assert_eq!(screen(&app), text);
}

#[test]
fn a_revealed_row_shows_its_whole_explanation_when_only_the_count_above_must_go() {
    let mut app = presenter("14-real-declarations", 80, 24);
    let _ = press(&mut app, "n         ");
    let text = step_shows(&app, "step 10/14");
    assert!(text.contains("▶ 4 "), "the row: {text}");
    assert!(
        text.contains("The model wrote the filter as a query string")
            && text.contains("declared, so nothing inside it is looked at."),
        "the whole why: {text}"
    );
}

/// The key bar's text (its last two rows at 80x24: the bar may wrap).
fn bar(app: &App) -> String {
    let text = screen(app);
    let rows: Vec<&str> = text.lines().collect();
    rows[rows.len().saturating_sub(2)..].join("\n")
}

#[test]
fn the_bar_says_what_space_does_to_a_trace_and_x_keeps_its_title_in_view() {
    let mut app = presenter("02-validate-tool-args", 80, 24);
    let _ = press(&mut app, "nnnnn    ");
    step_shows(&app, "step 5/6");
    assert!(bar(&app).contains("Space play"), "{}", bar(&app));
    let _ = press(&mut app, " ");
    assert!(app.animating());
    assert!(bar(&app).contains("Space pause"), "{}", bar(&app));
    for _ in 0..10 {
        let _ = app.update(Input::Tick);
    }
    let _ = press(&mut app, " ");
    step_shows(&app, "step 6/6");
    assert!(bar(&app).contains("Space play on"), "{}", bar(&app));
    assert!(!bar(&app).contains("next step"), "{}", bar(&app));
    // x: the run back at its start, its title in view; the counter counts its play as the
    // step Space shows next.
    let _ = press(&mut app, "x");
    let text = step_shows(&app, "step 5/6");
    assert!(text.contains("Block reset."), "{text}");
    assert!(
        text.contains("╭ Trace: repair"),
        "the title stays in view: {text}"
    );
    // With the focus on the page, Space still plays the trace, and the bar says so.
    let _ = press(&mut app, "<Esc>");
    assert!(bar(&app).contains("Space play"), "{}", bar(&app));
    // Played to its end, Space goes on to the next page.
    let _ = press(&mut app, " ");
    run_out(&mut app);
    step_shows(&app, "step 6/6");
    assert!(bar(&app).contains("Space next step"), "{}", bar(&app));
}
