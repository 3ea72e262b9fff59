//! What a fix costs in strict mode. A keyword that closes a trap may be one a provider's
//! strict mode does not take (`maxLength` for both, `maximum` for Anthropic): on a
//! declaration that asks for strict mode, or that strict mode would take as written, such a
//! fix is marked with the providers it costs and what to do instead (send the provider a
//! copy without it, and keep the check in the validator's schema or the tool's handler), so
//! it never costs strict mode silently.

use serde_json::Value;

use super::{Fix, TrapReport, apply_fixes};
use crate::tools::load::{Tool, ToolsFormat};
use crate::tools::strict::{self, Provider, Readiness};
use crate::validate::Form;

/// The providers whose strict mode the declaration asks for (`"strict": true`): the one
/// whose shape it is written in; both for an MCP tool, whose protocol has no strict mode of
/// its own.
pub fn asked(tool: &Tool) -> Vec<Provider> {
    if !tool.strict_declared() {
        return Vec::new();
    }
    match tool.format {
        ToolsFormat::OpenaiChat | ToolsFormat::OpenaiResponses => vec![Provider::Openai],
        ToolsFormat::Anthropic => vec![Provider::Anthropic],
        ToolsFormat::Mcp => vec![Provider::Openai, Provider::Anthropic],
    }
}

/// Mark each fix in `report` with the strict modes it would cost `tool`: of the providers
/// the declaration asks for or is ready for, those whose verdict on the fixed schema has a
/// reason the schema as written does not.
pub(super) fn mark(tool: &Tool, report: &mut TrapReport) {
    let Some(schema) = tool.schema() else { return };
    let before = strict::readiness(Some(schema));
    let mut kept = asked(tool);
    for p in [Provider::Openai, Provider::Anthropic] {
        if before.get(p).ok && !kept.contains(&p) {
            kept.push(p);
        }
    }
    if kept.is_empty() {
        return;
    }
    for fix in report.traps.iter_mut().filter_map(|t| t.fix.as_mut()) {
        fix.costs = costs(schema, &before, &kept, fix);
    }
}

fn costs(schema: &Value, before: &Readiness, kept: &[Provider], fix: &Fix) -> Vec<Provider> {
    let fixed = apply_fixes(schema, Form::JsonSchema, &[fix]);
    kept.iter()
        .copied()
        .filter(|&p| {
            let had = &before.get(p).reasons;
            strict::check(&fixed, p)
                .reasons
                .iter()
                .any(|r| !had.contains(r))
        })
        .collect()
}

/// Where else the check of the keyword `key` can live when the provider's copy of the
/// schema goes without it.
pub fn instead(key: &str) -> &'static str {
    match key {
        "maxLength" | "minLength" => "check the string's length in the tool's handler",
        "maxItems" | "minItems" | "uniqueItems" => "check the list's length in the tool's handler",
        "maximum" | "minimum" | "exclusiveMaximum" | "exclusiveMinimum" | "multipleOf" => {
            "check the number's bounds in the tool's handler"
        }
        _ => "check the value in the tool's handler",
    }
}

impl Fix {
    /// What the fix costs in strict mode, in words, when it costs any.
    pub fn cost_text(&self) -> Option<String> {
        let who = match self.costs.as_slice() {
            [] => return None,
            [one] => format!("{}'s", one.label()),
            [first, rest @ ..] => {
                let rest: Vec<String> = rest.iter().map(|p| format!("{}'s", p.label())).collect();
                format!("{}'s and {}", first.label(), rest.join(" and "))
            }
        };
        Some(format!(
            "costs strict mode: \"{}\" is outside {who} strict subset; to keep strict, send \
             the provider a copy without it and keep it in the schema your validator checks, \
             or {}",
            self.key,
            instead(&self.key)
        ))
    }

    /// The cost for `tools --json`: `{"strict": ["openai"], "instead": "..."}` (where else
    /// the check can live), or null.
    pub fn cost_json(&self) -> Value {
        if self.costs.is_empty() {
            return Value::Null;
        }
        serde_json::json!({"strict": self.costs, "instead": instead(&self.key)})
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::tools::ToolSet;
    use crate::tools::strict::Provider;

    /// The costs of the fixes of the one declaration `decl`, by the keyword they add.
    fn costs(decl: serde_json::Value) -> Vec<(String, Vec<Provider>)> {
        let set = ToolSet::from_value(&json!([decl]), None).unwrap();
        let report = crate::tools::traps::report(&set.tools[0]);
        report
            .traps
            .iter()
            .filter_map(|t| t.fix.as_ref())
            .map(|f| (f.key.clone(), f.costs.clone()))
            .collect()
    }

    fn strict_ready(strict: bool) -> serde_json::Value {
        json!({"type": "function", "name": "final_result", "strict": strict, "parameters": {
            "type": "object", "additionalProperties": false, "required": ["city", "n"],
            "properties": {"city": {"type": "string"}, "n": {"type": "integer"}}}})
    }

    #[test]
    fn a_fix_outside_the_strict_subset_says_which_strict_modes_it_costs() {
        for strict in [true, false] {
            let c = costs(strict_ready(strict));
            let of = |k: &str| c.iter().find(|(key, _)| key == k).map(|(_, p)| p.clone());
            // Ready for both as written: a maxLength costs both, a maximum Anthropic's.
            assert_eq!(
                of("maxLength"),
                Some(vec![Provider::Openai, Provider::Anthropic]),
                "{c:?}"
            );
            assert_eq!(of("maximum"), Some(vec![Provider::Anthropic]), "{c:?}");
        }
    }

    #[test]
    fn a_declaration_neither_ready_nor_asking_loses_nothing() {
        let c = costs(json!({"name": "f", "input_schema": {"type": "object",
            "properties": {"city": {"type": "string"}}}}));
        assert!(!c.is_empty());
        assert!(c.iter().all(|(_, p)| p.is_empty()), "{c:?}");
    }

    #[test]
    fn a_declaration_that_asks_for_strict_is_told_even_when_not_ready() {
        // OpenAI strict is asked for, but an optional member keeps it from being ready:
        // the maxLength would still add a reason of its own.
        let c = costs(
            json!({"type": "function", "name": "f", "strict": true, "parameters": {
            "type": "object", "additionalProperties": false,
            "properties": {"city": {"type": "string"}}}}),
        );
        let max = c.iter().find(|(k, _)| k == "maxLength").unwrap();
        assert!(max.1.contains(&Provider::Openai), "{c:?}");
    }
}
