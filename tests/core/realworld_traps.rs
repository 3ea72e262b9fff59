//! The trap report on every real declaration under `../shared/realworld/tools/`:
//! - every trap the report calls "let through" is accepted, and every "rejected" one
//!   rejected, by a validator compiled here afresh from the declaration as written;
//! - every fix the report offers, applied to a copy of the declaration, makes the validator
//!   reject that trap while the valid arguments it changed still pass.
//!
//! ```text
//! cargo test --release --test core realworld_traps -- --nocapture   # prints the numbers
//! ```

use std::collections::BTreeMap;

use super::shared;
use tooldojo::tools::ToolSet;
use tooldojo::tools::traps::{self, apply_fixes};
use tooldojo::validate::{Validator, ValidatorRules};

#[test]
fn every_real_trap_verdict_and_fix_holds() {
    let Some(dir) = shared::shared("realworld/tools") else {
        return;
    };
    let rules = ValidatorRules::ALL_ON;
    let (mut decls, mut total, mut through, mut fixed, mut noted, mut unjudged) =
        (0, 0, 0, 0, 0, 0);
    let mut by_kind: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for path in shared::json_files(&dir) {
        let rel = path.strip_prefix(&dir).unwrap().display().to_string();
        let set = ToolSet::read(&path, None).unwrap();
        for tool in &set.tools {
            let fresh = Validator::options()
                .form(Some(tool.format.form()))
                .compile_value(&tool.declaration)
                .unwrap_or_else(|e| panic!("{rel} {}: {e}", tool.name));
            let report = traps::report(tool);
            decls += 1;
            noted += usize::from(report.note.is_some());
            unjudged += report.unjudged.len();
            for t in &report.traps {
                let accepted = fresh.is_valid(&t.args, &rules);
                assert_eq!(
                    accepted, t.ok,
                    "{rel} {}: {} at {}: {}",
                    tool.name, t.label, t.path, t.args
                );
                let e = by_kind.entry(t.kind.name()).or_default();
                e.0 += 1;
                total += 1;
                if !t.ok {
                    continue;
                }
                e.1 += 1;
                through += 1;
                let Some(fix) = &t.fix else { continue };
                let copy = apply_fixes(&tool.declaration, tool.format.form(), &[fix]);
                let v = Validator::options()
                    .form(Some(tool.format.form()))
                    .compile_value(&copy)
                    .unwrap_or_else(|e| {
                        panic!("{rel} {}: {} makes it refused: {e}", tool.name, fix.text())
                    });
                assert!(
                    !v.is_valid(&t.args, &rules),
                    "{rel} {}: {} still lets {} through",
                    tool.name,
                    fix.text(),
                    t.label
                );
                assert!(
                    v.is_valid(&t.control, &rules),
                    "{rel} {}: {} rejects the valid {}",
                    tool.name,
                    fix.text(),
                    t.control
                );
                fixed += 1;
            }
        }
    }
    eprintln!(
        "{decls} declarations, {total} traps, {through} let through ({fixed} with a fix), {noted} without valid arguments, {unjudged} fields not judged"
    );
    for (k, (n, t)) in &by_kind {
        eprintln!("  {k:<20} {n:>6} tried, {t:>6} let through");
    }
    assert!(decls > 4000);
}
