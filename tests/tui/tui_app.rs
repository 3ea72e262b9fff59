//! Behaviour of the app driven by scripted keys against an off-screen buffer.

use crate::tui_common;

use ratatui::layout::Rect;
use tooldojo::course::LessonState;
use tooldojo::course::progress::Progress;
use tooldojo::tui::app::{App, Focus, Input, Overlay, Update};
use tooldojo::tui::theme::ThemeName;
use tui_common::*;

#[test]
fn no_size_panics_and_small_sizes_say_so() {
    let mut app = new_app(80, 24, ThemeName::Default, false);
    for w in 0..=50u16 {
        for h in 0..=16u16 {
            let _ = app.update(Input::Resize(w, h));
            let text = screen(&app);
            if (1..40).contains(&w) && (1..12).contains(&h) && w >= 10 && h >= 1 {
                assert!(
                    text.to_lowercase().contains("need") || text.contains("40x12"),
                    "{w}x{h}: {text}"
                );
            }
        }
    }
    let _ = app.update(Input::Resize(1, 1));
    assert_eq!(screen(&app).lines().count(), 1);
    let _ = app.update(Input::Resize(39, 12));
    assert!(screen(&app).contains("need 40x12"), "{}", screen(&app));
}

#[test]
fn pages_move_across_lessons_and_back() {
    let mut app = new_app(80, 24, ThemeName::Default, false);
    assert_eq!((app.lesson(), app.page()), (0, 0));
    let _ = press(&mut app, "n");
    assert_eq!((app.lesson(), app.page()), (0, 1));
    let _ = press(&mut app, "n");
    assert_eq!(
        (app.lesson(), app.page()),
        (1, 0),
        "next lesson at the end of one"
    );
    assert!(screen(&app).contains("does not parse"));
    let _ = press(&mut app, "n");
    assert_eq!(app.lesson(), 2);
    let _ = press(&mut app, "n");
    assert_eq!(app.lesson(), 2, "stays on the last page");
    assert!(screen(&app).contains("last page"));
    let _ = press(&mut app, "pp");
    assert_eq!(
        (app.lesson(), app.page()),
        (0, 1),
        "p goes to the last page of the previous lesson"
    );
}

#[test]
fn q_quits_and_ctrl_c_quits() {
    let mut app = new_app(80, 24, ThemeName::Default, false);
    assert_eq!(press(&mut app, "q"), vec![Update::Quit]);
    let mut app = new_app(80, 24, ThemeName::Default, false);
    assert_eq!(press(&mut app, "<C-c>"), vec![Update::Quit]);
}

#[test]
fn help_toggles_and_esc_closes() {
    let mut app = new_app(80, 24, ThemeName::Default, false);
    let _ = press(&mut app, "?");
    assert_eq!(app.overlay(), Some(Overlay::Help));
    assert!(screen(&app).contains("next page"));
    let _ = press(&mut app, "<Esc>");
    assert_eq!(app.overlay(), None);
    let _ = press(&mut app, "??");
    assert_eq!(app.overlay(), None);
}

#[test]
fn text_blocks_take_q_n_and_question_mark_until_esc() {
    let mut app = new_app(80, 24, ThemeName::Default, false);
    app.replace_widget(0, Fake::boxed(6, true));
    let _ = press(&mut app, "<Tab>");
    assert_eq!(app.focus(), Focus::Block(0));
    assert!(
        screen(&app).contains("start"),
        "key bar shows the block's hints"
    );
    let _ = press(&mut app, "<Enter>");
    assert!(app.active());
    let ups = press(&mut app, "qn?p");
    assert!(!ups.contains(&Update::Quit));
    assert_eq!((app.lesson(), app.page()), (0, 0));
    assert_eq!(app.overlay(), None);
    assert!(screen(&app).contains("typed=qn?p"));
    let _ = press(&mut app, "<Esc>");
    assert!(!app.active());
    assert_eq!(app.focus(), Focus::Block(0));
    let _ = press(&mut app, "<Esc>");
    assert_eq!(app.focus(), Focus::Page);
    assert_eq!(press(&mut app, "q"), vec![Update::Quit]);
}

