//! Blocks on a stage of any size: editors that wrap and keep their history, tables whose
//! rows read differently at every width, questions that test what a row is about, panes
//! that grow into free rows.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use tooldojo::content::lessons::{BlockKind, BlockSpec, Checklist, Choice, Explain, Quiz};
use tooldojo::tui::blocks::explain::ExplainWidget;
use tooldojo::tui::blocks::playground::{ExecutorPlayground, ValidatorPlayground};
use tooldojo::tui::blocks::predict::PredictWidget;
use tooldojo::tui::blocks::{BlockOutcome, BlockWidget, build};
use tooldojo::tui::theme::{Theme, ThemeName};

use crate::blocks_support::{block, ch, env, key, press, render, render_with, type_text};

fn predict(options: &[(&str, &str)]) -> PredictWidget {
    PredictWidget::from_block(
        &block(BlockKind::Predict, options, "", BlockSpec::None),
        &env(),
    )
    .expect("predict builds")
}

fn exec_playground() -> ExecutorPlayground {
    let b = block(
        BlockKind::Playground,
        &[("mode", "executor")],
        "",
        BlockSpec::None,
    );
    ExecutorPlayground::from_block(&b, &env()).unwrap()
}

fn val_playground(schema: &str) -> ValidatorPlayground {
    let b = block(
        BlockKind::Playground,
        &[("mode", "validator"), ("schema", schema)],
        "",
        BlockSpec::None,
    );
    ValidatorPlayground::from_block(&b, &env()).unwrap()
}

fn ctrl(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)
}

/// Switch rule number `n` (0-based) off: focus starts on the arguments, the rules are
/// the next pane.
fn switch_off(p: &mut dyn BlockWidget, n: usize) {
    press(p, &[key(KeyCode::Tab)]);
    for _ in 0..n {
        press(p, &[key(KeyCode::Down)]);
    }
    press(p, &[ch(' ')]);
}

#[test]
fn flip_table_names_the_cross_tenant_leak() {
    let mut p = exec_playground();
    // The fifth safeguard is tenant scoping.
    switch_off(&mut p, 4);
    let leak = p
        .flips()
        .iter()
        .find(|f| f.without.contains("LEAK"))
        .unwrap_or_else(|| panic!("a leak row: {:?}", p.flips()));
    assert!(!leak.without_ok && leak.with.contains("own"), "{leak:?}");
    for w in [80, 120, 160] {
        let screen = render(&p, w, p.height_for(w, 200));
        assert!(screen.contains("LEAK"), "{w}:\n{screen}");
    }
}

/// The table lines of a predict block drawn at `width` (its rows start with their number).
fn table_rows(p: &PredictWidget, width: u16, rows: std::ops::RangeInclusive<usize>) -> Vec<String> {
    let screen = render(p, width, p.height_for(width, 200));
    rows.map(|n| {
        let tag = format!("{n:>2} ");
        let line = screen
            .lines()
            .find(|l| l.contains(&tag) && l.find(&tag).is_some_and(|at| at < 8))
            .unwrap_or_else(|| panic!("row {n} at {width}:\n{screen}"));
        // The row's own cells: up to the You/Real columns.
        line.chars().take(width as usize * 55 / 100).collect()
    })
    .collect()
}

fn assert_distinct(rows: &[String], what: &str) {
    for (i, a) in rows.iter().enumerate() {
        for b in &rows[i + 1..] {
            let strip = |s: &str| {
                s.split_once(' ')
                    .map(|(_, r)| r.to_owned())
                    .unwrap_or_default()
            };
            let (x, y) = (
                strip(a.trim_start_matches(['│', ' ', '▶'])),
                strip(b.trim_start_matches(['│', ' ', '▶'])),
            );
            assert_ne!(x, y, "{what}: rows read alike:\n{a}\n{b}");
        }
    }
}

