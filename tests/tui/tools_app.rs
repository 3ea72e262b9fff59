//! The Your tools screen inside the app: opened with T from home, predictions on a
//! declaration kept in the progress under the tools file's content hash and shown again
//! when the same file is opened later, the generated run opened in the player over it.

use std::sync::Arc;

use ratatui::layout::Rect;
use tooldojo::course::progress::Progress;
use tooldojo::tools::{ToolSet, ToolsFile};
use tooldojo::tui::app::{App, Update};
use tooldojo::tui::theme::ThemeName;

use crate::tui_common::{env, lessons, options, press, screen};

fn example() -> ToolsFile {
    let text = include_str!("../../fixtures/tools/issue-tracker.json");
    ToolsFile {
        name: "issue-tracker.json".into(),
        set: Arc::new(ToolSet::from_text(text, None).unwrap()),
    }
}

fn app(progress: Progress) -> App {
    let mut opts = options(ThemeName::Default, false);
    opts.home = true;
    App::new(
        opts,
        env(),
        Ok(lessons()),
        progress,
        Rect::new(0, 0, 120, 35),
    )
}

#[test]
fn t_from_home_opens_the_example_and_esc_comes_back() {
    let mut a = app(Progress::default());
    assert_eq!(a.screen().name(), "home");
    press(&mut a, "T");
    assert_eq!(a.screen().name(), "tools");
    assert!(screen(&a).contains("An example file"), "{}", screen(&a));
    press(&mut a, "<Esc>");
    assert_eq!(a.screen().name(), "home");
}

#[test]
fn predictions_are_kept_per_file_by_content_hash() {
    let file = example();
    let hash = file.set.hash.clone().unwrap();
    let mut a = app(Progress::default());
    a.start_tools(file.clone());
    let out = press(&mut a, "<Enter>1<Enter><Enter><Esc>");
    assert!(out.contains(&Update::Save));
    let saved = a.progress_snapshot();
    let kept = &saved.tools[&hash];
    assert_eq!(kept.file, "issue-tracker.json");
    assert!(
        kept.predict.contains_key("tools[0] search_issues"),
        "{kept:?}"
    );
    // A later session on the same file shows the revealed row again.
    let mut b = app(saved);
    b.start_tools(file);
    press(&mut b, "<Enter>");
    let text = screen(&b);
    assert!(text.contains("1 of 36 revealed"), "{text}");
}

#[test]
fn t_plays_the_generated_run_over_the_screen() {
    let mut a = app(Progress::default());
    a.start_tools(example());
    press(&mut a, "t");
    assert_eq!(a.screen().name(), "player");
    assert!(screen(&a).contains("search_issues"));
    // At the end, the trap that got through is marked once, with its fix.
    press(&mut a, &"l".repeat(40));
    let text = screen(&a);
    assert!(
        text.contains("let through: extra key: note; fix:"),
        "{text}"
    );
    assert!(!text.contains("let through: let through"), "{text}");
    press(&mut a, "<Esc>");
    assert_eq!(a.screen().name(), "tools");
}

/// The app on `file` at `w`x`h`.
fn app_on(file: ToolsFile, w: u16, h: u16, ascii: bool) -> App {
    let mut a = crate::tui_common::new_app(w, h, ThemeName::Default, ascii);
    a.start_tools(file);
    a
}

/// Names that share a long start.
const NAMES: [&str; 7] = [
    "update_reservation_baggages",
    "update_reservation_flights",
    "update_reservation_passengers",
    "list_directory",
    "list_directory_with_sizes",
    "search_direct_flight",
    "search_onestop_flight",
];

/// A tools file of `NAMES`.
fn alike() -> ToolsFile {
    let tool = |name: &str| {
        format!(
            r#"{{"type": "function", "function": {{"name": "{name}", "parameters": {{"type": "object", "properties": {{"reservation_id": {{"type": "string"}}}}, "required": ["reservation_id"]}}}}}}"#
        )
    };
    let text = format!(
        "[{}]",
        NAMES.iter().map(|n| tool(n)).collect::<Vec<_>>().join(", ")
    );
    ToolsFile {
        name: "alike.json".into(),
        set: Arc::new(ToolSet::from_text(&text, None).unwrap()),
    }
}

