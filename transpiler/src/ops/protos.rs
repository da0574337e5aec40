//! The proto side of op definitions: slots and attributes as Paddle declares
//! them, read from the JSON that `scripts/dump-op-protos.py` writes.
use std::collections::HashMap;

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

/// Every proto, by op type.
pub(super) fn load() -> Result<HashMap<&'static str, Proto>, String> {
    let mut out = HashMap::new();
    for (file, text) in [("op_protos.json", PADDLE), ("fluidc_ops.json", FLUIDC)] {
        let ops = parse(text).map_err(|e| format!("data/{file}: {e}"))?;
        for (name, proto) in ops {
            if out.insert(name, proto).is_some() {
                return Err(format!("data/{file}: op `{name}` is described twice"));
            }
        }
    }
    add_legacy_attrs(&mut out, FLUIDC).map_err(|e| format!("data/fluidc_ops.json: {e}"))?;
    Ok(out)
}

/// Appends the attributes `legacy_attrs` lists to their ops' protos: ones
/// 1.x declared that Paddle 3.3.1's proto no longer lists (it still
/// honours them).
fn add_legacy_attrs(protos: &mut HashMap<&'static str, Proto>, text: &str) -> Result<(), String> {
    let json: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let Some(legacy) = json.get("legacy_attrs").and_then(Value::as_object) else {
        return Ok(());
    };
    for (op, list) in legacy {
        let proto = protos
            .get_mut(op.as_str())
            .ok_or(format!("legacy_attrs of `{op}`, which has no proto"))?;
        let added =
            attrs(&serde_json::json!({ "attrs": list })).map_err(|e| format!("op `{op}`: {e}"))?;
        for a in added {
            if proto.attrs.iter().any(|b| b.name == a.name) {
                return Err(format!("op `{op}` already has attribute `{}`", a.name));
            }
            proto.attrs.push(a);
        }
    }
    Ok(())
}

fn parse(text: &'static str) -> Result<Vec<(&'static str, Proto)>, String> {
    let json: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let ops = json
        .get("ops")
        .and_then(Value::as_object)
        .ok_or("no `ops` object")?;
    // The op names must live as long as the registry: leak them once (the
    // registry is built once per process).
    ops.iter()
        .map(|(name, op)| {
            let proto = Proto {
                inputs: slots(op, "inputs")?,
                outputs: slots(op, "outputs")?,
                attrs: attrs(op).map_err(|e| format!("op `{name}`: {e}"))?,
            };
            Ok((&*Box::leak(name.clone().into_boxed_str()), proto))
        })
        .collect()
}

fn flag(v: &Value, key: &str) -> bool {
    v.get(key).and_then(Value::as_bool).unwrap_or(false)
}

fn slots(op: &Value, key: &str) -> Result<Vec<SlotDef>, String> {
    let list = op
        .get(key)
        .and_then(Value::as_array)
        .ok_or(format!("no `{key}` list"))?;
    list.iter()
        .map(|s| {
            Ok(SlotDef {
                name: s
                    .get("name")
                    .and_then(Value::as_str)
                    .ok_or("a slot without a name")?
                    .to_string(),
                duplicable: flag(s, "duplicable"),
                dispensable: flag(s, "dispensable"),
                extra: flag(s, "extra"),
                intermediate: flag(s, "intermediate"),
            })
        })
        .collect()
}

fn attrs(op: &Value) -> Result<Vec<AttrDef>, String> {
    let list = op
        .get("attrs")
        .and_then(Value::as_array)
        .ok_or("no `attrs` list")?;
    list.iter()
        .map(|a| {
            let name = a
                .get("name")
                .and_then(Value::as_str)
                .ok_or("an attribute without a name")?;
            let ty_name = a.get("type").and_then(Value::as_str).unwrap_or_default();
            let ty = AttrType::from_str_name(ty_name)
                .ok_or(format!("attribute `{name}` has unknown type `{ty_name}`"))?;
            let default = match a.get("default") {
                None => None,
                Some(v) => {
                    Some(value(ty, v).ok_or(format!("attribute `{name}`: bad default {v}"))?)
                }
            };
            Ok(AttrDef {
                name: name.to_string(),
                ty,
                default,
                extra: flag(a, "extra"),
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
