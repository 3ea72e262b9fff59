//! A run whose source hands text over raw (a recording read by someone else's reader, built
//! with the public `RunBuilder`) still reaches the terminal cleaned: the player cleans every
//! text it takes from the run where it draws it, so an escape sequence in a tool's name shows
//! as its stand-in (`␛`, or `<ESC>` with `--ascii`) instead of being sent to the terminal or
//! silently dropped.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use serde_json::json;

use tooldojo::orchestrator::Category;
use tooldojo::replay::warn::WarnKind;
use tooldojo::replay::{CallSpec, Clock, ResultSpec, Run, RunBuilder, TurnSpec, Validation};
use tooldojo::tui::player::panes::StartKeys;
use tooldojo::tui::player::{Player, frame, inline};
use tooldojo::tui::theme::{Theme, ThemeName};

/// An escape sequence, a bidi override and a C1 control: what a hostile record may hold.
const EVIL: &str = "\u{1b}[31m\u{202e}\u{9b}";

/// A recorded run with [`EVIL`] in every text a record gives: its name, title and note, a
/// call's id, tool, arguments, verdict and result, a finding, the model's answer.
fn hostile_run() -> Run {
    let e = EVIL;
    let mut b = RunBuilder::new(
        &format!("log{e}.jsonl"),
        &format!("title{e}"),
        Clock::Recorded,
    );
    b.note(&format!("note{e}"));
    b.turn(TurnSpec {
        start_ms: 0,
        end_ms: 100,
        calls: vec![format!("c{e}1")],
        final_answer: None,
    });
    let c = b.call(CallSpec {
        id: format!("c{e}1"),
        tool: format!("evil{e}red"),
        at_ms: 100,
        args: json!({format!("k{e}"): format!("v{e}")}),
        validation: Validation::Failed(format!("verdict{e}")),
        result: Some(ResultSpec {
            at_ms: 200,
            category: Category::InvalidArguments,
            text: format!("result{e}\nline{e}"),
        }),
    });
    b.finding(Some(c), WarnKind::InvalidArguments, &format!("finding{e}"));
    b.turn(TurnSpec {
        start_ms: 200,
        end_ms: 300,
        calls: Vec::new(),
        final_answer: Some(format!("answer{e}\nmore")),
    });
    b.build()
}

fn key(p: &mut Player, c: KeyCode) {
    let _ = p.handle_key(KeyEvent::new(c, KeyModifiers::NONE));
}

/// Characters a terminal acts on or that hide themselves, left in a drawn cell.
fn raw_in(buf: &Buffer) -> Vec<char> {
    buf.content()
        .iter()
        .flat_map(|cell| cell.symbol().chars())
        .filter(|&c| tooldojo::sanitize::stand_in(c).is_some())
        .collect()
}

/// The player's frames at the start, with the call selected, at the end and with the
/// legend open, and the inline block at its end, each checked for raw characters.
fn frames(theme: &Theme, w: u16, h: u16) -> Vec<String> {
    let mut p = Player::new(hostile_run());
    let mut out = Vec::new();
    for k in [
        None,
        Some(KeyCode::Tab),
        Some(KeyCode::End),
        Some(KeyCode::Char('?')),
    ] {
        if let Some(k) = k {
            key(&mut p, k);
        }
        let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
        frame::render(&p, buf.area, &mut buf, theme, false);
        assert_eq!(raw_in(&buf), Vec::<char>::new(), "{k:?} at {w}x{h}");
        out.push(tooldojo::text::screen_text(&buf));
    }
    let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
    inline::render(
        &p,
        (p.tl.end_ms, StartKeys::Player),
        buf.area,
        &mut buf,
        theme,
    );
    assert_eq!(raw_in(&buf), Vec::<char>::new(), "inline at {w}x{h}");
    out.push(tooldojo::text::screen_text(&buf));
    out
}

#[test]
fn a_name_with_an_escape_sequence_is_drawn_by_its_stand_in() {
    for (w, h) in [(120, 40), (80, 24)] {
        let all = frames(&Theme::new(ThemeName::Default, false), w, h).join("\n");
        for shown in [
            "evil\u{241b}[31m\u{fffd}\u{fffd}red",
            "c\u{241b}[31m\u{fffd}\u{fffd}1",
        ] {
            assert!(all.contains(shown), "{shown} at {w}x{h}:\n{all}");
        }
        // Never the sequence with its escape silently dropped.
        assert!(!all.contains("evil[31m"), "{all}");
    }
    let wide = frames(&Theme::new(ThemeName::Default, false), 120, 40).join("\n");
    for field in [
        "title", "note", "verdict", "result", "line", "finding", "answer",
    ] {
        let shown = format!("{field}\u{241b}[31m\u{fffd}\u{fffd}");
        assert!(wide.contains(&shown), "{shown}:\n{wide}");
    }
}

#[test]
fn with_ascii_the_stand_ins_are_ascii_too() {
    for theme in [ThemeName::Default, ThemeName::Mono] {
        for (w, h) in [(120, 40), (80, 24)] {
            let frames = frames(&Theme::new(theme, true), w, h);
            for f in &frames {
                assert!(f.is_ascii(), "{theme:?} at {w}x{h}:\n{f}");
            }
            let all = frames.join("\n");
            assert!(all.contains("evil<ESC>[31m<?><?>red"), "{all}");
        }
    }
}