/// The list pane's rows: the text between the first pair of borders of each line.
fn list_rows(text: &str, border: char) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let mut parts = l.split(border);
            parts.next()?;
            let row = parts.next()?.trim().trim_start_matches(['▶', '>']).trim();
            Some(row.to_owned())
        })
        .filter(|r| {
            ["update", "list", "search"]
                .iter()
                .any(|p| r.starts_with(p))
        })
        .collect()
}

#[test]
fn names_that_share_a_start_stay_apart_in_the_list() {
    for (w, h, ascii) in [
        (80, 24, false),
        (120, 35, false),
        (160, 45, false),
        (80, 24, true),
    ] {
        let a = app_on(alike(), w, h, ascii);
        let text = screen(&a);
        let rows = list_rows(&text, if ascii { '|' } else { '│' });
        assert_eq!(rows.len(), NAMES.len(), "{w}x{h}:\n{text}");
        let names: Vec<&str> = rows
            .iter()
            .map(|r| r.split_whitespace().next().unwrap())
            .collect();
        let ellipsis = if ascii { "..." } else { "…" };
        for (i, n) in names.iter().enumerate() {
            assert!(!names[i + 1..].contains(n), "{n} twice at {w}x{h}:\n{text}");
            // A name too long for the list keeps its start and its end: it reads as
            // one name only.
            let fits = match n.split_once(ellipsis) {
                Some((start, end)) => NAMES
                    .iter()
                    .filter(|r| r.starts_with(start) && r.ends_with(end))
                    .count(),
                None => NAMES.iter().filter(|r| *r == n).count(),
            };
            assert_eq!(fits, 1, "{n} at {w}x{h}:\n{text}");
        }
        if w >= 160 {
            assert!(text.contains("update_reservation_passengers"), "{text}");
        }
    }
}

#[test]
fn ascii_keeps_names_and_verdicts_readable() {
    for (w, h) in [(80, 24), (160, 45)] {
        let mut a = app_on(example(), w, h, true);
        let text = screen(&a);
        assert!(text.is_ascii(), "{text}");
        assert!(text.contains("> search_issues"), "{text}");
        assert!(text.contains("  get_issue"), "{text}");
        press(&mut a, "<Tab><PgDn>");
        let text = screen(&a);
        assert!(text.contains("let through"), "{text}");
        assert!(!text.contains("let th..."), "{text}");
        // A strict reason wraps under its own text, past the word that marks it.
        let mut text = screen(&a);
        for _ in 0..20 {
            if text.contains("FAIL additionalProperties") {
                break;
            }
            press(&mut a, "<PgDn>");
            text = screen(&a);
        }
        // Nothing of it is lost at the pane's edge: the reason's lines, read in the
        // detail pane alone, say it whole, and its second line starts under its text.
        let lines: Vec<&str> = text.lines().collect();
        let first = lines
            .iter()
            .position(|l| l.contains("FAIL additionalProperties"))
            .unwrap();
        let pane = |l: &str| l.split('|').nth(3).unwrap_or_default().to_owned();
        let (one, two) = (pane(lines[first]), pane(lines[first + 1]));
        let said = format!("{one} {two}");
        let words = said.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            words.contains("FAIL additionalProperties must be false at the root"),
            "{text}"
        );
        let under = one.find("additionalProperties").unwrap();
        assert_eq!(two.len() - two.trim_start().len(), under, "{text}");
        // The predict table: an ellipsis is three dots, never an escape.
        press(&mut a, "<Enter>");
        let text = screen(&a);
        assert!(text.contains("{..."), "{text}");
        assert!(!text.contains("\\u2026"), "{text}");
    }
}

#[test]
fn long_trap_names_read_whole_at_80x24() {
    let mut a = app_on(example(), 80, 24, false);
    press(&mut a, "<Tab><PgDn><PgDn>");
    let text = screen(&a);
    // `repo: over-long string (1000 chars)` wraps in its column rather than being cut.
    assert!(text.contains("repo: over-long string (1000"), "{text}");
    assert!(text.contains("chars)"), "{text}");
    assert!(!text.contains("string (1000 …"), "{text}");
    // The strict-readiness lines wrap whole too, closing parenthesis and all, and every
    // reason is there (the pane scrolls): Anthropic's fifth is the per_page minimum.
    let mut text = String::new();
    for _ in 0..20 {
        press(&mut a, "<PgDn>");
        text.push_str(&screen(&a));
    }
    assert!(
        text.contains("\"maxLength\" is not supported (no"),
        "{text}"
    );
    assert!(text.contains("\"minimum\" is not supported (no"), "{text}");
    assert!(text.contains("/properties/per_page"), "{text}");
    assert!(text.contains("\"null\"])"), "{text}");
    assert!(!text.contains("more (tooldojo tools FILE"), "{text}");
}

