use std::collections::BTreeMap;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::*;
use crate::content::Content;
use crate::course::BlockEnv;
use crate::course::rehearsal::{Explain, score, transcript};
use crate::course::{load_lessons, review};

fn pool() -> Pool {
    let content = Content::new(None, None);
    let records = crate::executor::cases::tickets(&content).unwrap();
    let lessons = load_lessons(&content).unwrap();
    Pool::build(&BlockEnv::new(content, records, 0), &lessons)
}

fn cfg(seed: u64) -> DrillConfig {
    DrillConfig {
        fixed_clock: Some(0),
        day: 1000,
        mix: Mix {
            predict: 4,
            explain: 1,
            write: false,
        },
        ..DrillConfig::new(seed, 2)
    }
}

fn key(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
}

fn enter() -> KeyEvent {
    KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)
}

fn esc() -> KeyEvent {
    KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE)
}

fn run_through(d: &mut Drill) {
    while d.running() {
        match d.questions()[d.current()].clone() {
            Question::Predict(_) => {
                let _ = d.on_key(key('1'));
                if d.phase() == Phase::Locked {
                    let _ = d.on_key(key('r'));
                }
                let _ = d.on_key(enter());
            }
            Question::Explain(_) => {
                for c in "q budgets first".chars() {
                    let _ = d.on_key(key(c));
                }
                let _ = d.on_key(esc());
                let _ = d.on_key(enter());
                if d.phase() == Phase::Locked {
                    let _ = d.on_key(key('r'));
                }
                let _ = d.on_key(key(' '));
                let _ = d.on_key(enter());
            }
            Question::Write { .. } => {
                let _ = d.on_key(enter());
            }
        }
    }
}

#[test]
fn a_drill_runs_to_its_scorecard_and_the_transcript_says_everything() {
    let p = pool();
    let mut d = Drill::new(cfg(11), &p, &[], BTreeMap::new(), None);
    run_through(&mut d);
    assert_eq!(d.answers().len(), 5);
    let card = d.scorecard();
    assert_eq!(card.asked, 5);
    let md = transcript::markdown(&d);
    assert!(md.contains("seed 11"), "{md}");
    assert!(md.contains("tooldojo rehearse --seed 11 --minutes 2"));
    for (i, q) in d.questions().iter().enumerate() {
        assert!(md.contains(&format!("## Q{}: {} (`{}`)", i + 1, q.kind(), q.id())));
        assert!(md.contains(q.lesson()));
        if let Question::Predict(p) = q {
            assert!(md.contains(&format!("Prediction: **{}**", p.choices[0])));
            assert!(md.contains(&format!("real outcome: **{}**", p.answer)));
        }
    }
    // The explanation: the words typed (`q` typed, not quit) and the rubric, first ticked.
    assert!(md.contains("q budgets first"));
    assert!(md.contains("- [x] "));
    assert!(md.contains(&format!("{} of {} right", card.right, card.asked)));
    assert_eq!(md.matches("- Time: ").count(), 5);
}

#[test]
fn q_asks_once_before_quitting_a_running_drill() {
    let p = pool();
    let mut c = cfg(2);
    c.quits_app = true;
    let mut d = Drill::new(c, &p, &[], BTreeMap::new(), None);
    assert_eq!(d.on_key(key('q')), DrillUpdate::Redraw);
    assert!(d.confirming_quit());
    assert_eq!(
        d.on_key(key('x')),
        DrillUpdate::Redraw,
        "any other key goes on"
    );
    assert!(!d.confirming_quit() && d.running());
    let _ = d.on_key(key('q'));
    assert_eq!(d.on_key(key('q')), DrillUpdate::Quit);
}

#[test]
fn interviewer_mode_hides_the_answer_until_revealed() {
    let p = pool();
    let mut c = cfg(5);
    c.interviewer = true;
    let mut d = Drill::new(c, &p, &[], BTreeMap::new(), None);
    let _ = d.on_key(key('2'));
    assert_eq!(d.phase(), Phase::Ask, "a number picks; Enter answers");
    let _ = d.on_key(enter());
    assert_eq!(d.phase(), Phase::Locked);
    assert_eq!(
        d.on_key(enter()),
        DrillUpdate::None,
        "Enter does not reveal"
    );
    let _ = d.on_key(key('r'));
    assert_eq!(d.phase(), Phase::Reveal);
}

