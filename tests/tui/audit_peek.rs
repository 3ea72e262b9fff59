//! A finding's lesson opened from the audit (`L`) is a peek: Esc (or `A`) goes back to the
//! audit as it was left, and leaving the audit then lands where the learner was, the home
//! screen or their lesson at its page and scroll. The peek records nothing about where
//! the learner reads: the lesson is not marked started, and Continue stays where it was.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;

use tooldojo::audit::Limits;
use tooldojo::audit::listing::Listing;
use tooldojo::content::Content;
use tooldojo::course::LessonState;
use tooldojo::course::progress::Progress;
use tooldojo::tui::app::{App, HomeEntry, Input};
use tooldojo::tui::{Config, screens};

/// A learner on page 3 of lesson 06 (lessons before it not begun).
fn begun() -> Progress {
    crate::tui_common::lesson_six_begun()
}

/// The app on the home screen (`home`) or in lesson 06, with `begun` progress.
fn app(home: bool) -> App {
    let config = Config::new(Content::embedded());
    let (mut opts, env) = tooldojo::tui::setup(&config).unwrap();
    opts.home = home;
    opts.lesson = (!home).then(|| "06-get-ticket-contract".to_owned());
    let lessons = tooldojo::course::load_lessons(&env.content);
    App::new(opts, env, lessons, begun(), Rect::new(0, 0, 100, 30))
}

fn key(app: &mut App, code: KeyCode) {
    let _ = app.update(Input::Key(KeyEvent::new(code, KeyModifiers::NONE)));
}

fn text(app: &App) -> String {
    tooldojo::text::screen_text(&screens::draw_to_buffer(app))
}

fn index_of(id: &str) -> usize {
    let lessons = tooldojo::course::load_lessons(&Content::embedded()).unwrap();
    lessons.iter().position(|l| l.id == id).unwrap()
}

/// From the audit's list: the second conversation played, its call with a finding
/// selected, and `L` on it (lesson 02's page on errors).
fn peek_from_the_audit(a: &mut App) {
    assert_eq!(a.screen().name(), "audit");
    key(a, KeyCode::Down);
    key(a, KeyCode::Enter);
    key(a, KeyCode::Tab);
    key(a, KeyCode::Char('L'));
    assert_eq!(a.screen().name(), "lesson");
    assert_eq!(a.lesson(), index_of("02-validate-tool-args"));
}

/// What the peek must not have recorded.
fn nothing_recorded(a: &App) {
    let p = a.progress_snapshot();
    assert_eq!(
        p.current.as_ref().map(|c| c.lesson.as_str()),
        Some("06-get-ticket-contract"),
        "the learner's place stays in lesson 06"
    );
    assert!(
        p.lessons
            .get("02-validate-tool-args")
            .is_none_or(|l| !l.started()),
        "a peek does not start lesson 02: {:?}",
        p.lessons.get("02-validate-tool-args")
    );
    assert_eq!(
        a.lesson_state(index_of("02-validate-tool-args")),
        LessonState::Todo
    );
}

#[test]
fn esc_from_a_findings_lesson_goes_back_to_the_audit_and_then_home() {
    let mut a = app(true);
    let continues = a.home_entries()[0];
    assert_eq!(
        continues,
        HomeEntry::Continue(index_of("06-get-ticket-contract"))
    );
    key(&mut a, KeyCode::Char('A'));
    peek_from_the_audit(&mut a);
    nothing_recorded(&a);
    // The help says where Esc goes, as the key bar does.
    key(&mut a, KeyCode::Char('?'));
    let help = text(&a);
    let overlay: Vec<&str> = help.lines().filter(|l| l.contains("Esc ")).collect();
    assert!(
        overlay
            .iter()
            .any(|l| l.contains("back to the audit") && !l.ends_with("help")),
        "{help}"
    );
    assert!(!overlay.iter().any(|l| l.contains("home screen")), "{help}");
    key(&mut a, KeyCode::Char('?'));
    // Reading on is still a peek: the next page is not recorded either.
    key(&mut a, KeyCode::Char('n'));
    nothing_recorded(&a);
    key(&mut a, KeyCode::Esc);
    assert_eq!(a.screen().name(), "audit");
    assert!(text(&a).contains("conversation 2 of 4"), "{}", text(&a));
    // Out of the audit: the home screen, Continue where it was.
    for _ in 0..3 {
        key(&mut a, KeyCode::Esc);
    }
    assert_eq!(a.screen().name(), "home");
    assert_eq!(a.home_entries()[0], continues);
    nothing_recorded(&a);
}

#[test]
fn back_from_a_findings_lesson_the_learners_lesson_is_as_it_was() {
    let mut a = app(false);
    let listing = Listing::read(
        &[std::path::PathBuf::from(
            "fixtures/audit/support-desk.jsonl",
        )],
        None,
        Limits::default(),
        None,
    )
    .unwrap();
    a.set_audit_log(listing);
    assert_eq!(
        (a.lesson(), a.page()),
        (index_of("06-get-ticket-contract"), 2)
    );
    key(&mut a, KeyCode::PageDown);
    let place = (a.lesson(), a.page(), a.scroll());
    assert!(place.2 > 0, "scrolled");
    key(&mut a, KeyCode::Char('A'));
    peek_from_the_audit(&mut a);
    // A goes back as Esc does.
    key(&mut a, KeyCode::Char('A'));
    assert_eq!(a.screen().name(), "audit");
    for _ in 0..3 {
        key(&mut a, KeyCode::Esc);
    }
    assert_eq!(a.screen().name(), "lesson");
    assert_eq!((a.lesson(), a.page(), a.scroll()), place);
    nothing_recorded(&a);
    // Esc from the learner's own lesson goes home, as always.
    key(&mut a, KeyCode::Esc);
    assert_eq!(a.screen().name(), "home");
}

#[test]
fn a_lesson_opened_from_the_list_during_a_peek_is_read_as_usual() {
    let mut a = app(true);
    key(&mut a, KeyCode::Char('A'));
    peek_from_the_audit(&mut a);
    // The lesson list (shown at 100 columns), the lesson after 02 opened from it.
    key(&mut a, KeyCode::Char('h'));
    key(&mut a, KeyCode::Down);
    key(&mut a, KeyCode::Enter);
    assert_eq!(a.lesson(), index_of("03-json-traps"));
    let p = a.progress_snapshot();
    assert_eq!(p.current.unwrap().lesson, "03-json-traps");
    key(&mut a, KeyCode::Esc);
    assert_eq!(a.screen().name(), "home");
}
