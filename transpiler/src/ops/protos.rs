//! The proto side of op definitions: slots and attributes as Paddle declares
//! them, read from the JSON that `scripts/dump-op-protos.py` writes.
use std::collections::HashMap;

use serde::Deserialize;
use serde_json::Value;

use crate::model::{AttrType, AttrValue};

/// Paddle 3.3.1's protos of the ops fluidc knows (`scripts/dump-op-protos.py`).
const PADDLE: &str = include_str!("../../data/op_protos.json");
/// The same for ops Paddle 3 no longer has (2018 CSP) and fluidc's own.
const FLUIDC: &str = include_str!("../../data/fluidc_ops.json");

/// An input or output slot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SlotDef {
    pub name: String,
    /// Takes any number of variables (else exactly one).
    pub duplicable: bool,
    /// May be left out.
    pub dispensable: bool,
    /// Paddle marks framework-internal slots `extra` (never required).
    pub extra: bool,
    /// An output only the op's own grad reads (1.x listed such slots in
    /// its op protos even where Paddle 3.3.1 marks them `extra`).
    pub intermediate: bool,
}

/// An attribute: its declared type and the default Paddle's attribute
/// checker fills in (`None`: the attribute is required).
#[derive(Debug, Clone, PartialEq)]
pub struct AttrDef {
    pub name: String,
    pub ty: AttrType,
    pub default: Option<AttrValue>,
    /// Paddle's framework attributes (`op_role`, `op_callstack`, ...).
    pub extra: bool,
}

/// The slots and attributes of one op.
#[derive(Debug, Clone, Default)]
pub(super) struct Proto {
    pub(super) inputs: Vec<SlotDef>,
    pub(super) outputs: Vec<SlotDef>,
    pub(super) attrs: Vec<AttrDef>,
}

/// A file of op protos, as `scripts/dump-op-protos.py` writes it (read
/// into these types directly: a `serde_json::Value` tree of it, built and
/// dropped at every start, cost several times as much).
#[derive(Deserialize)]
struct File {
    #[serde(borrow)]
    ops: HashMap<&'static str, OpJson>,
    /// Attributes to append to Paddle 3.3.1's protos (`fluidc_ops.json`).
    #[serde(default, borrow)]
    legacy_attrs: HashMap<&'static str, Vec<AttrJson>>,
}

#[derive(Deserialize)]
struct OpJson {
    inputs: Vec<SlotJson>,
    outputs: Vec<SlotJson>,
    attrs: Vec<AttrJson>,
}

#[derive(Deserialize)]
struct SlotJson {
    name: String,
    #[serde(default)]
    duplicable: bool,
    #[serde(default)]
    dispensable: bool,
    #[serde(default)]
    extra: bool,
    #[serde(default)]
    intermediate: bool,
}

#[derive(Deserialize)]
struct AttrJson {
    name: String,
    #[serde(rename = "type")]
    ty: String,
    #[serde(default)]
    extra: bool,
    default: Option<Value>,
}

/// Every proto, by op type.
pub(super) fn load() -> Result<HashMap<&'static str, Proto>, String> {
    let mut out = HashMap::new();
    let mut legacy = HashMap::new();
    for (file, text) in [("op_protos.json", PADDLE), ("fluidc_ops.json", FLUIDC)] {
        let json: File = serde_json::from_str(text).map_err(|e| format!("data/{file}: {e}"))?;
        for (name, op) in json.ops {
            let proto = Proto {
                inputs: op.inputs.into_iter().map(slot).collect(),
                outputs: op.outputs.into_iter().map(slot).collect(),
                attrs: attrs(op.attrs).map_err(|e| format!("data/{file}: op `{name}`: {e}"))?,
            };
            if out.insert(name, proto).is_some() {
                return Err(format!("data/{file}: op `{name}` is described twice"));
            }
        }
        legacy.extend(json.legacy_attrs);
    }
    // Attributes 1.x declared that Paddle 3.3.1's proto no longer lists
    // (it still honours them), appended to their ops' protos.
    for (op, list) in legacy {
        let proto = out.get_mut(op).ok_or(format!(
            "data/fluidc_ops.json: legacy_attrs of `{op}`, which has no proto"
        ))?;
        for a in attrs(list).map_err(|e| format!("data/fluidc_ops.json: op `{op}`: {e}"))? {
            if proto.attrs.iter().any(|b| b.name == a.name) {
                return Err(format!(
                    "data/fluidc_ops.json: op `{op}` already has attribute `{}`",
                    a.name
                ));
            }
            proto.attrs.push(a);
        }
    }
    Ok(out)
}

fn slot(s: SlotJson) -> SlotDef {
    SlotDef {
        name: s.name,
        duplicable: s.duplicable,
        dispensable: s.dispensable,
        extra: s.extra,
        intermediate: s.intermediate,
    }
}

fn attrs(list: Vec<AttrJson>) -> Result<Vec<AttrDef>, String> {
    list.into_iter()
        .map(|a| {
            let ty = AttrType::from_str_name(&a.ty).ok_or(format!(
                "attribute `{}` has unknown type `{}`",
                a.name, a.ty
            ))?;
            let default = match &a.default {
                None => None,
                Some(v) => {
                    Some(value(ty, v).ok_or(format!("attribute `{}`: bad default {v}", a.name))?)
                }
            };
            Ok(AttrDef {
                name: a.name,
                ty,
                default,
                extra: a.extra,
            })
        })
        .collect()
}

/// A JSON default as an attribute value of type `ty`.
fn value(ty: AttrType, v: &Value) -> Option<AttrValue> {
    use AttrType as T;
    let list = || v.as_array().map(Vec::as_slice);
    let num = |v: &Value| {
        v.as_f64()
            .or_else(|| v.as_str().filter(|s| *s == "nan").map(|_| f64::NAN))
    };
    Some(match ty {
        T::Int => AttrValue::Int(i32::try_from(v.as_i64()?).ok()?),
        T::Long => AttrValue::Long(v.as_i64()?),
        T::Float => AttrValue::Float(num(v)? as f32),
        T::Float64 => AttrValue::Float64(num(v)?),
        T::String => AttrValue::String(v.as_str()?.to_string()),
        T::Boolean => AttrValue::Bool(v.as_bool()?),
        T::Ints => AttrValue::Ints(
            list()?
                .iter()
                .map(|x| x.as_i64().and_then(|x| i32::try_from(x).ok()))
                .collect::<Option<_>>()?,
        ),
        T::Longs => AttrValue::Longs(list()?.iter().map(Value::as_i64).collect::<Option<_>>()?),
        T::Floats => AttrValue::Floats(
            list()?
                .iter()
                .map(|x| num(x).map(|f| f as f32))
                .collect::<Option<_>>()?,
        ),
        T::Float64s => AttrValue::Float64s(list()?.iter().map(num).collect::<Option<_>>()?),
        T::Strings => AttrValue::Strings(
            list()?
                .iter()
                .map(|x| x.as_str().map(str::to_string))
                .collect::<Option<_>>()?,
        ),
        T::Booleans => AttrValue::Bools(list()?.iter().map(Value::as_bool).collect::<Option<_>>()?),
        // Lists of scalars, blocks and variables default to empty.
        T::Scalars if list()?.is_empty() => AttrValue::Scalars(Vec::new()),
        T::Blocks if list()?.is_empty() => AttrValue::Blocks(Vec::new()),
        T::Vars if list()?.is_empty() => AttrValue::Vars(Vec::new()),
        _ => return None,
    })
}
