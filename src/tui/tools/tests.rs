use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::*;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

fn key(c: KeyCode) -> KeyEvent {
    KeyEvent::new(c, KeyModifiers::NONE)
}

fn screen() -> ToolsScreen {
    let text = include_str!("../../../fixtures/tools/issue-tracker.json");
    let set = crate::tools::ToolSet::from_text(text, None).unwrap();
    ToolsScreen::new(
        ToolsFile {
            name: "issue-tracker.json".into(),
            set: Arc::new(set),
        },
        None,
        false,
    )
}

/// The Your tools screen on one declaration of `text`.
fn screen_on(text: &str) -> ToolsScreen {
    let set = crate::tools::ToolSet::from_text(text, None).unwrap();
    ToolsScreen::new(
        ToolsFile {
            name: "mine.json".into(),
            set: Arc::new(set),
        },
        None,
        false,
    )
}

#[test]
fn a_field_v_shows_whole_scrolls_in_the_predict_table() {
    // A list with no bound: its trap row holds a thousand items.
    let mut s = screen_on(
        r#"[{"name": "batch", "description": "Run calls.", "input_schema": {"type": "object",
        "properties": {"calls": {"type": "array", "items": {"type": "object",
        "properties": {"name": {"type": "string"}}}}}, "required": ["calls"]}}]"#,
    );
    let _ = s.on_key(key(KeyCode::Enter));
    assert_eq!(s.mode_name(), "predict");
    let mut text = drawn(&s, 80, 24).join("\n");
    for _ in 0..20 {
        if text.contains("v shows it whole") {
            break;
        }
        let _ = s.on_key(key(KeyCode::Down));
        text = drawn(&s, 80, 24).join("\n");
    }
    assert!(text.contains("v shows it whole"), "{text}");
    let _ = s.on_key(key(KeyCode::Char('v')));
    let whole = drawn(&s, 80, 24).join("\n");
    assert!(whole.contains("more lines below: PgDn"), "{whole}");
    let _ = s.on_key(key(KeyCode::PageDown));
    let paged = drawn(&s, 80, 24).join("\n");
    assert!(paged.contains("lines above: PgUp"), "{paged}");
    let _ = s.on_key(key(KeyCode::PageUp));
    let _ = s.on_key(key(KeyCode::PageUp));
    assert_eq!(drawn(&s, 80, 24).join("\n"), whole);
    // The help says the keys scroll it.
    let _ = s.on_key(key(KeyCode::Char('?')));
    let help = drawn(&s, 80, 24).join("\n");
    assert!(help.contains("scroll the table and its detail"), "{help}");
}

#[test]
fn keys_choose_predict_play_fix_and_leave() {
    let mut s = screen();
    assert!(matches!(s.on_key(key(KeyCode::Down)), ToolsUpdate::Redraw));
    assert_eq!(s.selected(), 1);
    assert!(matches!(s.on_key(key(KeyCode::Enter)), ToolsUpdate::Redraw));
    assert_eq!(s.mode_name(), "predict");
    // Pick "let through" for the first row, lock it and reveal it: the prediction is kept.
    let _ = s.on_key(key(KeyCode::Char('2')));
    let _ = s.on_key(key(KeyCode::Enter));
    let _ = s.on_key(key(KeyCode::Enter));
    assert!(matches!(s.on_key(key(KeyCode::Esc)), ToolsUpdate::Save));
    assert_eq!(s.mode_name(), "browse");
    assert!(
        s.progress().predict.contains_key("tools[1] get_issue"),
        "{:?}",
        s.progress()
    );
    let _ = s.on_key(key(KeyCode::Char('p')));
    assert_eq!(s.mode_name(), "playground");
    let _ = s.on_key(key(KeyCode::Esc));
    let _ = s.on_key(key(KeyCode::Char('f')));
    assert_eq!(s.mode_name(), "fixes");
    let _ = s.on_key(key(KeyCode::Esc));
    assert!(matches!(
        s.on_key(key(KeyCode::Char('t'))),
        ToolsUpdate::Play(_)
    ));
    assert!(s.progress().traced.contains("tools[1] get_issue"));
    assert!(matches!(s.on_key(key(KeyCode::Esc)), ToolsUpdate::Leave));
}

