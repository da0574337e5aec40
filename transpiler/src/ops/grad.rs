//! Gradient makers (docs/training.md): which grad ops an op's backward emits and
//! how their slots and attributes come from the forward op.
//!
//! Paddle builds grad ops in C++ (each op's GradOpMaker), so fluidc does not
//! restate them: `scripts/dump-grad-makers.py` asks Paddle 3.3.1 for the
//! grad ops of every op in `data/op_protos.json` and records how each grad
//! slot maps back to the forward op (`data/grad_makers.json`, checked against
//! the venv by an interop test). This module reads that data, makes the
//! grad ops of a concrete forward op ([`GradMaker::make`]), and derives the
//! definitions of the `*_grad` op types, which have no proto of their own:
//! their slots are the maker's, their attributes the forward op's.
use std::collections::HashMap;

use serde_json::Value;

use super::protos::{AttrDef, Proto, SlotDef};
use crate::model::{Attr, AttrValue, Op, Slot};

const DATA: &str = include_str!("../../data/grad_makers.json");
/// The makers of `data/fluidc_ops.json`'s ops that had one in Paddle 1.x.
const FLUIDC: &str = include_str!("../../data/fluidc_grad_makers.json");

/// Paddle's suffix for a gradient variable.
pub const GRAD_SUFFIX: &str = "@GRAD";

/// Paddle's placeholder for an argument with no variable.
pub const EMPTY_VAR: &str = "@EMPTY@";

/// What an op's backward is.
#[derive(Debug, Clone, PartialEq)]
pub enum GradMaker {
    /// Paddle has no grad maker: the op cannot be on a gradient path.
    None,
    /// The maker makes nothing: the op stops gradients (`fill_constant`,
    /// comparisons, `accuracy`); `append_backward` leaves it off the path.
    Empty,
    /// The op runs sub-blocks; its grad is built with its blocks' grads.
    Blocks,
    /// `py_func`'s maker, which reads the op's attributes: no grad op while
    /// `backward_callable_id` is negative, else one `py_func` calling that
    /// callable (`crate::backward` makes it, as Paddle's C++ maker).
    PyFunc,
    /// The grad ops, in the order the maker makes them.
    Ops(Vec<GradOpSpec>),
}

/// Where a grad op's slot takes its arguments from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    In,
    Out,
    InGrad,
    OutGrad,
}

/// One reference: all arguments of a forward slot (or, with `each`, the
/// argument at hand of a per-argument maker).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SlotRef {
    pub source: Source,
    pub slot: String,
    pub each: bool,
}

/// How a grad op sets an attribute besides copying the forward op's.
#[derive(Debug, Clone, PartialEq)]
pub enum AttrRule {
    Value(AttrValue),
    From(String),
    Neg(String),
}

/// One grad op a maker emits.
#[derive(Debug, Clone, PartialEq)]
pub struct GradOpSpec {
    pub ty: String,
    pub inputs: Vec<(String, Vec<SlotRef>)>,
    pub outputs: Vec<(String, Vec<SlotRef>)>,
    pub attrs: Vec<(String, AttrRule)>,
    /// Forward attributes the grad op does not copy.
    pub drops: Vec<String>,
    /// One grad op per argument of this forward slot (`sum`'s maker).
    pub each: Option<String>,
    /// Output slots that keep `@EMPTY@` for an unwanted input gradient
    /// (`InputGrad(name, false)`), so that their arguments stay position
    /// for position with the forward input's (concat's `X@GRAD`); other
    /// slots leave such a name out.
    pub keeps_empty: Vec<String>,
}

/// Every op's grad maker, by forward op type.
pub(super) fn load() -> Result<HashMap<String, GradMaker>, String> {
    let mut out = HashMap::new();
    for (file, text) in [
        ("grad_makers.json", DATA),
        ("fluidc_grad_makers.json", FLUIDC),
    ] {
        let json: Value = serde_json::from_str(text).map_err(|e| format!("data/{file}: {e}"))?;
        let ops = json
            .get("ops")
            .and_then(Value::as_object)
            .ok_or(format!("data/{file}: no `ops` object"))?;
        for (name, v) in ops {
            let maker = parse_maker(v).map_err(|e| format!("{file}: `{name}`: {e}"))?;
            if out.insert(name.clone(), maker).is_some() {
                return Err(format!("data/{file}: `{name}` has two grad makers"));
            }
        }
    }
    Ok(out)
}

