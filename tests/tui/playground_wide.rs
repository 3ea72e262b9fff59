//! A playground in a big window. The lessons' playgrounds and the Your tools playground
//! put the rules and the rows that flip in a column of their own beside the inputs, its
//! whole height; rows it cannot hold go on under the verdict, and scroll when they do not
//! all fit there either; room left in the column says what each rule checks. Under 110
//! columns they stay under the inputs, as on a projector.

use crossterm::event::KeyCode;
use ratatui::layout::Rect;
use tooldojo::content::lessons::{BlockKind, BlockSpec};
use tooldojo::tui::app::Options;
use tooldojo::tui::blocks::playground::ValidatorPlayground;
use tooldojo::tui::screens;
use tooldojo::tui::theme::ThemeName;

use crate::blocks_support::{self, ch, key};
use crate::tui_common::{env, lessons, options, press, screen};

fn app(name: &str, keys: &str) -> String {
    app_at(name, keys, (160, 45), options(ThemeName::Default, false))
}

fn app_at(name: &str, keys: &str, (w, h): (u16, u16), opts: Options) -> String {
    let mut app = screens::build(name, opts, env(), Ok(lessons()), Rect::new(0, 0, w, h)).unwrap();
    // Drawn once before the keys, as the app is: a playground measures its rows in the
    // marks it was last drawn in.
    let _ = screen(&app);
    let _ = press(&mut app, keys);
    screen(&app)
}

/// The keys that open the validator playground on its arguments and switch off rule `n`.
fn rule_off(n: usize) -> String {
    format!("<Enter><Tab>{} ", "<Down>".repeat(n))
}

/// The ids of the fixture rows that flip when rule `n` of the validator playground on the
/// weather schema is off.
fn flipping_ids(n: usize) -> Vec<String> {
    let b = blocks_support::block(
        BlockKind::Playground,
        &[("mode", "validator"), ("schema", "weather")],
        "",
        BlockSpec::None,
    );
    let mut pg = ValidatorPlayground::from_block(&b, &blocks_support::env()).unwrap();
    blocks_support::press(&mut pg, &[key(KeyCode::Tab)]);
    for _ in 0..n {
        blocks_support::press(&mut pg, &[key(KeyCode::Down)]);
    }
    blocks_support::press(&mut pg, &[ch(' ')]);
    pg.flips().iter().map(|f| f.id.clone()).collect()
}

/// `id` shows on a line of `text` as a word of its own (a border beside it too).
fn shows(text: &str, id: &str) -> bool {
    text.lines().any(|l| {
        l.split(|c: char| c.is_whitespace() || c == '│')
            .any(|w| w == id)
    })
}

/// Rows of the editor boxes in `text` that show no text: a box's left border followed by
/// blanks up to its right border.
fn empty_editor_rows(text: &str) -> usize {
    text.lines()
        .filter_map(|l| l.split_once("││").map(|(_, rest)| rest))
        .filter(|rest| {
            rest.split_once('│')
                .is_some_and(|(inside, _)| inside.trim().is_empty())
        })
        .count()
}

/// The column where `what` starts on the row that holds it.
fn column_of(text: &str, what: &str) -> usize {
    let line = text
        .lines()
        .find(|l| l.contains(what))
        .unwrap_or_else(|| panic!("{what}:\n{text}"));
    line[..line.find(what).unwrap()].chars().count()
}

/// Rows of the editor box titled `title` in `text` that show no text.
fn empty_rows_in(text: &str, title: &str) -> usize {
    let lines: Vec<&str> = text.lines().collect();
    let top = lines.iter().position(|l| l.contains(title)).unwrap();
    let col = column_of(text, title) - 1;
    lines[top + 1..]
        .iter()
        .map(|l| l.chars().skip(col).collect::<String>())
        .map_while(|l| l.strip_prefix("││").map(str::to_owned))
        .filter(|inside| {
            inside
                .split('│')
                .next()
                .is_some_and(|s| s.trim().is_empty())
        })
        .count()
}

#[test]
fn the_tools_playground_puts_the_rules_and_flips_beside_the_arguments() {
    let text = app("tools:playground", "<Tab><Down><Down> ");
    let rules = column_of(&text, "Rules (Space");
    let flips = column_of(&text, "Without the type check");
    let editor = column_of(&text, "╭ arguments");
    assert!(
        rules > editor + 40 && flips == rules,
        "a column beside:\n{text}"
    );
    let row_of = |what: &str| text.lines().position(|l| l.contains(what)).unwrap();
    assert!(
        row_of("Rules (Space") <= row_of("╭ arguments") + 1,
        "from the top:\n{text}"
    );
    insta::assert_snapshot!("tools_playground_rule_off_160x45", text);
}