#[test]
fn a_trap_with_long_args_keeps_its_choices_on_screen_at_80x24() {
    let mut a = app_on(example(), 80, 24, false);
    // The predict table, on the row whose argument is 1000 characters long.
    press(&mut a, "<Enter>");
    for _ in 0..15 {
        press(&mut a, "<Down>");
    }
    let text = screen(&a);
    assert!(text.contains("over-long string (1000 chars)"), "{text}");
    // The header says which of the 36 rows the table shows.
    assert!(text.contains("Trap (rows 12-19 of 36)"), "{text}");
    assert!(
        text.contains("predict  ( ) 1 rejected  ( ) 2 let through"),
        "{text}"
    );
    assert!(text.contains("lines in all (v shows it whole)"), "{text}");
    // v shows the whole value, and again folds it.
    press(&mut a, "v");
    assert!(!screen(&a).contains("lines in all"), "{}", screen(&a));
    press(&mut a, "v");
    assert_eq!(screen(&a), text);
}

#[test]
fn the_help_lists_the_keys_of_the_view_on_screen() {
    let mut a = app_on(example(), 80, 24, false);
    press(&mut a, "?");
    let text = screen(&a);
    for shown in [
        "g/G",
        "first mark",
        "strict-ready",
        "lets through",
        "back to the home",
    ] {
        assert!(text.contains(shown), "{shown}:\n{text}");
    }
    // The predict table's help: its keys, not the list's.
    press(&mut a, "x<Enter>?");
    let text = screen(&a);
    for shown in [
        "lock, then reveal",
        "unlock",
        "reveal locked",
        "back to the list",
    ] {
        assert!(text.contains(shown), "{shown}:\n{text}");
    }
    assert!(!text.contains("the playground on it"), "{text}");
    assert!(!text.contains("back to page"), "{text}");
    // The playground's and the fix list's.
    press(&mut a, "x<Esc>p?");
    let text = screen(&a);
    assert!(text.contains("args / rules"), "{text}");
    assert!(!text.contains("predict its traps"), "{text}");
    press(&mut a, "x<Esc>f?");
    let text = screen(&a);
    assert!(text.contains("NAME.fixed.json"), "{text}");
    assert!(!text.contains("predict its traps"), "{text}");
}

#[test]
fn no_footer_offers_a_page_that_is_not_there() {
    for w in [80, 160] {
        let mut a = app_on(example(), w, 24, false);
        for keys in ["<Enter>", "<Esc>p", "<Esc>f"] {
            press(&mut a, keys);
            let text = screen(&a);
            assert!(!text.contains("back to page"), "{w}:\n{text}");
            assert_eq!(text.matches("Esc ").count(), 1, "{w}:\n{text}");
        }
    }
}

#[test]
fn w_over_a_fixed_copy_names_it_and_says_what_to_do() {
    if !crate::tui_tmux::have_tmux() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let state = tempfile::tempdir().unwrap();
    let cmd = format!(
        "cd '{}' && TOOLDOJO_STATE_DIR='{}' '{}' --tools '{}/fixtures/tools/issue-tracker.json'; echo EXITED=$?; sleep 60",
        dir.path().display(),
        state.path().display(),
        env!("CARGO_BIN_EXE_tooldojo"),
        env!("CARGO_MANIFEST_DIR"),
    );
    let tmux = crate::tui_tmux::launch("toolsw", &cmd, 80, 24);
    tmux.wait_for("? help");
    tmux.keys(&["f"]);
    tmux.wait_for("fixes");
    tmux.keys(&["w"]);
    tmux.wait_for("Wrote the fixed declaration to search_issues.fixed.json");
    let file = dir.path().join("search_issues.fixed.json");
    std::fs::write(&file, "mine\n").unwrap();
    tmux.keys(&["w"]);
    let shown = tmux.wait_for("Not replaced");
    let words = shown.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains(
            "Not replaced: search_issues.fixed.json exists. Delete or rename it, then press w again."
        ),
        "{shown}"
    );
    assert!(!shown.contains("--force"), "{shown}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "mine\n");
    // Once it is out of the way, w writes again.
    std::fs::remove_file(&file).unwrap();
    tmux.keys(&["w"]);
    tmux.wait_for("Wrote the fixed declaration");
    assert!(
        std::fs::read_to_string(&file)
            .unwrap()
            .contains("search_issues")
    );
    tmux.keys(&["q"]);
    tmux.wait_for("EXITED=0");
}

