//! The Rust peer of `tooldojo validate --jsonl`: jsonschema-rs, as a user of that crate would
//! run it over the same JSON-lines cases.
//!
//! ```text
//! jsonschema-peer [--remotes DIR] [--read raw|value] [FILE]      # FILE, or stdin without one
//! jsonschema-peer --compile-all DIR [--runs N]
//! ```
//!
//! Each line is a case `{"schema": S, "args": A}` (or `"args_text"`), with optional
//! `"required"`, `"form"` and `"formats": "assert"|"annotate"` (default assert); S is in any
//! shape `shape.rs` reads. One line out per line in: `{"ok": true, "error": ""}` or
//! `{"ok": false, "error": "..."}`, and `bad case: ...` for a line that is not a case.
//!
//! One validator is compiled per distinct schema: the case is read by serde with the schema
//! kept as its raw text, and that text (with `required`, `form` and `formats`) keys a hash
//! map, so a repeated declaration is neither parsed nor compiled again. `--read value` reads
//! as this peer always did for compare.py's flat row, which keeps it so its ratios stay
//! comparable: the whole line parsed into a `Value`, validators found by comparing the
//! schema values in a list. The draft comes from
//! `$schema` (jsonschema-rs's own detection), formats are asserted with
//! `should_validate_formats(true)` unless the case says annotate, and no reference is ever
//! fetched (the crate is built without its HTTP and file resolvers); with `--remotes DIR`,
//! `http://localhost:1234/PATH` is read from DIR/PATH (the JSON Schema Test Suite's remotes).
//!
//! With `--features exact` serde_json and jsonschema keep numbers exact (`3.0` a float literal,
//! `10**30` an integer), and the flat form's `int` and `float` get a custom keyword, `pyType`,
//! that tells an integer literal from a float literal as Python's types do.
//!
//! `--compile-all DIR` compiles every declaration under DIR (`realworld/tools/`: each file
//! read in its own shape, formats asserted) and prints one JSON object with the count and the
//! CPU and wall time of the best of N runs: compiling from parsed values, and from each
//! declaration's text (parse, find the schema, compile).

mod compile_all;
mod shape;

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};

use jsonschema::Validator;
use serde::Deserialize;
use serde::de::{DeserializeSeed, Error as _, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use serde_json::value::RawValue;

use shape::Form;

/// The folder `--remotes` names.
static REMOTES: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
const REMOTE_BASE: &str = "http://localhost:1234/";

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut whole_values = false;
    loop {
        match args.first().map(String::as_str) {
            Some("--remotes") if args.len() >= 2 => {
                REMOTES.get_or_init(|| args[1].clone().into());
            }
            Some("--read") if args.len() >= 2 && matches!(args[1].as_str(), "raw" | "value") => {
                whole_values = args[1] == "value";
            }
            _ => break,
        }
        args.drain(..2);
    }
    let result = match args.first().map(String::as_str) {
        Some("--compile-all") => compile_all::run(&args[1..]),
        Some("-h" | "--help") => {
            println!(
                "usage: jsonschema-peer [--remotes DIR] [--read raw|value] [FILE] | --compile-all DIR [--runs N]"
            );
            Ok(())
        }
        _ if args.len() > 1 || args.first().is_some_and(|a| a.starts_with("--")) => {
            Err("usage: jsonschema-peer [--remotes DIR] [--read raw|value] [FILE]".into())
        }
        path => judge_all(path, whole_values).map_err(|e| e.to_string()),
    };
    if let Err(e) = result {
        eprintln!("jsonschema-peer: {e}");
        std::process::exit(2);
    }
}

fn judge_all(path: Option<&str>, whole_values: bool) -> io::Result<()> {
    let input: Box<dyn Read> = match path {
        Some(path) => Box::new(std::fs::File::open(path)?),
        None => Box::new(io::stdin()),
    };
    let mut reader = BufReader::with_capacity(1 << 16, input);
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut cache = Cache::default();
    let mut values = ValueCache::new();
    let mut line = Vec::new();
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        let verdict = match std::str::from_utf8(&line) {
            Ok(text) if whole_values => judge_value(text, &mut values),
            Ok(text) => judge(text, &mut cache),
            Err(e) => Err(format!(
                "bad case: the line is not UTF-8 (byte {})",
                e.valid_up_to() + 1
            )),
        };
        match verdict {
            Ok(()) => out.write_all(b"{\"ok\": true, \"error\": \"\"}\n")?,
            Err(e) => writeln!(out, "{{\"ok\": false, \"error\": {}}}", Value::String(e))?,
        }
    }
    out.flush()
}

