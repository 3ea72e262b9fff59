//! Polish checks: every shipped block at the reader's widths (52 and 80 columns), prose
//! wrapped not clipped, focus lines, mouse clicks, inline code.

use crate::blocks_support;

use blocks_support::*;
use tooldojo::content::lessons::load_all;
use tooldojo::tui::blocks::{BlockWidget, build};
use tooldojo::tui::theme::{Theme, ThemeName};

/// Every block of every shipped lesson, built.
fn shipped() -> Vec<(String, Box<dyn BlockWidget>)> {
    let e = env();
    let lessons = load_all(&e.content).expect("lessons load");
    let mut out = Vec::new();
    for l in &lessons {
        for b in l.blocks() {
            let w = build(b, &e).expect("block builds");
            out.push((format!("{:?} line {}", b.kind, b.line), w));
        }
    }
    out
}

#[test]
#[ignore]
fn dump_shipped_blocks() {
    for (name, w) in shipped() {
        for width in [52u16, 80] {
            let h = w.height(width).min(60);
            let s = render_with(w.as_ref(), width, h, &Theme::new(ThemeName::Mono, false));
            println!("==== {name} @{width}x{h}\n{s}");
        }
    }
}

use crossterm::event::KeyCode;
use tooldojo::content::lessons::{BlockKind, BlockSpec, Checklist, Choice, Explain, Quiz};
use tooldojo::tui::blocks::BlockOutcome;
use tooldojo::tui::blocks::explain::ExplainWidget;
use tooldojo::tui::blocks::predict::PredictWidget;

fn mono() -> Theme {
    Theme::new(ThemeName::Mono, false)
}

/// The inner text of a rendered block with borders dropped and whitespace squeezed:
/// wrapped prose reads back as one run of words.
fn squeeze(screen: &str) -> String {
    screen
        .lines()
        .map(|l| l.trim_matches(|c: char| "│╭╮╰╯─|+-".contains(c)).to_owned())
        .collect::<Vec<_>>()
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn predict(opts: &[(&str, &str)]) -> PredictWidget {
    PredictWidget::from_block(
        &block(BlockKind::Predict, opts, "", BlockSpec::None),
        &env(),
    )
    .unwrap()
}

#[test]
fn predict_reveal_text_wraps_at_the_reader_width() {
    let e = env();
    let cases = tooldojo::executor::cases::get_ticket_cases(&e.content).unwrap();
    let mut p = predict(&[("fixture", "get_ticket"), ("group", "row")]);
    for (n, id) in p.row_ids().into_iter().enumerate() {
        // Predict not_found (key 5), lock, reveal.
        press(&mut p, &[ch('5'), key(KeyCode::Enter), key(KeyCode::Enter)]);
        let a = p.actual(&id).unwrap().clone();
        let reason = &cases.iter().find(|c| c.id == id).unwrap().reason;
        for width in [52u16, 80] {
            let screen = render_with(&p, width, p.height(width), &mono());
            let flat = squeeze(&screen);
            let said = format!(
                "you said not_found; the real executor returned {}",
                a.outcome
            );
            assert!(flat.contains(&said), "row {n} @{width}: {said:?}\n{screen}");
            assert!(
                flat.contains(&words(reason)),
                "row {n} @{width}: reason cut\n{screen}"
            );
            // The focus line is the reveal's last line, inside the block.
            let f = p.focus_line(width).unwrap();
            assert!(f < p.height(width) - 1, "{f}");
            let line = screen.lines().nth(f as usize).unwrap();
            let last_word = reason.split_whitespace().last().unwrap();
            assert!(
                line.contains(last_word),
                "focus {f} @{width}: {line:?}\n{screen}"
            );
        }
        press(&mut p, &[key(KeyCode::Down)]);
    }
}

#[test]
fn predict_title_and_score_never_touch() {
    let mut p = predict(&[("fixture", "get_ticket")]);
    press(&mut p, &[ch('1'), key(KeyCode::Enter), key(KeyCode::Enter)]);
    for width in [40u16, 52, 60, 80] {
        let screen = render_with(&p, width, 20, &mono());
        let top = screen.lines().next().unwrap();
        let after = top.split("Predict: get_ticket").nth(1).unwrap();
        assert!(
            after.starts_with(" ─"),
            "title runs into the score @{width}: {top:?}"
        );
        if width >= 52 {
            assert!(top.contains("score 1/1"), "score shown @{width}: {top:?}");
        }
    }
    let top80 = render_with(&p, 80, 20, &mono());
    assert!(top80.lines().next().unwrap().contains("1 of "), "{top80}");
}

#[test]
fn predict_focus_follows_the_selected_row_and_clicks_pick() {
    let mut p = predict(&[("fixture", "get_ticket"), ("group", "row")]);
    let width = 52;
    let h = p.height(width);
    press(&mut p, &[key(KeyCode::Down), key(KeyCode::Down)]);
    let screen = render_with(&p, width, h, &mono());
    let f = p.focus_line(width).unwrap() as usize;
    assert!(
        screen.lines().nth(f).unwrap().contains("▶ 3"),
        "focus {f}\n{screen}"
    );
    // Click row 5 in the table (border row 0, header row 1, data rows from row 2).
    assert_eq!(p.handle_click(6, 5), BlockOutcome::Consumed);
    assert_eq!(p.current_id(), Some(p.row_ids()[4].clone()));
    // Click an outcome in the menu: find "4 forbidden" on screen.
    let screen = render_with(&p, width, h, &mono());
    let (row, line) = screen
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("4 forbidden"))
        .unwrap();
    let col = line.chars().position(|_| true).unwrap();
    let col = line[..line.find("4 forbidden").unwrap()].chars().count() + col;
    assert_eq!(
        p.handle_click(row as u16, col as u16),
        BlockOutcome::Changed
    );
    let id = p.current_id().unwrap();
    assert_eq!(p.prediction(&id), Some(("forbidden", false)));
    assert_eq!(p.handle_click(0, 3), BlockOutcome::Ignored);
}

