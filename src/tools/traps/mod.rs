//! The trap report: the classic mistakes a model makes, applied to one declaration's own
//! schema, each run through the real validator. Nothing here says what the verdict should
//! be: every `ok` is the validator's answer.
//!
//! The arguments start from a baseline the validator accepts (the required members, each
//! with a valid example) and change one thing. A field's traps run only when the same
//! arguments with that field at its valid example pass (the control), so a rejection is the
//! trap's doing. What gets through carries the smallest schema change that would catch it
//! ([`Fix`]), or why there is none.
//!
//! - `kinds.rs`: the trap kinds and the wrong values each one writes for a field;
//! - `fix.rs`: the fix for what gets through, and fixes applied to a copy of a declaration;
//! - `cost.rs`: what a fix costs in strict mode, on a declaration strict mode takes.

pub mod cost;
pub(crate) mod fix;
mod kinds;

use serde_json::{Map, Value};

use super::example::example;
use super::load::Tool;
use super::schema::{self, Field, Seg, View, show_path};
use crate::validate::{Validator, ValidatorRules};

pub use fix::{Fix, apply_fixes};
pub use kinds::TrapKind;

/// One trap, run.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Trap {
    pub kind: TrapKind,
    /// What it is, in words (`required field missing: repo`, `past the maximum (100)`).
    #[serde(rename = "trap")]
    pub label: String,
    /// The field it is about (`filter.since`; empty for the whole arguments).
    pub path: String,
    /// The arguments a model would send.
    pub args: Value,
    /// The schema lets it through (the validator accepts the arguments).
    pub ok: bool,
    /// The validator's message when it rejects them (empty when it lets them through).
    pub error: String,
    /// The path the validator's failure names.
    #[serde(skip)]
    pub error_path: String,
    /// The field's path, step by step.
    #[serde(skip)]
    pub segs: Vec<Seg>,
    /// The valid arguments the trap changes one thing in (the validator accepts them).
    #[serde(skip)]
    pub control: Value,
    /// For what gets through: the smallest schema change that would catch it.
    #[serde(serialize_with = "fix::text_or_null")]
    pub fix: Option<Fix>,
    /// For what gets through with no fix to offer: why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
}

impl Trap {
    /// The trap in words with its field first, unless the words already name it
    /// (`repo: number for a string`, `required field missing: repo`).
    pub fn title(&self) -> String {
        if self.path.is_empty() || self.label.contains(&self.path) {
            self.label.clone()
        } else {
            format!("{}: {}", self.path, self.label)
        }
    }

    /// The arguments as a table shows them: the changed field with the rest as `…`
    /// (`{…, "per_page": 1000000}`, `{…, "flights": [{…, "note": …}]}`), in about `max`
    /// characters. The path to the field is kept whole where it fits; the value is what is
    /// cut, down to `…`.
    pub fn short_args(&self, max: usize) -> String {
        let dump = crate::validate::json::dumps;
        let cut = |s: &str| crate::text::truncate(s, max, "…");
        match self.kind {
            TrapKind::EmptyObject => return "{}".into(),
            TrapKind::MissingRequired if !self.segs.is_empty() => {
                return cut(&format!("{{…}} without {}", self.path));
            }
            _ => {}
        }
        let Some((open, close, value)) = self.around_field() else {
            return cut(&dump(&self.args));
        };
        let frame = crate::text::width(&open) + crate::text::width(&close);
        let value = dump(value);
        let room = max.saturating_sub(frame);
        let shown = if crate::text::width(&value) <= room {
            value
        } else if room >= 3 {
            crate::text::truncate(&value, room, "…")
        } else {
            "…".into()
        };
        cut(&format!("{open}{shown}{close}"))
    }

