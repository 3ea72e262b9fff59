//! The panes beside and under the timeline: budget gauges, the selected call's detail, the
//! events up to the cursor with the warnings, and the end view (the stop reason, which calls
//! finished and which did not, the model's final answer). Each builds lines for a width, so
//! the frame can measure before it draws.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::json_text::json_compact;
use crate::orchestrator::{Category, StopReason};
use crate::text::{fit, truncate, wrap};
use crate::tui::draw::wrap_prefixed;
use crate::tui::theme::Theme;

use super::glyphs::{self, Glyphs};
use crate::replay::run::{Clock, Run, SegKind, Validation};
use crate::replay::warn::WarnKind;

/// A labelled row of the detail pane, its value wrapped under a hanging indent.
fn field(label: &str, value: &str, style: Style, width: usize, th: &Theme) -> Vec<Line<'static>> {
    wrap_prefixed(
        vec![Span::styled(format!("{label:<14}"), th.dim)],
        value,
        width,
        style,
    )
}

/// What the validator said of a call, whether it let the call through, and its style.
fn verdict(v: &Validation, th: &Theme, gl: &Glyphs) -> (String, bool, Style) {
    match v {
        Validation::Failed(err) => (
            format!("{} failed: {}", gl.fail, gl.shown(err)),
            false,
            th.bad,
        ),
        Validation::Passed => (format!("{} passed", gl.ok), true, th.ok),
        Validation::NotJudged(why) => (
            format!("{} not judged: {}", gl.warn, gl.shown(why)),
            true,
            th.warn,
        ),
    }
}

/// The selected call at time `t`: arguments, checks, attempts, the result text in full.
pub fn detail(
    tl: &Run,
    i: usize,
    t: u64,
    width: usize,
    th: &Theme,
    gl: &Glyphs,
) -> Vec<Line<'static>> {
    let c = &tl.calls[i];
    let mut out = vec![Line::from(Span::styled(
        format!(
            "{} {}{}turn {}",
            gl.shown(&c.id),
            gl.shown(&c.tool),
            gl.sep,
            c.turn
        ),
        th.heading,
    ))];
    // The lane's note in full (on its lane it may be cut to the room beside the bars).
    let (now, now_style) = super::notes::call_note(tl, i, t, th, gl);
    if !now.is_empty() {
        out.extend(field("now", &now, now_style, width, th));
    }
    if t < c.proposed_ms {
        out.push(Line::from(Span::styled(
            format!("proposed at {}", tl.clock.at(c.proposed_ms)),
            th.dim,
        )));
        return out;
    }
    let args = if c.args.is_null() {
        "(not shown: the call was never dispatched)".to_owned()
    } else {
        gl.shown(&json_compact(&c.args))
    };
    out.extend(field("args", &args, th.code, width, th));
    if let Some(k) = &c.idempotency_key {
        out.extend(field("key", &gl.shown(k), th.code, width, th));
    }
    let result = c.result.as_ref().filter(|r| r.t_ms <= t);
    let (valid_text, valid_ok, valid_style) = verdict(&c.validation, th, gl);
    out.extend(field("validation", &valid_text, valid_style, width, th));
    if let Some((why, err)) = &c.rejected
        && valid_ok
    {
        out.extend(field(
            "refused",
            &format!("{why}: {}", gl.shown(err)),
            th.bad,
            width,
            th,
        ));
    }
    out.extend(auth_field(result, valid_ok, width, th));
    attempts(&mut out, c, t, tl.clock, width, th, gl);
    for &(at, attempt, replayed) in &c.writes {
        if at <= t {
            let what = if replayed {
                "replayed (key already used)"
            } else {
                "applied"
            };
            out.extend(field(
                "write",
                &format!("{what} at {at} ms, attempt {attempt}"),
                th.warn,
                width,
                th,
            ));
        }
    }
    match result {
        Some(r) => {
            out.extend(field(
                "category",
                &format!("{} {}", gl.category(r.category), r.category),
                glyphs::category_style(th, r.category),
                width,
                th,
            ));
            let cut = if r.truncated {
                format!(
                    "{} bytes, TRUNCATED (the marker is part of the text)",
                    r.bytes
                )
            } else {
                format!("{} bytes, sent at {}", r.bytes, tl.clock.at(r.t_ms))
            };
            out.extend(field("result", &cut, th.base, width, th));
            let text = c.content.as_deref().unwrap_or("(no result text recorded)");
            for l in wrap(&gl.shown_lines(text), width.saturating_sub(2)) {
                out.push(Line::from(Span::styled(format!("  {l}"), th.code)));
            }
        }
        None => out.extend(field(
            "result",
            "not yet sent to the model",
            th.dim,
            width,
            th,
        )),
    }
    // A recording's findings on this call, each with what it means.
    if tl.origin.scenario().is_none() {
        for w in tl
            .warnings
            .iter()
            .filter(|w| w.call == Some(i) && w.t_ms <= t)
        {
            let text = format!("{} {}: {}", gl.warn, w.kind.word(), gl.shown(&w.text));
            out.extend(field("finding", &text, th.warn, width, th));
        }
    }
    out
}