#[test]
fn predict_rows_read_differently_at_every_width() {
    let traps = predict(&[("fixture", "validator"), ("group", "trap")]);
    let values = predict(&[("fixture", "validator"), ("group", "value")]);
    let tenants = predict(&[
        ("fixture", "get_ticket"),
        (
            "rows",
            "edge-tenant-matches-session,row-7,row-2,edge-unknown-tenant",
        ),
    ]);
    for width in [54, 80, 120, 160] {
        let rows = table_rows(&traps, width, 1..=4);
        assert_distinct(&rows, &format!("lesson 3 traps at {width}"));
        if width >= 120 {
            for (row, word) in rows.iter().zip(["true", "false", "3.0", "1e2"]) {
                assert!(row.contains(word), "{width}: {row}");
            }
        }
        assert_distinct(
            &table_rows(&values, width, 5..=8),
            &format!("lesson 4 at {width}"),
        );
        assert_distinct(
            &table_rows(&tenants, width, 1..=2),
            &format!("lesson 7 at {width}"),
        );
    }
}

#[test]
fn predict_shows_the_selected_row_whole() {
    let p = predict(&[("fixture", "validator"), ("group", "value")]);
    let screen = render(&p, 80, p.height(80));
    assert!(
        screen.contains(r#""page_size": 99999999}"#) && screen.contains(r#"{"query": "crash","#),
        "{screen}"
    );
}

#[test]
fn every_validator_row_offers_the_same_choices() {
    for group in ["trap", "parse", "value", "seed"] {
        let mut p = predict(&[("fixture", "validator"), ("group", group)]);
        press(&mut p, &[key(KeyCode::Enter)]);
        let n = p.row_ids().len();
        for _ in 0..n {
            let screen = render(&p, 100, p.height(100));
            assert!(
                screen.contains("6 parse") && screen.contains("1 ok"),
                "{group}:\n{screen}"
            );
            press(&mut p, &[key(KeyCode::Down)]);
        }
    }
}

/// Pick the choice whose menu word is `word` on the row under the cursor, lock, reveal.
fn predict_word(p: &mut PredictWidget, word: &str) {
    let screen = render(p, 100, 60);
    let at = screen
        .find(&format!(" {word}  "))
        .or_else(|| screen.find(&format!(" {word} ")))
        .unwrap_or_else(|| panic!("{word} in\n{screen}"));
    let digit = screen[..at]
        .chars()
        .last()
        .expect("a number before the word");
    press(p, &[ch(digit), key(KeyCode::Enter), key(KeyCode::Enter)]);
}

#[test]
fn ordering_rows_ask_which_failure_is_named() {
    let mut p = predict(&[("fixture", "validator"), ("group", "order")]);
    let screen = render(&p, 100, 60);
    assert!(
        screen.contains("missing city") && screen.contains("unknown unit"),
        "{screen}"
    );
    assert!(!screen.contains("6 parse"), "{screen}");
    predict_word(&mut p, "missing city");
    let id = p.current_id().unwrap();
    assert_eq!(p.actual(&id).unwrap().outcome, "missing city");
    assert_eq!(p.score().0, 1);
    // The next row: {"city": 1, "unit": "C"} names the unknown key first.
    press(&mut p, &[key(KeyCode::Down)]);
    predict_word(&mut p, "type city");
    let id = p.current_id().unwrap();
    assert_eq!(p.actual(&id).unwrap().outcome, "unknown unit");
    assert_eq!(p.score(), (1, 2, 8));
    assert!(p.queue().contains(&id));
}

#[test]
fn edit_the_result_row_asks_whether_the_store_changed() {
    let mut p = predict(&[
        ("fixture", "get_ticket"),
        ("rows", "edge-mutation,edge-description-not-copied"),
    ]);
    let screen = render(&p, 100, 40);
    assert!(
        screen.contains("store changed") && screen.contains("store unchanged"),
        "{screen}"
    );
    predict_word(&mut p, "store unchanged");
    assert_eq!(
        p.actual("edge-mutation").unwrap().outcome,
        "store unchanged"
    );
    assert_eq!(p.score().0, 1);
    // The other row keeps the envelope question.
    press(&mut p, &[key(KeyCode::Down)]);
    assert!(render(&p, 100, 40).contains("not_found"));
}

#[test]
fn old_progress_with_a_bare_check_word_asks_the_row_again() {
    let mut p = predict(&[("fixture", "validator"), ("group", "order")]);
    let id = p.row_ids()[0].clone();
    let saved = serde_json::json!({
        "rows": { id.clone(): {"pick": "missing", "locked": true, "revealed": true,
                               "first": {"pick": "missing", "right": true}} },
        "queue": [id.clone()],
    });
    p.restore(&saved);
    assert_eq!(p.prediction(&id), None);
    assert_eq!(p.score(), (0, 0, 8));
    assert!(p.queue().is_empty());
    // Old saves of rows whose menu did not change still load.
    let mut t = predict(&[("fixture", "validator"), ("group", "trap")]);
    let tid = t.row_ids()[0].clone();
    t.restore(&serde_json::json!({
        "rows": { tid.clone(): {"pick": "type", "locked": true, "revealed": true,
                                "first": {"pick": "type", "right": true}} }
    }));
    assert_eq!(t.prediction(&tid), Some(("type", true)));
    assert_eq!(t.score(), (1, 1, 15));
}

#[test]
fn presenter_steps_reveal_rows_without_scoring_and_reset_clears() {
    let mut p = predict(&[("fixture", "validator"), ("group", "trap")]);
    assert_eq!(p.remaining(), vec!["predict rows 1-15".to_owned()]);
    assert!(p.present_step());
    assert!(p.present_step());
    assert_eq!(p.score(), (0, 0, 15), "presenter reveals are not scored");
    let screen = render(&p, 100, p.height(100));
    assert!(
        screen.contains("shown") && screen.contains("→ type"),
        "{screen}"
    );
    assert_eq!(p.current_id().as_deref(), Some(p.row_ids()[1].as_str()));
    predict_word(&mut p, "type");
    assert_eq!(p.score(), (0, 0, 15), "a shown row takes no prediction");
    let mut n = 2;
    while p.present_step() {
        n += 1;
    }
    assert_eq!(n, 15);
    p.reset();
    assert!(render(&p, 100, p.height(100)).contains("Pick an outcome"));
    assert!(p.present_step(), "reset rows can be shown again");
}

#[test]
fn predict_grows_into_free_rows() {
    let p = predict(&[("fixture", "validator"), ("group", "trap")]);
    let need = p.height(80);
    let all = p.height_for(80, 200);
    assert!(all > need, "{need} {all}");
    assert_eq!(p.height_for(80, 0), need);
    let screen = render(&p, 80, all);
    assert!(screen.contains("15 ") && screen.contains(" 9 "), "{screen}");
}

#[test]
fn validator_schema_pane_shows_the_whole_schema_when_there_is_room() {
    let p = val_playground("create_event");
    let h = p.height_for(160, 43);
    assert!(h <= 43, "{h}");
    let screen = render(&p, 156, h);
    assert!(
        screen.contains(r#""pattern""#) && screen.contains(r#""enum""#),
        "{screen}"
    );
    // A box cut short says where it is on its border.
    let cut = |s: &str| s.lines().any(|l| l.contains('╰') && l.contains(" of "));
    assert!(!cut(&screen), "no pane is cut: {screen}");
    let small = render(&p, 156, p.height_for(156, 20));
    assert!(cut(&small), "{small}");
    // weather keeps its closing brace at 80 columns.
    let w = val_playground("weather");
    let screen = render(&w, 76, w.height(76));
    let schema_lines: Vec<&str> = screen.lines().filter(|l| l.contains("││}")).collect();
    assert!(!schema_lines.is_empty(), "{screen}");
}

#[test]
fn editors_start_at_the_end_and_keys_clear_reset_format_undo() {
    let mut p = exec_playground();
    // Tool field: Tab from the arguments to the rules, to the tool.
    press(
        &mut p,
        &[key(KeyCode::Tab), key(KeyCode::Tab), key(KeyCode::Enter)],
    );
    for c in ['_', 'x'] {
        press(&mut p, &[ch(c)]);
    }
    assert_eq!(p.tool_name(), "get_ticket_x", "typing goes on at the end");
    press(&mut p, &[key(KeyCode::Esc)]);
    press(&mut p, &[ch('c')]);
    assert_eq!(p.tool_name(), "");
    type_text(&mut p, "");
    press(&mut p, &[ch('u')]);
    assert_eq!(p.tool_name(), "get_ticket_x");
    press(&mut p, &[ch('o')]);
    assert_eq!(p.tool_name(), "get_ticket");
    press(&mut p, &[key(KeyCode::Enter)]);
    type_text(&mut p, "s_of_a_much_longer_tool");
    press(&mut p, &[key(KeyCode::Esc)]);
    let screen = render(&p, 80, p.height(80));
    assert!(
        screen.contains("get_tickets_of_a_much_longer_tool"),
        "{screen}"
    );
    // Arguments: format, undo, hints.
    let mut v = val_playground("weather");
    press(&mut v, &[key(KeyCode::Enter)]);
    type_text(&mut v, "");
    for c in r#""#.chars() {
        press(&mut v, &[ch(c)]);
    }
    press(&mut v, &[key(KeyCode::Esc), ch('c'), key(KeyCode::Enter)]);
    for c in r#"{"city": "Paris", "days": 3}"#.chars() {
        press(&mut v, &[ch(c)]);
    }
    press(&mut v, &[key(KeyCode::Esc), ch('f')]);
    assert_eq!(v.args_text(), "{\n  \"city\": \"Paris\",\n  \"days\": 3\n}");
    press(&mut v, &[ch('u')]);
    assert_eq!(v.args_text(), r#"{"city": "Paris", "days": 3}"#);
    let hints: Vec<&str> = v.key_hints(true).iter().map(|h| h.keys).collect();
    for k in ["c", "o", "f", "u"] {
        assert!(hints.contains(&k), "{hints:?}");
    }
    press(&mut v, &[key(KeyCode::Enter), ch('x'), ctrl('u')]);
    assert_eq!(
        v.args_text(),
        r#"{"city": "Paris", "days": 3}"#,
        "Ctrl-U undoes while typing"
    );
}

#[test]
fn long_answers_wrap_in_the_editor() {
    let spec = Explain {
        question: "Why check arguments?".into(),
        model_answer: "Because the model is not trusted.".into(),
        key_points: vec!["trust".into()],
    };
    let mut x = ExplainWidget::new(&spec).unwrap();
    press(&mut x, &[key(KeyCode::Enter)]);
    let answer = "the model writes arguments that nobody checked and the handler runs them as if they were right which is how a wrong refund happens";
    type_text(&mut x, answer);
    let screen = render(&x, 60, x.height(60));
    assert!(screen.contains("refund happens"), "{screen}");
    assert!(screen.contains("the model writes"), "{screen}");
    press(&mut x, &[ctrl('u')]);
    assert!(x.answer().len() < answer.len());
    press(&mut x, &[key(KeyCode::Esc), key(KeyCode::Backspace)]);
    assert_eq!(x.answer(), "");
    press(&mut x, &[ch('u')]);
    assert!(x.answer().starts_with("the model writes"), "{}", x.answer());
    assert_eq!(x.remaining().len(), 1);
    assert!(x.present_step());
    x.reset();
    assert_eq!(x.answer(), "");
}

#[test]
fn quiz_numbers_work_when_focused_and_why_is_the_choice_own() {
    let spec = Quiz {
        question: "Which?".into(),
        choices: vec![
            Choice {
                text: "A".into(),
                correct: true,
                why: "Right. Because of the first reason.".into(),
            },
            Choice {
                text: "B".into(),
                correct: false,
                why: "It comes second.".into(),
            },
        ],
    };
    let mut q = build(
        &block(BlockKind::Quiz, &[], "", BlockSpec::Quiz(spec)),
        &env(),
    )
    .unwrap();
    assert_eq!(q.remaining().len(), 1);
    assert_eq!(q.handle_key(ch('2'), false), BlockOutcome::Changed);
    assert_eq!(q.handle_key(ch('1'), false), BlockOutcome::Changed);
    assert!(q.is_done());
    let screen = render(q.as_ref(), 80, 20);
    assert!(screen.contains("Because of the first reason"), "{screen}");
    assert!(!screen.contains("Right. Because"), "{screen}");
    assert!(!screen.contains("right: Right"), "{screen}");
    q.reset();
    assert!(!q.is_done());
    assert!(q.present_step() && q.is_done() && !q.present_step());
}

#[test]
fn checklist_steps_and_says_what_is_left() {
    let spec = Checklist {
        items: vec!["a".into(), "b".into(), "c".into()],
    };
    let mut c = build(
        &block(BlockKind::Checklist, &[], "", BlockSpec::Checklist(spec)),
        &env(),
    )
    .unwrap();
    assert_eq!(c.remaining(), vec!["3 checklist items".to_owned()]);
    assert!(c.present_step());
    assert_eq!(c.remaining(), vec!["2 checklist items".to_owned()]);
    c.reset();
    assert_eq!(c.remaining(), vec!["3 checklist items".to_owned()]);
}

#[test]
fn playground_reset_restores_inputs_and_rules() {
    let mut p = exec_playground();
    assert_eq!(p.remaining().len(), 1);
    switch_off(&mut p, 4);
    press(
        &mut p,
        &[
            key(KeyCode::Tab),
            key(KeyCode::Tab),
            key(KeyCode::Tab),
            ch('c'),
        ],
    );
    assert!(p.off().is_some());
    assert!(p.remaining().is_empty(), "{:?}", p.remaining());
    p.reset();
    assert!(p.off().is_none() && p.flips().is_empty());
    assert_eq!(p.remaining().len(), 1);
    assert!(render(&p, 80, p.height(80)).contains("TKT-104"));
}

#[test]
fn ascii_marks_are_unambiguous() {
    let mut p = exec_playground();
    switch_off(&mut p, 4);
    let screen = render_with(&p, 100, p.height(100), &Theme::new(ThemeName::Mono, true));
    assert!(screen.is_ascii(), "{screen}");
    assert!(
        screen.contains("[off] tenant scoping") && screen.contains("[on] tool allowlist"),
        "{screen}"
    );
    assert!(screen.contains("FAIL") && screen.contains("OK"), "{screen}");
    assert!(
        !screen.contains("[x]") && !screen.contains("+ ok"),
        "{screen}"
    );
}

#[test]
fn a_short_schema_box_scrolls_and_says_where_it_is() {
    let mut p = val_playground("search_tickets");
    let h = p.height(80);
    let first = render(&p, 80, h);
    assert!(
        first.contains(" 1-") && first.contains(r#""name""#),
        "{first}"
    );
    // Shift+Tab from the arguments focuses the schema box; Down scrolls it.
    press(
        &mut p,
        &[
            key(KeyCode::BackTab),
            key(KeyCode::Down),
            key(KeyCode::Down),
        ],
    );
    let moved = render(&p, 80, h);
    assert!(moved.contains(" 3-"), "{moved}");
    assert!(!moved.contains(r#""name""#), "{moved}");
    press(&mut p, &[key(KeyCode::Up)]);
    assert!(render(&p, 80, h).contains(" 2-"));
    // Typing still starts at the end of the text.
    press(&mut p, &[key(KeyCode::Enter), ch('x')]);
    assert!(
        p.verdict().is_none(),
        "text after the schema's closing brace breaks it"
    );
    assert_eq!(p.schema_name(), None);
}
