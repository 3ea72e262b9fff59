//! The trace stepper runs the real orchestrator once and steps over its events.

use crate::blocks_support;

use blocks_support::*;
use crossterm::event::KeyCode;
use tooldojo::content::lessons::{BlockKind, BlockSpec};
use tooldojo::tui::blocks::trace::TraceWidget;
use tooldojo::tui::blocks::{BlockOutcome, BlockWidget, build};
use tooldojo::tui::theme::{Theme, ThemeName};

fn trace(name: &str) -> Box<dyn BlockWidget> {
    build(
        &block(BlockKind::Trace, &[("scenario", name)], "", BlockSpec::None),
        &env(),
    )
    .expect("trace builds")
}

fn stepper(name: &str) -> TraceWidget {
    TraceWidget::from_block(
        &block(BlockKind::Trace, &[("scenario", name)], "", BlockSpec::None),
        &env(),
    )
    .expect("trace builds")
}

#[test]
fn steps_show_lanes_budgets_and_the_stop_reason() {
    let mut t = stepper("partial-success");
    let n = t.data().steps.len();
    assert!(n > 5);
    assert_eq!(t.data().stop_reason, "final_answer");
    assert_eq!(t.shown(), 0);
    assert!(t.lanes().is_empty());
    let screen = render(&t, 80, 40);
    assert!(
        screen.contains(&t.data().title.chars().take(20).collect::<String>()),
        "{screen}"
    );
    assert!(screen.contains("Space plays"), "{screen}");
    // Step until every call has a lane.
    for _ in 0..n {
        press(&mut t, &[key(KeyCode::Right)]);
    }
    assert_eq!(t.shown(), n);
    let lanes = t.lanes();
    let states: Vec<(&str, Option<bool>)> =
        lanes.iter().map(|l| (l.call_id.as_str(), l.done)).collect();
    assert_eq!(
        states,
        [("c1", Some(true)), ("c2", Some(false)), ("c3", Some(false))]
    );
    assert!(lanes[1].state.starts_with("timeout"), "{lanes:?}");
    let screen = render(&t, 80, 40);
    assert!(screen.contains("STOPPED  FINAL_ANSWER"), "{screen}");
    assert!(screen.contains("calls ██░░ 3/6"), "{screen}");
    assert!(t.is_done());
    press(&mut t, &[key(KeyCode::Left)]);
    assert_eq!(t.shown(), n - 1);
    // The frame is the run at the block's time: back before the end, no stop yet.
    let end = t.clock_ms();
    while t.clock_ms() == end {
        press(&mut t, &[key(KeyCode::Left)]);
    }
    assert!(!render(&t, 80, 40).contains("STOPPED"));
    press(&mut t, &[key(KeyCode::Home)]);
    assert_eq!((t.shown(), t.clock_ms()), (0, 0));
    press(&mut t, &[key(KeyCode::End)]);
    assert_eq!(t.shown(), n);
}

#[test]
fn play_animates_through_virtual_time() {
    let mut t = stepper("retry-read");
    assert!(!t.tick(), "no animation while paused");
    assert_eq!(press_out(&mut t, &[ch(' ')]), BlockOutcome::Changed);
    assert!(t.playing());
    let mut ticks = 0;
    let mut last = (0, 0);
    while t.tick() {
        ticks += 1;
        assert!(
            t.clock_ms() >= last.0 && t.shown() >= last.1,
            "time only moves forward"
        );
        last = (t.clock_ms(), t.shown());
        assert!(ticks < 10_000);
    }
    assert!(ticks > 10, "playback takes a while: {ticks} ticks");
    assert!(!t.playing());
    assert_eq!(t.shown(), t.data().steps.len());
    // Space at the end plays again from the start; Space again pauses.
    press(&mut t, &[ch(' ')]);
    assert_eq!(t.shown(), 0);
    assert!(t.tick());
    press(&mut t, &[ch(' ')]);
    assert!(!t.playing());
}

#[test]
fn seek_moves_the_cursor_to_a_virtual_time() {
    let mut t = stepper("partial-success");
    let mid = t.data().steps[t.data().steps.len() / 2].t_ms;
    t.seek_ms(mid);
    assert!(t.data().steps[..t.shown()].iter().all(|s| s.t_ms <= mid));
    assert!(t.data().steps[t.shown()..].iter().all(|s| s.t_ms > mid));
    t.seek_ms(u64::MAX);
    assert!(t.is_done());
}