/// From `start` to `end` (`None`: not over yet), the unit said once for both ends:
/// `100 → 340 ms`, `step 4 → 5`.
fn span(clock: Clock, start: u64, end: Option<u64>, gl: &Glyphs) -> String {
    let to = end.map_or_else(|| gl.ellipsis.to_owned(), |e| clock.show(e));
    let from = clock.show(start);
    match clock {
        Clock::Order => format!("{} {from} {} {to}", clock.unit(), gl.arrow),
        Clock::Virtual | Clock::Recorded => {
            format!("{from} {} {to} {}", gl.arrow, clock.unit())
        }
    }
}

/// Each wait, attempt, backoff and raced handler that began by `t`.
fn attempts(
    out: &mut Vec<Line<'static>>,
    c: &crate::replay::run::CallLane,
    t: u64,
    clock: Clock,
    width: usize,
    th: &Theme,
    gl: &Glyphs,
) {
    let mut segs: Vec<&crate::replay::run::Segment> =
        c.segments.iter().filter(|s| s.start <= t).collect();
    segs.sort_by_key(|s| (s.start, s.kind != SegKind::Wait));
    for s in segs {
        let done = s.end <= t;
        let span = span(clock, s.start, done.then_some(s.end), gl);
        let (label, text, style) = match s.kind {
            SegKind::Wait => (
                "slot wait".to_owned(),
                format!("{span}  waiting for a concurrency slot"),
                th.dim,
            ),
            SegKind::Backoff => (
                "backoff".to_owned(),
                format!(
                    "{span}  {} ms before attempt {}",
                    s.end - s.start,
                    s.attempt + 1
                ),
                th.dim,
            ),
            SegKind::Ghost => {
                let end = match (done, s.outcome) {
                    (true, Some(o)) => format!("finished {o} with nobody waiting"),
                    _ => "still running, nobody waiting (holds its slot)".to_owned(),
                };
                (
                    format!("handler {}", s.attempt),
                    format!("{span}  {end}"),
                    th.dim,
                )
            }
            SegKind::Run | SegKind::Model => {
                let timeout = s
                    .timeout_ms
                    .map(|to| format!(" (timeout {to} ms)"))
                    .unwrap_or_default();
                let how = match (done, s.outcome) {
                    (true, Some(o)) => {
                        let err = s
                            .error
                            .as_ref()
                            .map(|e| format!(": {e}"))
                            .unwrap_or_default();
                        format!("{} {o}{err}", gl.outcome(o))
                    }
                    _ => format!("{} running", gl.running),
                };
                let style = match (done, s.outcome) {
                    (true, Some(o)) => glyphs::outcome_style(th, o),
                    _ => th.accent,
                };
                (
                    format!("attempt {}", s.attempt),
                    format!("{span}  {how}{timeout}"),
                    style,
                )
            }
        };
        out.extend(field(&label, &text, style, width, th));
    }
}

/// Which keys play the run where its events are shown: what the line at its start says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StartKeys {
    /// The player's own: Space plays, Left/Right step (the full-screen player, a trace
    /// block that has the keys).
    Player,
    /// A trace block on a page that does not have the keys yet: Enter gives them to it.
    Page,
    /// A trace block shown to a room that does not have the keys: the presenter's Space
    /// plays it (Left/Right move between steps of the page).
    Room,
}

impl StartKeys {
    /// The line shown before the run is played (always one line).
    fn hint(self, gl: &Glyphs) -> String {
        match self {
            StartKeys::Player => format!("at the start: Space plays, {} steps", gl.left_right),
            StartKeys::Page => format!(
                "at the start: Enter, then Space plays and {} steps",
                gl.left_right
            ),
            StartKeys::Room => "at the start: Space plays".to_owned(),
        }
    }
}

