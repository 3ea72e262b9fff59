//! The trace player: frames of shipped scenarios at chosen times and sizes, playing versus
//! seeking, lanes that never shrink, and the end frame of every scenario.

use crate::player_support::{at, names, open, text};
use tooldojo::tui::theme::ThemeName;

#[test]
#[ignore = "prints frames for a human to look at"]
fn show() {
    let name = std::env::var("SCENARIO").unwrap_or("partial-success".into());
    let t: u64 = std::env::var("T")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(u64::MAX);
    let size = std::env::var("SIZE").unwrap_or("120x36".into());
    let (w, h) = size.split_once('x').unwrap();
    print!("{}", at(&name, t, w.parse().unwrap(), h.parse().unwrap()));
    let _ = (names, open, text, ThemeName::Mono);
}

#[test]
#[ignore = "prints frames for a human to look at"]
fn show_compare() {
    let mut p = open("race-vs-cancel");
    p.pb.selected = Some(0);
    let _ = p.handle_key(crossterm::event::KeyEvent::from(
        crossterm::event::KeyCode::Char('m'),
    ));
    print!("{}", text(&p, 120, 36, ThemeName::Default, false));
    print!("{}", text(&p, 80, 24, ThemeName::Projector, true));
}

#[test]
#[ignore = "prints frames for a human to look at"]
fn show_big() {
    let s = tooldojo::orchestrator::load_scenario_generated(10_000, 64);
    let t0 = std::time::Instant::now();
    let mut p =
        tooldojo::tui::player::Player::new(tooldojo::replay::ScenarioSource::new(s, 0).run());
    eprintln!("open: {:?}", t0.elapsed());
    p.seek(2000);
    let t0 = std::time::Instant::now();
    let f = text(&p, 160, 45, ThemeName::Default, false);
    eprintln!("frame: {:?}", t0.elapsed());
    print!("{f}");
}

use tooldojo::orchestrator::{Category, Outcome};
use tooldojo::replay::run::{Lane, SegKind};
use tooldojo::replay::warn::WarnKind;

#[test]
fn partial_success_has_a_lane_per_turn_and_call_with_each_attempt() {
    let p = open("partial-success");
    let tl = &p.tl;
    let labels: Vec<String> = tl.lanes.iter().map(|&l| tl.lane_label(l)).collect();
    assert_eq!(
        labels,
        [
            "turn 1",
            "c1 get_ticket",
            "c2 get_ticket",
            "c3 get_ticket",
            "turn 2"
        ]
    );
    let c2 = &tl.calls[1];
    let kinds: Vec<(SegKind, Option<Outcome>)> =
        c2.segments.iter().map(|s| (s.kind, s.outcome)).collect();
    assert_eq!(
        kinds,
        [
            (SegKind::Run, Some(Outcome::Timeout)),
            (SegKind::Backoff, None),
            (SegKind::Run, Some(Outcome::Timeout)),
        ]
    );
    // The timeout fired where the attempt's own timer said.
    let first = &c2.segments[0];
    assert_eq!(first.end - first.start, first.timeout_ms.unwrap());
    let c1 = &tl.calls[0];
    assert_eq!(c1.result.as_ref().unwrap().category, Category::Ok);
    assert!(c1.content.as_deref().unwrap().contains("TKT-104"));
}

#[test]
fn a_slot_wait_is_its_own_segment_and_a_raced_handler_a_ghost() {
    let p = open("race-vs-cancel");
    let c1 = &p.tl.calls[0];
    let wait = c1
        .segments
        .iter()
        .find(|s| s.kind == SegKind::Wait)
        .unwrap();
    let ghost = c1
        .segments
        .iter()
        .find(|s| s.kind == SegKind::Ghost)
        .unwrap();
    let second = c1
        .segments
        .iter()
        .find(|s| s.kind == SegKind::Run && s.attempt == 2)
        .unwrap();
    // The retry waits for the one slot until the abandoned handler gives it back.
    assert_eq!(wait.end, second.start);
    assert_eq!(ghost.end, second.start);
    assert_eq!(ghost.outcome, Some(Outcome::Ok));

    let p = open("bounded-concurrency");
    let waits =
        p.tl.calls
            .iter()
            .filter(|c| c.segments.iter().any(|s| s.kind == SegKind::Wait))
            .count();
    assert_eq!(waits, 4, "two at a time: four of six calls wait for a slot");
}