#[test]
fn ctrl_c_quits_even_inside_a_text_block() {
    let mut app = new_app(80, 24, ThemeName::Default, false);
    app.replace_widget(0, Fake::boxed(6, true));
    let _ = press(&mut app, "<Tab><Enter>");
    assert!(app.active());
    assert_eq!(press(&mut app, "<C-c>"), vec![Update::Quit]);
}

#[test]
fn ctrl_z_undoes_in_a_text_block_and_suspends_anywhere_else() {
    let mut app = new_app(80, 24, ThemeName::Default, false);
    app.replace_widget(0, Fake::boxed(6, true));
    let _ = press(&mut app, "<Tab><Enter>");
    assert!(app.active());
    // Typing, the key is the block's (a real editor undoes on it).
    assert_ne!(press(&mut app, "<C-z>"), vec![Update::Suspend]);
    assert!(screen(&app).contains("typed=z"), "{}", screen(&app));
    let _ = press(&mut app, "?");
    let _ = press(&mut app, "<Esc>");
    assert_eq!(press(&mut app, "<C-z>"), vec![Update::Suspend]);
    // A block entered that takes no text leaves it to the app.
    let mut app = new_app(80, 24, ThemeName::Default, false);
    app.replace_widget(0, Fake::boxed(6, false));
    let _ = press(&mut app, "<Tab><Enter>");
    assert!(app.active());
    assert_eq!(press(&mut app, "<C-z>"), vec![Update::Suspend]);
}

#[test]
fn tall_blocks_scroll_through_the_view() {
    let mut app = new_app(80, 24, ThemeName::Default, false);
    app.replace_widget(0, Fake::boxed(60, false));
    let _ = press(&mut app, "<Tab>");
    let top = screen(&app);
    assert!(top.contains("typed= focused=true active=false"), "{top}");
    assert!(top.contains("more below"));
    let _ = press(&mut app, "<Esc><PgDn><PgDn>");
    let lower = screen(&app);
    assert!(lower.contains("fake row"), "{lower}");
    assert!(!lower.contains("typed="), "{lower}");
    let _ = press(&mut app, "G");
    assert!(screen(&app).contains("end of page"));
}

#[test]
fn finishing_blocks_and_pages_marks_a_lesson_done() {
    let mut app = new_app(100, 30, ThemeName::Default, false);
    app.replace_widget(0, Fake::boxed(5, false));
    let _ = press(&mut app, "<Tab><Enter>");
    assert_eq!(app.lesson_state(0), LessonState::Started);
    let ups = press(&mut app, "x");
    assert_eq!(ups, vec![Update::Save]);
    assert_eq!(
        app.lesson_state(0),
        LessonState::Started,
        "page 2 not seen yet"
    );
    let _ = press(&mut app, "<Esc><Esc>n");
    assert_eq!(app.lesson_state(0), LessonState::Done);
    assert!(screen(&app).contains("done"));
}

#[test]
fn an_unfinished_block_keeps_the_lesson_open() {
    let mut app = new_app(100, 30, ThemeName::Default, false);
    app.replace_widget(0, Fake::boxed(5, false));
    let _ = press(&mut app, "<Tab><Esc>n");
    assert_eq!(app.page(), 1);
    assert_eq!(app.lesson_state(0), LessonState::Started);
}

#[test]
fn progress_resumes_at_lesson_page_and_block() {
    let mut app = new_app(80, 24, ThemeName::Default, false);
    let _ = press(&mut app, "nnn");
    assert_eq!(app.lesson(), 2);
    let saved: Progress = app.progress_snapshot();
    let again = App::new(
        options(ThemeName::Default, false),
        env(),
        Ok(lessons()),
        saved.clone(),
        Rect::new(0, 0, 80, 24),
    );
    assert_eq!((again.lesson(), again.page()), (2, 0));
    // --lesson wins over the saved position.
    let mut opts = options(ThemeName::Default, false);
    opts.lesson = Some("01-untrusted-input".into());
    let chosen = App::new(opts, env(), Ok(lessons()), saved, Rect::new(0, 0, 80, 24));
    assert_eq!(chosen.lesson(), 0);
}

