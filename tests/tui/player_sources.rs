//! A second run source plugs into the player without touching its drawing. The stub here
//! stands for a recorded agent conversation: model turns in order (with the record's own
//! times, or none at all), each tool call with its arguments, what the validator said of
//! them and the result text the model saw, and findings to mark. It is built with the
//! public `replay::RunBuilder`, as a real reader of recordings would build it, and it is a
//! test's, not shipped.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde_json::json;

use tooldojo::orchestrator::Category;
use tooldojo::replay::warn::WarnKind;
use tooldojo::replay::{
    CallSpec, Clock, ReplayError, ResultSpec, Run, RunBuilder, RunSource, TurnSpec, Validation,
};
use tooldojo::tui::player::{Player, PlayerOutcome};
use tooldojo::tui::theme::ThemeName;

use super::player_support::text;

/// A recorded conversation, as a reader would hand it over: turns of (time, calls, answer).
struct RecordedStub {
    /// Times from the record; without them only the order is known.
    timed: bool,
}

/// What the stub conversation holds: the model asks for a ticket with a numeric id (the
/// validator refuses it), repairs the call, gets the ticket, retries a lookup three times,
/// then answers.
impl RunSource for RecordedStub {
    fn name(&self) -> String {
        "support-chat.jsonl".to_owned()
    }

    fn build(&self) -> Result<Run, ReplayError> {
        let clock = if self.timed {
            Clock::Recorded
        } else {
            Clock::Order
        };
        // Real milliseconds when the record has them; else one step a message.
        let at = |ms: u64, step: u64| {
            if self.timed {
                ms
            } else {
                step * Clock::STEP_MS
            }
        };
        let mut b = RunBuilder::new(&self.name(), "A support chat, recorded", clock);
        b.note("Recorded: the agent's own validator said no, and the agent tried again.");
        b.turn(TurnSpec {
            start_ms: at(0, 0),
            end_ms: at(850, 1),
            calls: vec!["c1".into()],
            final_answer: None,
        });
        let bad = b.call(CallSpec {
            id: "c1".into(),
            tool: "get_ticket".into(),
            at_ms: at(850, 1),
            args: json!({"ticket_id": 104}),
            validation: Validation::Failed(
                "type error: ticket_id must be a string, got integer".into(),
            ),
            result: Some(ResultSpec {
                at_ms: at(900, 2),
                category: Category::InvalidArguments,
                text: r#"{"ok": false, "code": "invalid_arguments"}"#.into(),
            }),
        });
        b.finding(
            Some(bad),
            WarnKind::InvalidArguments,
            "c1 sent a number where the schema wants a string",
        );
        b.turn(TurnSpec {
            start_ms: at(900, 2),
            end_ms: at(1400, 3),
            calls: vec!["c2".into(), "c3".into()],
            final_answer: None,
        });
        let fixed = b.call(CallSpec {
            id: "c2".into(),
            tool: "get_ticket".into(),
            at_ms: at(1400, 3),
            args: json!({"ticket_id": "TKT-104"}),
            validation: Validation::Passed,
            result: Some(ResultSpec {
                at_ms: at(1630, 4),
                category: Category::Ok,
                text: r#"{"ok": true, "ticket": {"id": "TKT-104", "title": "Settings crash"}}"#
                    .into(),
            }),
        });
        b.finding(
            Some(fixed),
            WarnKind::Repaired,
            "c2 repeats c1 with the id as text",
        );
        let slow = b.call(CallSpec {
            id: "c3".into(),
            tool: "search_kb".into(),
            at_ms: at(1400, 3),
            args: json!({"q": "settings crash"}),
            validation: Validation::Passed,
            result: None,
        });
        b.finding(
            Some(slow),
            WarnKind::RetryStorm,
            "search_kb sent 3 times in 2 s",
        );
        b.turn(TurnSpec {
            start_ms: at(1630, 4),
            end_ms: at(2100, 5),
            calls: Vec::new(),
            final_answer: Some("TKT-104 is open: Settings crash.".into()),
        });
        Ok(b.build())
    }
}

/// A record that cannot be read.
struct Broken;

