//! Blocks built from the shipped fixtures through `build`, as the lessons use them.

use crate::blocks_support;

use blocks_support::*;
use crossterm::event::KeyCode;
use tooldojo::content::lessons::{BlockKind, BlockSpec};
use tooldojo::executor::Safeguard;
use tooldojo::switches::Switch;
use tooldojo::tui::blocks::playground::{ExecutorPlayground, ValidatorPlayground};
use tooldojo::tui::blocks::predict::{FixtureKind, PredictWidget};
use tooldojo::tui::blocks::{BlockWidget, build};
use tooldojo::validate::Rule;

fn predict(opts: &[(&str, &str)]) -> Result<PredictWidget, String> {
    PredictWidget::from_block(
        &block(BlockKind::Predict, opts, "", BlockSpec::None),
        &env(),
    )
}

/// Predict `ok` on every row, lock and reveal it.
fn reveal_all(p: &mut PredictWidget) {
    for _ in p.row_ids() {
        press(
            p,
            &[
                ch('1'),
                key(KeyCode::Enter),
                key(KeyCode::Enter),
                key(KeyCode::Down),
            ],
        );
    }
}

#[test]
fn every_get_ticket_row_agrees_with_the_real_executor() {
    let mut p = predict(&[("fixture", "get_ticket")]).unwrap();
    reveal_all(&mut p);
    assert!(p.is_done());
    for id in p.row_ids() {
        let a = p.actual(&id).unwrap();
        assert!(
            a.agrees,
            "{id}: real {} vs expected {}",
            a.outcome, a.expected
        );
    }
    // The seed's eight rows: two ok, the rest errors; predicting ok misses six.
    let mut rows = predict(&[("fixture", "get_ticket"), ("group", "row")]).unwrap();
    assert_eq!(rows.row_ids().len(), 8);
    reveal_all(&mut rows);
    assert_eq!(rows.score(), (2, 8, 8));
    assert_eq!(rows.queue().len(), 6);
}

#[test]
fn every_validator_row_agrees_with_the_real_validator() {
    let mut p = predict(&[("fixture", "validator")]).unwrap();
    reveal_all(&mut p);
    for id in p.row_ids() {
        let a = p.actual(&id).unwrap();
        assert!(
            a.agrees,
            "{id}: real {:?} vs expected {}",
            a.shown, a.expected
        );
    }
}

#[test]
fn every_wire_row_agrees_with_the_protocols_rules() {
    let mut p = predict(&[("fixture", "wire")]).unwrap();
    assert!(p.row_ids().len() >= 10);
    reveal_all(&mut p);
    for id in p.row_ids() {
        let a = p.actual(&id).unwrap();
        assert!(a.agrees, "{id}: {:?} vs expected {}", a.shown, a.expected);
    }
    // Pairing rows answer with a call's id or "no call"; flag rows with a way of failing.
    let pairing = predict(&[("fixture", "wire"), ("group", "pairing")]).unwrap();
    let flag = predict(&[("fixture", "wire"), ("group", "flag")]).unwrap();
    assert_eq!(
        pairing.row_ids().len() + flag.row_ids().len(),
        p.row_ids().len()
    );
}

#[test]
fn rows_option_picks_and_orders_rows() {
    let p = predict(&[("fixture", "get_ticket"), ("rows", "row-7,row-2")]).unwrap();
    assert_eq!(p.row_ids(), ["row-7", "row-2"]);
    let e = predict(&[("fixture", "get_ticket"), ("rows", "row-7,nope")])
        .err()
        .unwrap();
    assert!(e.contains("nope"), "{e}");
    let e = predict(&[("fixture", "validator"), ("group", "no-such-group")])
        .err()
        .unwrap();
    assert!(e.contains("no-such-group"), "{e}");
    let e = predict(&[("fixture", "tickets")]).err().unwrap();
    assert!(e.contains("get_ticket, validator or wire"), "{e}");
    let e = build(&block(BlockKind::Predict, &[], "", BlockSpec::None), &env())
        .err()
        .unwrap();
    assert!(e.starts_with("line 7:"), "{e}");
}