#[test]
fn warnings_name_injection_unknown_writes_budgets_and_repeats() {
    let kinds =
        |name: &str| -> Vec<WarnKind> { open(name).tl.warnings.iter().map(|w| w.kind).collect() };
    assert!(kinds("injection").contains(&WarnKind::Injection));
    assert!(kinds("write-unknown-outcome").contains(&WarnKind::UnknownWrite));
    assert!(kinds("tool-budget").contains(&WarnKind::BudgetHit));
    assert!(kinds("happy-path").is_empty());
    // retry-read spends its retry budget exactly, and nothing more is asked of it.
    assert!(!kinds("retry-read").contains(&WarnKind::BudgetHit));
    let s = tooldojo::orchestrator::load_scenario_generated(1001, 8);
    let p = tooldojo::tui::player::Player::new(tooldojo::replay::ScenarioSource::new(s, 0).run());
    let w: Vec<&str> =
        p.tl.warnings
            .iter()
            .filter(|w| w.kind == WarnKind::Repeated)
            .map(|w| w.text.as_str())
            .collect();
    assert_eq!(w, ["c1000 repeats c0: get_ticket with the same arguments"]);
}

#[test]
fn the_truncation_marker_reaches_the_detail_pane() {
    let mut p = open("truncation");
    let i =
        p.tl.calls
            .iter()
            .position(|c| c.result.as_ref().unwrap().truncated)
            .unwrap();
    p.pb.selected = Some(i);
    p.seek(u64::MAX);
    let frame = text(&p, 160, 45, ThemeName::Default, false);
    // The cut happens inside the envelope: the body says so in its own typed field.
    assert!(frame.contains(r#""truncated":true"#), "{frame}");
    assert!(frame.contains("TRUNCATED"), "{frame}");
}

#[test]
fn gauges_fill_and_mark_the_budget_that_stopped_the_run() {
    let p = open("tool-budget");
    let g = p.tl.gauges(p.tl.end_ms);
    let calls = g.iter().find(|g| g.kind.label() == "tool calls").unwrap();
    assert!(calls.spent && calls.cause);
    assert!(g.iter().filter(|g| g.cause).count() == 1);
    let early = p.tl.gauges(0);
    assert!(early.iter().all(|g| !g.cause));
    let frame = at("tool-budget", u64::MAX, 80, 24);
    assert!(frame.contains("STOP"), "{frame}");
}

#[test]
fn every_shipped_scenario_ends_with_every_call_id_and_the_stop_reason() {
    for name in names() {
        let mut p = open(&name);
        p.seek(u64::MAX);
        for (w, h) in [(80, 24), (160, 45)] {
            for (theme, ascii) in [(ThemeName::Default, false), (ThemeName::Projector, true)] {
                let frame = text(&p, w, h, theme, ascii);
                let reason = p.tl.stop_word();
                assert!(
                    frame.to_lowercase().contains(&reason),
                    "{name} {w}x{h}: no {reason}\n{frame}"
                );
                for c in &p.tl.calls {
                    assert!(
                        frame.contains(&format!("{} {}", c.id, c.tool)),
                        "{name} {w}x{h}: no lane for {}\n{frame}",
                        c.id
                    );
                }
            }
        }
    }
}

#[test]
fn turn_lanes_and_call_lanes_interleave_in_the_order_they_happened() {
    let p = open("repair");
    let order: Vec<Lane> = p.tl.lanes.clone();
    assert!(matches!(order[0], Lane::Turn(0)));
    assert!(matches!(order[1], Lane::Call(0)));
}

#[test]
#[ignore = "writes the generated 10,000-call scenario to $GEN_OUT for a manual `tooldojo play`"]
fn write_generated_scenario() {
    let path = std::env::var("GEN_OUT").unwrap_or("/tmp/generated-10000.json".into());
    let s = tooldojo::orchestrator::load_scenario_generated(10_000, 64);
    std::fs::write(&path, serde_json::to_string(&s).unwrap()).unwrap();
}

fn key(c: char) -> crossterm::event::KeyEvent {
    crossterm::event::KeyEvent::from(crossterm::event::KeyCode::Char(c))
}

#[test]
fn a_background_rerun_keeps_the_run_on_screen_until_it_is_back() {
    let mut p = open("race-vs-cancel");
    p.background = true;
    let race_end = p.tl.end_ms;
    let _ = p.handle_key(key('m'));
    assert_eq!(p.rerunning(), Some("cancel, seed 0"));
    assert!(p.before.is_none(), "nothing ran inside the key press");
    assert_eq!(p.tl.end_ms, race_end, "the old run stays on screen");
    let shown = text(&p, 120, 36, ThemeName::Default, false);
    assert!(
        shown.contains("re-running the real orchestrator (cancel, seed 0)"),
        "{shown}"
    );
    let first = p.take_job().expect("the request waits to be taken");
    assert!(p.take_job().is_none(), "one job at a time");
    // A second request while the first runs: it replaces the first.
    let _ = p.handle_key(key('m'));
    assert_eq!(p.rerunning(), Some("race, seed 0"));
    assert!(p.take_job().is_none(), "waits for the running one");
    assert!(!p.finish_rerun(first.run()), "the stale result is dropped");
    assert!(p.before.is_none());
    let second = p.take_job().expect("the newest request is next");
    assert!(p.finish_rerun(second.run()));
    assert_eq!(p.rerunning(), None);
    assert!(
        p.before.is_some(),
        "the previous run is kept for comparison"
    );
    let shown = text(&p, 120, 36, ThemeName::Default, false);
    assert!(
        shown.contains("Re-ran the real orchestrator (race"),
        "{shown}"
    );
    assert!(!shown.contains("re-running"), "{shown}");
}

#[test]
fn a_rerun_that_comes_back_to_another_player_is_ignored() {
    let mut a = open("race-vs-cancel");
    let mut b = open("race-vs-cancel");
    a.background = true;
    b.background = true;
    let _ = a.handle_key(key('m'));
    let _ = b.handle_key(key('m'));
    let job = a.take_job().unwrap();
    let _ = b.take_job().unwrap();
    assert!(!b.finish_rerun(job.run()));
    assert!(b.rerunning().is_some());
}

/// The rows of a frame whose lane label (after the border) starts with `label`.
fn rows_labelled<'a>(frame: &'a str, label: &str) -> Vec<&'a str> {
    frame
        .lines()
        .filter(|l| {
            l.trim_start_matches(['│', '|'])
                .trim_start()
                .starts_with(label)
        })
        .collect()
}