#[test]
fn the_fixed_copy_closes_what_got_through() {
    let s = screen();
    let fixed = s.fixed_declaration().unwrap();
    let v = crate::validate::Validator::from_value(&fixed).unwrap();
    let a = s.analysis(0).unwrap();
    for t in a.traps.traps.iter().filter(|t| t.fix.is_some()) {
        assert!(
            !v.is_valid(&t.args, &crate::validate::ValidatorRules::ALL_ON),
            "{}",
            t.label
        );
    }
    assert!(v.is_valid(
        a.traps.baseline.as_ref().unwrap(),
        &crate::validate::ValidatorRules::ALL_ON
    ));
}

#[test]
fn equal_names_share_as_much_as_each_other() {
    let names: Vec<String> = [
        "update_reservation_baggages",
        "update_reservation_flights",
        "update_reservation_baggages",
        "update_reservation_baggages",
        "list_directory",
    ]
    .map(String::from)
    .to_vec();
    let shared = crate::tui::draw::shared(&names);
    assert_eq!(shared[0], shared[2]);
    assert_eq!(shared[0], shared[3]);
    // With "update_reservation_flights", not with its own copies.
    assert_eq!(shared[0].start, "update_reservation_".len());
    assert_eq!(shared[1].start, "update_reservation_".len());
    assert_eq!(shared[4], crate::tui::draw::Shared::default());
}

#[test]
fn the_fixed_copy_keeps_the_strict_mode_the_declaration_asks_for() {
    let text = r#"[{"type": "function", "name": "final_result", "strict": true,
      "parameters": {"type": "object", "additionalProperties": false,
        "required": ["city", "n"],
        "properties": {"city": {"type": "string"}, "n": {"type": "integer"}}}}]"#;
    let set = crate::tools::ToolSet::from_text(text, None).unwrap();
    let s = ToolsScreen::new(
        ToolsFile {
            name: "strict.json".into(),
            set: Arc::new(set),
        },
        None,
        false,
    );
    let fixed = s.fixed_declaration().unwrap();
    let copy = crate::tools::strict::readiness(fixed.get("parameters"));
    // OpenAI's, which it asks for, stays; the maximum Anthropic's strict mode does not
    // take is still applied (Anthropic's is not asked for).
    assert!(copy.openai.ok, "{copy:?}\n{fixed}");
    assert!(
        fixed["parameters"]["properties"]["city"]
            .get("maxLength")
            .is_none()
    );
    assert!(
        fixed["parameters"]["properties"]["n"]
            .get("maximum")
            .is_some()
    );
    let a = s.analysis(0).unwrap();
    assert!(a.fixes().iter().any(|f| a.left_out(f)));
}

#[test]
fn a_call_the_validator_refuses_runs_no_attempt_and_is_answered_at_once() {
    let s = screen();
    let tool = &s.file.set.tools[0];
    let a = s.analysis(0).unwrap();
    let plan = crate::tools::scenario::plan(tool, &a.traps).unwrap();
    let run = run::build(&plan);
    let refused: Vec<_> = run
        .calls
        .iter()
        .filter(|c| matches!(c.validation, crate::replay::Validation::Failed(_)))
        .collect();
    assert!(!refused.is_empty());
    for c in refused {
        assert!(c.segments.is_empty(), "{:?}", c.segments);
        let r = c.result.as_ref().unwrap();
        assert_eq!((r.t_ms, r.attempts), (c.proposed_ms, 0), "{r:?}");
        assert_eq!(r.category, crate::orchestrator::Category::InvalidArguments);
    }
    // The calls it let through ran once, for the tool's time.
    let ran = run
        .calls
        .iter()
        .find(|c| c.validation == crate::replay::Validation::Passed)
        .unwrap();
    assert_eq!(ran.result.as_ref().unwrap().attempts, 1);
    assert_eq!(ran.segments.len(), 1);
}

/// The screen drawn `w` by `h`, as text, a line a row.
fn drawn(s: &ToolsScreen, w: u16, h: u16) -> Vec<String> {
    let area = Rect::new(0, 0, w, h);
    let mut buf = Buffer::empty(area);
    let t = crate::tui::theme::Theme::new(crate::tui::theme::ThemeName::Mono, false);
    s.render(area, &mut buf, &t, false);
    (0..h)
        .map(|y| {
            (0..w)
                .map(|x| buf.cell((x, y)).map_or(" ", |c| c.symbol()))
                .collect::<String>()
                .trim_end()
                .to_owned()
        })
        .collect()
}