/// A case as serde reads it: the schema and required list as raw text.
#[derive(Deserialize)]
struct Case<'a> {
    #[serde(borrow, default, deserialize_with = "present_raw")]
    schema: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present_raw")]
    required: Option<&'a RawValue>,
    #[serde(default, deserialize_with = "present")]
    args: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    args_text: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    form: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    formats: Option<Value>,
}

/// `Some` for a member that is there, `null` included (serde reads `null` as `None`).
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

/// [`present`] for a member kept as its raw text.
fn present_raw<'de: 'a, 'a, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<&'a RawValue>, D::Error> {
    <&RawValue>::deserialize(d).map(Some)
}

/// What else besides the schema text decides a validator.
#[derive(PartialEq, Eq, Hash, Clone)]
struct Variant {
    required: Box<str>,
    form: Option<Form>,
    assert_formats: bool,
}

/// A compiled validator, or the bad case its schema makes.
type Compiled = Result<Validator, String>;

/// Compiled validators by schema text, then by variant (a schema is rarely met in two).
#[derive(Default)]
struct Cache {
    by_text: HashMap<Box<str>, Vec<(Variant, Compiled)>>,
}

impl Cache {
    fn get(&mut self, schema: &str, variant: &Variant) -> &Compiled {
        if !self.by_text.contains_key(schema) {
            self.by_text.insert(schema.into(), Vec::new());
        }
        let list = self.by_text.get_mut(schema).expect("just inserted");
        let at = match list.iter().position(|(v, _)| v == variant) {
            Some(at) => at,
            None => {
                list.push((variant.clone(), compile(schema, variant)));
                list.len() - 1
            }
        };
        &list[at].1
    }
}

fn judge(line: &str, cache: &mut Cache) -> Result<(), String> {
    not_a_case(line)?;
    let case: Case<'_> = match serde_json::from_str(line) {
        Ok(case) => case,
        Err(e) if e.is_data() => return Err(format!("bad case: {e}")),
        Err(e) => return Err(format!("bad case: the line is not JSON: {e}")),
    };
    let schema = case.schema.ok_or("bad case: the case has no \"schema\"")?;
    let (form, assert_formats) = options_of(case.form.as_ref(), case.formats.as_ref())?;
    let args = args_of(case.args, case.args_text)?;
    let variant = Variant {
        required: case.required.map(RawValue::get).unwrap_or("").into(),
        form,
        assert_formats,
    };
    let validator = cache
        .get(schema.get(), &variant)
        .as_ref()
        .map_err(Clone::clone)?;
    run(validator, &args?)
}

/// `--read value`: the whole line parsed into a `Value` and validators found by comparing
/// schema values, and the crate's message alone, as the flat row of compare.py has always
/// measured this peer.
fn judge_value(line: &str, cache: &mut ValueCache) -> Result<(), String> {
    not_a_case(line)?;
    let case: Value =
        serde_json::from_str(line).map_err(|e| format!("bad case: the line is not JSON: {e}"))?;
    let Value::Object(case) = case else {
        return Err("bad case: a case must be a JSON object".into());
    };
    let [
        mut schema,
        mut required,
        mut form,
        mut formats,
        mut args,
        mut args_text,
    ] = [None, None, None, None, None, None];
    for (key, value) in case {
        let slot = match key.as_str() {
            "schema" => &mut schema,
            "required" => &mut required,
            "form" => &mut form,
            "formats" => &mut formats,
            "args" => &mut args,
            "args_text" => &mut args_text,
            _ => continue,
        };
        *slot = Some(value);
    }
    let schema = schema.ok_or("bad case: the case has no \"schema\"")?;
    let (form, assert_formats) = options_of(form.as_ref(), formats.as_ref())?;
    let args = args_of(args, args_text)?;
    let at = match cache.iter().position(|(s, r, f, a, _)| {
        *s == schema && *r == required && *f == form && *a == assert_formats
    }) {
        Some(at) => at,
        None => {
            let compiled = required_of(required.as_ref())
                .and_then(|req| compile_value(&schema, &req, form, assert_formats));
            cache.push((schema, required, form, assert_formats, compiled));
            cache.len() - 1
        }
    };
    let validator = cache[at].4.as_ref().map_err(Clone::clone)?;
    validator.validate(&args?).map_err(|e| e.to_string())
}

