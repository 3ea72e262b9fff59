//! Interactive lesson blocks (`predict`, `playground`, `trace`, `quiz`, `explain`,
//! `checklist`) as self-contained components. The lesson reader owns a `Box<dyn BlockWidget>`
//! per block on the page, draws each into its slot, and routes keys to the focused one.

pub mod checklist;
pub mod common;
pub mod editor;
pub mod explain;
pub mod list;
mod overlap;
pub mod panels;
pub mod playground;
pub mod predict;
pub mod quiz;
pub mod trace;
mod widget;

pub use crate::course::BlockEnv;
pub use widget::{BlockOutcome, BlockWidget, KeyHint, Pasted, RenderCtx};

/// Build the widget for one lesson block. An error string is shown in place of the block
/// (and reported by `tooldojo check`) instead of a panic.
pub fn build(
    block: &crate::content::lessons::Block,
    env: &BlockEnv,
) -> Result<Box<dyn BlockWidget>, String> {
    use crate::content::lessons::{BlockKind, BlockSpec};
    let at = |e: String| format!("line {}: {e}", block.line);
    match (&block.kind, &block.spec) {
        (BlockKind::Predict, _) => predict::PredictWidget::from_block(block, env)
            .map(|w| Box::new(w) as Box<dyn BlockWidget>)
            .map_err(at),
        (BlockKind::Playground, _) => match block.option("mode") {
            Some("validator") => playground::ValidatorPlayground::from_block(block, env)
                .map(|w| Box::new(w) as Box<dyn BlockWidget>)
                .map_err(at),
            Some("executor") => playground::ExecutorPlayground::from_block(block, env)
                .map(|w| Box::new(w) as Box<dyn BlockWidget>)
                .map_err(at),
            Some(other) => Err(at(format!(
                "playground: unknown mode {other:?} (validator or executor)"
            ))),
            None => Err(at(
                "playground needs mode=validator or mode=executor".to_owned()
            )),
        },
        (BlockKind::Trace, _) => trace::TraceWidget::from_block(block, env)
            .map(|w| Box::new(w) as Box<dyn BlockWidget>)
            .map_err(at),
        (BlockKind::Quiz, BlockSpec::Quiz(q)) => quiz::QuizWidget::new(q)
            .map(|w| Box::new(w) as Box<dyn BlockWidget>)
            .map_err(at),
        (BlockKind::Explain, BlockSpec::Explain(x)) => explain::ExplainWidget::new(x)
            .map(|w| Box::new(w) as Box<dyn BlockWidget>)
            .map_err(at),
        (BlockKind::Checklist, BlockSpec::Checklist(c)) => checklist::ChecklistWidget::new(c)
            .map(|w| Box::new(w) as Box<dyn BlockWidget>)
            .map_err(at),
        (kind, _) => Err(at(format!("{kind:?} block has no parsed body"))),
    }
}