impl RunSource for Broken {
    fn name(&self) -> String {
        "broken.jsonl".to_owned()
    }

    fn build(&self) -> Result<Run, ReplayError> {
        Err(ReplayError::Unreadable {
            source_name: self.name(),
            message: "line 3: not JSON".into(),
        })
    }
}

fn key(c: KeyCode) -> KeyEvent {
    KeyEvent::new(c, KeyModifiers::NONE)
}

fn open(timed: bool) -> Player {
    Player::open(&RecordedStub { timed }).expect("the stub builds")
}

#[test]
fn a_recorded_run_plays_with_no_knobs_no_reruns_and_no_export() {
    let mut p = open(true);
    assert!(!p.can_rerun() && !p.can_export() && p.knobs.is_none());
    for c in ['r', 'm', 'x', 'b'] {
        assert_eq!(
            p.handle_key(key(KeyCode::Char(c))),
            PlayerOutcome::Ignored,
            "{c}"
        );
    }
    let frame = text(&p, 160, 45, ThemeName::Default, false);
    assert!(
        frame.contains("Trace · support-chat.jsonl — A support chat, recorded"),
        "{frame}"
    );
    for gone in ["knobs", "export", "re-run", "compare", "Budgets"] {
        assert!(!frame.contains(gone), "{gone} on a recording:\n{frame}");
    }
    assert!(
        frame.contains("legend") && frame.contains("Esc back"),
        "{frame}"
    );
    assert!(
        frame.contains("turn 1") && frame.contains("c1 get_ticket"),
        "{frame}"
    );
    assert!(frame.contains("c3 search_kb"), "{frame}");
    assert!(
        frame.contains("agent tried again"),
        "the note shows:\n{frame}"
    );
    // The record's own times, in milliseconds.
    assert!(frame.contains("t = 0 / 2100 ms"), "{frame}");
}

