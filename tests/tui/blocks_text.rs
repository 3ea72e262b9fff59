//! quiz, explain and checklist blocks: keys, state, save/restore, drawing.

use crate::blocks_support;

use blocks_support::*;
use crossterm::event::KeyCode;
use tooldojo::content::lessons::{BlockKind, BlockSpec, Checklist, Choice, Explain, Quiz};
use tooldojo::tui::blocks::{BlockOutcome, BlockWidget, build};
use tooldojo::tui::theme::{Theme, ThemeName};

fn quiz_spec() -> Quiz {
    Quiz {
        question: "Which check runs first in the validator?".into(),
        choices: vec![
            Choice {
                text: "The type check".into(),
                correct: false,
                why: "Types are checked last, only on known keys.".into(),
            },
            Choice {
                text: "The required-argument check".into(),
                correct: true,
                why: "A missing argument is the most basic failure.".into(),
            },
            Choice {
                text: "The unknown-key check".into(),
                correct: false,
                why: "It comes second.".into(),
            },
        ],
    }
}

fn quiz() -> Box<dyn BlockWidget> {
    build(
        &block(BlockKind::Quiz, &[], "", BlockSpec::Quiz(quiz_spec())),
        &env(),
    )
    .expect("quiz builds")
}

#[test]
fn quiz_wrong_then_right_with_number_keys() {
    let mut q = quiz();
    assert!(!q.is_done());
    assert_eq!(
        q.handle_key(ch('x'), false),
        BlockOutcome::Ignored,
        "inactive blocks ignore keys that are not theirs"
    );
    assert_eq!(press_out(q.as_mut(), &[ch('1')]), BlockOutcome::Changed);
    assert!(!q.is_done());
    let screen = render(q.as_ref(), 80, 24);
    assert!(screen.contains("Incorrect"), "{screen}");
    assert!(screen.contains("Types are checked last"), "{screen}");
    assert!(
        !screen.contains("It comes second"),
        "only tried choices explain themselves yet"
    );
    press(q.as_mut(), &[ch('2')]);
    assert!(q.is_done());
    let screen = render(q.as_ref(), 80, 24);
    assert!(screen.contains("Correct"), "{screen}");
    assert!(
        screen.contains("It comes second"),
        "all explanations once solved: {screen}"
    );
    assert!(screen.contains("(●)"), "radio mark for the pick: {screen}");
}

#[test]
fn quiz_arrows_and_enter_and_retry() {
    let mut q = quiz();
    press(
        q.as_mut(),
        &[key(KeyCode::Down), key(KeyCode::Down), key(KeyCode::Enter)],
    );
    assert!(!q.is_done());
    assert_eq!(press_out(q.as_mut(), &[ch('r')]), BlockOutcome::Changed);
    press(q.as_mut(), &[ch('k'), key(KeyCode::Enter)]);
    assert!(q.is_done());
    assert_eq!(
        press_out(q.as_mut(), &[key(KeyCode::Esc)]),
        BlockOutcome::Release
    );
}

#[test]
fn quiz_save_restore_round_trip() {
    let mut q = quiz();
    press(q.as_mut(), &[ch('3'), ch('2')]);
    let saved = q.save();
    let mut fresh = quiz();
    fresh.restore(&saved);
    assert!(fresh.is_done());
    assert_eq!(fresh.save(), saved);
    let screen = render(fresh.as_ref(), 80, 24);
    assert!(screen.contains("It comes second"));
    // Garbage state is ignored, not a panic.
    fresh.restore(&serde_json::json!({"picked": 99, "tried": ["x", 7]}));
    assert!(!fresh.is_done());
}

#[test]
fn quiz_ascii_and_tiny() {
    let mut q = quiz();
    press(q.as_mut(), &[ch('2')]);
    let screen = render_with(q.as_ref(), 80, 24, &Theme::new(ThemeName::Mono, true));
    assert!(screen.is_ascii(), "{screen}");
    assert!(screen.contains("(*)"));
    assert!(screen.contains("OK Correct"));
    render_tiny_sizes(q.as_ref());
}