/// The events up to `t`, newest last; the newest wrapped in full, the others on one line.
/// Warnings that are true by `t` come first; before anything happened, which keys play it.
pub fn events(
    tl: &Run,
    t: u64,
    (height, width): (usize, usize),
    keys: StartKeys,
    th: &Theme,
    gl: &Glyphs,
) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    let shown = tl.warnings.partition_point(|w| w.t_ms <= t);
    let warn_rows = shown.min((height / 3).max(1));
    let hidden = shown - warn_rows;
    let texts: Vec<String> = tl.warnings[hidden..shown]
        .iter()
        .enumerate()
        .map(|(k, w)| {
            let more = if k == 0 && hidden > 0 {
                format!("(+{hidden} earlier) ")
            } else {
                String::new()
            };
            format!(
                "{} {more}{}: {}",
                gl.warn,
                w.kind.word(),
                gl.one_line(&w.text)
            )
        })
        .collect();
    // Whole when they all fit in a third of the pane, else a line each.
    let wrapped: Vec<Line<'static>> = texts
        .iter()
        .flat_map(|text| wrap_prefixed(vec![], text, width, th.warn))
        .collect();
    if wrapped.len() <= (height / 3).max(1) {
        out.extend(wrapped);
    } else {
        for text in &texts {
            out.push(Line::from(Span::styled(
                truncate(text, width, th.sym.ellipsis),
                th.warn,
            )));
        }
    }
    let n = tl.events_until(t);
    if t == 0 {
        out.push(Line::from(Span::styled(keys.hint(gl), th.dim)));
    }
    if n == 0 {
        return out;
    }
    let newest = n - 1;
    let unit = tl.clock.unit();
    let head = |i: usize| format!("{:>7} {unit}  ", tl.clock.show(tl.events.time(i)));
    // The newest event wraps in full; its lane column keeps its width.
    let text = gl.one_line(&tl.event_text(newest));
    let (lane, rest) = text.split_once(' ').unwrap_or(("", &text));
    let last = wrap_prefixed(
        vec![
            Span::styled(
                format!("{}{}", th.sym.pointer, &head(newest)[1..]),
                th.focus,
            ),
            Span::styled(format!("{lane:<5} "), th.focus),
        ],
        rest.trim_start(),
        width,
        th.base,
    );
    let room = height.saturating_sub(out.len() + last.len());
    let from = newest.saturating_sub(room);
    for i in from..newest {
        let text = format!("{}{}", head(i), gl.one_line(&tl.event_text(i)));
        out.push(Line::from(Span::styled(
            truncate(&text, width, th.sym.ellipsis),
            th.dim,
        )));
    }
    out.extend(last);
    out
}

/// The detail's authorization line: what the check said, or why none was made. A run that
/// made no authorization check (a recording) has no line for it.
fn auth_field(
    result: Option<&crate::replay::run::CallResult>,
    valid: bool,
    width: usize,
    th: &Theme,
) -> Vec<Line<'static>> {
    let auth = match result {
        None => Some("not yet"),
        Some(r) => r.authorization,
    };
    let Some(auth) = auth else {
        return Vec::new();
    };
    let style = match auth {
        "allowed" => th.ok,
        "denied" => th.bad,
        _ => th.dim,
    };
    let words = auth_words(auth, result.map(|r| r.category), valid);
    field("authorization", &words, style, width, th)
}

/// The authorization check's word, said as what happened: a check that was never made
/// says why (the call was refused first, or the handler never answered).
fn auth_words(auth: &str, category: Option<Category>, valid: bool) -> String {
    if auth != "not_checked" {
        return auth.to_owned();
    }
    let why = match category {
        _ if !valid => "the arguments were refused before any check of the caller",
        Some(Category::Timeout) => {
            "not known: dispatched, but the handler timed out before it answered"
        }
        Some(Category::UnknownOutcome) => {
            "not known: dispatched, and no answer came back (the write's outcome is unknown)"
        }
        Some(Category::Cancelled) => "not known: dispatched, then cancelled before it answered",
        Some(Category::Error) => "not known: dispatched, and the handler failed before it answered",
        Some(Category::UnknownTool) => "not made: the tool is not on the allowlist",
        Some(Category::BudgetExhausted) => "not made: refused by the budget before dispatch",
        _ => "not checked",
    };
    why.to_owned()
}