#[test]
fn the_clock_redraws_once_a_second() {
    let p = pool();
    let mut d = Drill::new(cfg(4), &p, &[], BTreeMap::new(), None);
    d.cfg.fixed_clock = Some(1_200);
    assert_eq!(d.tick(), DrillUpdate::Redraw);
    d.cfg.fixed_clock = Some(1_250);
    assert_eq!(
        d.tick(),
        DrillUpdate::None,
        "the same second is not drawn again"
    );
    d.cfg.fixed_clock = Some(2_000);
    assert_eq!(d.tick(), DrillUpdate::Redraw);
}

#[test]
fn time_running_out_ends_the_drill_and_marks_the_rest() {
    let p = pool();
    let mut d = Drill::new(cfg(4), &p, &[], BTreeMap::new(), None);
    let _ = d.on_key(key('1'));
    let _ = d.on_key(enter());
    d.cfg.fixed_clock = Some(2 * 60_000);
    assert_eq!(d.tick(), DrillUpdate::Finished);
    assert!(!d.running());
    let out: Vec<_> = d.answers().iter().map(|a| a.given.clone()).collect();
    assert_eq!(out.len(), 5);
    // The first was answered (its outcome on screen); nothing after it was shown.
    assert!(out[1..].iter().all(|g| *g == score::Given::NotReached));
    assert!(d.time_up());
    let md = transcript::markdown(&d);
    assert!(md.contains("Time's up: the 2-minute clock ran out"), "{md}");
    assert!(
        md.contains("Not reached: the clock ran out before it."),
        "{md}"
    );
    // Out of time with a question open: that one is "time's up", the rest not reached.
    let mut d = Drill::new(cfg(4), &p, &[], BTreeMap::new(), None);
    d.cfg.fixed_clock = Some(2 * 60_000);
    let _ = d.tick();
    let out: Vec<_> = d.answers().iter().map(|a| a.status()).collect();
    assert_eq!(out[0], "time's up");
    assert!(out[1..].iter().all(|s| *s == "not reached"), "{out:?}");
}

#[test]
fn alone_each_answer_shows_its_outcome_and_a_switch_keeps_them_for_the_scorecard() {
    let p = pool();
    let mut d = Drill::new(cfg(4), &p, &[], BTreeMap::new(), None);
    let Question::Predict(q) = d.questions()[0].clone() else {
        panic!("the drill opens on a prediction");
    };
    let _ = d.on_key(key('1'));
    let _ = d.on_key(enter());
    assert_eq!(d.phase(), Phase::Reveal, "the outcome is shown");
    let mut buf = ratatui::buffer::Buffer::empty(ratatui::layout::Rect::new(0, 0, 100, 30));
    let theme = crate::tui::theme::Theme::new(crate::tui::theme::ThemeName::Mono, false);
    d.render(buf.area, &mut buf, &theme, false);
    let text = crate::text::screen_text(&buf);
    assert!(text.contains(&format!("answered {}", q.answer)), "{text}");
    assert!(text.contains(&format!("Tests: {}", q.tests)), "{text}");
    assert!(text.contains("Lesson: "), "{text}");
    // v: outcomes wait for the scorecard; an answer goes straight on.
    let _ = d.on_key(enter());
    let _ = d.on_key(key('v'));
    let at = d.current();
    let _ = d.on_key(enter());
    assert_eq!(d.current(), at + 1, "no reveal in between");
    assert_eq!(d.phase(), Phase::Ask);
}

#[test]
fn a_finished_drill_feeds_the_review_cards_and_the_trend() {
    let p = pool();
    let mut d = Drill::new(cfg(9), &p, &[], BTreeMap::new(), None);
    run_through(&mut d);
    let mut r = review::Rehearsal::default();
    crate::course::rehearsal::record(&d, &mut r);
    let missed: Vec<&str> = d
        .answers()
        .iter()
        .filter(|a| !a.right())
        .map(|a| d.questions()[a.index].id())
        .collect();
    assert_eq!(r.cards.len(), missed.len());
    assert_eq!(r.due_on(1001).len(), missed.len());
    assert_eq!(r.drills.len(), 1);
    assert_eq!(r.drills[0].percent(), d.scorecard().percent());
}