/// The key bar: the last line of the screen.
fn bar(a: &App) -> String {
    screen(a).lines().last().unwrap_or_default().to_owned()
}

#[test]
fn hosted_views_keep_their_own_keys_in_the_bar() {
    // The way back is one word in the bar, so the predict table's main key shows from
    // 93 columns and all five of its keys at 120; the help says the way back whole.
    for (w, shown) in [
        (93, "Enter lock, then reveal"),
        (120, "a reveal locked"),
        (160, "a reveal locked"),
    ] {
        let mut a = app_on(example(), w, 24, false);
        press(&mut a, "<Enter>");
        let bar = bar(&a);
        assert!(bar.contains(shown), "{w}: {bar}");
        assert!(bar.contains(" Esc list "), "{w}: {bar}");
        assert!(
            bar.contains(" q quit ") && bar.contains(" ? help"),
            "{w}: {bar}"
        );
    }
    // The playground names a key of its own even at 60 columns.
    let mut a = app_on(example(), 60, 24, false);
    press(&mut a, "p");
    let bar = bar(&a);
    assert!(bar.contains("Tab args / rules"), "{bar}");
    assert!(bar.contains(" Esc list "), "{bar}");
}

#[test]
fn equal_names_are_cut_alike() {
    let tool = |name: &str| {
        format!(
            r#"{{"type": "function", "function": {{"name": "{name}", "parameters": {{"type": "object", "properties": {{}}}}}}}}"#
        )
    };
    let names = [
        "update_reservation_baggages",
        "update_reservation_flights",
        "update_reservation_baggages",
    ];
    let text = format!(
        "[{}]",
        names.iter().map(|n| tool(n)).collect::<Vec<_>>().join(", ")
    );
    let file = ToolsFile {
        name: "twice.json".into(),
        set: Arc::new(ToolSet::from_text(&text, None).unwrap()),
    };
    // Where the list is too narrow for the whole names: the two copies, cut alike.
    for (w, h, ascii) in [(104, 30, false), (110, 35, false), (112, 30, true)] {
        let a = app_on(file.clone(), w, h, ascii);
        let text = screen(&a);
        let rows = list_rows(&text, if ascii { '|' } else { '│' });
        let cut: Vec<&str> = rows
            .iter()
            .map(|r| r.split_whitespace().next().unwrap())
            .collect();
        assert_eq!(cut.len(), 3, "{w}x{h}:\n{text}");
        assert_eq!(cut[0], cut[2], "{w}x{h}:\n{text}");
        assert_ne!(cut[0], cut[1], "{w}x{h}:\n{text}");
    }
}

#[test]
fn a_long_help_scrolls_and_says_how_much_more() {
    let mut a = app_on(example(), 40, 12, false);
    press(&mut a, "?");
    let text = screen(&a);
    assert!(text.contains("more lines: j or PgDn"), "{text}");
    assert!(!text.contains("quit now"), "{text}");
    // One line at a time, then a page at a time, then to the end.
    let second = text.lines().nth(2).unwrap().to_owned();
    press(&mut a, "j");
    let text = screen(&a);
    assert_eq!(text.lines().nth(1).unwrap(), second, "{text}");
    press(&mut a, "<PgDn>");
    let text = screen(&a);
    for shown in ["a model's calls", "quit now"] {
        assert!(text.contains(shown), "{shown}:\n{text}");
    }
    press(&mut a, "G");
    let text = screen(&a);
    for shown in ["for none", "any other key closes"] {
        assert!(text.contains(shown), "{shown}:\n{text}");
    }
    assert!(!text.contains("more lines"), "{text}");
    press(&mut a, "<PgUp><PgUp><PgUp><PgUp>");
    assert!(screen(&a).contains("Up/Down j/k"), "{}", screen(&a));
    // Any other key closes it.
    press(&mut a, "x");
    assert!(!screen(&a).contains(" Keys "), "{}", screen(&a));
    // Keys pressed before the help is first drawn scroll it too, never past its end.
    press(&mut a, "?GjG");
    assert!(screen(&a).contains("for none"), "{}", screen(&a));
    // A help that fits closes on any key, j too.
    let mut a = app_on(example(), 120, 35, false);
    press(&mut a, "?");
    let text = screen(&a);
    assert!(text.contains("Any key closes this."), "{text}");
    // The help's own mark (the detail pane under it marks its own cut lines).
    assert!(!text.contains("more lines: j"), "{text}");
    press(&mut a, "j");
    assert!(!screen(&a).contains(" Keys "), "{}", screen(&a));
}