fn parse_maker(v: &Value) -> Result<GradMaker, String> {
    match v {
        Value::String(s) => match s.as_str() {
            "none" => Ok(GradMaker::None),
            "empty" => Ok(GradMaker::Empty),
            "blocks" => Ok(GradMaker::Blocks),
            "py_func" => Ok(GradMaker::PyFunc),
            other => Err(format!("unknown maker `{other}`")),
        },
        Value::Array(ops) => ops
            .iter()
            .map(parse_spec)
            .collect::<Result<_, _>>()
            .map(GradMaker::Ops),
        _ => Err("a maker is a string or a list".into()),
    }
}

fn parse_spec(v: &Value) -> Result<GradOpSpec, String> {
    let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
    let slots = |k: &str| -> Result<Vec<(String, Vec<SlotRef>)>, String> {
        let obj = v
            .get(k)
            .and_then(Value::as_object)
            .ok_or(format!("no `{k}`"))?;
        obj.iter()
            .map(|(slot, refs)| {
                let refs = refs.as_array().ok_or("refs are a list")?;
                let refs = refs.iter().map(parse_ref).collect::<Result<_, _>>()?;
                Ok((slot.clone(), refs))
            })
            .collect()
    };
    let attrs = v
        .get("attrs")
        .and_then(Value::as_object)
        .ok_or("no `attrs`")?
        .iter()
        .map(|(name, rule)| {
            let rule = match rule {
                Value::Object(o) if o.contains_key("from") => {
                    AttrRule::From(o["from"].as_str().unwrap_or_default().to_string())
                }
                Value::Object(o) if o.contains_key("neg") => {
                    AttrRule::Neg(o["neg"].as_str().unwrap_or_default().to_string())
                }
                Value::Bool(b) => AttrRule::Value(AttrValue::Bool(*b)),
                Value::Number(n) if n.is_f64() => {
                    AttrRule::Value(AttrValue::Float(n.as_f64().unwrap_or(0.0) as f32))
                }
                Value::Number(n) => AttrRule::Value(AttrValue::Int(n.as_i64().unwrap_or(0) as i32)),
                Value::String(s) => AttrRule::Value(AttrValue::String(s.clone())),
                other => return Err(format!("attribute `{name}`: cannot read {other}")),
            };
            Ok((name.clone(), rule))
        })
        .collect::<Result<_, String>>()?;
    let names = |k: &str| -> Vec<String> {
        v.get(k)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default()
    };
    Ok(GradOpSpec {
        ty: s("type").ok_or("no `type`")?,
        inputs: slots("inputs")?,
        outputs: slots("outputs")?,
        attrs,
        drops: names("drops"),
        each: s("each"),
        keeps_empty: names("keeps_empty"),
    })
}

fn parse_ref(v: &Value) -> Result<SlotRef, String> {
    let a = v.as_array().ok_or("a reference is a list")?;
    let source = match a.first().and_then(Value::as_str) {
        Some("in") => Source::In,
        Some("out") => Source::Out,
        Some("in@GRAD") => Source::InGrad,
        Some("out@GRAD") => Source::OutGrad,
        other => return Err(format!("unknown source {other:?}")),
    };
    let slot = a
        .get(1)
        .and_then(Value::as_str)
        .ok_or("no slot")?
        .to_string();
    Ok(SlotRef {
        source,
        slot,
        each: a.len() == 3,
    })
}