#[test]
fn every_executor_rule_is_justified_by_a_fixture_row() {
    let b = block(
        BlockKind::Playground,
        &[("mode", "executor")],
        "",
        BlockSpec::None,
    );
    let mut pg = ExecutorPlayground::from_block(&b, &env()).unwrap();
    press(&mut pg, &[key(KeyCode::Tab)]);
    for (i, &rule) in Safeguard::ALL.iter().enumerate() {
        press(&mut pg, &[ch(' ')]);
        assert_eq!(pg.off(), Some(rule));
        assert!(!pg.flips().is_empty(), "no row flips without {rule:?}");
        press(&mut pg, &[ch(' ')]);
        if i + 1 < Safeguard::ALL.len() {
            press(&mut pg, &[ch('j')]);
        }
    }
}

#[test]
fn every_validator_rule_is_justified_by_a_fixture_row() {
    let b = block(
        BlockKind::Playground,
        &[("mode", "validator"), ("schema", "search_tickets")],
        "{\"query\": \"crash\"}",
        BlockSpec::None,
    );
    let mut pg = ValidatorPlayground::from_block(&b, &env()).unwrap();
    assert_eq!(pg.schema_name(), Some("search_tickets"));
    assert_eq!(pg.args_text(), "{\"query\": \"crash\"}");
    press(&mut pg, &[key(KeyCode::Tab)]);
    for (i, &rule) in Rule::ALL.iter().enumerate() {
        press(&mut pg, &[ch(' ')]);
        assert_eq!(pg.off(), Some(rule));
        assert!(!pg.flips().is_empty(), "no row flips without {rule:?}");
        press(&mut pg, &[ch(' ')]);
        if i + 1 < Rule::ALL.len() {
            press(&mut pg, &[ch('j')]);
        }
    }
}

#[test]
fn playground_options_are_checked() {
    let ok = |opts: &[(&str, &str)]| {
        build(
            &block(BlockKind::Playground, opts, "", BlockSpec::None),
            &env(),
        )
    };
    let pg = ok(&[
        ("mode", "executor"),
        ("tenant", "beta"),
        ("read", "deny"),
        ("tool", "delete_ticket"),
    ])
    .unwrap();
    assert!(pg.title().contains("executor"));
    let saved = pg.save();
    assert_eq!(saved["tenant"], "beta");
    assert_eq!(saved["read"], false);
    assert_eq!(saved["tool"], "delete_ticket");
    for bad in [
        vec![("mode", "executor"), ("tenant", "delta")],
        vec![("mode", "executor"), ("read", "maybe")],
        vec![("mode", "validator"), ("schema", "nope")],
        vec![("mode", "sandbox")],
        vec![],
    ] {
        let e = ok(&bad)
            .err()
            .unwrap_or_else(|| panic!("{bad:?} should fail"));
        assert!(e.starts_with("line 7:"), "{e}");
    }
    // Without schema=NAME the first named schema is shown.
    assert!(ok(&[("mode", "validator")]).is_ok());
}

#[test]
fn fixture_blocks_fit_an_80x24_reader_and_never_panic() {
    for opts in [
        vec![("fixture", "get_ticket"), ("group", "row")],
        vec![("fixture", "validator"), ("group", "seed")],
    ] {
        let mut p = build(
            &block(BlockKind::Predict, &opts, "", BlockSpec::None),
            &env(),
        )
        .unwrap();
        press(
            p.as_mut(),
            &[ch('1'), key(KeyCode::Enter), key(KeyCode::Enter)],
        );
        assert!(p.height(76) <= 22, "{opts:?}: {}", p.height(76));
        render_tiny_sizes(p.as_ref());
    }
    for opts in [vec![("mode", "validator")], vec![("mode", "executor")]] {
        let p = build(
            &block(BlockKind::Playground, &opts, "", BlockSpec::None),
            &env(),
        )
        .unwrap();
        assert!(p.height(76) <= 24, "{opts:?}: {}", p.height(76));
        render_tiny_sizes(p.as_ref());
    }
}

#[test]
fn every_block_in_the_shipped_lessons_builds() {
    let env = env();
    let lessons = tooldojo::content::lessons::load_all(&env.content).expect("lessons parse");
    let mut kinds = std::collections::BTreeMap::new();
    for lesson in &lessons {
        for page in &lesson.pages {
            for item in &page.items {
                if let tooldojo::content::lessons::Item::Block(b) = item {
                    let w = build(b, &env)
                        .unwrap_or_else(|e| panic!("{} line {}: {e}", lesson.file, b.line));
                    *kinds.entry(format!("{:?}", b.kind)).or_insert(0) += 1;
                    render_tiny_sizes(w.as_ref());
                    let _ = render(w.as_ref(), 76, w.height(76).min(60));
                }
            }
        }
    }
    assert!(kinds.len() >= 6, "{kinds:?}");
}