#[test]
fn sidebar_marks_use_a_word_and_a_click_opens_a_lesson() {
    let app0 = new_app(100, 30, ThemeName::Default, true);
    let mut app = app0;
    let text = screen(&app);
    assert!(
        text.contains("2 left: "),
        "what is left, not just started: {text}"
    );
    assert!(text.contains("to do"));
    assert!(text.contains("error"));
    // Click the third lesson's title row, wherever the statuses above it put it.
    let third = lessons()[2].title();
    let row = text
        .lines()
        .position(|l| l.starts_with(&format!("|  {third}")))
        .expect("third lesson listed");
    let click = crossterm::event::MouseEvent {
        kind: crossterm::event::MouseEventKind::Down(crossterm::event::MouseButton::Left),
        column: 3,
        row: u16::try_from(row).unwrap(),
        modifiers: crossterm::event::KeyModifiers::NONE,
    };
    let _ = app.update(Input::Mouse(click));
    assert_eq!(app.lesson(), 2);
    assert!(text.is_ascii(), "--ascii draws only ASCII");
}

#[test]
fn reloading_keeps_the_page_and_shows_a_parse_error() {
    let mut app = new_app(80, 24, ThemeName::Default, false);
    let _ = press(&mut app, "n");
    let _ = app.update(Input::Lessons(Ok(lessons())));
    assert_eq!((app.lesson(), app.page()), (0, 1));
    let mut broken = lessons();
    broken[0].parsed = Err("lessons/01-untrusted-input.md:3: a fence is never closed".into());
    broken[0].source = "changed".into();
    let _ = app.update(Input::Lessons(Ok(broken)));
    assert_eq!(app.lesson(), 0);
    let text = screen(&app);
    assert!(text.contains("a fence is never"), "{text}");
    let _ = app.update(Input::Lessons(Ok(lessons())));
    assert_eq!(
        (app.lesson(), app.page()),
        (0, 1),
        "back on the page the learner had"
    );
    assert!(screen(&app).contains("The order of checks"));
}

#[test]
fn wheel_scrolls_and_click_focuses_a_block() {
    let mut app = new_app(80, 24, ThemeName::Default, false);
    app.replace_widget(0, Fake::boxed(30, false));
    let wheel = crossterm::event::MouseEvent {
        kind: crossterm::event::MouseEventKind::ScrollDown,
        column: 40,
        row: 10,
        modifiers: crossterm::event::KeyModifiers::NONE,
    };
    let _ = app.update(Input::Mouse(wheel));
    assert_eq!(app.scroll(), 3);
    let _ = press(&mut app, "G");
    let click = crossterm::event::MouseEvent {
        kind: crossterm::event::MouseEventKind::Down(crossterm::event::MouseButton::Left),
        column: 40,
        row: 5,
        modifiers: crossterm::event::KeyModifiers::NONE,
    };
    let _ = app.update(Input::Mouse(click));
    assert_eq!(app.focus(), Focus::Block(0));
    // The click also reaches the block, in the block's own coordinates (the fake block
    // prints what it saw on its first row: scroll back up to read it).
    let _ = press(&mut app, "g");
    let text = screen(&app);
    let at = text.find("typed=click@").expect("the block saw the click");
    let coords: String = text[at + "typed=click@".len()..]
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ',')
        .collect();
    let (row, col) = coords.split_once(',').expect("row,col");
    let (row, col): (u16, u16) = (row.parse().unwrap(), col.parse().unwrap());
    assert!(row < 30, "row {row} is inside the 30-row block");
    assert!(
        col > 0 && col < 40,
        "col {col} is relative to the block, not the screen"
    );
}

/// A block that moves a cursor with j/k and grows by `step` rows on `x`; its focus line is
/// the cursor row, or the first added row right after it grew.
struct Grower {
    rows: u16,
    cursor: u16,
    step: u16,
    grown_at: Option<u16>,
}