/// Which calls finished and which did not, in words.
pub fn partial_summary(tl: &Run, gl: &Glyphs) -> String {
    if tl.calls.is_empty() {
        return "no tool calls".to_owned();
    }
    if tl.calls.len() > 12 {
        let mut counts: Vec<(Category, usize)> = Vec::new();
        for c in &tl.calls {
            let cat = c
                .result
                .as_ref()
                .map_or(Category::Cancelled, |r| r.category);
            match counts.iter_mut().find(|(k, _)| *k == cat) {
                Some((_, n)) => *n += 1,
                None => counts.push((cat, 1)),
            }
        }
        counts.sort_by_key(|(k, _)| *k);
        let parts: Vec<String> = counts
            .iter()
            .map(|(k, n)| format!("{n} {} {k}", gl.category(*k)))
            .collect();
        return format!("{} calls: {}", tl.calls.len(), parts.join(gl.sep));
    }
    let parts: Vec<String> = tl
        .calls
        .iter()
        .map(|c| match &c.result {
            Some(r) if r.attempts > 1 => format!(
                "{} {} {} ({} attempts)",
                gl.shown(&c.id),
                gl.category(r.category),
                r.category,
                r.attempts
            ),
            Some(r) => format!(
                "{} {} {}",
                gl.shown(&c.id),
                gl.category(r.category),
                r.category
            ),
            None => format!("{} {} no result", gl.shown(&c.id), gl.cancelled),
        })
        .collect();
    let ok = tl
        .calls
        .iter()
        .filter(|c| {
            c.result
                .as_ref()
                .is_some_and(|r| r.category == Category::Ok)
        })
        .count();
    let not_ok = tl.calls.len() - ok;
    let word = if not_ok == 0 {
        "all finished".to_owned()
    } else if ok == 0 {
        "none finished ok".to_owned()
    } else if all_repaired(tl, not_ok) {
        format!("{not_ok} refused, then repaired")
    } else {
        "partial".to_owned()
    };
    format!("{word}: {}", parts.join(gl.sep))
}

/// Every call that did not finish ok was refused for its arguments, and as many repairs
/// followed: the run got where it was going, after the validator's errors. Repairs are
/// counted, not paired with the calls they mend (a run's warnings do not name the call).
fn all_repaired(tl: &Run, not_ok: usize) -> bool {
    let refused = tl
        .calls
        .iter()
        .filter(|c| {
            c.result
                .as_ref()
                .is_some_and(|r| r.category == Category::InvalidArguments)
        })
        .count();
    // A recording marks each repair; a scenario run counts them in its budgets.
    let marked = tl.warnings.iter().filter(|w| w.kind == WarnKind::Repaired);
    let counted = usize::try_from(tl.used_at(u64::MAX).repairs).unwrap_or(usize::MAX);
    refused == not_ok && marked.count().max(counted) >= refused
}

/// The stop reason in words, for a learner; a run that just ends says whether it is a
/// record's (its clock the record's times or order) or a run of ours.
pub fn stop_words(tl: &Run) -> &'static str {
    match tl.stop {
        Some(StopReason::FinalAnswer) => "the model gave its final answer",
        Some(StopReason::MaxModelTurns) => "the model-turn budget ran out",
        Some(StopReason::MaxToolCalls) => "the tool-call budget ran out",
        Some(StopReason::Deadline) => "the deadline passed; everything in flight was stopped",
        Some(StopReason::Cancelled) => "the user cancelled; everything in flight was stopped",
        Some(StopReason::RepairLimit) => "too many invalid calls: the repair budget ran out",
        Some(StopReason::AuthorizationDenied) => {
            "a call was forbidden; no further call was dispatched"
        }
        None if tl.clock == Clock::Virtual => "the run ends here",
        None => "the record ends here",
    }
}

/// The stop reason large, or the word a run that just ends shows.
pub fn stop_title(tl: &Run) -> String {
    match tl.stop {
        Some(r) => r.to_string().to_uppercase(),
        None => "END".to_owned(),
    }
}

/// The stop reason on one line, when it cannot be drawn large.
pub fn stop_line(tl: &Run, th: &Theme, gl: &Glyphs) -> Line<'static> {
    let style = stop_style(tl.stop, th);
    if tl.stop.is_none() {
        // A run that just ends: the word once.
        return Line::from(Span::styled(format!("{} ENDED", gl.cancelled), style));
    }
    Line::from(vec![
        Span::styled(format!("{} STOPPED  ", gl.cancelled), style),
        Span::styled(stop_title(tl), style),
    ])
}

pub fn stop_style(r: Option<StopReason>, th: &Theme) -> Style {
    match r {
        Some(StopReason::FinalAnswer) => th.ok,
        Some(_) => th.bad,
        None => th.heading,
    }
}

