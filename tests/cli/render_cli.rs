//! `tooldojo render` as a user runs it: screen names, sizes, themes, errors.

use std::process::{Command, Output};

fn render(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tooldojo"))
        .arg("render")
        .args(args)
        .env(
            "TOOLDOJO_STATE_DIR",
            std::env::temp_dir().join("tooldojo-render-test"),
        )
        .output()
        .expect("binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn list_names_the_required_screens() {
    let out = render(&["--list"]);
    assert!(out.status.success());
    let names = stdout(&out);
    for want in [
        "home",
        "help",
        "predict:get_ticket",
        "predict:validator",
        "playground:validator",
        "playground:executor",
        "rehearse",
        "rehearse:scorecard",
    ] {
        assert!(
            names.lines().any(|l| l == want),
            "{want} missing from:\n{names}"
        );
    }
}

#[test]
fn every_listed_screen_draws_at_every_size() {
    let names = stdout(&render(&["--list"]));
    for name in names.lines() {
        for size in ["80x24", "120x40", "40x12", "1x1"] {
            let out = render(&[name, "--size", size]);
            assert!(
                out.status.success(),
                "{name} at {size}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let (w, h) = size.split_once('x').unwrap();
            let text = stdout(&out);
            assert_eq!(
                text.lines().count(),
                h.parse::<usize>().unwrap(),
                "{name} {size}"
            );
            for line in text.lines() {
                assert!(
                    line.chars().count() <= w.parse::<usize>().unwrap(),
                    "{name} {size}: {line:?}"
                );
            }
        }
    }
}

#[test]
fn ascii_output_is_ascii_in_every_theme() {
    let names = stdout(&render(&["--list"]));
    for name in names.lines() {
        for theme in ["default", "light", "projector", "mono"] {
            let out = render(&[name, "--ascii", "--theme", theme, "--size", "100x30"]);
            assert!(out.status.success());
            let text = stdout(&out);
            assert!(text.is_ascii(), "{name} {theme}:\n{text}");
            assert!(!text.contains('\u{1b}'), "no escape codes");
        }
    }
}

/// A control character in a lesson's title is drawn as a visible stand-in: `␛` normally,
/// its name `<ESC>` with `--ascii` (and a bidi override `�` / `<?>`), so the ASCII frame
/// stays ASCII.
#[test]
fn with_ascii_a_control_in_a_lesson_is_drawn_by_its_ascii_name() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("01-evil.md"),
        "# Evil \u{1b}[31mred\u{202e} title\n\nSome text.\n",
    )
    .unwrap();
    let lessons = dir.path().to_str().unwrap();
    let shown = |ascii: bool| {
        let mut args = vec!["lesson:01-evil", "--lessons", lessons, "--size", "80x24"];
        if ascii {
            args.push("--ascii");
        }
        let out = render(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        stdout(&out)
    };
    let unicode = shown(false);
    assert!(
        unicode.contains("Evil \u{241b}[31mred\u{fffd} title"),
        "{unicode}"
    );
    let ascii = shown(true);
    assert!(ascii.is_ascii(), "{ascii}");
    assert!(ascii.contains("Evil <ESC>[31mred<?> title"), "{ascii}");
}

#[test]
fn unknown_screen_exits_2_and_lists_the_names() {
    let out = render(&["no-such-screen"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no-such-screen") && err.contains("predict:get_ticket"),
        "{err}"
    );
    assert_eq!(render(&["lesson:no-such-lesson"]).status.code(), Some(2));
    assert_eq!(
        render(&["trace:no-such-scenario@10"]).status.code(),
        Some(2)
    );
}

#[test]
fn bad_size_exits_2() {
    for size in ["80", "0x10", "axb", "80x"] {
        let out = render(&["home", "--size", size]);
        assert_eq!(out.status.code(), Some(2), "{size}");
    }
}

#[test]
fn help_screen_lists_keys() {
    let text = stdout(&render(&["help", "--size", "100x30"]));
    for key in ["next page", "quit", "help"] {
        assert!(text.contains(key), "{text}");
    }
}

#[test]
fn the_help_text_names_lessons_that_exist_and_home_draws_the_course() {
    let help = Command::new(env!("CARGO_BIN_EXE_tooldojo"))
        .arg("--help")
        .output()
        .expect("binary runs");
    let help = stdout(&help);
    let names = stdout(&render(&["--list"]));
    let mut named = 0;
    for part in help.split("e.g. ").skip(1) {
        let id: String = part
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
        if id.chars().next().is_some_and(|c| c.is_ascii_digit()) {
            named += 1;
            assert!(
                names.lines().any(|l| l == format!("lesson:{id}")),
                "--help names lesson {id:?}, which does not exist"
            );
        }
    }
    assert!(named > 0, "--help gives an example lesson id:\n{help}");
    let home = stdout(&render(&["home"]));
    assert!(
        home.contains("Course  ") && home.contains(" lessons "),
        "{home}"
    );
    assert!(home.contains("Enter opens"), "{home}");
}

#[test]
fn content_flags_go_before_or_after_the_subcommand_and_app_flags_are_refused_beside_one() {
    let before = crate::support::tooldojo(
        &["--lessons", "tests/data/lessons", "render", "--list"],
        None,
    );
    let after = crate::support::tooldojo(
        &["render", "--lessons", "tests/data/lessons", "--list"],
        None,
    );
    assert!(before.status.success(), "{before:?}");
    assert_eq!(before.stdout, after.stdout);
    let builtin = crate::support::tooldojo(&["render", "--list"], None);
    assert_ne!(before.stdout, builtin.stdout, "the test lessons were read");

    let refused = crate::support::tooldojo(&["--present", "render", "--list"], None);
    assert_eq!(refused.status.code(), Some(2));
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        err.contains("--present") && err.contains("tooldojo render"),
        "{err}"
    );
}

#[test]
fn the_readme_render_section_names_every_listed_screen() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let start = readme.find("\n### render\n").expect("a render section");
    let section = &readme[start + 1..];
    let section = &section[..section[4..].find("\n### ").map_or(section.len(), |e| e + 4)];
    let out = render(&["--list"]);
    for name in stdout(&out).lines() {
        // A family of screens is named once, by its placeholder (`lesson:ID`, `trace:NAME`).
        let want = match name.split_once(':') {
            Some((family @ ("lesson" | "trace" | "trace-block"), _)) => format!("`{family}:"),
            _ => format!("`{name}`"),
        };
        assert!(section.contains(&want), "{name}: {want} in:\n{section}");
    }
}