fn one_declaration() -> ToolsScreen {
    let text = r#"{"tools":[{"name":"ping","description":"Ping.","inputSchema":{"type":"object",
      "properties":{},"additionalProperties":false}}]}"#;
    let set = crate::tools::ToolSet::from_text(text, None).unwrap();
    ToolsScreen::new(
        ToolsFile {
            name: "one.json".into(),
            set: Arc::new(set),
        },
        None,
        false,
    )
}

#[test]
fn one_declaration_and_one_trap_are_counted_in_the_singular() {
    let mut s = one_declaration();
    assert_eq!(s.analysis(0).unwrap().traps.traps.len(), 1);
    let title = drawn(&s, 100, 24).remove(0);
    assert!(title.ends_with("1 declaration)"), "{title}");
    let _ = s.on_key(key(KeyCode::Enter));
    assert_eq!(s.mode_name(), "predict");
    let sub = drawn(&s, 100, 24).remove(1);
    assert!(sub.ends_with("· 1 trap to predict"), "{sub}");
    let sub = drawn(&s, 30, 24).remove(1);
    assert!(sub.ends_with("· 1 trap"), "{sub}");
    let _ = s.on_key(key(KeyCode::Esc));
    for mode in ['p', 'f'] {
        let _ = s.on_key(key(KeyCode::Char(mode)));
        let sub = drawn(&s, 100, 24).remove(1);
        assert!(
            sub.ends_with("· 1 trap tried, 0 let through"),
            "{mode}: {sub}"
        );
        let _ = s.on_key(key(KeyCode::Esc));
    }
}

#[test]
fn the_fix_list_marks_what_it_cuts_and_scrolls_to_its_last_line() {
    let mut s = screen();
    let _ = s.on_key(key(KeyCode::Char('f')));
    let rows = drawn(&s, 80, 24);
    // Above the key bar, the mark of the lines below; the bar names the scroll keys.
    assert!(rows[22].contains("more lines below: j/PgDn"), "{rows:#?}");
    assert!(rows[23].contains("j/k scroll"), "{}", rows[23]);
    for _ in 0..20 {
        let _ = s.on_key(key(KeyCode::PageDown));
        let _ = drawn(&s, 80, 24);
    }
    let rows = drawn(&s, 80, 24);
    assert!(rows[2].contains("lines above: k/PgUp"), "{rows:#?}");
    // At its end, the declaration's last brace and no mark below.
    assert_eq!(rows[22].trim(), "}", "{rows:#?}");
    // A page down shows the line after the last one shown whole, above the mark.
    let mut s = screen();
    let _ = s.on_key(key(KeyCode::Char('f')));
    let first = drawn(&s, 80, 24);
    let _ = s.on_key(key(KeyCode::PageDown));
    let next = drawn(&s, 80, 24);
    assert_eq!(next[3], first[21], "{first:#?}\n{next:#?}");
    // A list the body holds whole has no mark, and the bar no scroll keys.
    let mut s = one_declaration();
    let _ = s.on_key(key(KeyCode::Char('f')));
    let rows = drawn(&s, 80, 24);
    assert!(!rows.iter().any(|r| r.contains("lines below")), "{rows:#?}");
    assert!(!rows[23].contains("scroll"), "{}", rows[23]);
}

#[test]
fn a_room_is_shown_the_traps_and_a_run_at_a_pace_it_can_follow() {
    let text = include_str!("../../../fixtures/tools/issue-tracker.json");
    let set = crate::tools::ToolSet::from_text(text, None).unwrap();
    let file = ToolsFile {
        name: "issue-tracker.json".into(),
        set: Arc::new(set),
    };
    let mut s = ToolsScreen::new(file, None, true);
    let _ = s.on_key(key(KeyCode::Enter));
    let before = drawn(&s, 80, 24).join("\n");
    assert!(before.contains("· 36 traps to show"), "{before}");
    // Nothing is asked: no outcome to pick, Space shows the row's verdict.
    assert!(!before.contains("let through ("), "{before}");
    assert!(!before.contains("( ) 1"), "{before}");
    assert!(matches!(
        s.on_key(key(KeyCode::Char(' '))),
        ToolsUpdate::Save
    ));
    let after = drawn(&s, 80, 24).join("\n");
    assert!(!after.contains("Pick an outcome first"), "{after}");
    assert_ne!(before, after);
    let _ = s.on_key(key(KeyCode::Esc));
    let ToolsUpdate::Play(p) = s.on_key(key(KeyCode::Char('t'))) else {
        panic!("no run");
    };
    let pace = crate::replay::playback::room_speed(p.tl.end_ms);
    assert!(pace < 1.0, "{pace}");
    assert!((p.pb.speed() - pace).abs() < 1e-9, "{}", p.pb.speed());
    assert!(p.demo);
    // Out of presenter mode, at 1x.
    let ToolsUpdate::Play(p) = screen().on_key(key(KeyCode::Char('t'))) else {
        panic!("no run");
    };
    assert!((p.pb.speed() - 1.0).abs() < 1e-9);
}