/// The end view's text lines (the stop reason itself is drawn apart, above them).
pub fn end_lines(tl: &Run, width: usize, th: &Theme, gl: &Glyphs) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    out.extend(wrap_prefixed(
        vec![],
        &format!("{} at {}.", stop_words(tl), tl.clock.at(tl.decided_ms)),
        width,
        th.base,
    ));
    out.extend(wrap_prefixed(
        vec![],
        &partial_summary(tl, gl),
        width,
        th.base,
    ));
    // The model's words are quoted; a note of ours is dim.
    let (answer, style) = match &tl.final_answer {
        Some(a) if a.trim().is_empty() => {
            ("no text: the model ended saying nothing".to_owned(), th.dim)
        }
        Some(a) => (
            format!("{}{}{}", gl.lquote, gl.shown_lines(a), gl.rquote),
            th.heading,
        ),
        None if tl.stop.is_none() => (
            format!(
                "no final answer: {} before the model gave one",
                stop_words(tl).trim_end_matches(" here")
            ),
            th.dim,
        ),
        None => (
            "no final answer: the run stopped before the model answered".to_owned(),
            th.dim,
        ),
    };
    out.extend(wrap_prefixed(
        vec![Span::styled("model: ", th.dim)],
        &answer,
        width,
        style,
    ));
    out
}

/// Pad a line of text to a width (for tables in the legend).
pub fn padded(s: &str, w: usize, th: &Theme) -> String {
    fit(s, w, th.sym.ellipsis)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::theme::ThemeName;

    #[test]
    fn an_authorization_never_made_says_what_happened() {
        assert_eq!(auth_words("allowed", Some(Category::Ok), true), "allowed");
        assert!(
            auth_words("not_checked", Some(Category::Timeout), true).contains("timed out"),
            "a dispatched call that timed out"
        );
        assert!(
            auth_words("not_checked", Some(Category::InvalidArguments), false).contains("refused")
        );
    }

    /// A run of two calls to one tool, the first refused for its arguments (and a repair
    /// marked on the second when `repaired`), ending with an answer, on `clock`.
    fn refused_then(clock: Clock, repaired: bool) -> Run {
        use crate::replay::{CallSpec, ResultSpec, RunBuilder, TurnSpec};
        let mut b = RunBuilder::new("r", "r", clock);
        for (i, (id, category)) in [("c1", Category::InvalidArguments), ("c2", Category::Ok)]
            .into_iter()
            .enumerate()
        {
            let at = i as u64 * 100;
            b.turn(TurnSpec {
                start_ms: at,
                end_ms: at + 10,
                calls: vec![id.to_owned()],
                final_answer: None,
            });
            let lane = b.call(CallSpec {
                id: id.to_owned(),
                tool: "close_ticket".to_owned(),
                at_ms: at + 10,
                args: serde_json::json!({}),
                validation: Validation::Passed,
                result: Some(ResultSpec {
                    at_ms: at + 20,
                    category,
                    text: String::new(),
                }),
            });
            if repaired && category == Category::Ok {
                b.finding(Some(lane), WarnKind::Repaired, "repaired");
            }
        }
        b.turn(TurnSpec {
            start_ms: 300,
            end_ms: 310,
            calls: Vec::new(),
            final_answer: Some("closed".to_owned()),
        });
        b.build()
    }

    #[test]
    fn a_run_whose_refused_call_was_repaired_says_so_not_partial() {
        let gl = Glyphs::for_theme(&Theme::new(ThemeName::Default, true));
        let repaired = partial_summary(&refused_then(Clock::Recorded, true), gl);
        assert!(
            repaired.starts_with("1 refused, then repaired: c1"),
            "{repaired}"
        );
        let left = partial_summary(&refused_then(Clock::Recorded, false), gl);
        assert!(left.starts_with("partial: c1"), "no repair marked: {left}");
    }

    #[test]
    fn a_run_that_just_ends_names_a_record_only_when_it_plays_one() {
        for (clock, want) in [
            (Clock::Recorded, "the record ends here"),
            (Clock::Order, "the record ends here"),
            (Clock::Virtual, "the run ends here"),
        ] {
            let mut run = refused_then(clock, true);
            assert_eq!(stop_words(&run), want, "{clock:?}");
            run.final_answer = None;
            let th = Theme::new(ThemeName::Default, false);
            let text: Vec<String> = end_lines(&run, 200, &th, Glyphs::for_theme(&th))
                .iter()
                .map(ToString::to_string)
                .collect();
            let record = text.iter().any(|l| l.contains("record"));
            assert_eq!(record, clock != Clock::Virtual, "{clock:?}: {text:?}");
        }
    }
}
