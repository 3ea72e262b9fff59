//! The drill's transcript in Markdown: the setup, every question with what the learner
//! gave, what the real code (or the model answer) says, the time and the score, the
//! grader's report for the write-it round, and the scorecard.

use std::fmt::Write;

use super::Sitting;
use super::questions::Question;
use super::score::{Given, clock, seconds};

/// The whole transcript.
pub fn markdown(d: &dyn Sitting) -> String {
    let cfg = d.config();
    let card = d.scorecard();
    let mut out = String::new();
    let _ = writeln!(out, "# tooldojo rehearsal, seed {}\n", cfg.seed);
    let _ = writeln!(
        out,
        "- Clock: {}, {} used\n- Mode: {}\n- Repeat it: `tooldojo rehearse --seed {} --minutes {}{}`\n",
        minutes(cfg.minutes),
        clock(d.elapsed_ms()),
        if cfg.interviewer {
            "interviewer (answers hidden until revealed; the interviewer scored)"
        } else {
            "solo (self-scored)"
        },
        cfg.seed,
        cfg.minutes,
        if cfg.lang.is_js() { " --lang js" } else { "" }
    );
    let _ = writeln!(out, "## Scorecard\n");
    let _ = writeln!(out, "- Accuracy: {}", card.headline());
    if d.time_up() {
        let _ = writeln!(out, "- Time's up: the {}-minute clock ran out", cfg.minutes);
    }
    let _ = writeln!(out, "- Time per answered question: {}", card.mean_words());
    for (title, list) in [("Slowest", &card.slowest), ("Missed", &card.missed)] {
        let _ = writeln!(out, "- {title}:");
        if list.is_empty() {
            let _ = writeln!(out, "  - none");
        }
        for &i in list.iter() {
            let _ = writeln!(out, "  - {}", link_line(d, i));
        }
    }
    if !card.not_reached.is_empty() {
        let _ = writeln!(
            out,
            "- Not reached (never shown, so not missed): {}",
            card.not_reached_list()
        );
    }
    out.push('\n');
    for (i, q) in d.questions().iter().enumerate() {
        question(&mut out, d, i, q);
    }
    out
}

/// `1 minute`, `10 minutes`.
fn minutes(n: u32) -> String {
    if n == 1 {
        "1 minute".to_owned()
    } else {
        format!("{n} minutes")
    }
}

/// `Q3 (predict, 12.4 s): lesson 03-json-traps "JSON traps"`.
fn link_line(d: &dyn Sitting, i: usize) -> String {
    let Some(q) = d.questions().get(i) else {
        return String::new();
    };
    let ms = d
        .answers()
        .iter()
        .find(|a| a.index == i)
        .map_or(0, |a| a.ms);
    format!(
        "Q{} ({}, {}): revisit lesson `{}` ({})",
        i + 1,
        q.kind(),
        seconds(ms),
        q.lesson(),
        d.title_of(q.lesson())
    )
}

/// Text inside a Markdown code span or fence stays as written; elsewhere, one line.
fn fence(out: &mut String, text: &str) {
    let _ = writeln!(out, "```text\n{}\n```", text.replace("```", "'''"));
}

fn question(out: &mut String, d: &dyn Sitting, i: usize, q: &Question) {
    let _ = writeln!(out, "## Q{}: {} (`{}`)\n", i + 1, q.kind(), q.id());
    let answer = d.answers().iter().find(|a| a.index == i);
    match q {
        Question::Predict(p) => {
            let _ = writeln!(out, "A {} ({} answers).\n", p.source.word(), p.who);
            for (label, text) in &p.prompt {
                let _ = writeln!(out, "- {label}: `{}`", text.replace('`', "'"));
            }
            let _ = writeln!(out, "- choices: {}", p.choices.join(", "));
            let _ = writeln!(out, "- real outcome: **{}**, `{}`", p.answer, p.result);
            if !p.reason.is_empty() {
                let _ = writeln!(out, "- why: {}", p.reason);
            }
            let _ = writeln!(out, "- tests: {}", p.tests);
        }
        Question::Explain(e) => {
            let _ = writeln!(out, "{}\n", e.question);
            if let Some(budget) = e.budget_ms {
                let _ = writeln!(out, "Time to answer in: {}\n", clock(budget));
            }
            let _ = writeln!(out, "Model answer:\n");
            fence(out, &e.model_answer);
        }
        Question::Write { function, .. } => {
            let lang = d.config().lang;
            let _ = writeln!(
                out,
                "Write `{}` in {} in your own editor; the grader runs on every save.",
                function.name(lang.is_js()),
                lang.name()
            );
        }
    }
    out.push('\n');
    match answer {
        Some(a) => {
            given(out, q, &a.given);
            let _ = writeln!(
                out,
                "\n- Time: {}\n- Score: {} of 100 ({})",
                seconds(a.ms),
                a.points,
                a.status()
            );
        }
        None => {
            let _ = writeln!(out, "Not reached.");
        }
    }
    let _ = writeln!(
        out,
        "- Lesson: `{}` ({})\n",
        q.lesson(),
        d.title_of(q.lesson())
    );
}

fn given(out: &mut String, q: &Question, g: &Given) {
    match g {
        Given::Pick(word) => {
            let _ = writeln!(out, "Prediction: **{word}**");
        }
        Given::Words { text, ticked } => {
            let _ = writeln!(out, "Answer in my own words:\n");
            fence(
                out,
                if text.trim().is_empty() {
                    "(none)"
                } else {
                    text
                },
            );
            let _ = writeln!(out, "\nRubric:\n");
            if let Question::Explain(e) = q {
                for (point, hit) in e.points.iter().zip(ticked) {
                    let _ = writeln!(out, "- [{}] {point}", if *hit { "x" } else { " " });
                }
            }
        }
        Given::Written {
            passed,
            total,
            report,
            failing,
        } => {
            let _ = writeln!(out, "Grader: {passed} of {total} rows passed.\n");
            if !failing.is_empty() {
                let lead = format!("Not passed: {} failing rows", failing.len());
                let (heading, rows) = super::score::failing_list(&lead, failing);
                let _ = writeln!(out, "{heading}\n");
                for row in rows {
                    let _ = writeln!(out, "- `{}`", row.replace('`', "'"));
                }
                out.push('\n');
            }
            fence(out, &report.join("\n"));
        }
        Given::Skipped { text } => {
            let _ = writeln!(out, "Skipped.");
            if !text.trim().is_empty() {
                let _ = writeln!(out, "\nWritten, then skipped (it earns no points):\n");
                fence(out, text);
            }
        }
        Given::OutOfTime { text } => {
            let _ = writeln!(
                out,
                "Time's up: the clock ran out while this question was open."
            );
            if !text.trim().is_empty() {
                let _ = writeln!(out, "\nWritten by then (it earns no points):\n");
                fence(out, text);
            }
        }
        Given::NotReached => {
            let _ = writeln!(out, "Not reached: the clock ran out before it.");
        }
    }
}