#[test]
fn the_fixed_declaration_wraps_its_long_lines_under_their_indent() {
    let text = concat!(
        r#"{"tools":[{"name":"fetch_page","description":"Fetch one page of a site the user "#,
        r#"named, and return its text with the markup taken out, cut at the size the caller "#,
        r#"asks for. LASTWORD","inputSchema":{"type":"object","properties":{"url":{"#,
        r#""type":"string","pattern":"^https://[a-z0-9.-]+/[A-Za-z0-9/._-]*[A-Za-z0-9_-]+"#,
        r#"(\\?[A-Za-z0-9=&_-]*)?(#[A-Za-z0-9_-]*)?$TAIL"}},"required":["url"]}}]}"#
    );
    let set = crate::tools::ToolSet::from_text(text, None).unwrap();
    let mut s = ToolsScreen::new(
        ToolsFile {
            name: "fetch.json".into(),
            set: Arc::new(set),
        },
        None,
        false,
    );
    let _ = s.on_key(key(KeyCode::Char('f')));
    // Every row the body shows, page by page to the end (the body starts a column in).
    let mut seen: Vec<String> = Vec::new();
    for _ in 0..10 {
        let rows = drawn(&s, 80, 24);
        seen.extend(
            rows[2..23]
                .iter()
                .map(|r| r.chars().skip(1).collect::<String>()),
        );
        let _ = s.on_key(key(KeyCode::PageDown));
    }
    let all = seen.join("\n");
    assert!(all.contains("LASTWORD"), "the description whole:\n{all}");
    assert!(all.contains("$TAIL"), "a long word cut, not lost:\n{all}");
    // The rows after the description's first are indented two past its key (all of them
    // after the two-column gutter that marks changed lines).
    let at = seen
        .iter()
        .position(|r| r.starts_with(r#"    "description": "Fetch one page"#))
        .unwrap_or_else(|| panic!("{all}"));
    let next = &seen[at + 1];
    assert!(
        next.starts_with("      ") && !next.starts_with("       "),
        "{all}"
    );
    assert!(!next.trim_start().starts_with('"'), "{all}");
}

#[test]
fn what_w_said_in_the_fix_list_goes_when_the_list_is_left() {
    let mut s = screen();
    let said = "Not replaced: search_issues.fixed.json exists.";
    for leave in [KeyCode::Esc, KeyCode::Char('f')] {
        let _ = s.on_key(key(KeyCode::Char('f')));
        s.set_note(said);
        assert!(drawn(&s, 80, 24).join("\n").contains(said));
        let _ = s.on_key(key(leave));
        assert_eq!(s.mode_name(), "browse");
        let list = drawn(&s, 80, 24).join("\n");
        assert!(!list.contains("Not replaced"), "{leave:?}:\n{list}");
    }
}

#[test]
fn what_w_said_shows_however_far_the_fix_list_is_scrolled_and_g_and_g_go_to_its_ends() {
    let mut s = screen();
    let _ = s.on_key(key(KeyCode::Char('f')));
    let top = drawn(&s, 80, 24).join("\n");
    // Scrolled down, then w: what it said is on screen at once.
    let _ = s.on_key(key(KeyCode::Char('j')));
    let _ = s.on_key(key(KeyCode::Char('j')));
    let said = "Not replaced: search_issues.fixed.json exists.";
    s.set_note(said);
    let rows = drawn(&s, 80, 24).join("\n");
    assert!(rows.contains(said), "{rows}");
    assert!(rows.contains("lines above"), "still scrolled:\n{rows}");
    // G goes to the end of the list, g back to its top; the note stays in view.
    let _ = s.on_key(key(KeyCode::Char('G')));
    let end = drawn(&s, 80, 24).join("\n");
    assert!(end.contains(said) && !end.contains("below"), "{end}");
    let _ = s.on_key(key(KeyCode::Char('g')));
    let back = drawn(&s, 80, 24).join("\n");
    assert!(
        back.contains(said) && !back.contains("lines above"),
        "{back}"
    );
    let first_fix = top.lines().find(|l| l.contains("•")).unwrap_or_default();
    assert!(back.contains(first_fix), "{back}");
}

#[test]
fn g_and_g_move_the_pane_that_has_the_focus() {
    let mut s = screen();
    let _ = s.on_key(key(KeyCode::Char('G')));
    assert_eq!(s.selected(), 2, "the list: its last declaration");
    let _ = s.on_key(key(KeyCode::Char('g')));
    assert_eq!(s.selected(), 0);
    // With the detail focused, they scroll it and leave the choice alone.
    let _ = s.on_key(key(KeyCode::Tab));
    let top = drawn(&s, 80, 24).join("\n");
    let _ = s.on_key(key(KeyCode::Char('G')));
    let end = drawn(&s, 80, 24).join("\n");
    assert_eq!(s.selected(), 0, "{end}");
    assert!(
        end.contains("lines above") && !end.contains("below"),
        "{end}"
    );
    let _ = s.on_key(key(KeyCode::End));
    let _ = s.on_key(key(KeyCode::Home));
    assert_eq!(drawn(&s, 80, 24).join("\n"), top);
}

#[test]
fn a_playground_measured_before_its_first_draw_in_ascii_keeps_its_last_line() {
    // Drawn off-screen at the height measured before its first draw (in Unicode marks),
    // as a playground taller than its window is. In ASCII the verdict takes a line more
    // (the checks line ends "FAIL value FIRED" on a line of its own): the arguments box
    // gives that row up, not the last line of the rows that flip.
    let s = screen();
    let a = s.analysis(0).unwrap();
    let args = serde_json::json!({"repo": "a/a", "query": "example", "per_page": 0});
    let mut p = engine::playground(
        "search_issues",
        a.validator.clone().unwrap(),
        a.traps.traps.clone(),
        &args,
    );
    for k in [key(KeyCode::Tab), key(KeyCode::Char(' '))] {
        let _ = p.handle_key(k, true);
    }
    let height = p.height_for(80, 0);
    let mut buf = Buffer::empty(Rect::new(0, 0, 80, height));
    let theme = Theme::new(crate::tui::theme::ThemeName::Mono, true);
    let ctx = crate::tui::blocks::RenderCtx {
        theme: &theme,
        focused: true,
        active: true,
        demo: false,
    };
    p.render(buf.area, &mut buf, &ctx);
    let text = crate::text::screen_text(&buf);
    let lines: Vec<&str> = text.lines().collect();
    assert!(text.contains("FAIL value FIRED"), "{text}");
    assert!(text.contains("[on] value constraints"), "{text}");
    // The last of the three rows, whole above the bottom border.
    let last = &lines[lines.len() - 4..lines.len() - 1];
    assert!(last[0].contains("empty object"), "{text}");
    assert!(last[2].contains("-> OK let through"), "{text}");
}

#[test]
fn ctrl_z_undoes_while_the_arguments_are_typed_and_suspends_otherwise() {
    let mut s = screen();
    let ctrl_z = KeyEvent::new(KeyCode::Char('z'), KeyModifiers::CONTROL);
    assert!(matches!(s.on_key(ctrl_z), ToolsUpdate::Suspend));
    let _ = s.on_key(key(KeyCode::Char('p')));
    assert_eq!(s.mode_name(), "playground");
    let _ = s.on_key(key(KeyCode::Char('e')));
    assert!(s.takes_text(), "e starts typing the arguments");
    assert!(!matches!(s.on_key(ctrl_z), ToolsUpdate::Suspend));
    assert!(s.takes_text(), "still typing after the undo");
    let _ = s.on_key(key(KeyCode::Esc));
    assert!(!s.takes_text());
    assert!(matches!(s.on_key(ctrl_z), ToolsUpdate::Suspend));
}
