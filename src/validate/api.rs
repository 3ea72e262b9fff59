//! The methods of [`Options`] (compiling) and [`Validator`] (validating).

use serde_json::Value;

use super::eval::{explain, shallow};
use super::form::{self, Opened};
use super::json::{self, FlatMember, Json};
use super::program::{Node, ObjRules, Program, RootShape};
use super::{
    Args, CheckKind, CompileError, Flags, Form, Formats, Found, Options, ParseError, Quick,
    Registry, UnknownFormat, UnknownKeyword, Validator, ValidatorRules, Violation, What, compile,
    flat,
};

impl<'r> Options<'r> {
    pub fn new() -> Options<'r> {
        Options::default()
    }

    /// Name the form instead of reading it from the shape.
    pub fn form(mut self, form: Option<Form>) -> Self {
        self.form = form;
        self
    }

    /// The required names of a flat-form schema (other forms carry their own).
    pub fn required(mut self, names: &[String]) -> Self {
        self.required = names.to_vec();
        self
    }

    pub fn formats(mut self, formats: Formats) -> Self {
        self.formats = formats;
        self
    }

    /// Documents a `$ref` may reach besides the schema itself.
    pub fn registry(mut self, registry: &'r Registry) -> Self {
        self.registry = Some(registry);
        self
    }

    /// The dialect of a schema whose `$schema` does not name one (2020-12 by default).
    pub fn draft(mut self, draft: super::Draft) -> Self {
        self.draft = Some(draft);
        self
    }

    /// Validate any JSON value, not only a tool call's arguments (which must be an object).
    pub fn any_value(mut self, yes: bool) -> Self {
        self.any_value = yes;
        self
    }

    /// Compile schema text (numbers exactly as written; a repeated key is refused).
    pub fn compile_text(&self, text: &str) -> Result<Validator, CompileError> {
        if text.len() > super::MAX_SCHEMA_BYTES {
            return Err(CompileError::Unbounded(format!(
                "the schema is {} bytes, more than the {} a schema may be",
                text.len(),
                super::MAX_SCHEMA_BYTES
            )));
        }
        let v = json::parse(text)?;
        self.compile(&v)
    }

    /// Compile a parsed value.
    pub fn compile_value(&self, schema: &Value) -> Result<Validator, CompileError> {
        self.compile(&Json::from_value(schema))
    }

    /// Compile the reader's value.
    pub fn compile(&self, schema: &Json<'_>) -> Result<Validator, CompileError> {
        let form = match self.form {
            Some(f) => f,
            None => form::detect(schema, &self.required)?,
        };
        if form != Form::Flat && !self.required.is_empty() {
            return Err(CompileError::Shape(
                "a separate required list applies only to the flat form; \
                 a JSON Schema carries its own \"required\""
                    .into(),
            ));
        }
        let mut v = Validator {
            program: Program::default(),
            form,
            name: None,
            description: None,
            unknown: Vec::new(),
            unknown_formats: Vec::new(),
            formats: self.formats,
            any_value: self.any_value,
            flat: None,
        };
        match form {
            Form::Flat => {
                let Json::Object(map) = schema else {
                    return Err(not_object(schema));
                };
                let (program, sig) = flat::compile(map, &self.required)?;
                v.program = program;
                v.flat = Some(sig);
            }
            Form::JsonSchema => {
                if !matches!(schema, Json::Object(_) | Json::Bool(_)) {
                    return Err(not_object(schema));
                }
                let c =
                    compile::json_schema(schema, "", self.formats, self.registry, self.dialect())?;
                v.take(c);
            }
            _ => {
                let Opened {
                    name,
                    description,
                    schema: inner,
                    at,
                    unknown,
                    ..
                } = form::open(form, schema)?;
                let tool = name.clone().unwrap_or_default();
                v.name = name;
                v.description = description;
                v.unknown = unknown;
                match inner {
                    Some(s) => {
                        let c = compile::json_schema(
                            s,
                            at,
                            self.formats,
                            self.registry,
                            self.dialect(),
                        )
                        .map_err(|e| e.in_tool(&tool))?;
                        v.take(c);
                    }
                    None => v.program = no_arguments(),
                }
            }
        }
        Ok(v)
    }
}

impl Options<'_> {
    fn dialect(&self) -> super::Draft {
        self.draft.unwrap_or(super::Draft::D2020)
    }
}

fn not_object(schema: &Json<'_>) -> CompileError {
    CompileError::Shape(format!(
        "a schema must be a JSON object, got {}",
        schema.py_type()
    ))
}

