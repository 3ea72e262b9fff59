//! Parsed values kept and written out: [`Json::into_owned`] for the values a compiled schema
//! stores (`enum`, `const`, bounds), [`Json::to_text`] for the compact text messages show,
//! with huge integers written digit for digit.

use std::borrow::Cow;

use super::{Json, show_f64};

impl Json<'_> {
    /// The same value, owning its text.
    pub fn into_owned(self) -> Json<'static> {
        match self {
            Json::Null => Json::Null,
            Json::Bool(b) => Json::Bool(b),
            Json::Int(i) => Json::Int(i),
            Json::BigInt(t) => Json::BigInt(Cow::Owned(t.into_owned())),
            Json::Float(f) => Json::Float(f),
            Json::Str(s) => Json::Str(Cow::Owned(s.into_owned())),
            Json::Array(items) => Json::Array(items.into_iter().map(Json::into_owned).collect()),
            Json::Object(fields) => Json::Object(
                fields
                    .into_iter()
                    .map(|(k, v)| (Cow::Owned(k.into_owned()), v.into_owned()))
                    .collect(),
            ),
        }
    }

    /// Compact JSON text (as `serde_json::to_string` writes it), with a huge integer
    /// written digit for digit rather than through a float.
    pub fn to_text(&self) -> String {
        match self {
            Json::BigInt(t) => t.to_string(),
            Json::Array(items) => {
                let parts: Vec<String> = items.iter().map(Json::to_text).collect();
                format!("[{}]", parts.join(","))
            }
            Json::Object(fields) => {
                let parts: Vec<String> = fields
                    .iter()
                    .map(|(k, v)| {
                        let key = serde_json::to_string(k.as_ref()).unwrap_or_default();
                        format!("{key}:{}", v.to_text())
                    })
                    .collect();
                format!("{{{}}}", parts.join(","))
            }
            Json::Float(f) if !f.is_finite() => show_f64(*f),
            other => serde_json::to_string(&other.to_value()).unwrap_or_default(),
        }
    }
}