#[test]
fn bad_quiz_is_an_error_not_a_panic() {
    let mut spec = quiz_spec();
    for c in &mut spec.choices {
        c.correct = false;
    }
    let err = build(
        &block(BlockKind::Quiz, &[], "", BlockSpec::Quiz(spec)),
        &env(),
    )
    .err()
    .expect("no correct choice is an error");
    assert!(err.contains("line 7"), "{err}");
    let err = build(&block(BlockKind::Quiz, &[], "", BlockSpec::None), &env())
        .err()
        .expect("no parsed body");
    assert!(err.contains("line 7"), "{err}");
}

fn explain() -> Box<dyn BlockWidget> {
    build(
        &block(
            BlockKind::Explain,
            &[],
            "",
            BlockSpec::Explain(Explain {
                question: "Why reject a tenant argument that matches the session?".into(),
                model_answer: "Scope comes from trusted context only. Accepting a matching value \
                               teaches the model that the field is honoured."
                    .into(),
                key_points: vec![
                    "Tenant scope comes from the trusted session".into(),
                    "The exact argument shape has no such field".into(),
                ],
            }),
        ),
        &env(),
    )
    .expect("explain builds")
}

#[test]
fn explain_edit_compare_tick() {
    let mut x = explain();
    assert!(!x.captures_text());
    press(x.as_mut(), &[key(KeyCode::Enter)]);
    assert!(x.captures_text(), "Enter starts the editor");
    type_text(
        x.as_mut(),
        "The session decides the tenant; q n ? are text here",
    );
    assert!(x.captures_text());
    assert_eq!(
        press_out(x.as_mut(), &[key(KeyCode::Esc)]),
        BlockOutcome::Changed
    );
    assert!(!x.captures_text(), "Esc leaves the editor");
    let saved = x.save();
    assert_eq!(
        saved["answer"],
        "The session decides the tenant; q n ? are text here"
    );
    assert!(!x.is_done());
    press(x.as_mut(), &[ch('c')]);
    assert!(x.is_done());
    let screen = render(x.as_ref(), 80, 30);
    assert!(screen.contains("Model answer"), "{screen}");
    assert!(screen.contains("shares: session, tenant"), "{screen}");
    assert!(screen.contains("no shared words"), "{screen}");
    assert!(screen.contains("not a grade"), "{screen}");
    press(x.as_mut(), &[ch(' '), ch('j'), ch(' '), ch(' ')]);
    assert_eq!(x.save()["ticked"], serde_json::json!([true, false]));
    let saved = x.save();
    let mut y = explain();
    y.restore(&saved);
    assert_eq!(y.save(), saved);
    assert!(y.is_done());
    // Wide: the model answer sits beside the learner's answer.
    let wide = render(y.as_ref(), 130, 20);
    let row = wide
        .lines()
        .find(|l| l.contains("Your answer"))
        .expect("editor title");
    assert!(row.contains("Model answer"), "{wide}");
    render_tiny_sizes(y.as_ref());
}

#[test]
fn explain_inactive_block_never_captures_text() {
    let mut x = explain();
    press(x.as_mut(), &[ch('e')]);
    assert!(x.captures_text());
    let _ = x.handle_key(ch('z'), false);
    assert!(!x.captures_text());
}

/// The explain block drawn focused; `active` says whether it is entered.
fn explain_screen(x: &dyn BlockWidget, active: bool) -> String {
    let theme = tooldojo::tui::theme::Theme::new(tooldojo::tui::theme::ThemeName::Mono, false);
    let area = ratatui::layout::Rect::new(0, 0, 80, x.height(80));
    let mut buf = ratatui::buffer::Buffer::empty(area);
    x.render(
        area,
        &mut buf,
        &tooldojo::tui::blocks::RenderCtx {
            theme: &theme,
            focused: true,
            active,
            demo: false,
        },
    );
    tooldojo::text::screen_text(&buf)
}