fn quiz_with_code() -> Box<dyn BlockWidget> {
    let q = Quiz {
        question: "What does `get_ticket` return when the *tenant* differs?".into(),
        choices: vec![
            Choice {
                text: "`forbidden`".into(),
                correct: false,
                why: "That would tell the caller the ticket exists somewhere else, which leaks."
                    .into(),
            },
            Choice {
                text: "`not_found`".into(),
                correct: true,
                why: "Same as a missing id.".into(),
            },
        ],
    };
    build(&block(BlockKind::Quiz, &[], "", BlockSpec::Quiz(q)), &env()).unwrap()
}

#[test]
fn inline_code_is_styled_in_colour_and_marked_in_mono() {
    let q = quiz_with_code();
    let colour = Theme::new(ThemeName::Default, false);
    let area = ratatui::layout::Rect::new(0, 0, 52, q.height(52));
    let mut buf = ratatui::buffer::Buffer::empty(area);
    q.render(
        area,
        &mut buf,
        &tooldojo::tui::blocks::RenderCtx {
            theme: &colour,
            focused: true,
            active: true,
            demo: false,
        },
    );
    let text = tooldojo::text::cell_text(&buf);
    assert!(!text.contains('`'), "backticks hidden in colour:\n{text}");
    assert!(!text.contains("*tenant*"), "{text}");
    let line = text.lines().position(|l| l.contains("get_ticket")).unwrap();
    let x = text.lines().nth(line).unwrap().find("get_ticket").unwrap();
    assert_eq!(buf[(x as u16, line as u16)].fg, colour.code.fg.unwrap());
    // Mono keeps a visible mark without colour.
    let mono_text = render_with(q.as_ref(), 52, q.height(52), &mono());
    assert!(mono_text.contains("`get_ticket`"), "{mono_text}");
    assert!(mono_text.contains("`not_found`"), "{mono_text}");
    let ascii = render_with(
        q.as_ref(),
        52,
        q.height(52),
        &Theme::new(ThemeName::Default, true),
    );
    assert!(ascii.contains("`forbidden`"), "{ascii}");
}