/// The program of a function declared without `parameters`: an empty parameter list, so
/// only `{}` passes.
fn no_arguments() -> Program {
    let obj = super::program::ObjRules {
        additional: Some(1),
        ..Default::default()
    };
    Program {
        nodes: vec![
            Node {
                obj: Some(Box::new(obj)),
                ..Node::default()
            },
            Node {
                always: Some(false),
                ..Node::default()
            },
        ],
        root: 0,
        resources: vec![Default::default()],
        has_in_place: false,
        dynamic: false,
        shape: RootShape::General,
    }
}

/// Parse model-written argument text: preserves key order, rejects repeated keys
/// (`duplicate arg: NAME`), reports `invalid JSON: ... line L column C`.
pub fn parse_args(text: &str) -> Result<Value, Violation> {
    json::parse(text)
        .map(|j| j.to_value())
        .map_err(|e| Violation::parse(&e))
}

impl Validator {
    /// The root's object rules, for reading ahead of judging (see
    /// [`super::program::ObjRules::warm`]).
    #[inline]
    pub(crate) fn warm_root(&self) -> Option<&super::program::ObjRules> {
        self.program.warm_root()
    }

    /// Fetch the root node, for reading ahead of judging (its object rules are read next).
    #[inline]
    pub(crate) fn fetch_root(&self) {
        if let Some(n) = self.program.nodes.get(self.program.root as usize) {
            super::ahead::prefetch(n);
        }
    }

    /// Fetch the nodes of `o`'s properties (`o`: this validator's
    /// [`Validator::warm_root`]).
    #[inline]
    pub(crate) fn warm_members(&self, o: &super::program::ObjRules) {
        self.program.warm_members(o);
    }

    /// How to compile (`Validator::options().form(..).compile_text(..)`).
    pub fn options<'r>() -> Options<'r> {
        Options::new()
    }

    /// Compile a value in any shape, read from the shape.
    pub fn from_value(schema: &Value) -> Result<Validator, CompileError> {
        Options::new().compile_value(schema)
    }

    /// Compile text in any shape, read from the shape.
    pub fn from_text(text: &str) -> Result<Validator, CompileError> {
        Options::new().compile_text(text)
    }

    fn take(&mut self, c: compile::Compiled) {
        self.program = c.program;
        self.unknown.extend(c.unknown);
        self.unknown_formats = c.unknown_formats;
    }

    pub fn form(&self) -> Form {
        self.form
    }

    /// The declaration's name (a shape that has one).
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    pub fn description(&self) -> Option<&str> {
        self.description.as_deref()
    }

    /// Keywords (and envelope fields) ignored because the validator does not know them.
    pub fn unknown_keywords(&self) -> &[UnknownKeyword] {
        &self.unknown
    }

    /// Formats the standard does not define: noted, never checked.
    pub fn unknown_formats(&self) -> &[UnknownFormat] {
        &self.unknown_formats
    }

    pub fn formats(&self) -> Formats {
        self.formats
    }

    /// A flat-form schema's arguments and required names (`None` for any other form).
    pub fn flat_signature(&self) -> Option<&super::FlatSignature> {
        self.flat.as_ref()
    }