impl tooldojo::tui::blocks::BlockWidget for Grower {
    fn title(&self) -> String {
        "Grower".into()
    }
    fn height(&self, _width: u16) -> u16 {
        self.rows
    }
    fn render(
        &self,
        area: Rect,
        buf: &mut ratatui::buffer::Buffer,
        _ctx: &tooldojo::tui::blocks::RenderCtx,
    ) {
        for i in 0..self.rows.min(area.height) {
            let mark = if i == self.cursor { ">" } else { " " };
            let text = if i + 1 == self.rows {
                format!("{mark}last row {i}")
            } else {
                format!("{mark}row {i}")
            };
            buf.set_string(area.x, area.y + i, text, ratatui::style::Style::default());
        }
    }
    fn handle_key(
        &mut self,
        key: crossterm::event::KeyEvent,
        active: bool,
    ) -> tooldojo::tui::blocks::BlockOutcome {
        use crossterm::event::KeyCode;
        use tooldojo::tui::blocks::BlockOutcome;
        if !active {
            return BlockOutcome::Ignored;
        }
        self.grown_at = None;
        match key.code {
            KeyCode::Char('j') => {
                self.cursor = (self.cursor + 1).min(self.rows - 1);
                BlockOutcome::Consumed
            }
            KeyCode::Char('x') => {
                self.grown_at = Some(self.rows);
                self.rows += self.step;
                BlockOutcome::Changed
            }
            _ => BlockOutcome::Ignored,
        }
    }
    fn key_hints(&self, _active: bool) -> Vec<tooldojo::tui::blocks::KeyHint> {
        vec![tooldojo::tui::blocks::KeyHint::new("Enter", "grow me")]
    }
    fn focus_line(&self, _width: u16) -> Option<u16> {
        Some(self.grown_at.unwrap_or(self.cursor))
    }
}

fn grower(rows: u16, step: u16) -> Box<dyn tooldojo::tui::blocks::BlockWidget> {
    Box::new(Grower {
        rows,
        cursor: 0,
        step,
        grown_at: None,
    })
}

#[test]
fn n_and_p_turn_pages_from_the_sidebar_and_a_focused_block() {
    let mut app = new_app(120, 24, ThemeName::Default, false);
    let _ = press(&mut app, "h");
    assert_eq!(app.focus(), Focus::Sidebar);
    let _ = press(&mut app, "n");
    assert_eq!((app.lesson(), app.page()), (0, 1), "n from the lesson list");
    let _ = press(&mut app, "p");
    assert_eq!((app.lesson(), app.page()), (0, 0), "p from the lesson list");
    app.replace_widget(0, Fake::boxed(5, false));
    let _ = press(&mut app, "<Esc><Tab>");
    assert_eq!(app.focus(), Focus::Block(0));
    let _ = press(&mut app, "n");
    assert_eq!((app.lesson(), app.page()), (0, 1), "n from a focused block");
}

#[test]
fn s_hides_the_lesson_list_and_progress_remembers_it() {
    let mut app = new_app(120, 24, ThemeName::Default, false);
    assert!(app.sidebar_visible());
    assert!(
        screen(&app)
            .lines()
            .last()
            .unwrap()
            .contains("hide lessons")
    );
    assert_eq!(press(&mut app, "s"), vec![Update::Save]);
    assert!(!app.sidebar_visible());
    assert!(!screen(&app).contains("Lessons"));
    assert!(
        screen(&app)
            .lines()
            .last()
            .unwrap()
            .contains("show lessons")
    );
    let saved = app.progress_snapshot();
    assert!(saved.sidebar_hidden);
    let again = App::new(
        options(ThemeName::Default, false),
        env(),
        Ok(lessons()),
        saved,
        Rect::new(0, 0, 120, 24),
    );
    assert!(!again.sidebar_visible(), "still hidden after a restart");
    let mut app = again;
    let _ = press(&mut app, "s");
    assert!(app.sidebar_visible());
    assert!(!app.progress_snapshot().sidebar_hidden);
}

#[test]
fn hiding_the_lesson_list_in_a_narrow_window_leaves_wide_windows_alone() {
    // At 80 columns: `s` shows the list, `s` hides it again.
    let mut app = new_app(80, 24, ThemeName::Default, false);
    let _ = press(&mut app, "ss");
    assert!(!app.sidebar_visible());
    assert!(
        !app.progress_snapshot().sidebar_hidden,
        "a hide in a narrow window is not kept"
    );
    let _ = app.update(Input::Resize(120, 35));
    assert!(app.sidebar_visible(), "a wide window shows it by itself");
    let again = App::new(
        options(ThemeName::Default, false),
        env(),
        Ok(lessons()),
        app.progress_snapshot(),
        Rect::new(0, 0, 120, 35),
    );
    assert!(again.sidebar_visible(), "and the next session too");

    // Hidden in a wide window: shown at 80 columns on asking, still hidden when wide again.
    let mut app = new_app(120, 35, ThemeName::Default, false);
    let _ = press(&mut app, "s");
    let _ = app.update(Input::Resize(80, 24));
    let _ = press(&mut app, "s");
    assert!(app.sidebar_visible(), "s shows it at 80 columns");
    let _ = app.update(Input::Resize(120, 35));
    assert!(!app.sidebar_visible(), "hidden where it was hidden");
    assert!(app.progress_snapshot().sidebar_hidden, "and that is kept");
    let _ = app.update(Input::Resize(80, 24));
    assert!(app.sidebar_visible(), "shown where it was asked for");
}

