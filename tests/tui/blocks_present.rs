//! Blocks in presenter mode (`--present`): a predict table asks the room nothing, it only
//! shows rows and, row by row, the real verdicts.

use tooldojo::course::progress::Progress;
use tooldojo::tui::app::Focus;

use crate::stage_app::app_with;
use crate::tui_common::{press, screen};

#[test]
fn a_presenter_table_shows_rows_and_verdicts_and_asks_for_no_prediction() {
    let mut app = app_with(Progress::default(), Some("01-reading"), false, true);
    let _ = press(&mut app, "  ");
    assert_eq!(app.focus(), Focus::Block(0), "the table appears, focused");
    let text = screen(&app);
    assert!(
        text.contains("Row 1:") && text.contains("call "),
        "the row: {text}"
    );
    for asked in ["( ) 1", "predict ", "Pick an outcome", "predict the table"] {
        assert!(!text.contains(asked), "{asked:?}:\n{text}");
    }
    assert!(
        text.contains("Space shows the next row's real verdict"),
        "{text}"
    );
    // Entered, the table moves between rows; a number picks nothing, Space shows a verdict.
    let _ = press(&mut app, "<Enter>");
    let bar = screen(&app);
    assert!(bar.contains("Space next verdict"), "{bar}");
    assert!(!bar.contains("pick") && !bar.contains("lock"), "{bar}");
    let _ = press(&mut app, "1<Left>");
    let text = screen(&app);
    assert!(!text.contains("(●)") && !text.contains("( )"), "{text}");
    let _ = press(&mut app, " ");
    let text = screen(&app);
    assert!(
        text.contains("shown    the real executor returned"),
        "{text}"
    );
    assert!(text.contains("1 of 3 rows shown"), "{text}");
    assert!(
        !text.contains("Pick an outcome") && !text.contains("score"),
        "{text}"
    );
}

#[test]
fn out_of_presenter_mode_the_table_still_asks_for_a_prediction() {
    let mut app = app_with(Progress::default(), Some("01-reading"), false, false);
    let _ = press(&mut app, "<Tab>");
    let text = screen(&app);
    assert!(text.contains("Enter predict the table"), "{text}");
    let _ = press(&mut app, "<Enter>");
    let text = screen(&app);
    assert!(
        text.contains("( ) 1") && text.contains("Pick an outcome"),
        "{text}"
    );
    let _ = press(&mut app, "1");
    assert!(screen(&app).contains("Enter locks your prediction."));
}
