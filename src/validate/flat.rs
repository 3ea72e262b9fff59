//! The flat form of the seed exercise: `{"city": "str", "days": "int"}` with Python type
//! names and a separate required list, compiled into the same [`Program`] as any schema (an
//! object of those properties, nothing else allowed).

use std::borrow::Cow;

use super::error::CompileError;
use super::json::Json;
use super::program::{Node, ObjRules, Program, RootShape, Types};
use crate::sanitize::quote;
use crate::validate::json::kind;

/// A Python type name of the flat form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PyType {
    Str,
    Int,
    Float,
    Bool,
    List,
    Dict,
}

impl PyType {
    pub fn parse(name: &str) -> Option<PyType> {
        Some(match name {
            "str" => PyType::Str,
            "int" => PyType::Int,
            "float" => PyType::Float,
            "bool" => PyType::Bool,
            "list" => PyType::List,
            "dict" => PyType::Dict,
            _ => return None,
        })
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            PyType::Str => "str",
            PyType::Int => "int",
            PyType::Float => "float",
            PyType::Bool => "bool",
            PyType::List => "list",
            PyType::Dict => "dict",
        }
    }

    /// The kinds of value `isinstance` accepts (the bool guard aside): `3` is no float.
    fn mask(self) -> u8 {
        match self {
            PyType::Str => kind::STR,
            PyType::Int => kind::INT,
            PyType::Float => kind::FLOAT,
            PyType::Bool => kind::BOOL,
            PyType::List => kind::ARRAY,
            PyType::Dict => kind::OBJECT,
        }
    }
}

/// A flat schema as declared: its arguments with their Python types, and the required
/// names in the order given (what the seed's `validate_tool_args` is handed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlatSignature {
    pub args: Vec<(String, PyType)>,
    pub required: Vec<String>,
}

/// Compile a flat schema (its members, in order) with its required names.
pub(crate) fn compile(
    map: &[(Cow<'_, str>, Json<'_>)],
    required: &[String],
) -> Result<(Program, FlatSignature), CompileError> {
    let mut sig = FlatSignature {
        args: Vec::with_capacity(map.len()),
        required: Vec::new(),
    };
    let mut nodes = vec![Node::default()];
    let mut obj = ObjRules::default();
    for (name, ty) in map {
        let Json::Str(ty) = ty else {
            return Err(CompileError::Shape(format!(
                "flat schema: the type of {} must be a Python type name \
                 (str, int, float, bool, list, dict), got {}",
                quote(name),
                ty.to_text()
            )));
        };
        let Some(py) = PyType::parse(ty) else {
            return Err(CompileError::Shape(format!(
                "flat schema: unknown type {} for {} (use str, int, float, bool, list or dict)",
                quote(ty),
                quote(name)
            )));
        };
        nodes.push(Node {
            types: Some(Types {
                mask: py.mask(),
                name: py.name().into(),
            }),
            only_types: true,
            ..Node::default()
        });
        obj.add_property(name, (nodes.len() - 1) as u32);
        sig.args.push((name.to_string(), py));
    }
    for r in required {
        if r.is_empty() {
            return Err(CompileError::Shape(
                "flat schema: an empty name in the required list".into(),
            ));
        }
        if !obj.required.iter().any(|q| **q == **r) {
            obj.required.push(r.as_str().into());
            sig.required.push(r.clone());
        }
    }
    nodes.push(Node {
        always: Some(false),
        ..Node::default()
    });
    obj.additional = Some((nodes.len() - 1) as u32);
    obj.seal();
    nodes[0].obj = Some(Box::new(obj));
    let mut program = Program {
        nodes,
        root: 0,
        resources: vec![Default::default()],
        has_in_place: false,
        dynamic: false,
        shape: RootShape::General,
    };
    program.seal();
    program.shape = super::eval::shallow::shape(&program);
    Ok((program, sig))
}