#[test]
fn the_transcript_is_written_where_asked() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("drill.md");
    let p = pool();
    let mut c = cfg(1);
    c.transcript = Some(path.clone());
    let mut d = Drill::new(c, &p, &[], BTreeMap::new(), None);
    run_through(&mut d);
    assert!(matches!(d.saved(), Some(Saved::To(_))));
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.starts_with("# tooldojo rehearsal, seed 1"));
}

/// A drill of seed 3 run through to its scorecard, writing into `dir`.
fn finished_in(dir: &std::path::Path) -> Drill {
    let mut c = cfg(3);
    c.dir = dir.to_path_buf();
    let mut d = Drill::new(c, &pool(), &[], BTreeMap::new(), None);
    run_through(&mut d);
    d
}

#[test]
fn w_on_a_file_that_is_there_asks_for_a_second_w_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut d = finished_in(dir.path());
    let path = d.default_transcript();
    std::fs::write(&path, "my notes").unwrap();
    let _ = d.on_key(key('w'));
    assert_eq!(d.confirming_overwrite(), Some(path.as_path()));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "my notes");
    let mut buf = ratatui::buffer::Buffer::empty(ratatui::layout::Rect::new(0, 0, 120, 30));
    let theme = crate::tui::theme::Theme::new(crate::tui::theme::ThemeName::Mono, false);
    d.render(buf.area, &mut buf, &theme, false);
    let text = crate::text::screen_text(&buf);
    assert!(
        text.contains("is already there: w again replaces it"),
        "{text}"
    );
    assert!(
        text.contains("tooldojo-rehearsal-3.md"),
        "the file is named: {text}"
    );
    // Any other key keeps the file.
    let _ = d.on_key(key('j'));
    assert!(d.confirming_overwrite().is_none());
    let _ = d.on_key(key('w'));
    let _ = d.on_key(key('w'));
    assert!(matches!(d.saved(), Some(Saved::To(_))), "{:?}", d.saved());
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("# tooldojo rehearsal, seed 3"), "{text}");
}

#[test]
fn page_down_pages_the_open_question_and_stops_at_its_end() {
    let p = pool();
    let mut d = Drill::new(cfg(4), &p, &[], BTreeMap::new(), None);
    let theme = crate::tui::theme::Theme::new(crate::tui::theme::ThemeName::Mono, false);
    let area = ratatui::layout::Rect::new(0, 0, 40, 12);
    let draw = |d: &Drill| {
        let mut buf = ratatui::buffer::Buffer::empty(area);
        d.render(area, &mut buf, &theme, false);
        crate::text::screen_text(&buf)
    };
    let first = draw(&d);
    let page_down = KeyEvent::new(KeyCode::PageDown, KeyModifiers::NONE);
    let _ = d.on_key(page_down);
    let second = draw(&d);
    assert_ne!(first, second, "PgDn moves the view");
    for _ in 0..20 {
        let _ = d.on_key(page_down);
    }
    let end = draw(&d);
    let _ = d.on_key(KeyEvent::new(KeyCode::PageUp, KeyModifiers::NONE));
    assert_ne!(draw(&d), end, "one PgUp from the end moves back at once");
}

#[test]
fn the_scorecard_labels_every_ending_and_never_cuts_an_id() {
    let p = pool();
    let mut d = Drill::new(cfg(6), &p, &[], BTreeMap::new(), None);
    let _ = d.on_key(key('s'));
    // Answer the second question (a prediction or an explanation), then let time run out
    // with the third open.
    match d.questions()[1].clone() {
        Question::Predict(_) => {
            let _ = d.on_key(enter());
            let _ = d.on_key(enter());
        }
        _ => {
            let _ = d.on_key(esc());
            let _ = d.on_key(enter());
            let _ = d.on_key(enter());
        }
    }
    assert_eq!(d.current(), 2);
    d.cfg.fixed_clock = Some(2 * 60_000);
    let _ = d.tick();
    let text = card_text(&d, 76);
    let card = d.scorecard();
    assert!(
        text.starts_with(&format!("{} of 5 right, ", card.right)),
        "{text}"
    );
    assert!(text.contains("% of points"), "{text}");
    assert!(
        text.contains("Time's up: the 2-minute clock ran out."),
        "{text}"
    );
    assert!(
        text.contains("Q1 ") && text.contains(", skipped: "),
        "{text}"
    );
    assert!(text.contains(", time's up: "), "{text}");
    assert!(text.contains(", not reached: "), "{text}");
    let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
    for q in d.questions() {
        assert!(joined.contains(q.id()), "{} whole in:\n{text}", q.id());
    }
    assert!(!text.contains('…'), "nothing cut: {text}");
}