    /// The text around the changed field in its abbreviated arguments, and its value:
    /// (`{…, "filter": {"note": `, `}}`, the value). `None` for the whole arguments.
    fn around_field(&self) -> Option<(String, String, &Value)> {
        if self.segs.is_empty() {
            return None;
        }
        let (mut open, mut closes) = (String::new(), Vec::new());
        let mut at = &self.args;
        for seg in &self.segs {
            match (seg, at) {
                (Seg::Key(k), Value::Object(m)) => {
                    open.push_str(if m.len() > 1 { "{…, " } else { "{" });
                    open.push_str(&crate::validate::json::dumps(&Value::String(k.clone())));
                    open.push_str(": ");
                    closes.push("}");
                    at = m.get(k)?;
                }
                (Seg::Index(i), Value::Array(items)) => {
                    open.push_str(if *i > 0 { "[…, " } else { "[" });
                    closes.push(if i + 1 < items.len() { ", …]" } else { "]" });
                    at = items.get(*i)?;
                }
                _ => return None,
            }
        }
        closes.reverse();
        Some((open, closes.concat(), at))
    }
}

/// Every trap of one declaration.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TrapReport {
    /// The valid arguments the traps start from (`None`: none could be made).
    pub baseline: Option<Value>,
    pub traps: Vec<Trap>,
    /// Why traps are missing, when some are (no valid arguments, a refused schema).
    pub note: Option<String>,
    /// Fields whose valid example the validator did not accept in place, so their traps
    /// could not be judged fairly and were not run.
    pub unjudged: Vec<String>,
    /// Fields whose `default`, put in valid arguments, fails the field's own schema.
    pub bad_defaults: Vec<BadDefault>,
}

/// A `default` the schema itself rejects.
#[derive(Debug, Clone, PartialEq)]
pub struct BadDefault {
    pub path: String,
    pub value: Value,
    /// The validator's message.
    pub error: String,
}

impl TrapReport {
    /// How many traps get through.
    pub fn through(&self) -> usize {
        self.traps.iter().filter(|t| t.ok).count()
    }
}

/// The traps of `tool`, judged by its validator, each fix marked with the strict modes it
/// would cost the declaration.
pub fn report(tool: &Tool) -> TrapReport {
    let Some(validator) = tool.validator() else {
        return TrapReport {
            note: Some("the validator refuses this declaration, so no trap was run".into()),
            ..TrapReport::default()
        };
    };
    let empty = Value::Object(Map::new());
    let root = tool.schema().unwrap_or(&empty);
    let mut out = Run::new(validator, root, tool.schema().is_none()).report();
    cost::mark(tool, &mut out);
    out
}

/// The traps of any validator and the JSON Schema it was compiled from.
pub fn report_for(validator: &Validator, schema: &Value) -> TrapReport {
    Run::new(validator, schema, false).report()
}

/// One report in the making.
struct Run<'a> {
    validator: &'a Validator,
    root: &'a Value,
    top: View<'a>,
    fields: Vec<Field<'a>>,
    examples: Vec<Option<Value>>,
    /// The declaration has no schema at all (any arguments object).
    schemaless: bool,
    rules: ValidatorRules,
}