#[test]
fn pgdn_in_the_fix_list_turns_a_page() {
    let mut a = app_on(example(), 80, 24, false);
    press(&mut a, "f");
    let before = screen(&a);
    let lines: Vec<&str> = before.lines().collect();
    // The body: the lines between the two-line head and the key bar, its last row the
    // mark of the lines below; the page after it starts under the mark of those above.
    assert!(
        lines[lines.len() - 2].contains("more lines below: j/PgDn"),
        "{before}"
    );
    let last = lines[lines.len() - 3].to_owned();
    press(&mut a, "<PgDn>");
    let after = screen(&a);
    assert!(
        after
            .lines()
            .nth(2)
            .unwrap()
            .contains("lines above: k/PgUp"),
        "{after}"
    );
    assert_eq!(after.lines().nth(3).unwrap(), last, "{before}\n{after}");
    press(&mut a, "<PgUp>");
    assert_eq!(screen(&a), before);
    // Past the end, one PgUp still turns back a page.
    press(&mut a, &"<PgDn>".repeat(20));
    let end = screen(&a);
    press(&mut a, "<PgUp>");
    assert_ne!(screen(&a), end);
}

/// A tools file written to attack the terminal: escapes, a C1 control and bidi overrides in
/// a tool's name, its description, a property's name and its enum values, and in the name
/// of an entry that is skipped.
pub(crate) const HOSTILE: &str = r#"{"tools": [
  {"name": "evil\u001b[31mred\u202e", "description": "desc \u001b]0;pwned\u0007 x\u009b2J",
   "inputSchema": {"type": "object", "required": ["a\u001b[2Jb"],
     "properties": {"a\u001b[2Jb": {"type": "string", "description": "x"},
                    "mode\u2066": {"type": "string", "enum": ["on\u202e", "off"]}}}},
  {"type": "web_search_20250305", "name": "web\u001b[2J"},
  {"name": "evil\u001b[31mred\u202e", "inputSchema": {"type": "object"}}
]}"#;

/// Every cell whose text could steer a terminal, with its position.
fn steering_cells(buf: &ratatui::buffer::Buffer) -> Vec<(u16, u16, String)> {
    let mut bad = Vec::new();
    for pos in buf.area.positions() {
        let sym = buf[pos].symbol();
        if sym
            .chars()
            .any(|c| c.is_control() || tooldojo::sanitize::steers_terminal(c))
        {
            bad.push((pos.x, pos.y, format!("{sym:?}")));
        }
    }
    bad
}

#[test]
fn a_hostile_tools_file_draws_no_raw_control_anywhere() {
    let file = ToolsFile {
        name: "hostile.json".into(),
        set: Arc::new(ToolSet::from_text(HOSTILE, None).unwrap()),
    };
    for (w, h) in [(80, 24), (160, 45)] {
        let mut a = app_on(file.clone(), w, h, false);
        // The list and detail, the predict table, the playground with a rule off (its
        // rows that flip), the fix list, the help, the second declaration, the player.
        for keys in [
            "",
            "<Tab><PgDn>",
            "<PgDn><PgDn>",
            "<Tab><Enter>",
            "<Esc>p<Tab><Down><Down> ",
            "<Up><Up> ",
            "<Esc>f",
            "<PgDn>",
            "<Esc>?",
            "x<Down>",
            "<Up>t",
            "llllllllllllllll",
        ] {
            press(&mut a, keys);
            let buf = tooldojo::tui::screens::draw_to_buffer(&a);
            let text = tooldojo::text::screen_text(&buf);
            let bad = steering_cells(&buf);
            assert!(bad.is_empty(), "{w}x{h} after {keys:?}: {bad:?}\n{text}");
            // Each control shows as its visible stand-in (or as a JSON escape inside JSON),
            // never dropped unseen and never in Rust's debug form.
            assert!(!text.contains("\\u{"), "{w}x{h} after {keys:?}:\n{text}");
            for attack in ["[31m", "[2J", "]0;"] {
                for (at, _) in text.match_indices(attack) {
                    let before = &text[..at];
                    assert!(
                        before.ends_with('\u{241b}') || before.ends_with("\\u001b"),
                        "{w}x{h} after {keys:?}: {attack} without its escape\n{text}"
                    );
                }
            }
        }
    }
}