#[test]
fn the_run_befores_raced_handler_has_a_row_of_its_own() {
    for (ascii, ghost, differs) in [(false, "░", "≠"), (true, "%", "*")] {
        let mut p = open("race-vs-cancel");
        let _ = p.handle_key(key('m'));
        let frame = text(&p, 120, 36, ThemeName::Default, ascii);
        let before = rows_labelled(&frame, &format!("{differs} before"));
        assert_eq!(before.len(), 1, "{frame}");
        let bar = before[0].split_once("before").unwrap().1;
        assert!(
            !bar.contains(ghost),
            "the before row shows the caller's side only:\n{frame}"
        );
        let handler = rows_labelled(&frame, &format!("{differs} {ghost} handler"));
        assert_eq!(handler.len(), 1, "{frame}");
        let bar = handler[0].split_once("handler").unwrap().1;
        assert!(bar.contains(&ghost.repeat(5)), "{frame}");
        assert!(bar.contains("attempt 1 finished"), "{frame}");
        // Cancel mode has no raced handler now: no handler row of the new run.
        assert!(rows_labelled(&frame, &format!("{ghost} handler")).is_empty());
    }
}

#[test]
fn a_rerun_opens_at_its_start_and_space_at_the_end_replays() {
    let mut p = open("race-vs-cancel");
    let _ = p.handle_key(key('m'));
    assert!(p.before.is_some(), "re-ran on the spot");
    assert_eq!(p.t_ms(), 0, "the new run opens at its start");
    assert!(!p.pb.playing);
    let shown = text(&p, 80, 24, ThemeName::Default, false);
    assert!(
        shown.contains("paused") && shown.contains("t = 0 /"),
        "{shown}"
    );
    // At the end, Space plays it again from the start.
    let end = p.tl.end_ms;
    p.seek(end);
    let shown = text(&p, 80, 24, ThemeName::Default, false);
    assert!(shown.contains("Space replay"), "{shown}");
    let _ = p.handle_key(key(' '));
    assert!(p.pb.playing);
    assert_eq!(p.t_ms(), 0, "from the start");
}