#[test]
fn quiz_click_picks_and_focus_shows_the_why() {
    let mut q = quiz_with_code();
    let width = 52;
    let screen = render_with(q.as_ref(), width, q.height(width), &mono());
    let row = screen
        .lines()
        .position(|l| l.contains("1. `forbidden`"))
        .unwrap();
    assert_eq!(q.handle_click(row as u16, 10), BlockOutcome::Changed);
    let screen = render_with(q.as_ref(), width, q.height(width), &mono());
    assert!(screen.contains("Incorrect"), "{screen}");
    let f = q.focus_line(width).unwrap() as usize;
    assert!(
        screen.lines().nth(f).unwrap().contains("leaks"),
        "focus {f}\n{screen}"
    );
    assert!(squeeze(&screen).contains(&words(
        "That would tell the caller the ticket exists somewhere else, which leaks."
    )));
    assert_eq!(
        q.handle_click(1, 10),
        BlockOutcome::Ignored,
        "the question is not a choice"
    );
}

#[test]
fn checklist_click_toggles_and_focus_is_the_item() {
    let spec = Checklist {
        items: vec![
            "Validate before `execute`".into(),
            "Scope every lookup by the trusted tenant, never by an argument the model wrote".into(),
        ],
    };
    let mut c = build(
        &block(BlockKind::Checklist, &[], "", BlockSpec::Checklist(spec)),
        &env(),
    )
    .unwrap();
    let width = 52;
    let screen = render_with(c.as_ref(), width, c.height(width), &mono());
    let row = screen
        .lines()
        .position(|l| l.contains("Scope every"))
        .unwrap();
    assert_eq!(
        c.handle_click(row as u16 + 1, 20),
        BlockOutcome::Changed,
        "a wrapped line counts"
    );
    assert_eq!(c.save()["ticked"], serde_json::json!([false, true]));
    let screen = render_with(c.as_ref(), width, c.height(width), &mono());
    let f = c.focus_line(width).unwrap() as usize;
    assert!(
        screen.lines().nth(f).unwrap().contains("Scope every"),
        "{screen}"
    );
    assert!(screen.contains("`execute`"), "{screen}");
}

fn explain() -> ExplainWidget {
    ExplainWidget::new(&Explain {
        question: "Why validate a `tool_call` at runtime when the schema was sent to the model?"
            .into(),
        model_answer: "The schema is a *request*, not a guarantee.".into(),
        key_points: vec!["schemas are advice".into()],
    })
    .unwrap()
}

#[test]
fn explain_compare_toggles_and_the_hint_fits() {
    let mut x = explain();
    for width in [52u16, 80] {
        let screen = render_with(&x, width, x.height(width), &mono());
        assert!(
            squeeze(&screen).contains("c: compare with the model answer."),
            "hint cut @{width}\n{screen}"
        );
    }
    press(&mut x, &[ch('c')]);
    assert!(x.showing() && x.is_done());
    assert!(render(&x, 80, x.height(80)).contains("Model answer"));
    press(&mut x, &[ch('c')]);
    assert!(!x.showing() && x.is_done(), "c hides it again; still done");
    let screen = render(&x, 80, x.height(80));
    assert!(!screen.contains("Model answer"), "{screen}");
    assert!(
        screen.contains("c shows the model answer again"),
        "{screen}"
    );
    let saved = x.save();
    let mut y = explain();
    y.restore(&saved);
    assert!(y.compared() && !y.showing());
    press(&mut y, &[ch('c')]);
    assert!(y.showing());
    // Editor cursor is the focus while typing.
    press(&mut y, &[ch('e')]);
    type_text(&mut y, "one\ntwo");
    let screen = render_with(&y, 52, y.height(52), &mono());
    let f = y.focus_line(52).unwrap() as usize;
    assert!(
        screen.lines().nth(f).unwrap().contains("two"),
        "focus {f}\n{screen}"
    );
}