#[test]
fn the_fix_list_says_which_fixes_cost_strict_mode() {
    let text = r#"[{"type": "function", "name": "final_result", "strict": true,
      "parameters": {"type": "object", "additionalProperties": false, "required": ["city"],
        "properties": {"city": {"type": "string"}}}}]"#;
    let file = ToolsFile {
        name: "strict.json".into(),
        set: Arc::new(ToolSet::from_text(text, None).unwrap()),
    };
    let mut a = app_on(file, 160, 45, false);
    let words = |a: &App| screen(a).split_whitespace().collect::<Vec<_>>().join(" ");
    // The table marks it beside the fix.
    assert!(
        words(&a).contains("\"maxLength\": 256 (costs strict mode)"),
        "{}",
        screen(&a)
    );
    press(&mut a, "f");
    let text = words(&a);
    for shown in [
        "costs strict mode: \"maxLength\" is outside OpenAI's and Anthropic's strict subset; \
         to keep strict, send the provider a copy without it and keep it in the schema your \
         validator checks, or check the string's length in the tool's handler.",
        "Left out of the fixed copy: the declaration asks for strict mode.",
        "every fix applied but those that cost the strict mode it asks for",
    ] {
        assert!(text.contains(shown), "{shown}:\n{}", screen(&a));
    }
}

/// The playground's rows from its top to its end, read a line at a time as `j` scrolls
/// it (the body: between the two-line head and the key bar).
fn playground_rows(a: &mut App, h: usize) -> Vec<String> {
    let body = |a: &App| -> Vec<String> {
        let text = screen(a);
        text.lines()
            .skip(2)
            .take(h - 3)
            .map(str::to_owned)
            .collect()
    };
    let below = |rows: &[String]| rows.last().is_some_and(|l| l.contains("more lines below"));
    let first = body(a);
    if !below(&first) {
        return first;
    }
    let mut rows = first[..first.len() - 1].to_vec();
    for _ in 0..500 {
        press(a, "j");
        let b = body(a);
        rows.push(b[b.len() - 2].clone());
        if !below(&b) {
            rows.push(b[b.len() - 1].clone());
            return rows;
        }
    }
    panic!("the playground never reached its end");
}

#[test]
fn every_row_that_flips_can_be_read_in_the_playground() {
    // How many rows that flip `rows` show under the line naming their columns: each
    // says what it gets without the rule.
    let flips = |rows: &[String]| {
        rows.iter()
            .skip_while(|r| !r.contains("with the rule → without it"))
            .map(|r| r.matches("→ ✓").count() + r.matches("→ ✗").count())
            .sum::<usize>()
    };
    // At 160x45 they fit the column beside the arguments.
    let mut a = app_on(example(), 160, 45, false);
    press(&mut a, "p<Tab><Down><Down> ");
    let text = screen(&a);
    assert!(text.contains("16 of 36 trap rows"), "{text}");
    assert!(!text.contains("more lines below"), "{text}");
    // The column beside the arguments, from where the rules start.
    let at = |l: &str| l.find("Rules (Space").map(|b| l[..b].chars().count());
    let col = text.lines().find_map(at).unwrap();
    let side: Vec<String> = text
        .lines()
        .map(|l| l.chars().skip(col).collect())
        .collect();
    assert_eq!(flips(&side), 16, "{text}");
    // At 80x24 they go under the arguments, and the playground scrolls.
    let (w, h) = (80, 24);
    let mut a = app_on(example(), w, h, false);
    // The type check off, then the focus back on the arguments (j scrolls there).
    press(&mut a, "p<Tab><Down><Down> ");
    let text = screen(&a);
    assert!(text.contains("16 of 36 trap rows"), "{w}x{h}:\n{text}");
    assert!(text.contains("more lines below: PgDn"), "{w}x{h}:\n{text}");
    assert!(text.contains("PgDn scroll"), "{w}x{h}:\n{text}");
    press(&mut a, "<Tab>");
    let rows = playground_rows(&mut a, h.into());
    assert_eq!(flips(&rows), 16, "{w}x{h}:\n{}", rows.join("\n"));
    assert!(rows.last().unwrap().contains('╰'), "{}", rows.join("\n"));
    // PgUp goes back a page at a time, to the top.
    press(&mut a, &"<PgUp>".repeat(10));
    let text = screen(&a);
    assert!(text.contains("╭ ▶ Playground"), "{w}x{h}:\n{text}");
    assert!(!text.contains("lines above"), "{w}x{h}:\n{text}");
    // The help names the keys that scroll it.
    press(&mut a, "?");
    assert!(
        screen(&a).contains("PgUp/PgDn scroll the playground"),
        "{}",
        screen(&a)
    );
}