/// Validators of `--read value`: schema, required, form, formats asserted, the validator.
type ValueCache = Vec<(Value, Option<Value>, Option<Form>, bool, Compiled)>;

/// An empty line, or one that is not a JSON object, is no case.
fn not_a_case(line: &str) -> Result<(), String> {
    if line.trim().is_empty() {
        return Err("bad case: empty line".into());
    }
    if line.trim_start().starts_with('{') {
        return Ok(());
    }
    match serde_json::from_str::<serde::de::IgnoredAny>(line) {
        Ok(_) => Err("bad case: a case must be a JSON object".into()),
        Err(e) => Err(format!("bad case: the line is not JSON: {e}")),
    }
}

/// A case's `form` and whether its formats are asserted.
fn options_of(
    form: Option<&Value>,
    formats: Option<&Value>,
) -> Result<(Option<Form>, bool), String> {
    let form = match form {
        None => None,
        Some(v) => Some(v.as_str().and_then(Form::parse).ok_or_else(|| {
            format!("bad case: unknown form {v} (use flat, json-schema or tool)")
        })?),
    };
    let assert_formats = match formats {
        None => true,
        Some(v) => match v.as_str() {
            Some("assert") => true,
            Some("annotate") => false,
            _ => {
                return Err(format!(
                    "bad case: unknown formats {v} (use assert or annotate)"
                ));
            }
        },
    };
    Ok((form, assert_formats))
}

/// The arguments of a case (the inner `Err` is the verdict on args text that cannot be
/// read), or the bad case when it has neither or both members.
fn args_of(args: Option<Value>, text: Option<Value>) -> Result<Result<Value, String>, String> {
    match (args, text) {
        (Some(_), Some(_)) => Err("bad case: both \"args\" and \"args_text\"".into()),
        (None, None) => Err("bad case: a case needs args or args_text".into()),
        (Some(args), None) => Ok(Ok(args)),
        (None, Some(Value::String(text))) => Ok(parse_args_text(&text)),
        (None, Some(_)) => Err("bad case: args_text must be a string".into()),
    }
}

fn run(validator: &Validator, args: &Value) -> Result<(), String> {
    validator.validate(args).map_err(|e| {
        let at = e.instance_path().to_string();
        if at.is_empty() {
            e.to_string()
        } else {
            format!("{at}: {e}")
        }
    })
}

/// The compiled validator for a schema text and variant, or the bad case it makes.
fn compile(schema_text: &str, variant: &Variant) -> Compiled {
    let schema: Value = serde_json::from_str(schema_text).map_err(|e| format!("bad case: {e}"))?;
    let required = if variant.required.is_empty() {
        Vec::new()
    } else {
        required_of(Some(
            &serde_json::from_str(&variant.required).unwrap_or(Value::Bool(false)),
        ))?
    };
    compile_value(&schema, &required, variant.form, variant.assert_formats)
}

/// A case's `required` list (none when the case has no such member).
fn required_of(required: Option<&Value>) -> Result<Vec<String>, String> {
    match required {
        None => Ok(Vec::new()),
        Some(list) => serde_json::from_value(list.clone())
            .map_err(|_| "bad case: required must be a list of names".to_string()),
    }
}

fn compile_value(
    schema: &Value,
    required: &[String],
    form: Option<Form>,
    assert_formats: bool,
) -> Compiled {
    let found = shape::extract(schema, required, form, &named_schema)
        .map_err(|e| format!("bad case: {e}"))?;
    build(&found, assert_formats).map_err(|e| format!("bad case: schema: {e}"))
}

/// jsonschema-rs's validator for a schema found in a case.
pub(crate) fn build(found: &shape::Found, assert_formats: bool) -> Result<Validator, String> {
    let options = jsonschema::options().should_validate_formats(assert_formats);
    let options = if found.flat {
        with_py_types(options)
    } else {
        options
    };
    let options = match REMOTES.get() {
        Some(dir) => options.with_retriever(Remotes(dir.clone())),
        None => options,
    };
    options.build(&found.schema).map_err(|e| e.to_string())
}