/// The proto of a `*_grad` op type, from the forward op's proto and the
/// maker: inputs and outputs as the maker binds them (each may be empty:
/// Paddle leaves out what no one needs), the forward attributes it copies.
pub(super) fn grad_proto(forward: &Proto, spec: &GradOpSpec) -> Proto {
    let dup = |r: &[SlotRef]| {
        r.len() > 1
            || r.iter().any(|r| {
                let slots = match r.source {
                    Source::In | Source::InGrad => &forward.inputs,
                    Source::Out | Source::OutGrad => &forward.outputs,
                };
                slots.iter().any(|s| s.name == r.slot && s.duplicable)
            })
    };
    let slots = |list: &[(String, Vec<SlotRef>)]| {
        list.iter()
            .map(|(name, refs)| SlotDef {
                name: name.clone(),
                duplicable: dup(refs),
                dispensable: true,
                extra: false,
                intermediate: false,
            })
            .collect()
    };
    let mut attrs: Vec<AttrDef> = forward
        .attrs
        .iter()
        .filter(|a| !spec.drops.contains(&a.name))
        .cloned()
        .collect();
    for (name, rule) in &spec.attrs {
        if attrs.iter().all(|a| &a.name != name) {
            if let AttrRule::Value(v) = rule {
                if let Ok(ty) = crate::model::AttrType::try_from(v.type_number()) {
                    attrs.push(AttrDef {
                        name: name.clone(),
                        ty,
                        default: None,
                        extra: false,
                    });
                }
            }
        }
    }
    Proto {
        inputs: slots(&spec.inputs),
        outputs: slots(&spec.outputs),
        attrs,
    }
}

impl GradOpSpec {
    /// The grad ops for forward op `fwd` (one, or one per argument of the
    /// `each` slot). `grad_name(v)` names the gradient of forward variable
    /// `v`, or `None` when no gradient is wanted for it (stop_gradient,
    /// no_grad_set): Paddle's makers then bind nothing there.
    pub fn make(&self, fwd: &Op, grad_name: &dyn Fn(&str) -> Option<String>) -> Vec<Op> {
        let count = match &self.each {
            Some(slot) => fwd.inputs_of(slot).len(),
            None => 1,
        };
        (0..count)
            .map(|k| self.make_one(fwd, k, grad_name))
            .collect()
    }

    fn make_one(&self, fwd: &Op, k: usize, grad_name: &dyn Fn(&str) -> Option<String>) -> Op {
        // `keep`: an unwanted input gradient is `@EMPTY@` rather than left out.
        let args = |refs: &[SlotRef], is_output: bool, keep: bool| -> Vec<String> {
            let mut out = Vec::new();
            for r in refs {
                let names = match r.source {
                    Source::In | Source::InGrad => fwd.inputs_of(&r.slot),
                    Source::Out | Source::OutGrad => fwd.outputs_of(&r.slot),
                };
                let names: Vec<&String> = if r.each {
                    names.get(k).into_iter().collect()
                } else {
                    names.iter().collect()
                };
                for n in names {
                    match r.source {
                        Source::In | Source::Out => out.push(n.clone()),
                        // An input gradient is always named; an output
                        // gradient nobody wants is left out (the maker's
                        // InputGrad drops names in the no-grad set).
                        Source::OutGrad => out.push(format!("{n}{GRAD_SUFFIX}")),
                        Source::InGrad => {
                            if let Some(g) = grad_name(n) {
                                out.push(g);
                            } else if !is_output {
                                out.push(format!("{n}{GRAD_SUFFIX}"));
                            } else if keep {
                                out.push(EMPTY_VAR.to_string());
                            }
                        }
                    }
                }
            }
            out
        };
        let mut op = Op::new(self.ty.as_str());
        op.inputs = self
            .inputs
            .iter()
            .map(|(s, refs)| Slot::new(s.clone(), args(refs, false, false)))
            .collect();
        op.outputs = self
            .outputs
            .iter()
            .map(|(s, refs)| Slot::new(s.clone(), args(refs, true, self.keeps_empty.contains(s))))
            .collect();
        op.attrs = fwd
            .attrs
            .iter()
            .filter(|a| !self.drops.iter().any(|d| d == a.name))
            .cloned()
            .collect();
        for (name, rule) in &self.attrs {
            let value = match rule {
                AttrRule::Value(v) => Some(v.clone()),
                AttrRule::From(src) => fwd.get_attr(src).cloned(),
                AttrRule::Neg(src) => match fwd.get_attr(src) {
                    Some(AttrValue::Float(f)) => Some(AttrValue::Float(-f)),
                    Some(AttrValue::Int(i)) => Some(AttrValue::Int(-i)),
                    other => other.cloned(),
                },
            };
            if let Some(value) = value {
                match op.attrs.iter_mut().find(|a| a.name == name) {
                    Some(a) => a.value = value,
                    None => op.attrs.push(Attr {
                        name: crate::model::intern(name),
                        value,
                    }),
                }
            }
        }
        op
    }
}