/// The block drawn whole at 76 columns, to a learner (`demo` false) or to a room.
fn drawn(p: &PredictWidget, demo: bool) -> String {
    let theme = tooldojo::tui::theme::Theme::new(tooldojo::tui::theme::ThemeName::Mono, false);
    let area = ratatui::layout::Rect::new(0, 0, 76, p.height(76).min(80));
    let mut buf = ratatui::buffer::Buffer::empty(area);
    p.render(
        area,
        &mut buf,
        &tooldojo::tui::blocks::RenderCtx {
            theme: &theme,
            focused: true,
            active: !demo,
            demo,
        },
    );
    tooldojo::text::cell_text(&buf)
}

#[test]
fn no_row_of_a_shipped_table_names_its_id_before_it_is_revealed() {
    let env = env();
    let lessons = tooldojo::content::lessons::load_all(&env.content).expect("lessons parse");
    let mut checked = std::collections::BTreeSet::new();
    for lesson in &lessons {
        for page in &lesson.pages {
            for item in &page.items {
                let tooldojo::content::lessons::Item::Block(b) = item else {
                    continue;
                };
                if b.kind != BlockKind::Predict {
                    continue;
                }
                let Ok(mut p) = PredictWidget::from_block(b, &env) else {
                    continue;
                };
                let kind = p.kind();
                for (n, id) in p.row_ids().into_iter().enumerate() {
                    for demo in [false, true] {
                        let text = drawn(&p, demo);
                        assert!(
                            !text.contains(&id),
                            "{} line {}: row {} names {id} before its reveal (demo {demo}):\n{text}",
                            lesson.file,
                            b.line,
                            n + 1
                        );
                    }
                    press(&mut p, &[ch('1'), key(KeyCode::Enter), key(KeyCode::Enter)]);
                    let text = drawn(&p, false);
                    // Fixture rows with ids to look up name them once revealed.
                    if matches!(kind, FixtureKind::Validator | FixtureKind::Wire) {
                        assert!(text.contains(&id), "{id} once revealed:\n{text}");
                    }
                    press(&mut p, &[key(KeyCode::Down)]);
                    checked.insert(format!("{kind:?}"));
                }
            }
        }
    }
    assert!(checked.len() >= 3, "{checked:?}");
}

#[test]
fn a_wide_playground_with_a_rule_off_keeps_the_arguments_beside_the_verdict() {
    // Lesson 16's playground: a long schema, and with the value constraints off a list of
    // rows that flip longer than the page, which scroll in the column beside the inputs.
    let b = block(
        BlockKind::Playground,
        &[("mode", "validator"), ("schema", "search_issues_fixed")],
        "{\"repo\": \"acme/web\", \"query\": \"x\",\n \"per_page\": 100}",
        BlockSpec::None,
    );
    let mut pg = ValidatorPlayground::from_block(&b, &env()).unwrap();
    let (width, page) = (120, 41);
    press(&mut pg, &[key(KeyCode::Tab)]);
    let values = Rule::ALL.iter().position(|r| *r == Rule::Values).unwrap();
    for _ in 0..values {
        press(&mut pg, &[ch('j')]);
    }
    press(&mut pg, &[ch(' ')]);
    assert_eq!(pg.off(), Some(Rule::Values));
    assert!(pg.flips().len() > 10, "{}", pg.flips().len());
    // Back to the arguments, and type into them.
    press(&mut pg, &[key(KeyCode::BackTab), key(KeyCode::Enter)]);
    press(&mut pg, &[key(KeyCode::End), ch(' ')]);
    let h = pg.height_for(width, page);
    assert!(h <= page, "the block fits the page: {h}");
    let text = render(&pg, width, h);
    assert!(
        text.contains("more lines below: "),
        "the cut is marked:\n{text}"
    );
    let lines: Vec<&str> = text.lines().collect();
    let verdict = lines.iter().position(|l| l.contains("accepted")).unwrap();
    let args = lines
        .iter()
        .position(|l| l.contains("arguments"))
        .unwrap_or_else(|| panic!("{text}"));
    let typed = lines
        .iter()
        .position(|l| l.contains("\"per_page\": 100"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        typed > args && typed < verdict + usize::from(page) - 1,
        "what is typed (line {typed}) and the verdict (line {verdict}) on one page of {page}:\n{text}"
    );
    let focus = usize::from(pg.focus_line(width).unwrap());
    assert!(
        focus < usize::from(page),
        "the page keeps line {focus} in view, with the verdict"
    );
}