impl<'a> Run<'a> {
    fn new(validator: &'a Validator, root: &'a Value, schemaless: bool) -> Run<'a> {
        let top = View::of(root, root, "");
        let fields = schema::fields(root, &top);
        let examples = fields
            .iter()
            .map(|f| example(root, &f.view, f.depth()))
            .collect();
        Run {
            validator,
            root,
            top,
            fields,
            examples,
            schemaless,
            rules: ValidatorRules::ALL_ON,
        }
    }

    fn report(self) -> TrapReport {
        let mut out = TrapReport::default();
        // The arguments are an object, whatever the root's own example would be.
        let baseline = example(self.root, &self.top, 0)
            .filter(Value::is_object)
            .or_else(|| Some(Value::Object(Map::new())));
        let base_err = baseline
            .as_ref()
            .map(|b| self.validator.check(b, &self.rules));
        let Some(baseline) = baseline.filter(|_| matches!(base_err, Some(Ok(())))) else {
            let why = match base_err {
                Some(Err(v)) => format!("the validator rejects them: {}", v.message),
                _ => "the schema asks for what no example here satisfies".into(),
            };
            out.note = Some(format!(
                "no valid arguments could be made ({why}), so only the empty object was tried"
            ));
            self.empty_object(None, &mut out.traps);
            return out;
        };
        self.extra_key(&baseline, &[], &self.top, &mut out.traps);
        for i in 0..self.fields.len() {
            let Some(control) = self.place(&baseline, i, self.examples[i].clone()) else {
                continue;
            };
            if !self.validator.is_valid(&control, &self.rules) {
                out.unjudged.push(show_path(&self.fields[i].path));
                continue;
            }
            self.field_traps(&baseline, &control, i, &mut out.traps);
            self.default_of(&baseline, i, &mut out.bad_defaults);
        }
        self.empty_object(Some(&baseline), &mut out.traps);
        drop_repeats(&mut out.traps);
        out.baseline = Some(baseline);
        out
    }

    /// Field `i`'s `default`, judged in place of its example: kept when it fails there.
    fn default_of(&self, baseline: &Value, i: usize, out: &mut Vec<BadDefault>) {
        let field = &self.fields[i];
        let Some(default) = field.view.get("default") else {
            return;
        };
        let Some(args) = self.place(baseline, i, Some(default.clone())) else {
            return;
        };
        if let Err(v) = self.validator.check(&args, &self.rules) {
            out.push(BadDefault {
                path: show_path(&field.path),
                value: default.clone(),
                error: v.message,
            });
        }
    }

    /// The traps of field `i`, from arguments where it holds its valid example.
    fn field_traps(&self, baseline: &Value, control: &Value, i: usize, out: &mut Vec<Trap>) {
        let field = &self.fields[i];
        if field.required {
            let mut args = control.clone();
            remove(&mut args, &field.path);
            let label = format!("required field missing: {}", show_path(&field.path));
            out.push(self.judge(TrapKind::MissingRequired, label, field, args, control));
        }
        let Some(example) = &self.examples[i] else {
            return;
        };
        for (kind, label, value) in kinds::wrong_values(&field.view, example) {
            if let Some(args) = self.place(baseline, i, Some(value)) {
                out.push(self.judge(kind, label, field, args, control));
            }
        }
        if field.view.is_object() && example.is_object() {
            self.extra_key(control, &field.path, &field.view, out);
        }
    }

    /// An extra member in the object at `path`.
    fn extra_key(&self, base: &Value, path: &[Seg], view: &View<'a>, out: &mut Vec<Trap>) {
        let taken: Vec<&str> = view.properties().iter().map(|p| p.0).collect();
        let key = kinds::extra_key_name(&taken);
        let mut args = base.clone();
        let Some(Value::Object(obj)) = at_mut(&mut args, path) else {
            return;
        };
        obj.insert(key.clone(), Value::String("added by the model".into()));
        let label = if path.is_empty() {
            format!("extra key: {key}")
        } else {
            format!("nested extra key: {}.{key}", show_path(path))
        };
        let mut p = path.to_vec();
        p.push(Seg::Key(key));
        let trap = self.run(TrapKind::ExtraKey, label, &p, args, base);
        out.push(self.with_fix(trap, view, path));
    }

    /// `{}`, when the schema declares any members. Its control is the baseline with the
    /// first member at its example (what a fix requiring it still lets through).
    fn empty_object(&self, baseline: Option<&Value>, out: &mut Vec<Trap>) {
        if self.top.properties().is_empty() {
            return;
        }
        let first = self.fields.iter().position(|f| f.parent.is_none());
        let control = match (baseline, first) {
            (Some(b), Some(i)) => self.place(b, i, self.examples[i].clone()),
            (Some(b), None) => Some(b.clone()),
            _ => None,
        };
        let trap = self.run(
            TrapKind::EmptyObject,
            "empty object".into(),
            &[],
            Value::Object(Map::new()),
            &control.unwrap_or(Value::Null),
        );
        out.push(self.with_fix(trap, &self.top, &[]));
    }

    fn judge(
        &self,
        kind: TrapKind,
        label: String,
        field: &Field<'a>,
        args: Value,
        control: &Value,
    ) -> Trap {
        let trap = self.run(kind, label, &field.path, args, control);
        self.with_fix(trap, &field.view, &field.path)
    }

    fn run(
        &self,
        kind: TrapKind,
        label: String,
        path: &[Seg],
        args: Value,
        control: &Value,
    ) -> Trap {
        let verdict = self.validator.check(&args, &self.rules);
        let (error, error_path) = match verdict {
            Ok(()) => (String::new(), String::new()),
            Err(v) => (v.message, v.path),
        };
        Trap {
            kind,
            label,
            path: show_path(path),
            ok: error.is_empty(),
            args,
            error,
            error_path,
            segs: path.to_vec(),
            control: control.clone(),
            fix: None,
            why: None,
        }
    }

    fn with_fix(&self, mut trap: Trap, view: &View<'a>, path: &[Seg]) -> Trap {
        if trap.ok {
            let (fix, why) = if self.schemaless {
                (None, Some(fix::SCHEMALESS.to_owned()))
            } else {
                fix::for_trap(&trap, view, path)
            };
            trap.fix = fix;
            trap.why = why;
        }
        trap
    }

    /// The baseline with field `i` set to `value` (`None`: left as it is), its parents
    /// put in place with their examples first. `None` when a parent has no example or the
    /// baseline's shape does not hold the path.
    fn place(&self, baseline: &Value, i: usize, value: Option<Value>) -> Option<Value> {
        let mut chain = vec![i];
        while let Some(p) = self.fields[*chain.last()?].parent {
            chain.push(p);
        }
        chain.reverse();
        let mut args = baseline.clone();
        let mut cursor = &mut args;
        for (n, &f) in chain.iter().enumerate() {
            let last = n + 1 == chain.len();
            let seg = self.fields[f].path.last()?;
            let fill = if last {
                value.clone()
            } else {
                self.examples[f].clone()
            };
            cursor = step_into(cursor, seg, fill, last)?;
        }
        Some(args)
    }
}