fn theme() -> crate::tui::theme::Theme {
    crate::tui::theme::Theme::new(crate::tui::theme::ThemeName::Mono, false)
}

fn draw_at(d: &Drill, w: u16, h: u16, present: bool) -> String {
    let area = ratatui::layout::Rect::new(0, 0, w, h);
    let mut buf = ratatui::buffer::Buffer::empty(area);
    d.render(area, &mut buf, &theme(), present);
    crate::text::screen_text(&buf)
}

fn card_text(d: &Drill, w: usize) -> String {
    let (lines, _) = d.scorecard_lines(&theme(), w);
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// Skip up to the drill's first explain question.
fn to_explain(d: &mut Drill) -> Explain {
    loop {
        if let Question::Explain(e) = d.questions()[d.current()].clone() {
            return e;
        }
        let _ = d.on_key(key('s'));
    }
}

#[test]
fn leaving_a_drill_opened_in_the_app_goes_back_and_the_whole_app_drill_quits() {
    let p = pool();
    let mut d = Drill::new(cfg(2), &p, &[], BTreeMap::new(), None);
    let _ = d.on_key(esc());
    assert!(d.confirming_quit());
    let text = draw_at(&d, 80, 24, false);
    assert!(text.contains("Leave the drill?"), "{text}");
    assert!(text.contains("goes back"), "{text}");
    assert_eq!(d.on_key(key('y')), DrillUpdate::Leave);
    let mut c = cfg(2);
    c.quits_app = true;
    let mut d = Drill::new(c, &p, &[], BTreeMap::new(), None);
    let _ = d.on_key(key('q'));
    assert!(draw_at(&d, 80, 24, false).contains("q or y quits tooldojo"));
    assert_eq!(d.on_key(key('y')), DrillUpdate::Quit);
    // Ctrl-C quits either way.
    let mut d = Drill::new(cfg(2), &p, &[], BTreeMap::new(), None);
    let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
    assert_eq!(d.on_key(ctrl_c), DrillUpdate::Quit);
}

/// An explain question left empty and shown, `keys` pressed, then every rubric point
/// ticked and Enter: what it scored.
fn empty_explanation_ticked_after(keys: &[char]) -> (score::Given, u32) {
    let p = pool();
    let mut d = Drill::new(cfg(7), &p, &[], BTreeMap::new(), None);
    let e = to_explain(&mut d);
    let at = d.current();
    let _ = d.on_key(esc());
    let _ = d.on_key(enter());
    assert_eq!(d.phase(), Phase::Reveal, "the model answer is shown");
    let text = draw_at(&d, 100, 40, false);
    assert!(text.contains("nothing to tick"), "{text}");
    for &c in keys {
        let _ = d.on_key(key(c));
    }
    for _ in 0..e.points.len() {
        let _ = d.on_key(key(' '));
        let _ = d.on_key(key('j'));
    }
    let _ = d.on_key(enter());
    let a = d.answers().iter().find(|a| a.index == at).unwrap();
    (a.given.clone(), a.points)
}

#[test]
fn an_explanation_left_empty_cannot_be_ticked_and_counts_as_a_skip() {
    assert_eq!(
        empty_explanation_ticked_after(&[]),
        (
            score::Given::Skipped {
                text: String::new()
            },
            0
        )
    );
}

#[test]
fn the_mode_cannot_change_once_an_empty_explanation_is_shown() {
    // Interviewer mode would let the rubric be ticked; it cannot be switched on now.
    assert_eq!(
        empty_explanation_ticked_after(&['i']),
        (
            score::Given::Skipped {
                text: String::new()
            },
            0
        )
    );
}

#[test]
fn words_typed_when_the_clock_runs_out_are_kept_for_no_points() {
    let p = pool();
    let mut d = Drill::new(cfg(7), &p, &[], BTreeMap::new(), None);
    let _ = to_explain(&mut d);
    for c in "budgets first".chars() {
        let _ = d.on_key(key(c));
    }
    d.cfg.fixed_clock = Some(2 * 60_000);
    assert_eq!(d.tick(), DrillUpdate::Finished);
    let a = d
        .answers()
        .iter()
        .find(|a| a.status() == "time's up")
        .unwrap();
    assert_eq!(a.points, 0);
    assert!(transcript::markdown(&d).contains("budgets first"));
    let text = card_text(&d, 80);
    assert!(
        text.contains("written when the clock ran out (no points): budgets first"),
        "{text}"
    );
}

/// The drill at seed 7 up to its explain question, `typed` written there, then `Esc` and
/// `s`, then the rest answered up to the scorecard: the drill and the question's index.
fn explanation_skipped_after_typing(typed: &str) -> (Drill, usize) {
    let p = pool();
    let mut d = Drill::new(cfg(7), &p, &[], BTreeMap::new(), None);
    let _ = to_explain(&mut d);
    let at = d.current();
    for c in typed.chars() {
        let _ = d.on_key(key(c));
    }
    let _ = d.on_key(esc());
    let _ = d.on_key(key('s'));
    assert_eq!(d.current(), at + 1, "s skips the question");
    d.play_through();
    (d, at)
}

#[test]
fn words_typed_then_skipped_are_kept_for_no_points() {
    let (d, at) = explanation_skipped_after_typing("budgets first");
    let a = d.answers().iter().find(|a| a.index == at).unwrap();
    assert_eq!((a.status(), a.points), ("skipped", 0));
    assert!(d.scorecard().missed.contains(&at), "still a miss");
    let md = transcript::markdown(&d);
    assert!(
        md.contains(
            "Skipped.\n\nWritten, then skipped (it earns no points):\n\n```text\nbudgets first\n```"
        ),
        "{md}"
    );
    let text = card_text(&d, 80);
    assert!(
        text.contains("written, then skipped (no points): budgets first"),
        "{text}"
    );
    // A skip with nothing written says nothing of words.
    let (d, _) = explanation_skipped_after_typing("  ");
    let md = transcript::markdown(&d);
    assert!(
        md.contains("Skipped.") && !md.contains("Written, then"),
        "{md}"
    );
    assert!(!card_text(&d, 80).contains("written, then"));
}

#[test]
fn questions_never_shown_are_not_missed_nor_due_for_review() {
    let p = pool();
    let mut d = Drill::new(cfg(12), &p, &[], BTreeMap::new(), None);
    let _ = d.on_key(key('s'));
    d.cfg.fixed_clock = Some(2 * 60_000);
    let _ = d.tick();
    let mut r = review::Rehearsal::default();
    crate::course::rehearsal::record(&d, &mut r);
    // The skip (seen, not answered) is a miss; the open one ran out; the rest were unseen.
    assert_eq!(r.cards.len(), 2, "{:?}", r.cards);
    let card = d.scorecard();
    assert_eq!(card.missed, vec![0, 1]);
    assert_eq!(card.not_reached, vec![2, 3, 4]);
    let md = transcript::markdown(&d);
    let missed = md.split("- Missed:").nth(1).unwrap();
    let missed = missed.split("- Not reached").next().unwrap();
    assert!(!missed.contains("Q3 "), "{md}");
    assert!(
        md.contains("- Not reached (never shown, so not missed): Q3, Q4, Q5"),
        "{md}"
    );
    let text = card_text(&d, 80);
    assert!(
        text.contains("Not reached: Q3, Q4, Q5: never shown"),
        "{text}"
    );
    assert!(text.contains("counted as missed: it comes back"), "{text}");
    let revisit = text
        .split("Revisit:")
        .nth(1)
        .unwrap()
        .split("Not reached")
        .next()
        .unwrap();
    assert!(!revisit.contains("Q3"), "{text}");
    // Nothing answered: the time per answer says so.
    assert!(
        text.contains("Time per answered question: none answered"),
        "{text}"
    );
    assert!(md.contains("- Clock: 2 minutes,"), "{md}");
}

#[test]
fn the_scorecard_names_the_rubric_points_an_explanation_missed() {
    let p = pool();
    let mut d = Drill::new(cfg(11), &p, &[], BTreeMap::new(), None);
    run_through(&mut d);
    let e = d
        .questions()
        .iter()
        .find_map(|q| match q {
            Question::Explain(e) => Some(e.clone()),
            _ => None,
        })
        .unwrap();
    let text = card_text(&d, 200);
    // The first point was ticked; every other is named.
    assert!(
        !text.contains(&format!("not covered: {}", e.points[0])),
        "{text}"
    );
    for point in &e.points[1..] {
        assert!(
            text.contains(&format!("not covered: {point}")),
            "{point} in:\n{text}"
        );
    }
}

#[test]
fn the_scorecard_scrolls_to_its_end_and_no_further() {
    let p = pool();
    let mut d = Drill::new(cfg(6), &p, &[], BTreeMap::new(), None);
    d.play_through();
    let first = draw_at(&d, 80, 24, false);
    assert!(first.contains("more lines below: j/PgDn"), "{first}");
    for _ in 0..40 {
        let _ = d.on_key(key('j'));
        let _ = draw_at(&d, 80, 24, false);
    }
    let end = draw_at(&d, 80, 24, false);
    let _ = d.on_key(key('k'));
    assert_ne!(
        draw_at(&d, 80, 24, false),
        end,
        "one k from the end moves at once"
    );
    let _ = d.on_key(key('g'));
    assert_eq!(draw_at(&d, 80, 24, false), first);
    let _ = d.on_key(key('G'));
    assert_eq!(draw_at(&d, 80, 24, false), end);
    assert!(end.contains("lines above: k/PgUp"), "{end}");
}

#[test]
fn after_a_taller_window_one_k_moves_the_scorecard_at_once() {
    let p = pool();
    let mut d = Drill::new(cfg(6), &p, &[], BTreeMap::new(), None);
    d.play_through();
    let _ = draw_at(&d, 80, 12, false);
    let _ = d.on_key(key('G'));
    // Taller: the end of the card comes up, and the view starts higher than it did.
    let tall = draw_at(&d, 80, 24, false);
    assert!(tall.contains("lines above: k/PgUp"), "{tall}");
    let _ = d.on_key(key('k'));
    let up = draw_at(&d, 80, 24, false);
    assert_ne!(up, tall, "one k moves the view");
    // PgUp turns a page from what is shown, not from where the short window left it.
    let _ = draw_at(&d, 80, 12, false);
    let _ = d.on_key(key('G'));
    let _ = draw_at(&d, 80, 24, false);
    let _ = d.on_key(KeyEvent::new(KeyCode::PageUp, KeyModifiers::NONE));
    let paged = draw_at(&d, 80, 24, false);
    assert_ne!(paged, tall, "one PgUp moves the view");
}

#[test]
fn a_question_opens_at_its_top_and_a_wide_window_shows_the_drill_beside_it() {
    let p = pool();
    for seed in 0..20 {
        let d = Drill::new(cfg(seed), &p, &[], BTreeMap::new(), None);
        let text = draw_at(&d, 80, 24, true);
        let body = text.lines().nth(2).unwrap_or_default();
        assert!(
            body.contains("What does") || body.contains("Write it"),
            "seed {seed}:\n{text}"
        );
    }
    let d = Drill::new(cfg(4), &p, &[], BTreeMap::new(), None);
    let wide = draw_at(&d, 160, 45, false);
    assert!(
        wide.contains("This drill") && wide.contains("Q1 predict now"),
        "{wide}"
    );
    assert!(wide.contains("skip"), "the keys are named: {wide}");
}

#[test]
fn the_answer_editor_grows_with_the_window() {
    let p = pool();
    let mut d = Drill::new(cfg(2), &p, &[], BTreeMap::new(), None);
    let _ = to_explain(&mut d);
    if !d.editing() {
        let _ = d.on_key(key('e'));
    }
    assert!(d.editing());
    let rows = |w: u16, h: u16| {
        let text = draw_at(&d, w, h, false);
        let lines: Vec<&str> = text.lines().collect();
        let top = lines.iter().position(|l| l.contains("your answer"));
        let bottom = lines.iter().rposition(|l| l.trim_start().starts_with('╰'));
        match (top, bottom) {
            (Some(t), Some(b)) if b > t => b - t + 1,
            _ => panic!("{text}"),
        }
    };
    let small = rows(80, 24);
    let big = rows(160, 45);
    assert!(big >= small + 15, "{small} rows at 80x24, {big} at 160x45");
}

#[test]
fn the_key_popup_of_a_narrow_drill_shows_every_question_whole() {
    let p = pool();
    let c = DrillConfig {
        fixed_clock: Some(0),
        day: 1000,
        ..DrillConfig::new(3, 2)
    };
    let mut d = Drill::new(c, &p, &[], BTreeMap::new(), None);
    let n = d.questions.len();
    let _ = d.on_key(key('?'));
    for (w, h) in [(80, 24), (100, 20), (80, 18)] {
        let text = draw_at(&d, w, h, false);
        for q in 1..=n {
            assert!(text.contains(&format!("Q{q} ")), "Q{q} at {w}x{h}:\n{text}");
        }
    }
    let t = draw_at(&d, 80, 24, false);
    assert!(t.contains("quits at once."), "{t}");
}

#[test]
fn w_at_the_end_of_the_scorecard_says_where_it_saved_above_the_key_bar() {
    let dir = tempfile::tempdir().unwrap();
    let mut d = finished_in(dir.path());
    let theme = crate::tui::theme::Theme::new(crate::tui::theme::ThemeName::Mono, false);
    let area = ratatui::layout::Rect::new(0, 0, 80, 24);
    let draw = |d: &Drill| {
        let mut buf = ratatui::buffer::Buffer::empty(area);
        d.render(area, &mut buf, &theme, false);
        crate::text::screen_text(&buf)
    };
    let _ = draw(&d);
    let _ = d.on_key(key('G'));
    let end = draw(&d);
    assert!(
        !end.contains("w saves the transcript"),
        "scrolled away: {end}"
    );
    let last = end.lines().rev().nth(2).unwrap().to_owned();
    // A file already there: the question about it shows, then the save.
    std::fs::write(d.default_transcript(), "my notes").unwrap();
    let _ = d.on_key(key('w'));
    let asked = draw(&d);
    assert!(asked.contains("is already there: w again"), "{asked}");
    let _ = d.on_key(key('w'));
    let saved = draw(&d);
    assert!(saved.contains("Transcript saved to"), "{saved}");
    // The card stays at its end: its last line is still in view above the answer.
    assert!(saved.contains(last.trim()), "{last:?} in {saved}");
    let lines: Vec<&str> = saved.lines().collect();
    let at = lines.iter().position(|l| l.contains("Transcript saved to"));
    assert!(at.is_some_and(|i| i + 5 >= lines.len()), "{saved}");
    // The next key puts the card back as it was.
    let _ = d.on_key(key('k'));
    assert!(!draw(&d).contains("Transcript saved to"));
}

#[test]
fn ctrl_s_skips_an_explanation_while_typing_and_the_bar_says_so() {
    let p = pool();
    let mut d = Drill::new(cfg(7), &p, &[], BTreeMap::new(), None);
    let _ = to_explain(&mut d);
    let at = d.current();
    assert!(d.editing(), "an explanation opens in the editor");
    let bar: Vec<String> = d.hints().iter().map(|h| h.keys.to_string()).collect();
    assert!(bar.iter().any(|k| k == "Ctrl-S"), "{bar:?}");
    assert!(!bar.iter().any(|k| k == "s"), "s types here: {bar:?}");
    for c in "budgets s".chars() {
        let _ = d.on_key(key(c));
    }
    assert_eq!(d.current(), at, "s typed, not skipped");
    let _ = d.on_key(KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL));
    assert_eq!(d.current(), at + 1, "Ctrl-S skips");
    let a = d.answers().iter().find(|a| a.index == at).unwrap();
    assert_eq!(a.status(), "skipped");
    assert!(
        matches!(&a.given, Given::Skipped { text } if text == "budgets s"),
        "the words are kept: {:?}",
        a.given
    );
}

#[test]
fn ctrl_z_undoes_while_typing_and_suspends_otherwise() {
    let p = pool();
    let mut d = Drill::new(cfg(7), &p, &[], BTreeMap::new(), None);
    let _ = to_explain(&mut d);
    let at = d.current();
    for c in "budgets".chars() {
        let _ = d.on_key(key(c));
    }
    let ctrl_z = KeyEvent::new(KeyCode::Char('z'), KeyModifiers::CONTROL);
    assert_eq!(d.on_key(ctrl_z), DrillUpdate::Redraw, "typing: an undo");
    let _ = d.on_key(KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL));
    let a = d.answers().iter().find(|a| a.index == at).unwrap();
    assert!(
        matches!(&a.given, Given::Skipped { text } if text != "budgets"),
        "the last typing was undone: {:?}",
        a.given
    );
    let _ = d.on_key(esc());
    assert!(!d.editing());
    assert_eq!(d.on_key(ctrl_z), DrillUpdate::Suspend);
}
