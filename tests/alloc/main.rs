//! Memory, counted rather than timed: a counting allocator records the peak of the bytes
//! this thread holds while one export runs. `trace --chrome` and `trace --json` stream a
//! run event by event, so their peak is that of one event (plus, for the Chrome document,
//! a track index of a few words per call), whatever the length of the run; the document
//! built whole grows with every event.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use tooldojo::orchestrator::{
    chrome_trace, load_scenario_generated, run_blocking, write_chrome_trace,
};

struct Counting;

thread_local! {
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn count(delta: isize) {
    let _ = LIVE.try_with(|live| {
        let now = live.get() + delta;
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

// SAFETY: every call is passed on to the system allocator unchanged; only sizes are counted.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            count(layout.size() as isize);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        count(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            count(new_size as isize - layout.size() as isize);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The most bytes held at once while `f` ran, above what was held before.
fn peak_of(f: impl FnOnce()) -> isize {
    let base = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(base));
    f();
    PEAK.with(Cell::get) - base
}

#[test]
fn the_chrome_and_json_exports_hold_one_event_at_a_time() {
    let mut seen = Vec::new();
    for calls in [1_000usize, 8_000] {
        let run = run_blocking(&load_scenario_generated(calls, 8), 0);
        // What one event takes to write, at most (the stop lists every call's result).
        let event = run
            .events
            .iter()
            .map(|e| peak_of(|| drop(e.to_json_line())))
            .max()
            .unwrap_or(0);
        let chrome = peak_of(|| write_chrome_trace(&run, &mut std::io::sink()).unwrap());
        let jsonl = peak_of(|| run.write_jsonl(&mut std::io::sink()).unwrap());
        let whole = peak_of(|| drop(serde_json::to_string(&chrome_trace(&run)).unwrap()));
        eprintln!(
            "{calls} calls, {} events, one event at most {event} B: streamed chrome {chrome} B, jsonl {jsonl} B; whole document {whole} B",
            run.events.len()
        );
        // One event at a time, and for the Chrome document its track index: a few words
        // per call.
        let one_event = event + 64 * 1024;
        assert!(jsonl <= one_event, "jsonl {jsonl} B");
        assert!(
            chrome <= one_event + 128 * calls as isize,
            "chrome {chrome} B"
        );
        assert!(
            chrome * 8 < whole,
            "streaming saves nothing: {chrome} B vs {whole} B"
        );
        seen.push((calls, chrome, jsonl, whole));
    }
    // Eight times the calls: the whole document grows with them, the streams only with the
    // largest event and the track index.
    let (small, large) = (seen[0], seen[1]);
    assert!(large.3 > 6 * small.3, "{seen:?}");
}

#[test]
fn the_streamed_chrome_document_is_the_one_built_whole() {
    let run = run_blocking(&load_scenario_generated(300, 4), 7);
    let mut streamed = Vec::new();
    write_chrome_trace(&run, &mut streamed).unwrap();
    let whole = serde_json::to_string(&chrome_trace(&run)).unwrap() + "\n";
    assert_eq!(String::from_utf8(streamed).unwrap(), whole);
    let mut lines = Vec::new();
    run.write_jsonl(&mut lines).unwrap();
    assert_eq!(String::from_utf8(lines).unwrap(), run.to_jsonl());
}
