//! Deliberate faults for the app's own tests: with `TOOLDOJO_TEST_PANIC=draw` the app panics
//! while drawing its first frame, with `TOOLDOJO_TEST_PANIC=task` a background task panics.
//! The tests check that the terminal is given back either way. Nothing else reads this
//! variable; it is for tests only.

/// The variable the fault tests set.
pub(super) const TEST_PANIC_ENV: &str = "TOOLDOJO_TEST_PANIC";

/// Read once: the check sits on the drawing path.
fn asked_for(place: &str) -> bool {
    static ASKED: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    ASKED
        .get_or_init(|| std::env::var(TEST_PANIC_ENV).ok())
        .as_deref()
        == Some(place)
}

/// Panic inside the draw callback when the tests ask for it.
pub(crate) fn panic_in_draw_if_asked() {
    if asked_for("draw") {
        panic!("test fault: a panic while drawing ({TEST_PANIC_ENV}=draw)");
    }
}

/// Start a background task that panics when the tests ask for it.
pub(crate) fn panic_in_task_if_asked() {
    if asked_for("task") {
        tokio::spawn(async {
            tokio::time::sleep(std::time::Duration::from_millis(300)).await;
            panic!("test fault: a panic in a background task ({TEST_PANIC_ENV}=task)");
        });
    }
}