#[test]
fn at_120x35_the_tools_playground_gives_its_rows_to_the_flips_not_to_empty_editor_rows() {
    // The value constraints off: 13 trap rows with long messages, more than fits.
    let keys = "<Tab><Down><Down><Down><Down> ";
    let text = app_at(
        "tools:playground",
        keys,
        (120, 35),
        options(ThemeName::Default, false),
    );
    assert!(
        empty_rows_in(&text, "╭ arguments") <= 2,
        "a few rows to type into:\n{text}"
    );
    assert!(text.contains("more lines below: PgDn"), "{text}");
    assert!(text.contains("PgUp/PgDn rows that flip"), "{text}");
    let rules = column_of(&text, "Rules (Space");
    assert!(rules > column_of(&text, "╭ arguments") + 40, "{text}");
    let mut app = screens::build(
        "tools:playground",
        options(ThemeName::Default, false),
        env(),
        Ok(lessons()),
        Rect::new(0, 0, 120, 35),
    )
    .unwrap();
    let _ = press(&mut app, keys);
    let mut last = screen(&app);
    for _ in 0..8 {
        let _ = press(&mut app, "<PgDn>");
        last = screen(&app);
    }
    assert!(
        last.contains("lines above: PgUp") && !last.contains("more lines below"),
        "paged to the last row:\n{last}"
    );
    assert!(last.contains("╭ arguments"), "the editor stays:\n{last}");
}

#[test]
fn with_no_rule_off_the_side_column_says_what_each_rule_checks() {
    for name in ["playground:validator", "tools:playground"] {
        let text = app(name, "");
        assert!(text.contains("What each rule checks"), "{text}");
        let words = column_of(&text, "What each rule checks");
        assert_eq!(words, column_of(&text, "Rules (Space"), "{text}");
        for w in ["Every required name is present", "isinstance(True, int)"] {
            assert!(text.contains(w), "{w}:\n{text}");
        }
    }
    // With a rule off and its rows filling the column, the words give way.
    let text = app("playground:validator", &rule_off(4));
    assert!(!text.contains("What each rule checks"), "{text}");
}

#[test]
fn at_120x35_what_each_rule_checks_goes_on_under_the_executor_verdict() {
    // The side column holds five of the six rules' words under the switches; the sixth
    // goes on under the verdict, where the rows stood blank.
    let text = app_at(
        "playground:executor",
        "",
        (120, 35),
        options(ThemeName::Default, false),
    );
    let row_of = |what: &str| text.lines().position(|l| l.contains(what)).unwrap();
    let more = "What each rule checks, continued:";
    assert_eq!(
        column_of(&text, more),
        column_of(&text, "╭ arguments"),
        "in the left column:\n{text}"
    );
    assert!(
        row_of(more) > row_of("✓ store intact"),
        "under the verdict:\n{text}"
    );
    for words in [
        "Only registered tool names run.",
        "The arguments hold exactly the declared fields.",
        "ticket_id is a string, TKT- and three ASCII",
        "The trusted context must allow reading.",
        "Tickets are looked up by tenant and id.",
        "The caller gets a copy.",
    ] {
        assert!(text.contains(words), "{words}:\n{text}");
    }
}

#[test]
fn the_validator_playground_puts_the_rules_and_flips_beside_the_editors() {
    let text = app("playground:validator", &rule_off(2));
    let row_of = |what: &str| text.lines().position(|l| l.contains(what)).unwrap();
    let rules = column_of(&text, "Rules (Space");
    let flips = column_of(&text, "Without the type check");
    let editor = column_of(&text, "╭ arguments");
    assert!(
        rules > editor + 40 && flips == rules,
        "a column beside:\n{text}"
    );
    assert!(
        row_of("Rules (Space") < row_of("╭ schema")
            && row_of("Without the type") < row_of("✗ rejected  {"),
        "from the top, beside the editors:\n{text}"
    );
    insta::assert_snapshot!("validator_playground_rule_off_160x45", text);
}

#[test]
fn at_160x45_no_row_that_flips_is_cut_while_the_editors_show_empty_rows() {
    // Lesson 3's case: the type check off, 24 rows flip, the arguments hold one line.
    let text = app("playground:validator", &rule_off(2));
    let ids = flipping_ids(2);
    assert_eq!(ids.len(), 24, "{ids:?}");
    assert!(
        empty_editor_rows(&text) > 0,
        "the editors keep room to type:\n{text}"
    );
    for id in &ids {
        assert!(shows(&text, id), "{id} is not cut:\n{text}");
    }
    assert!(
        !text.contains("more lines below"),
        "nothing is cut:\n{text}"
    );
}