/// A declaration the validator refuses (a backreference no linear-time engine runs), a
/// server tool, and a second declaration with the first one's name.
const REFUSED: &str = r#"{"tools": [{"name": "echo", "description": "Echo", "inputSchema": {"type": "object", "additionalProperties": false, "required": ["s"], "properties": {"s": {"type": "string", "pattern": "^(a)\\1$", "maxLength": 10}}}},
{"name": "web", "type": "web_search_20250305"},
{"name": "echo", "description": "dup", "inputSchema": {"type": "object", "properties": {}}}]}"#;

fn refused_file() -> ToolsFile {
    ToolsFile {
        name: "refused.json".into(),
        set: Arc::new(ToolSet::from_text(REFUSED, None).unwrap()),
    }
}

#[test]
fn a_refused_declaration_says_why_nothing_runs_whole() {
    for (w, h) in [(80, 24), (50, 20)] {
        for (key, said) in [
            (
                "<Enter>",
                "The validator refuses this declaration: there is nothing to predict.",
            ),
            (
                "p",
                "The validator refuses this declaration: there is nothing to run.",
            ),
            (
                "t",
                "The validator refuses this declaration: there is no run to play.",
            ),
        ] {
            let mut a = app_on(refused_file(), w, h, false);
            press(&mut a, key);
            assert_eq!(a.screen().name(), "tools");
            let text = screen(&a);
            let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
            assert!(words.contains(said), "{key} at {w}x{h}:\n{text}");
            // The next key takes it away, and the panes are whole again.
            press(&mut a, "<Tab>");
            assert!(
                !screen(&a).contains("refuses this declaration:"),
                "{}",
                screen(&a)
            );
        }
    }
}

#[test]
fn a_declaration_that_was_not_read_is_not_judged_for_strict_mode() {
    let text = include_str!("../../fixtures/tools/issue-tracker.json");
    let format = Some(tooldojo::tools::ToolsFormat::Anthropic);
    let file = ToolsFile {
        name: "issue-tracker.json".into(),
        set: Arc::new(ToolSet::from_text(text, format).unwrap()),
    };
    let a = app_on(file, 160, 45, false);
    let text = screen(&a);
    assert!(
        text.contains("not judged: the validator could not read the"),
        "{text}"
    );
    assert!(!text.contains("the root must be an object"), "{text}");
}

#[test]
fn skipped_entries_and_repeated_names_are_named_in_the_app() {
    for (w, h) in [(80, 24), (160, 45)] {
        let mut a = app_on(refused_file(), w, h, false);
        let text = screen(&a);
        let sub = text.lines().nth(1).unwrap();
        assert!(!sub.trim_end().ends_with('…'), "{w}x{h}:\n{text}");
        assert!(
            sub.contains("1 duplicate name") && !sub.contains("names"),
            "{sub}"
        );
        // The skipped entry has a row of its own after the declarations.
        assert!(text.contains("web skipped: web_"), "{w}x{h}:\n{text}");
        // Each declaration with the repeated name says where the other one is.
        let words = |a: &App| screen(a).split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            words(&a).contains("The name is also declared at tools[2]"),
            "{text}"
        );
        press(&mut a, "j");
        assert!(
            words(&a).contains("The name is also declared at tools[0]"),
            "{}",
            screen(&a)
        );
        // The help lists the skipped entry whole.
        press(&mut a, "?G");
        assert!(
            screen(&a).contains("tools[1] web: web_search_20250305"),
            "{}",
            screen(&a)
        );
    }
}