#[test]
fn entering_a_block_never_shows_or_hides_the_lesson_list() {
    // Below 100 columns the list waits to be asked for; entering a block leaves it be.
    let mut app = new_app(80, 24, ThemeName::Default, false);
    assert!(!app.sidebar_visible(), "hidden by default at 80 columns");
    let _ = press(&mut app, "s");
    assert!(app.sidebar_visible(), "s shows it at 80 columns");
    app.replace_widget(0, Fake::boxed(5, false));
    let _ = press(&mut app, "<Tab><Enter>");
    assert!(app.active());
    assert!(app.sidebar_visible(), "entering does not reflow the page");
    let _ = press(&mut app, "<Esc>");
    assert!(app.sidebar_visible());
    let mut wide = new_app(120, 30, ThemeName::Default, false);
    wide.replace_widget(0, Fake::boxed(5, false));
    let _ = press(&mut wide, "<Tab><Enter>");
    assert!(
        wide.active() && wide.sidebar_visible(),
        "wide enough for both"
    );
}

#[test]
fn the_focus_line_of_an_entered_block_stays_in_view() {
    let mut app = new_app(80, 24, ThemeName::Default, false);
    app.replace_widget(0, grower(60, 0));
    let _ = press(&mut app, "<Tab><Enter>");
    assert!(screen(&app).contains(">row 0"));
    for n in 1..45 {
        let _ = press(&mut app, "j");
        let text = screen(&app);
        assert!(text.contains(&format!(">row {n}")), "cursor {n}:\n{text}");
    }
}

#[test]
fn what_a_block_adds_below_comes_into_view() {
    let mut app = new_app(80, 24, ThemeName::Default, false);
    app.replace_widget(0, grower(8, 6));
    let _ = press(&mut app, "<Tab><Enter>");
    assert!(screen(&app).contains(">row 0"));
    assert!(screen(&app).contains("last row 7"));
    let _ = press(&mut app, "x");
    let text = screen(&app);
    assert!(text.contains("row 8"), "the first new row:\n{text}");
    assert!(text.contains("last row 13"), "the new bottom:\n{text}");
    // A growth taller than the view keeps the first new row, not the bottom.
    let mut app = new_app(80, 24, ThemeName::Default, false);
    app.replace_widget(0, grower(8, 40));
    let _ = press(&mut app, "<Tab><Enter>x");
    let text = screen(&app);
    assert!(text.contains(" row 8"), "{text}");
}

#[test]
fn the_key_bar_and_help_name_enter_once() {
    let mut app = new_app(80, 24, ThemeName::Default, false);
    app.replace_widget(0, Fake::boxed(5, false));
    let _ = press(&mut app, "<Tab>");
    let text = screen(&app);
    let bar = text.lines().last().unwrap();
    assert_eq!(bar.matches("Enter").count(), 1, "{bar}");
    assert!(bar.contains("Enter start"), "{bar}");
    let _ = press(&mut app, "?");
    let help = tooldojo::tui::help::help_lines(&app);
    assert_eq!(help.iter().filter(|(k, _, _)| k == "Enter").count(), 1);
}

#[test]
fn the_lesson_list_reopens_a_lesson_where_the_learner_left_it() {
    let mut app = new_app(120, 24, ThemeName::Default, false);
    let _ = press(&mut app, "nnn");
    assert_eq!(app.lesson(), 2);
    let _ = press(&mut app, "hkk<Enter>");
    assert_eq!(
        (app.lesson(), app.page()),
        (0, 1),
        "the page left, not page 1"
    );
    // A finished lesson opens at its start.
    let _ = press(&mut app, "nn");
    app.progress_mut()
        .lessons
        .get_mut("01-untrusted-input")
        .unwrap()
        .done = true;
    let _ = press(&mut app, "hkk<Enter>");
    assert_eq!((app.lesson(), app.page()), (0, 0));
}