#[test]
fn a_call_shows_its_arguments_verdict_and_the_result_text_the_model_saw() {
    let mut p = open(true);
    p.seek(2100);
    let _ = p.handle_key(key(KeyCode::Tab));
    let frame = text(&p, 160, 45, ThemeName::Default, false);
    assert!(frame.contains(r#"{"ticket_id": 104}"#), "{frame}");
    assert!(
        frame.contains("failed: type error: ticket_id must be a string, got integer"),
        "{frame}"
    );
    assert!(
        frame.contains(r#"{"ok": false, "code": "invalid_arguments"}"#),
        "{frame}"
    );
    assert!(
        !frame.contains("authorization"),
        "a recording made no authorization check:\n{frame}"
    );
    let _ = p.handle_key(key(KeyCode::Tab));
    let frame = text(&p, 160, 45, ThemeName::Default, false);
    assert!(frame.contains("passed"), "{frame}");
    assert!(frame.contains(r#""title": "Settings crash""#), "{frame}");
}

#[test]
fn findings_are_marked_and_the_end_says_the_record_ends() {
    let mut p = open(true);
    p.seek(1500);
    let frame = text(&p, 120, 35, ThemeName::Default, false);
    for word in ["invalid arguments", "repaired", "retry storm"] {
        assert!(frame.contains(word), "{word}:\n{frame}");
    }
    p.seek(2100);
    let frame = text(&p, 120, 35, ThemeName::Default, false);
    assert!(
        frame.contains("the record ends here at 2100 ms."),
        "{frame}"
    );
    assert!(
        frame.contains("TKT-104 is open: Settings crash."),
        "{frame}"
    );
    assert!(frame.contains("c3 ■ no result"), "{frame}");
}

#[test]
fn a_record_without_times_is_played_in_order_and_counted_in_steps() {
    let mut p = open(false);
    let frame = text(&p, 120, 35, ThemeName::Default, false);
    assert!(frame.contains("t = 0 / 5 step"), "{frame}");
    let _ = p.handle_key(key(KeyCode::Right));
    assert_eq!(p.t_ms(), Clock::STEP_MS, "one step on");
    p.seek(5 * Clock::STEP_MS);
    let frame = text(&p, 120, 35, ThemeName::Default, false);
    assert!(frame.contains("the record ends here at step 5."), "{frame}");
}

#[test]
fn every_size_and_theme_draws_a_recording() {
    for timed in [true, false] {
        let mut p = open(timed);
        let end = p.tl.end_ms;
        for t in [0, end / 2, end] {
            p.seek(t);
            for (w, h) in [(30, 8), (80, 24), (120, 35), (160, 45)] {
                for (theme, ascii) in [
                    (ThemeName::Default, false),
                    (ThemeName::Projector, false),
                    (ThemeName::Mono, true),
                ] {
                    let frame = text(&p, w, h, theme, ascii);
                    assert!(frame.lines().count() <= usize::from(h), "{w}x{h}");
                    if ascii {
                        assert!(frame.is_ascii(), "{w}x{h} at {t}:\n{frame}");
                    }
                }
            }
        }
    }
}

#[test]
fn a_source_that_cannot_build_its_run_says_why() {
    let err = Player::open(&Broken).err().expect("no player");
    assert_eq!(err.to_string(), "broken.jsonl: line 3: not JSON");
}

#[test]
#[ignore = "prints frames for a human to look at"]
fn print_recorded_frames() {
    for timed in [true, false] {
        let mut p = open(timed);
        for t in [1500, p.tl.end_ms] {
            p.seek(t);
            println!("{}", text(&p, 120, 35, ThemeName::Default, false));
            println!("{}", text(&p, 80, 24, ThemeName::Default, false));
        }
        let _ = p.handle_key(key(KeyCode::Tab));
        println!("{}", text(&p, 120, 35, ThemeName::Default, false));
    }
}

/// An OpenAI Chat conversation that replies to the user twice before its last answer, with
/// line breaks in what the model says, and `n` ok lookups each in a turn of its own.
fn chat_log(n: usize) -> String {
    let tools = json!([{"type": "function", "function": {"name": "get_ticket",
        "parameters": {"type": "object", "properties": {"ticket_id": {"type": "string"}},
        "required": ["ticket_id"]}}}]);
    let mut messages = vec![
        json!({"role": "user", "content": "Hi"}),
        json!({"role": "assistant", "content": "Hello!\nWhich ticket?"}),
        json!({"role": "user", "content": "TKT-1, and the others"}),
    ];
    for k in 0..n {
        let id = format!("call_{k}");
        messages.push(
            json!({"role": "assistant", "content": null, "tool_calls": [{"id": id,
            "type": "function", "function": {"name": "get_ticket",
            "arguments": format!("{{\"ticket_id\": \"TKT-{k}\"}}")}}]}),
        );
        messages.push(json!({"role": "tool", "tool_call_id": id, "content": "{\"ok\": true}"}));
    }
    messages.push(json!({"role": "assistant", "content": "Found them. Anything else?"}));
    messages.push(json!({"role": "user", "content": "Sum them up"}));
    messages.push(json!({"role": "assistant",
        "content": "All open:\n\n1. TKT-1\n2. TKT-2\nBye."}));
    json!({"tools": tools, "messages": messages}).to_string() + "\n"
}

fn play_log(n: usize) -> Player {
    use std::sync::Arc;
    use tooldojo::audit::Limits;
    use tooldojo::audit::listing::Listing;
    let listing = Listing::from_text("chat.jsonl", Arc::from(chat_log(n)), Limits::default());
    let source = listing.open(0).expect("the conversation opens");
    Player::open(&source).expect("it plays")
}

#[test]
fn only_the_last_turn_of_a_conversation_is_its_final_answer() {
    let mut p = play_log(1);
    let turns = &p.tl.turns;
    assert_eq!(turns.len(), 4);
    assert!(turns[0].final_answer.is_none(), "{:?}", turns[0]);
    assert_eq!(turns[0].reply.as_deref(), Some("Hello!\nWhich ticket?"));
    assert!(turns[2].final_answer.is_none() && turns[2].reply.is_some());
    assert!(turns[3].reply.is_none());
    assert_eq!(
        p.tl.final_answer.as_deref(),
        Some("All open:\n\n1. TKT-1\n2. TKT-2\nBye.")
    );
    p.seek(u64::MAX);
    let frame = text(&p, 120, 35, ThemeName::Default, false);
    assert_eq!(frame.matches("final answer").count(), 1, "{frame}");
    assert!(frame.contains("replies “Hello!␊Which"), "{frame}");
    // The model's text breaks into lines, and a blank line stays one.
    assert!(frame.contains("model: “All open:"), "{frame}");
    let lines: Vec<&str> = frame.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains("model: “All open:"))
        .unwrap();
    assert!(lines[at + 1].trim_matches(['│', ' ']).is_empty(), "{frame}");
    assert!(lines[at + 2].contains("       1. TKT-1"), "{frame}");
    assert!(lines[at + 4].contains("       Bye.”"), "{frame}");
    assert!(
        !lines[at..at + 5].iter().any(|l| l.contains('␊')),
        "{frame}"
    );
    // The end says once that the record ended.
    let small = text(&p, 80, 24, ThemeName::Default, false);
    assert!(!small.contains("ENDED  END"), "{small}");
}

#[test]
fn a_recorded_attempt_says_its_unit_once_for_both_ends() {
    let mut p = play_log(1);
    p.seek(u64::MAX);
    p.pb.selected = Some(0);
    let frame = text(&p, 120, 35, ThemeName::Default, false);
    assert!(frame.contains("attempt 1     step 2 → 3 ✓ ok"), "{frame}");
}

#[test]
fn grouped_lanes_count_calls_apart_from_turns() {
    let mut p = play_log(30);
    p.seek(u64::MAX);
    let frame = text(&p, 160, 45, ThemeName::Default, false);
    assert!(frame.contains("30 calls: 30 ✓ ok"), "{frame}");
    let group = frame
        .lines()
        .find(|l| l.contains("ok +"))
        .unwrap_or_else(|| panic!("a group of ok calls and done turns:\n{frame}"));
    let grouped: usize = group
        .split_once('+')
        .and_then(|(_, r)| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    let own = frame.matches(" get_ticket").count();
    assert_eq!(grouped + own, 30, "{frame}");
    let caption = format!("{} calls, 18 turns", grouped);
    assert!(group.contains(&caption), "the caption too: {group}");
}

#[test]
fn with_ascii_a_reply_breaks_its_lines_with_an_ascii_mark() {
    let mut p = play_log(1);
    let mut seen = false;
    let times: Vec<u64> = (0..p.tl.events.len())
        .map(|i| p.tl.events.time(i))
        .collect();
    for t in times {
        p.seek(t);
        for (w, h) in [(80, 24), (120, 35)] {
            let frame = text(&p, w, h, ThemeName::Mono, true);
            assert!(frame.is_ascii(), "{w}x{h} at {t}:\n{frame}");
            seen |= frame.contains("model replies: Hello! / Which ticket?");
        }
    }
    assert!(seen, "the reply is in the events");
}

#[test]
fn a_turn_that_says_nothing_is_not_quoted_as_the_models_words() {
    use std::sync::Arc;
    use tooldojo::audit::Limits;
    use tooldojo::audit::listing::Listing;
    let messages = json!([
        {"role": "user", "content": "Hi"},
        {"role": "assistant", "content": ""},
        {"role": "user", "content": "Hello?"},
        {"role": "assistant", "content": null}
    ]);
    let log = json!({"messages": messages}).to_string() + "\n";
    let listing = Listing::from_text("quiet.jsonl", Arc::from(log), Limits::default());
    let mut p = Player::open(&listing.open(0).unwrap()).unwrap();
    assert_eq!(p.tl.turns.len(), 2);
    assert!(p.tl.turns[0].reply.is_none(), "{:?}", p.tl.turns[0]);
    let times: Vec<u64> = (0..p.tl.events.len())
        .map(|i| p.tl.events.time(i))
        .collect();
    let mut said = Vec::new();
    for t in times {
        p.seek(t);
        let frame = text(&p, 120, 35, ThemeName::Default, false);
        assert!(!frame.contains("nothing said"), "at {t}:\n{frame}");
        said.push(frame);
    }
    let all = said.join("\n");
    assert!(all.contains("model replies with no text"), "{all}");
    assert!(all.contains("model ends with no text"), "{all}");
    assert!(all.contains("model: no text"), "{all}");
}