#[test]
fn a_file_without_function_tools_says_so_and_offers_only_keys_that_work() {
    let server_only = r#"[{"type": "web_search_20250305", "name": "web_search"}]"#;
    for (text, said) in [
        ("[]", "No function tools in this file: nothing to check."),
        (
            server_only,
            "No function tools in this file: its entries are",
        ),
    ] {
        let file = ToolsFile {
            name: "none.json".into(),
            set: Arc::new(ToolSet::from_text(text, None).unwrap()),
        };
        for (w, h) in [(80, 24), (160, 45)] {
            let mut a = app_on(file.clone(), w, h, false);
            let screen_text = screen(&a);
            assert!(screen_text.contains(said), "{w}x{h}:\n{screen_text}");
            let bar = bar(&a);
            assert!(
                bar.contains(" Esc home ") && bar.contains(" q quit "),
                "{bar}"
            );
            for dead in ["Enter", "playground", "fixes", "j/k", "…"] {
                assert!(!bar.contains(dead), "{dead}: {bar}");
            }
            press(&mut a, "?");
            let help = screen(&a);
            assert!(!help.contains("predict its traps"), "{help}");
            assert!(help.contains("back to the home screen"), "{help}");
            // Keys that have nothing to act on leave the screen as it is.
            press(&mut a, "x<Enter>pft");
            assert_eq!(a.screen().name(), "tools");
            assert_eq!(screen(&a), screen_text);
        }
    }
}

#[test]
fn the_predict_table_and_the_playground_name_q_where_it_quits() {
    for keys in ["<Enter>", "p"] {
        let mut a = app_on(example(), 80, 24, false);
        press(&mut a, keys);
        let b = bar(&a);
        assert!(b.contains(" q quit "), "{keys}: {b}");
        press(&mut a, "?");
        let help = screen(&a);
        assert!(
            help.lines()
                .any(|l| l.contains("│ q ") && l.contains("quit")),
            "{help}"
        );
        press(&mut a, "x");
        let out = press(&mut a, "q");
        assert!(out.contains(&Update::Quit), "{keys}: {out:?}");
    }
    // While the playground's arguments are edited, q types: Ctrl-C is the way out.
    let mut a = app_on(example(), 80, 24, false);
    press(&mut a, "p<Enter>");
    let b = bar(&a);
    assert!(!b.contains(" q quit ") && b.contains(" Ctrl-C quit"), "{b}");
}

#[test]
fn the_fix_list_opens_at_its_top_and_the_detail_keeps_its_place() {
    let mut a = app_on(example(), 80, 24, false);
    press(&mut a, "<Tab><PgDn>");
    let detail = screen(&a);
    press(&mut a, "f");
    let fixes = screen(&a);
    assert!(
        fixes
            .lines()
            .nth(2)
            .unwrap()
            .contains("add \"additionalProperties\""),
        "{fixes}"
    );
    press(&mut a, "<PgDn><Esc>");
    assert_eq!(screen(&a), detail);
}

#[test]
fn the_line_under_a_declaration_s_title_speaks_of_that_declaration() {
    // get_issue lets 1 of its traps through; the file's count (3 honoured) is not its own.
    let mut a = app_on(example(), 80, 24, false);
    press(&mut a, "jf");
    let text = screen(&a);
    let sub = text.lines().nth(1).unwrap().trim();
    assert!(text.starts_with(" get_issue · fixes"), "{text}");
    assert!(sub.starts_with("honoured by the validator · "), "{sub}");
    assert!(sub.ends_with(" traps tried, 1 let through"), "{sub}");
    // Before the traps are predicted, it does not say how many get through.
    press(&mut a, "<Esc><Enter>");
    let text = screen(&a);
    let sub = text.lines().nth(1).unwrap().trim();
    assert!(sub.ends_with(" traps to predict"), "{text}");
    // A refused declaration says so, in a file where another one is honoured.
    let mut a = app_on(refused_file(), 80, 24, false);
    press(&mut a, "f");
    let text = screen(&a);
    let sub = text.lines().nth(1).unwrap().trim();
    assert_eq!(sub, "refused by the validator · no traps tried", "{text}");
}
