//! What the course walk at 80x24, 120x35 and 160x45 asked of the screens: wide tables
//! keep their cells whole, presenter mode counts every step and scores nothing, the
//! home screen points on and uses the window, Tab never jumps up.

use ratatui::layout::Rect;
use tooldojo::tui::screens;
use tooldojo::tui::theme::ThemeName;

use crate::tui_common::*;

const SIZES: [(u16, u16); 3] = [(80, 24), (120, 35), (160, 45)];

fn drawn(name: &str, w: u16, h: u16) -> String {
    let app = screens::build(
        name,
        options(ThemeName::Default, false),
        env(),
        Ok(lessons()),
        Rect::new(0, 0, w, h),
    )
    .unwrap();
    screen(&app)
}

#[test]
fn wide_predict_tables_keep_the_arguments_whole() {
    for (w, h) in SIZES {
        let text = drawn("predict:validator", w, h);
        for args in [
            r#"{"city": "Paris", "days": true}"#,
            r#"{"city": "Paris", "days": 1e2}"#,
        ] {
            assert!(text.contains(args), "{w}x{h}: {args} whole:\n{text}");
        }
        if w > 80 {
            // Rows further down, in view at the wider sizes.
            for args in [
                r#"{"query": "crash", "page_size": true}"#,
                r#"{"query": "crash", "page_size": 99999999}"#,
            ] {
                assert!(text.contains(args), "{w}x{h}: {args} whole:\n{text}");
            }
        }
        let calls = drawn("predict:get_ticket", w, h);
        if w > 80 {
            assert!(
                calls.contains("TKT-104, then edit the result")
                    && calls.contains("TKT-108 (long description)"),
                "{w}x{h}:\n{calls}"
            );
        }
    }
}