#[test]
fn explain_says_to_enter_it_before_naming_its_keys() {
    let mut x = explain();
    let focused = explain_screen(x.as_ref(), false);
    // Enter enters the block and Enter again opens the editor; e and c do nothing until
    // the block is entered.
    assert!(
        focused.contains("Enter twice: write your answer; Enter, then c: compare"),
        "{focused}"
    );
    assert!(!focused.contains("then e"), "{focused}");
    let entered = explain_screen(x.as_ref(), true);
    assert!(
        entered.contains("Enter or e: write your answer"),
        "{entered}"
    );
    press(x.as_mut(), &[ch('e')]);
    type_text(x.as_mut(), "The session decides");
    press(x.as_mut(), &[key(KeyCode::Esc)]);
    let focused = explain_screen(x.as_ref(), false);
    assert!(focused.contains("Enter, then c: compare"), "{focused}");
    // Both lines fit in the height the block asks for, narrow or wide.
    for w in [30u16, 50, 80] {
        let h = x.height(w);
        for active in [false, true] {
            let area = ratatui::layout::Rect::new(0, 0, w, h);
            let mut buf = ratatui::buffer::Buffer::empty(area);
            let theme =
                tooldojo::tui::theme::Theme::new(tooldojo::tui::theme::ThemeName::Mono, false);
            x.render(
                area,
                &mut buf,
                &tooldojo::tui::blocks::RenderCtx {
                    theme: &theme,
                    focused: true,
                    active,
                    demo: false,
                },
            );
            let text = tooldojo::text::screen_text(&buf);
            assert!(text.contains("editing."), "{w} {active}: {text}");
        }
    }
}

fn checklist() -> Box<dyn BlockWidget> {
    build(
        &block(
            BlockKind::Checklist,
            &[],
            "",
            BlockSpec::Checklist(Checklist {
                items: vec![
                    "Pass all eight fixture rows".into(),
                    "Explain what a timeout proves".into(),
                    "Trace every call\u{1b}[31m".into(),
                ],
            }),
        ),
        &env(),
    )
    .expect("checklist builds")
}

#[test]
fn checklist_ticks_and_restores() {
    let mut c = checklist();
    press(
        c.as_mut(),
        &[ch(' '), key(KeyCode::Down), key(KeyCode::Down), ch(' ')],
    );
    assert_eq!(c.save()["ticked"], serde_json::json!([true, false, true]));
    assert!(!c.is_done());
    press(c.as_mut(), &[ch('2')]);
    assert!(c.is_done());
    let saved = c.save();
    let mut d = checklist();
    d.restore(&saved);
    assert!(d.is_done());
    let screen = render(d.as_ref(), 80, 24);
    assert!(screen.contains("3 of 3 ticked"), "{screen}");
    assert!(screen.contains("[✓] Pass all eight"), "{screen}");
    assert!(!screen.contains('\u{1b}'), "escape sequences are cleaned");
    assert!(d.height(80) >= 6);
    render_tiny_sizes(d.as_ref());
}

#[test]
fn a_cramped_comparison_says_what_it_cuts_above_and_below() {
    let mut x = explain();
    press(x.as_mut(), &[ch('e')]);
    type_text(x.as_mut(), "The session decides the tenant.");
    press(x.as_mut(), &[key(KeyCode::Esc), ch('c')]);
    for (w, short) in [(80u16, 6u16), (130, 4)] {
        // A few rows fewer than the block asks for: the comparison scrolls.
        let h = x.height(w) - short;
        let first = render(x.as_ref(), w, h);
        assert!(first.contains("Model answer"), "{w}:\n{first}");
        assert!(first.contains("more lines below"), "{w}:\n{first}");
        assert!(!first.contains("lines above"), "{w}:\n{first}");
        press(x.as_mut(), &[key(KeyCode::Down)]);
        let last = render(x.as_ref(), w, h);
        assert!(last.contains("lines above"), "{w}:\n{last}");
        assert!(last.contains("not a grade"), "{w}:\n{last}");
        assert!(!last.contains("more lines below"), "{w}:\n{last}");
        press(x.as_mut(), &[key(KeyCode::Up)]);
    }
}