#[test]
fn an_entered_block_always_shows_the_way_out() {
    for w in [80, 120] {
        let mut app = new_app(w, 24, ThemeName::Default, false);
        let _ = press(&mut app, "<Tab><Enter>");
        assert!(app.active());
        let text = screen(&app);
        // The bar's first line (it takes two when the block's keys need them).
        let bar = text
            .lines()
            .rev()
            .take(2)
            .find(|l| l.contains(" Esc "))
            .unwrap_or_else(|| panic!("{text}"));
        // The block's own word for Esc ("back to page"), at the right end.
        let at = bar.find(" Esc ").expect(bar);
        assert!(bar[at..].trim_end().len() < 25, "{w}: {bar}");
        assert_eq!(bar.matches("Esc").count(), 1, "{bar}");
    }
}

#[test]
fn leaving_a_block_keeps_its_focus_line_in_view() {
    let mut app = new_app(120, 24, ThemeName::Default, false);
    app.replace_widget(0, grower(60, 0));
    let _ = press(&mut app, "<Tab><Enter>");
    let _ = press(&mut app, &"j".repeat(40));
    assert!(screen(&app).contains(">row 40"));
    let _ = press(&mut app, "<Esc>");
    assert!(app.sidebar_visible());
    let text = screen(&app);
    assert!(text.contains(">row 40"), "{text}");
}

#[test]
fn the_lesson_list_says_how_many_lessons_are_out_of_view() {
    let mut many = Vec::new();
    for n in 0..12 {
        let mut e = lessons().remove(2);
        e.id = format!("{n:02}-lesson");
        many.push(e);
    }
    let mut app = App::new(
        options(ThemeName::Default, false),
        env(),
        Ok(many),
        Progress::default(),
        Rect::new(0, 0, 100, 24),
    );
    let text = screen(&app);
    assert!(text.contains(" 2 more "), "{text}");
    assert!(!text.contains(" above "), "{text}");
    let _ = press(&mut app, &format!("h{}", "j".repeat(11)));
    let text = screen(&app);
    assert!(text.contains(" 2 above "), "{text}");
    assert!(!text.contains(" more "), "{text}");
}

#[test]
fn lesson_list_wraps_what_is_left_when_every_lesson_fits_and_cuts_it_when_not() {
    let app = new_app(120, 35, ThemeName::Default, false);
    let summary = app.left_summary(0).expect("the first lesson is started");
    let words: Vec<&str> = summary.split_whitespace().collect();
    let listed = |app: &App| -> String {
        screen(app)
            .lines()
            .map(|l| l.chars().take(30).collect::<String>())
            .collect::<Vec<_>>()
            .join("\n")
    };
    let wide = listed(&app);
    // Its last words: the unread page, by number.
    let last = words[words.len() - 2..].join(" ");
    assert_eq!(last, "(page 2)", "{summary}");
    let last = last.as_str();
    assert!(
        wide.contains(last),
        "the whole of what is left shows when the list has room: {wide}"
    );
    assert!(!wide.contains('\u{2026}'), "nothing cut: {wide}");
    // More lessons than the list holds with every status wrapped: two rows each, cut, but
    // for the open lesson's, still whole.
    let many: Vec<_> = (0..6).flat_map(|_| lessons()).collect();
    let app = App::new(
        options(ThemeName::Default, false),
        env(),
        Ok(many),
        Progress::default(),
        Rect::new(0, 0, 120, 35),
    );
    let short = listed(&app);
    assert!(short.contains('\u{2026}'), "cut to one row: {short}");
    assert_eq!(short.matches(last).count(), 1, "{short}");
    let open = short
        .lines()
        .position(|l| l.contains("▶ Untrusted input"))
        .expect("the open lesson");
    assert!(
        short
            .lines()
            .nth(open + 1)
            .is_some_and(|l| !l.contains('\u{2026}')),
        "the open lesson's status whole: {short}"
    );
}
