//! The drill inside the app: `R` opens it, questions due for review come back in it, a
//! finished drill lands in the progress (cards and trend), and leaving it returns to the
//! lessons.

use ratatui::layout::Rect;
use tooldojo::content::Content;
use tooldojo::course::progress::Progress;
use tooldojo::course::rehearsal::{DrillConfig, Mix, Sitting};
use tooldojo::course::review;
use tooldojo::tui::app::{App, Update};
use tooldojo::tui::theme::ThemeName;

use crate::tui_common::{env, options, press, screen};

fn real_app(progress: Progress) -> App {
    let lessons = tooldojo::course::load_lessons(&Content::embedded()).expect("shipped lessons");
    App::new(
        options(ThemeName::Default, false),
        env(),
        Ok(lessons),
        progress,
        Rect::new(0, 0, 100, 30),
    )
}

fn short(day: review::Day) -> DrillConfig {
    DrillConfig {
        day,
        fixed_clock: Some(0),
        mix: Mix {
            predict: 2,
            explain: 0,
            write: false,
        },
        ..DrillConfig::new(5, 2)
    }
}

#[test]
fn r_opens_the_drill_and_esc_on_the_scorecard_goes_back() {
    let mut app = real_app(Progress::default());
    press(&mut app, "R");
    assert!(app.drill().is_some());
    assert!(screen(&app).contains("Rehearsal Q1 of"), "{}", screen(&app));
    app.drill_play_through();
    assert!(screen(&app).contains("Rehearsal scorecard"));
    assert_eq!(press(&mut app, "<Esc>"), vec![Update::Redraw]);
    assert!(app.drill().is_none());
}

#[test]
fn a_missed_row_comes_back_in_the_next_drill_on_its_day() {
    let mut app = real_app(Progress::default());
    app.start_drill(short(100));
    // Answer both rows with a choice that is wrong for each.
    for _ in 0..2 {
        let d = app.drill().unwrap();
        let tooldojo::course::rehearsal::Question::Predict(p) = &d.questions()[d.current()] else {
            panic!("a prediction");
        };
        let wrong = p.choices.iter().position(|c| *c != p.answer).unwrap();
        // A number picks, Enter answers (the outcome shows), Enter goes on.
        let ups = press(&mut app, &format!("{}<Enter><Enter>", wrong + 1));
        if d_is_over(&app) {
            assert!(ups.contains(&Update::Save), "a finished drill is saved");
        }
    }
    let missed: Vec<String> = app
        .drill()
        .unwrap()
        .questions()
        .iter()
        .map(|q| q.id().to_owned())
        .collect();
    let progress = app.progress_snapshot();
    assert_eq!(progress.rehearsal.due_on(101), {
        let mut m = missed.clone();
        m.sort();
        m
    });
    assert_eq!(progress.rehearsal.trend(), vec![0]);
    // Another seed, the next day: both missed rows are asked again (due rows take up to
    // half of a drill's predictions).
    let mut again = real_app(progress);
    let mut cfg = short(101);
    cfg.seed = 999;
    cfg.mix.predict = 4;
    again.start_drill(cfg);
    let asked: Vec<String> = again
        .drill()
        .unwrap()
        .questions()
        .iter()
        .map(|q| q.id().to_owned())
        .collect();
    for id in &missed {
        assert!(asked.contains(id), "{id} not asked again: {asked:?}");
    }
}

fn d_is_over(app: &App) -> bool {
    app.drill().is_some_and(|d| !d.running())
}

#[test]
fn the_home_screen_shows_what_is_due_and_the_trend_and_r_starts_a_drill() {
    let mut progress = Progress::default();
    let today = review::today();
    progress
        .rehearsal
        .answer("validator/seed-bool", false, today - 1);
    progress.rehearsal.finish(review::DrillRecord {
        day: today - 1,
        seed: 1,
        asked: 4,
        points: 250,
    });
    let lessons = tooldojo::course::load_lessons(&Content::embedded()).expect("shipped lessons");
    let mut opts = options(ThemeName::Default, false);
    opts.home = true;
    let mut app = App::new(opts, env(), Ok(lessons), progress, Rect::new(0, 0, 120, 35));
    let home = screen(&app);
    assert!(
        home.contains("1 due today: R starts a drill that asks them"),
        "{home}"
    );
    assert!(home.contains("last drill 62%"), "{home}");
    // Two drills read oldest first, joined by an arrow.
    let mut progress = app.progress().clone();
    progress.rehearsal.finish(review::DrillRecord {
        day: today,
        seed: 2,
        asked: 4,
        points: 0,
    });
    let lessons = tooldojo::course::load_lessons(&Content::embedded()).expect("shipped lessons");
    let mut opts = options(ThemeName::Default, false);
    opts.home = true;
    let two = App::new(opts, env(), Ok(lessons), progress, Rect::new(0, 0, 120, 35));
    assert!(screen(&two).contains("drills 62% → 0%"), "{}", screen(&two));
    press(&mut app, "R");
    assert!(app.drill().is_some());
}

#[test]
fn leaving_a_running_drill_opened_with_r_goes_back_to_the_lesson() {
    let mut app = real_app(Progress::default());
    let before = screen(&app);
    for keys in ["R<Esc>y", "Rqq"] {
        press(&mut app, "R");
        assert!(app.drill().is_some());
        let ups = press(&mut app, &keys[1..]);
        assert!(!ups.contains(&Update::Quit), "{keys}: {ups:?}");
        assert!(app.drill().is_none(), "{keys}: {}", screen(&app));
        assert_eq!(screen(&app), before, "{keys}: back on the lesson page");
    }
}