/// Keep the first trap of each set of arguments: two kinds can write the same call (a
/// list's wrong item type is its item's number for a string; a lone required field's
/// absence is the empty object), and one call is one trap.
fn drop_repeats(traps: &mut Vec<Trap>) {
    let mut kept: Vec<Trap> = Vec::with_capacity(traps.len());
    for t in traps.drain(..) {
        if !kept.iter().any(|k| k.args == t.args) {
            kept.push(t);
        }
    }
    *traps = kept;
}

/// Move into `seg` of `cursor`: put `fill` there when it is missing (always, when
/// `replace`), and return the place.
fn step_into<'v>(
    cursor: &'v mut Value,
    seg: &Seg,
    fill: Option<Value>,
    replace: bool,
) -> Option<&'v mut Value> {
    match (cursor, seg) {
        (Value::Object(map), Seg::Key(k)) => {
            if replace || !map.contains_key(k) {
                map.insert(k.clone(), fill?);
            }
            map.get_mut(k)
        }
        (Value::Array(items), Seg::Index(0)) => {
            if items.is_empty() {
                items.push(fill?);
            } else if replace {
                items[0] = fill?;
            }
            items.first_mut()
        }
        _ => None,
    }
}

fn at_mut<'v>(v: &'v mut Value, path: &[Seg]) -> Option<&'v mut Value> {
    let mut cur = v;
    for seg in path {
        cur = match (cur, seg) {
            (Value::Object(m), Seg::Key(k)) => m.get_mut(k)?,
            (Value::Array(a), Seg::Index(i)) => a.get_mut(*i)?,
            _ => return None,
        };
    }
    Some(cur)
}

fn remove(args: &mut Value, path: &[Seg]) {
    let Some((Seg::Key(last), parent)) = path.split_last() else {
        return;
    };
    if let Some(Value::Object(m)) = at_mut(args, parent) {
        m.shift_remove(last);
    }
}

#[cfg(test)]
mod tests;