/// `--remotes`: the test suite's localhost documents from a folder, nothing else.
struct Remotes(std::path::PathBuf);

impl jsonschema::Retrieve for Remotes {
    fn retrieve(
        &self,
        uri: &jsonschema::Uri<String>,
    ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        let path = uri
            .as_str()
            .strip_prefix(REMOTE_BASE)
            .ok_or_else(|| format!("{uri} is not fetched"))?;
        let text = std::fs::read_to_string(self.0.join(path.split('#').next().unwrap_or("")))?;
        Ok(serde_json::from_str(&text)?)
    }
}

/// The named schemas of `fixtures/schemas.json`.
fn named_schema(name: &str) -> Result<(Value, Vec<String>), String> {
    thread_local! {
        static NAMED: RefCell<Option<Value>> = const { RefCell::new(None) };
    }
    NAMED.with(|named| {
        let mut named = named.borrow_mut();
        let all = named.get_or_insert_with(|| {
            let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/schemas.json");
            std::fs::read_to_string(path)
                .ok()
                .and_then(|t| serde_json::from_str(&t).ok())
                .unwrap_or(Value::Null)
        });
        let entry = all
            .get(name)
            .ok_or_else(|| format!("no schema named {}", Value::String(name.into())))?;
        let schema = entry.get("schema").cloned().unwrap_or(Value::Null);
        let required = entry
            .get("required")
            .and_then(|r| serde_json::from_value(r.clone()).ok())
            .unwrap_or_default();
        Ok((schema, required))
    })
}

/// `args_text` read as the contract reads it: not JSON is `invalid JSON: ...`, an object
/// that repeats a key is `duplicate arg: NAME` (serde_json alone would keep the last one).
fn parse_args_text(text: &str) -> Result<Value, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| format!("invalid JSON: {e}"))?;
    let repeated = RefCell::new(None);
    let mut de = serde_json::Deserializer::from_str(text);
    if NoDuplicates(&repeated).deserialize(&mut de).is_err()
        && let Some(key) = repeated.into_inner()
    {
        return Err(format!("duplicate arg: {key}"));
    }
    Ok(value)
}

/// Walks a JSON text and fails at the first object that repeats a key (noting the key).
struct NoDuplicates<'a>(&'a RefCell<Option<String>>);

impl<'de> DeserializeSeed<'de> for NoDuplicates<'_> {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for NoDuplicates<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(NoDuplicates(self.0))?.is_some() {}
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut keys: Vec<String> = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            if keys.contains(&key) {
                *self.0.borrow_mut() = Some(key);
                return Err(A::Error::custom("repeated key"));
            }
            map.next_value_seed(NoDuplicates(self.0))?;
            keys.push(key);
        }
        Ok(())
    }
}

#[cfg(not(feature = "exact"))]
fn with_py_types(
    options: jsonschema::ValidationOptions<'static>,
) -> jsonschema::ValidationOptions<'static> {
    options
}

#[cfg(feature = "exact")]
fn with_py_types(
    options: jsonschema::ValidationOptions<'static>,
) -> jsonschema::ValidationOptions<'static> {
    options.with_keyword("pyType", |_, value, _| {
        let float = value.as_str() == Some("float");
        Ok(Box::new(PyNumber { float }))
    })
}

/// `pyType`: a number must be written as Python reads that type (`int`: no fraction or
/// exponent in the literal; `float`: one of them). Other values are left to `type`.
#[cfg(feature = "exact")]
struct PyNumber {
    float: bool,
}

#[cfg(feature = "exact")]
impl<'i> jsonschema::Keyword<'i> for PyNumber {
    fn validate(&self, instance: &'i Value) -> Result<(), jsonschema::ValidationError<'i>> {
        if self.is_valid(instance) {
            Ok(())
        } else if self.float {
            Err(jsonschema::ValidationError::custom(
                "an integer literal is not a float",
            ))
        } else {
            Err(jsonschema::ValidationError::custom(
                "a float literal is not an integer",
            ))
        }
    }

    fn is_valid(&self, instance: &'i Value) -> bool {
        match instance {
            Value::Number(n) => n.is_f64() == self.float,
            _ => true,
        }
    }
}