#[test]
fn rows_that_do_not_fit_the_side_column_say_so_and_scroll() {
    // The value constraints off: 25 rows with long messages, more than 160x45 shows.
    let n = 4;
    let ids = flipping_ids(n);
    let mut app = screens::build(
        "playground:validator",
        options(ThemeName::Default, false),
        env(),
        Ok(lessons()),
        Rect::new(0, 0, 160, 45),
    )
    .unwrap();
    let _ = press(&mut app, &rule_off(n));
    let first = screen(&app);
    assert!(first.contains("more lines below: PgDn"), "{first}");
    assert!(
        first.contains("PgUp/PgDn rows that flip"),
        "the key bar says so:\n{first}"
    );
    let mut seen = first.clone();
    let mut text = first;
    for _ in 0..6 {
        let _ = press(&mut app, "<PgDn>");
        text = screen(&app);
        seen.push_str(&text);
    }
    assert!(
        text.contains("lines above: PgUp") && !text.contains("below"),
        "{text}"
    );
    for id in &ids {
        assert!(shows(&seen, id), "{id} is reached by paging:\n{text}");
    }
    // The editors stay where they were: only the rows moved.
    assert!(text.contains("╭ arguments"), "{text}");
}

#[test]
fn at_160x45_rows_the_side_column_cannot_hold_go_on_under_the_verdict() {
    // The value constraints off: 25 rows with long messages, more than the side column
    // holds; the room under the verdict takes the next ones instead of staying blank.
    let text = app("playground:validator", &rule_off(4));
    let row_of = |what: &str| text.lines().position(|l| l.contains(what)).unwrap();
    let more = "Without the value constraints, continued:";
    assert_eq!(
        column_of(&text, more),
        column_of(&text, "╭ arguments"),
        "in the left column:\n{text}"
    );
    assert!(
        row_of(more) > row_of("✗ rejected  {"),
        "under the verdict:\n{text}"
    );
    let ids = flipping_ids(4);
    let shown = ids.iter().filter(|id| shows(&text, id)).count();
    assert!(shown >= 18, "{shown} of {} rows show:\n{text}", ids.len());
    insta::assert_snapshot!("validator_playground_value_constraints_off_160x45", text);
    // The Your tools playground shows its 13 rows whole that way.
    let tools = app("tools:playground", "<Tab><Down><Down><Down><Down> ");
    assert!(tools.contains("13 of 36 trap rows flip"), "{tools}");
    assert!(tools.contains(more), "{tools}");
    assert!(!tools.contains("more lines below"), "{tools}");
}

#[test]
fn under_110_columns_the_rules_stay_under_the_inputs() {
    let text = app_at(
        "playground:validator",
        &rule_off(2),
        (80, 24),
        options(ThemeName::Default, false),
    );
    let row_of = |what: &str| text.lines().position(|l| l.contains(what)).unwrap();
    assert!(row_of("Rules (Space") > row_of("╭ arguments"), "{text}");
    assert!(shows(&text, "seed-type"), "{text}");
    insta::assert_snapshot!("validator_playground_rule_off_80x24", text);
    let ascii = app_at(
        "playground:validator",
        &rule_off(2),
        (80, 24),
        options(ThemeName::Projector, true),
    );
    assert!(ascii.is_ascii(), "{ascii}");
    insta::assert_snapshot!("validator_playground_rule_off_80x24_projector_ascii", ascii);
}

#[test]
fn at_80x24_in_ascii_the_verdict_and_every_switch_under_it_show_whole() {
    // The copy on return off: the checks line takes two lines in ASCII marks ("->" for
    // an arrow), one in Unicode; the switch just turned off stays in view under it.
    let keys = format!("<Enter><Tab>{} ", "<Down>".repeat(5));
    let text = app_at(
        "playground:executor",
        &keys,
        (80, 24),
        options(ThemeName::Default, true),
    );
    assert!(text.is_ascii(), "{text}");
    for words in [
        "OK lookup (no copy)",
        "FAIL store changed",
        "> [off] copy on return",
        "-> OK ok, store changed (alpha's own)",
    ] {
        assert!(text.contains(words), "{words}:\n{text}");
    }
    insta::assert_snapshot!("executor_playground_copy_on_return_off_80x24_ascii", text);
    // Drawn in ASCII for the first time (as `render --ascii` draws): the verdict that
    // takes a line more than measured still leaves every switch whole.
    let mut opts = options(ThemeName::Projector, true);
    opts.present = true;
    let mut app = screens::build(
        "playground:executor",
        opts,
        env(),
        Ok(lessons()),
        Rect::new(0, 0, 80, 24),
    )
    .unwrap();
    let _ = press(&mut app, "<PgDn><PgDn><PgDn>");
    let first = screen(&app);
    for words in ["OK lookup", "[on] copy on return", "end of page"] {
        assert!(first.contains(words), "{words}:\n{first}");
    }
}