#[test]
fn seeking_past_the_end_stops_the_clock_at_the_end() {
    let mut t = stepper("deadline");
    let end = t.data().steps.iter().map(|s| s.t_ms).max().unwrap_or(0);
    let end = end.max(t.data().end_ms);
    t.seek_ms(end + 200);
    assert_eq!(t.clock_ms(), end);
    assert!(t.is_done());
    let screen = render(&t, 80, 40);
    assert!(!screen.contains(&format!("t={}", end + 200)), "{screen}");
    assert!(screen.contains(&format!("t={end} ms")), "{screen}");
    // Before the end, the clock is where the seek put it.
    t.seek_ms(end / 2);
    assert_eq!(t.clock_ms(), end / 2);
}

#[test]
fn same_scenario_same_events_and_save_restore() {
    let a = stepper("parallel-out-of-order");
    let b = stepper("parallel-out-of-order");
    assert_eq!(a.data(), b.data(), "virtual time: the same run twice");
    let mut t = trace("parallel-out-of-order");
    press(
        t.as_mut(),
        &[
            key(KeyCode::Right),
            key(KeyCode::Right),
            key(KeyCode::Right),
        ],
    );
    let saved = t.save();
    let mut u = trace("parallel-out-of-order");
    u.restore(&saved);
    assert_eq!(u.save(), saved);
}

#[test]
fn every_shipped_scenario_draws_without_panic() {
    let names =
        tooldojo::orchestrator::scenario_names(&tooldojo::content::Content::embedded()).unwrap();
    assert!(names.len() >= 17);
    for name in names {
        let mut t = trace(&name);
        press(t.as_mut(), &[key(KeyCode::End)]);
        let screen = render(t.as_ref(), 80, 40);
        assert!(screen.contains("STOPPED"), "{name}: {screen}");
        let ascii = render_with(t.as_ref(), 120, 30, &Theme::new(ThemeName::Mono, true));
        assert!(ascii.is_ascii(), "{name}: {ascii}");
        render_tiny_sizes(t.as_ref());
        // The title and note are shown in full; the player under them fits an 80x24 reader.
        let d = stepper(&name);
        let head = tooldojo::tui::blocks::common::wrap(&d.data().title, 76).len()
            + tooldojo::tui::blocks::common::wrap(&d.data().note, 76).len();
        assert!(
            usize::from(t.height(80)) <= head + 21,
            "{name}: {} rows, {head} of them title and note",
            t.height(80)
        );
    }
}

#[test]
fn bad_trace_blocks_are_errors() {
    let e = build(
        &block(
            BlockKind::Trace,
            &[("scenario", "no-such-thing")],
            "",
            BlockSpec::None,
        ),
        &env(),
    )
    .err()
    .unwrap();
    assert!(e.contains("line 7") && e.contains("no-such-thing"), "{e}");
    let e = build(
        &block(
            BlockKind::Trace,
            &[("scenario", "cancel"), ("seed", "x")],
            "",
            BlockSpec::None,
        ),
        &env(),
    )
    .err()
    .unwrap();
    assert!(e.contains("seed"), "{e}");
    let e = build(&block(BlockKind::Trace, &[], "", BlockSpec::None), &env())
        .err()
        .unwrap();
    assert!(e.contains("scenario=NAME"), "{e}");
}

/// The trace block drawn at 80x40 before it is played, with keys (`active`) or not.
fn at_start(t: &dyn BlockWidget, active: bool) -> String {
    use ratatui::buffer::Buffer;
    use ratatui::layout::Rect;
    use tooldojo::tui::blocks::RenderCtx;
    let area = Rect::new(0, 0, 80, 40);
    let mut buf = Buffer::empty(area);
    let theme = Theme::new(ThemeName::Default, false);
    let ctx = RenderCtx {
        theme: &theme,
        focused: true,
        active,
        demo: false,
    };
    t.render(area, &mut buf, &ctx);
    tooldojo::text::cell_text(&buf)
}

#[test]
fn the_line_at_the_start_names_the_keys_that_play_the_run_where_it_is() {
    let page = trace("partial-success");
    // On a page, the block takes the keys on Enter; then Space and the arrows are its own.
    let screen = at_start(page.as_ref(), false);
    assert!(
        screen.contains("at the start: Enter, then Space plays and ←/→ steps"),
        "{screen}"
    );
    let screen = at_start(page.as_ref(), true);
    assert!(
        screen.contains("at the start: Space plays, ←/→ steps"),
        "{screen}"
    );
    // Shown to a room, the arrows move between the page's steps: only Space is named.
    let mut room = trace("partial-success");
    room.show_to_room();
    let screen = at_start(room.as_ref(), false);
    assert!(screen.contains("at the start: Space plays"), "{screen}");
    assert!(!screen.contains("steps"), "{screen}");
}