#[test]
fn a_room_gets_a_speed_it_can_follow() {
    use tooldojo::replay::playback::room_speed;
    let p = open("partial-success");
    // About ten seconds for the run, or as slow as the player goes.
    let speed = room_speed(p.tl.end_ms);
    assert!(p.tl.end_ms as f64 / speed >= 5_000.0, "{speed}");
    assert_eq!(speed, 0.25);
}

#[test]
fn the_scenarios_note_is_reachable_at_80x24() {
    let mut p = open("partial-success");
    let note_start: String =
        p.tl.note
            .split_whitespace()
            .take(5)
            .collect::<Vec<_>>()
            .join(" ");
    let start = text(&p, 80, 24, ThemeName::Default, false);
    assert!(start.contains(&note_start), "at the start:\n{start}");
    p.seek(800);
    let later = text(&p, 80, 24, ThemeName::Default, false);
    assert!(!later.contains(&note_start), "{later}");
    let _ = p.handle_key(key('?'));
    let legend = text(&p, 80, 24, ThemeName::Default, false);
    assert!(legend.contains(&note_start), "the legend has it:\n{legend}");
}

/// Every line the legend shows, read page by page with PgDn until it stops moving.
fn legend_pages(p: &mut tooldojo::tui::player::Player, w: u16, h: u16, ascii: bool) -> String {
    use crossterm::event::{KeyCode, KeyEvent};
    use tooldojo::tui::player::PlayerOutcome;
    let _ = p.handle_key(key('?'));
    let mut seen = text(p, w, h, ThemeName::Default, ascii);
    for _ in 0..20 {
        if p.handle_key(KeyEvent::from(KeyCode::PageDown)) != PlayerOutcome::Changed {
            return seen;
        }
        seen.push_str(&text(p, w, h, ThemeName::Default, ascii));
    }
    panic!("the legend never reached its end:\n{seen}");
}

#[test]
fn the_whole_legend_is_readable_at_80x24_by_scrolling() {
    for ascii in [false, true] {
        let mut p = open("partial-success");
        let first = {
            let _ = p.handle_key(key('?'));
            let f = text(&p, 80, 24, ThemeName::Default, ascii);
            let _ = p.handle_key(key('?'));
            f
        };
        assert!(first.contains("more lines"), "says there is more:\n{first}");
        assert!(first.contains("scroll"), "the bar says how:\n{first}");
        let all = legend_pages(&mut p, 80, 24, ascii);
        for want in [
            "where the loop decided to stop",
            "the cursor (now)",
            "budget warning/hit; STOP: cause",
            "grouped lanes: runs per column",
            "differs from the run before",
            "the start (g);",
            "PgDn",
            "scroll the call's detail",
            "click the axis",
            "race/cancel + re-run",
            "knobs",
            "compare",
            "export",
        ] {
            assert!(all.contains(want), "ascii {ascii}: {want}:\n{all}");
        }
        let g = if ascii { "*" } else { "≠" };
        assert!(all.contains(&format!("{g}     differs")), "{all}");
        // Back to the top, and closed by Esc.
        let _ = p.handle_key(crossterm::event::KeyEvent::from(
            crossterm::event::KeyCode::Home,
        ));
        assert_eq!(p.legend_scroll, 0);
        let _ = p.handle_key(crossterm::event::KeyEvent::from(
            crossterm::event::KeyCode::Esc,
        ));
        assert_eq!(p.panel, tooldojo::tui::player::Panel::None);
    }
}

#[test]
fn a_legend_that_fits_does_not_scroll_and_q_still_quits_from_it() {
    use tooldojo::tui::player::PlayerOutcome;
    let mut p = open("partial-success");
    let _ = p.handle_key(key('?'));
    let frame = text(&p, 160, 45, ThemeName::Default, false);
    assert!(!frame.contains("more lines"), "{frame}");
    assert!(frame.contains("differs from the run before"), "{frame}");
    let down = crossterm::event::KeyEvent::from(crossterm::event::KeyCode::PageDown);
    assert_eq!(p.handle_key(down), PlayerOutcome::Same);
    assert_eq!(
        p.handle_key(key('q')),
        PlayerOutcome::Ignored,
        "the app quits"
    );
}