#[test]
fn the_tools_playground_at_80x24_in_ascii_shows_its_verdict_and_every_switch_whole() {
    // per_page 0 fails the value check, and the required check is off: the checks line
    // ends "FAIL value FIRED" on a line of its own in ASCII marks, on one line in Unicode.
    let keys = "<Enter><Up><Up><Up> \"per_page\": 0,<Esc><Tab> ";
    let text = app_at(
        "tools:playground",
        keys,
        (80, 24),
        options(ThemeName::Default, true),
    );
    assert!(text.is_ascii(), "{text}");
    for words in [
        "at per_page (marked in the arguments)",
        "FAIL value FIRED",
        "> [off] required check",
        "[on] value constraints",
    ] {
        assert!(text.contains(words), "{words}:\n{text}");
    }
    insta::assert_snapshot!(
        "tools_playground_value_error_required_off_80x24_ascii",
        text
    );
    // Drawn in ASCII for the first time (as `render --ascii` draws), on a projector: the
    // verdict and the switches still show whole.
    let mut opts = options(ThemeName::Projector, true);
    opts.present = true;
    let mut app = screens::build(
        "tools:playground",
        opts,
        env(),
        Ok(lessons()),
        Rect::new(0, 0, 80, 24),
    )
    .unwrap();
    let _ = press(&mut app, keys);
    let first = screen(&app);
    for words in ["FAIL value FIRED", "[on] value constraints"] {
        assert!(first.contains(words), "{words}:\n{first}");
    }
}

#[test]
fn on_a_projector_at_120x35_the_hint_beside_the_inputs_keeps_off_the_border() {
    let mut opts = options(ThemeName::Projector, false);
    opts.present = true;
    let text = app_at("playground:validator", "", (120, 35), opts);
    let lines: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
    // The playground's right border, and the column just inside it.
    let top = lines
        .iter()
        .find(|l| l.iter().collect::<String>().contains("rejected ╮"))
        .unwrap_or_else(|| panic!("{text}"));
    let inside = top.iter().rposition(|&c| c == '╮').unwrap() - 1;
    let at = text
        .lines()
        .position(|l| l.contains("Switch a rule off"))
        .unwrap_or_else(|| panic!("{text}"));
    // Wrapped a column short of the border, as what each rule checks is.
    for line in &lines[at..at + 2] {
        assert_eq!(line[inside], ' ', "{text}");
    }
    assert!(text.contains("why the rule exists."), "{text}");
    insta::assert_snapshot!("validator_playground_120x35_present", text);
}

#[test]
fn the_executor_playground_puts_the_rules_and_flips_beside_its_inputs() {
    // Tenant scoping off: the cross-tenant leak shows beside the envelope.
    let keys = format!("<Enter><Tab>{} ", "<Down>".repeat(4));
    let text = app("playground:executor", &keys);
    let rules = column_of(&text, "Rules (Space");
    let envelope = column_of(&text, "Envelope");
    assert!(rules > envelope, "{text}");
    assert!(text.contains("LEAK, alpha's ticket"), "{text}");
    insta::assert_snapshot!("executor_playground_rule_off_160x45", text);
    let narrow = app_at(
        "playground:executor",
        &keys,
        (80, 24),
        options(ThemeName::Default, false),
    );
    insta::assert_snapshot!("executor_playground_rule_off_80x24", narrow);
}

#[test]
fn at_80x24_the_rule_switched_off_stays_in_view_beside_its_rows() {
    // Lesson 3's page 5: text and a predict table above the playground.
    let content = tooldojo::content::Content::embedded();
    let mut app = screens::build(
        "lesson:03-json-traps",
        options(ThemeName::Default, false),
        env(),
        tooldojo::course::load_lessons(&content),
        Rect::new(0, 0, 80, 24),
    )
    .unwrap();
    let _ = press(&mut app, "nnnn<Tab><Tab>");
    assert!(
        screen(&app).contains("open the playground"),
        "{}",
        screen(&app)
    );
    let _ = press(&mut app, "<Enter><Tab><Down><Down> ");
    let text = screen(&app);
    assert!(
        text.contains("▶ [ ] type check"),
        "the switch just turned off:\n{text}"
    );
    assert!(text.contains("24 of 92 fixture rows flip"), "{text}");
    assert!(shows(&text, "seed-type"), "its first row:\n{text}");
}