    /// How messages name the whole value.
    fn root(&self) -> &'static str {
        if self.any_value { "value" } else { "args" }
    }

    /// Does `args` pass?
    pub fn is_valid<'a>(&self, args: impl Into<Args<'a>>, rules: &ValidatorRules) -> bool {
        self.check(args, rules).is_ok()
    }

    /// Validate with every rule on.
    pub fn validate(&self, args: &Value) -> Result<(), Violation> {
        self.check(args, &ValidatorRules::ALL_ON)
    }

    /// The first failure, if any.
    pub fn check<'a>(
        &self,
        args: impl Into<Args<'a>>,
        rules: &ValidatorRules,
    ) -> Result<(), Violation> {
        let root = self.root();
        let mut err = None;
        self.with_json(args.into(), |j| {
            self.judge(j, rules, |f| err = Some(owned(f, root)));
        })
        .map_err(|e| Violation::parse(&e))?;
        err.map_or(Ok(()), Err)
    }

    /// Every failure, the first one first (a parse failure is the only one, if any).
    pub fn check_all<'a>(
        &self,
        args: impl Into<Args<'a>>,
        rules: &ValidatorRules,
    ) -> Vec<Violation> {
        let root = self.root();
        let mut out = Vec::new();
        let read = self.with_json(args.into(), |j| {
            out = self
                .judge_all(j, rules)
                .iter()
                .map(|f| owned(f, root))
                .collect();
        });
        match read {
            Ok(()) => out,
            Err(e) => vec![Violation::parse(&e)],
        }
    }

    /// Validate text and hand back the arguments as a value (the text is read once).
    pub fn check_text_to_value(
        &self,
        text: &str,
        rules: &ValidatorRules,
    ) -> Result<Value, Violation> {
        let args = json::parse(text).map_err(|e| Violation::parse(&e))?;
        self.check(Args::Json(&args), rules)?;
        Ok(args.to_value())
    }

    fn with_json(&self, args: Args<'_>, run: impl FnOnce(&Json<'_>)) -> Result<(), ParseError> {
        match args {
            Args::Json(j) => run(j),
            Args::Value(v) => run(&Json::from_value(v)),
            Args::Text(t) => run(&json::parse(t)?),
        }
        Ok(())
    }

    /// Args that are JSON but not an object: refused before any check (a tool call's
    /// arguments are an object).
    fn not_args<'x>(&self, args: &Json<'_>) -> Option<Found<'x>> {
        if self.any_value || matches!(args, Json::Object(_)) {
            return None;
        }
        Some(Found {
            kind: CheckKind::Parse,
            path: "".into(),
            subject: None,
            what: What::Whole(format!(
                "invalid args: expected a JSON object (dict), got {}",
                args.py_type()
            )),
        })
    }

    /// Judge parsed args: `fail` gets the first failure, if any; `true` when they pass.
    pub(crate) fn judge<'x>(
        &'x self,
        args: &'x Json<'x>,
        rules: &ValidatorRules,
        fail: impl FnOnce(&Found<'x>),
    ) -> bool {
        if let Some(f) = self.not_args(args) {
            fail(&f);
            return false;
        }
        let flags = Flags::of(rules);
        if let (Some(o), Json::Object(fields)) = (self.shallow_rules(), args) {
            return passed(
                shallow::first(&self.program, o, fields.as_slice(), flags),
                fail,
            );
        }
        if Quick::new(&self.program, flags).valid(self.program.root, args, None) {
            return true;
        }
        fail(&explain::first(&self.program, flags, args, self.root()));
        false
    }

    /// Judge args known only as a flat object read with `json::flat_object` (each member's
    /// key, the kind of its value and its text), as [`Validator::judge`] would judge them
    /// parsed. `None` when that needs them parsed: the schema is not that simple, or (for a
    /// root of [`RootShape::Scalars`]) they do not pass, and judging them parsed words the
    /// first failure.
    pub(crate) fn judge_flat<'x>(
        &'x self,
        members: &[FlatMember<'x>],
        rules: &ValidatorRules,
        fail: impl FnOnce(&Found<'x>),
    ) -> Option<bool> {
        let o = self.root_object()?;
        let flags = Flags::of(rules);
        match self.program.shape {
            RootShape::Shallow => Some(passed(
                shallow::first(&self.program, o, members, flags),
                fail,
            )),
            RootShape::Scalars => {
                let mut q = Quick::new(&self.program, flags);
                shallow::accepts(&mut q, o, members).then_some(true)
            }
            RootShape::General => None,
        }
    }

    /// Do the args at byte `at` of `text` surely pass, read straight from their bytes
    /// (`eval/bytes.rs`)? Where they end when they do; `None` when they fail or that walk
    /// cannot tell, and judging them parsed words the first failure.
    pub(crate) fn passes_bytes(
        &self,
        text: &str,
        at: usize,
        rules: &ValidatorRules,
    ) -> Option<usize> {
        if !self.any_value && text.as_bytes().get(at) != Some(&b'{') {
            return None;
        }
        Quick::new(&self.program, Flags::of(rules)).passes_bytes(self.program.root, text, at)
    }

    /// The root's object rules, when args (an object) are judged by the shallow walk.
    fn shallow_rules(&self) -> Option<&ObjRules> {
        if self.program.shape != RootShape::Shallow {
            return None;
        }
        self.root_object()
    }

    /// The root's object rules, unless this validator takes any value as args.
    fn root_object(&self) -> Option<&ObjRules> {
        if self.any_value {
            return None;
        }
        self.program.nodes[self.program.root as usize]
            .obj
            .as_deref()
    }

    /// Every failure of parsed args, the first one first.
    pub(crate) fn judge_all<'x>(
        &'x self,
        args: &'x Json<'x>,
        rules: &ValidatorRules,
    ) -> Vec<Found<'x>> {
        if let Some(f) = self.not_args(args) {
            return vec![f];
        }
        let flags = Flags::of(rules);
        if Quick::new(&self.program, flags).valid(self.program.root, args, None) {
            return Vec::new();
        }
        explain::all(&self.program, flags, args, self.root())
    }

    /// The word messages use for the whole value (`args`, or `value`).
    pub(crate) fn root_word(&self) -> &'static str {
        self.root()
    }
}

/// Whether no failure was found; `fail` gets the one that was.
fn passed<'x>(first: Option<Found<'x>>, fail: impl FnOnce(&Found<'x>)) -> bool {
    match first {
        None => true,
        Some(f) => {
            fail(&f);
            false
        }
    }
}

fn owned(f: &Found<'_>, root: &str) -> Violation {
    Violation {
        kind: f.kind,
        path: f.path.to_string(),
        message: f.message(root),
    }
}