/// The key column is as wide as its longest key: `Left/Right` in ASCII.
#[test]
fn legend_keys_never_run_into_their_words() {
    for ascii in [false, true] {
        let mut p = open("happy-path");
        let all = legend_pages(&mut p, 80, 24, ascii);
        let step = if ascii {
            "Left/Right step"
        } else {
            "←/→   step"
        };
        assert!(all.contains(step), "{all}");
        assert!(!all.contains("Rightstep"), "{all}");
        let mut p = open("happy-path");
        let all = legend_pages(&mut p, 160, 45, ascii);
        assert!(!all.contains("Rightstep"), "{all}");
    }
}

/// A run whose one retry a read spends, then a second call that fails: `tool` says what
/// that call is, `keys` whether the loop sends idempotency keys with writes.
fn retries_spent_then(tool: &str, keys: bool) -> tooldojo::replay::run::Run {
    let scenario = serde_json::json!({
        "title": "retries used up, then a call fails",
        "task": "Read TKT-104, then act on TKT-106.",
        "context": {"tenant": "alpha", "can_read_tickets": true, "can_write_tickets": true},
        "records": [
            {"tenant": "alpha", "id": "TKT-104", "title": "Settings crash", "status": "open"},
            {"tenant": "alpha", "id": "TKT-106", "title": "Export times out", "status": "open"}
        ],
        "budgets": {"call_timeout_ms": 500, "max_attempts": 3, "backoff_ms": 50, "retry_budget": 1},
        "calls": {
            "c1": {"attempts": [{"error": "upstream 503"}, {"latency_ms": 40}]},
            "c2": {"attempts": [{"error": "upstream 503"}]}
        },
        "turns": [
            {"calls": [{"id": "c1", "tool": "get_ticket", "args": {"ticket_id": "TKT-104"}}]},
            {"calls": [{"id": "c2", "tool": tool, "args": {"ticket_id": "TKT-106"}}]},
            {"final": "done"}
        ],
        "idempotency_keys": keys
    });
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("probe.json");
    std::fs::write(&path, scenario.to_string()).unwrap();
    let content = tooldojo::content::Content::embedded();
    let s = tooldojo::orchestrator::load_scenario(&content, path.to_str().unwrap()).unwrap();
    tooldojo::replay::ScenarioSource::new(s, 0).run()
}

#[test]
fn the_retry_budget_is_flagged_hit_only_when_a_retryable_failure_met_it() {
    let retries = |run: &tooldojo::replay::run::Run| {
        let g = run.gauges(run.end_ms);
        let r = g.iter().find(|g| g.kind.label() == "retries").unwrap();
        (r.spent, r.hit)
    };
    // A write without an idempotency key is never retried: the spent budget asked nothing.
    assert_eq!(
        retries(&retries_spent_then("close_ticket", false)),
        (true, false)
    );
    // A read, or a keyed write, would have been retried: the budget said no.
    assert_eq!(
        retries(&retries_spent_then("get_ticket", false)),
        (true, true)
    );
    assert_eq!(
        retries(&retries_spent_then("close_ticket", true)),
        (true, true)
    );
    // The flag goes up when the budget said no (the trace's `retry_denied`), not before.
    let run = retries_spent_then("get_ticket", false);
    let denied = (0..run.events.len())
        .find(|&i| run.event_text(i).contains("no retry"))
        .map(|i| run.events.time(i))
        .expect("the trace says the retry was denied");
    let hit_at = |t| {
        let g = run.gauges(t);
        g.iter().find(|g| g.kind.label() == "retries").unwrap().hit
    };
    assert!(!hit_at(denied - 1));
    assert!(hit_at(denied));
    // A warning names the call the spent budget left unretried.
    let named: Vec<_> = run
        .warnings
        .iter()
        .filter(|w| w.text.contains("was not retried"))
        .collect();
    assert_eq!(named.len(), 1, "{:?}", run.warnings);
    assert!(named[0].text.starts_with("c2 failed"), "{}", named[0].text);
    assert_eq!(named[0].t_ms, denied);
    // A write the loop never retries asks nothing of the budget: no such warning.
    let write = retries_spent_then("close_ticket", false);
    assert!(
        !write
            .warnings
            .iter()
            .any(|w| w.text.contains("was not retried"))
    );
}