#[test]
fn playgrounds_fit_52_columns_and_switches_take_clicks() {
    let e = env();
    let exec = build(
        &block(
            BlockKind::Playground,
            &[
                ("mode", "executor"),
                ("tool", "get_ticket"),
                ("tenant", "alpha"),
                ("read", "allow"),
            ],
            "{\"ticket_id\": \"TKT-104\"}",
            BlockSpec::None,
        ),
        &e,
    )
    .unwrap();
    let screen = render_with(exec.as_ref(), 52, exec.height(52), &mono());
    assert!(screen.contains("( ) deny"), "context cut at 52:\n{screen}");
    assert!(
        screen.contains("\"title\": \"Settings") && screen.contains("  crash\","),
        "envelope wraps, not cut:\n{screen}"
    );
    assert!(
        squeeze(&screen).contains("the call ran; only id, title and status come back"),
        "{screen}"
    );
    let f = exec.focus_line(52).unwrap() as usize;
    assert!(
        screen.lines().nth(f).unwrap().contains("ok"),
        "verdict focus {f}\n{screen}"
    );

    let mut val = build(
        &block(
            BlockKind::Playground,
            &[("mode", "validator"), ("schema", "weather")],
            "{\"city\": \"Paris\", \"days\": true}",
            BlockSpec::None,
        ),
        &e,
    )
    .unwrap();
    for width in [52u16, 80] {
        let screen = render_with(val.as_ref(), width, val.height(width), &mono());
        let flat = squeeze(&screen);
        assert!(
            flat.contains("city required."),
            "description cut @{width}\n{screen}"
        );
    }
    let screen = render_with(val.as_ref(), 52, val.height(52), &mono());
    let row = screen
        .lines()
        .position(|l| l.contains("bool guard"))
        .unwrap();
    assert_eq!(val.handle_click(row as u16, 5), BlockOutcome::Changed);
    let screen = render_with(val.as_ref(), 52, val.height(52), &mono());
    let line = screen.lines().find(|l| l.contains("] bool guard")).unwrap();
    assert!(line.contains("OFF"), "{screen}");
    assert_eq!(val.handle_click(1, 1), BlockOutcome::Ignored);
}

#[test]
fn trace_focus_is_the_cursor_event() {
    let e = env();
    let mut t = build(
        &block(
            BlockKind::Trace,
            &[("scenario", "partial-success")],
            "",
            BlockSpec::None,
        ),
        &e,
    )
    .unwrap();
    for _ in 0..4 {
        press(t.as_mut(), &[key(KeyCode::Right)]);
    }
    for width in [52u16, 80, 120] {
        let screen = render_with(t.as_ref(), width, t.height(width), &mono());
        let f = t.focus_line(width).unwrap() as usize;
        let line = screen.lines().nth(f).unwrap();
        assert!(line.contains('▶'), "focus {f} @{width}: {line:?}\n{screen}");
    }
}

#[test]
fn the_selected_predict_row_is_highlighted_end_to_end() {
    use ratatui::buffer::Buffer;
    use ratatui::layout::Rect;
    use tooldojo::tui::blocks::RenderCtx;
    let theme = Theme::new(ThemeName::Default, false);
    let bg = theme.selected.bg.expect("the highlight has a background");
    // Row 1 not yet picked (its "You" cell waits), then row 1 picked, locked and revealed.
    let mut p = predict(&[("fixture", "get_ticket"), ("group", "row")]);
    for reveal in [false, true] {
        if reveal {
            press(&mut p, &[ch('1'), key(KeyCode::Enter), key(KeyCode::Enter)]);
        }
        let (width, height) = (80, p.height(80));
        let area = Rect::new(0, 0, width, height);
        let mut buf = Buffer::empty(area);
        let ctx = RenderCtx {
            theme: &theme,
            focused: true,
            active: true,
            demo: false,
        };
        p.render(area, &mut buf, &ctx);
        let pointer = theme.sym.pointer;
        let y = (0..height)
            .find(|&y| buf[(1, y)].symbol() == pointer)
            .expect("the selected row");
        // From the row number to the last drawn character, every cell has the highlight.
        let cells: Vec<_> = (2..width - 1).map(|x| &buf[(x, y)]).collect();
        let last = cells.iter().rposition(|c| c.symbol() != " ").unwrap();
        let holes: Vec<u16> = (0..=last)
            .filter(|&k| cells[k].bg != bg)
            .map(|k| k as u16 + 2)
            .collect();
        assert!(holes.is_empty(), "reveal {reveal}: holes at {holes:?}");
    }
}
