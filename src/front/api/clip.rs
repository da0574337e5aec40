//! Gradient clipping (SPEC §9.2): `fluid.clip.GradientClipByValue`,
//! `ByNorm` and `ByGlobalNorm`, set on parameters by
//! `fluid.clip.set_gradient_clip`, and applied by `minimize` as Paddle
//! 3.3.1's `append_gradient_clip_ops` applies them: each parameter's clip
//! first sees its gradient (`_process_context`), then makes the clipped
//! gradient (`_create_operators`), each step in its own name scope
//! `/gradient_clip_N/` with `op_role` Optimize; finally every clip op's
//! `op_role_var` names the clipped gradient. ByGlobalNorm is 1.x's (Paddle
//! 3.3.1's own cannot build in legacy static mode): per gradient `square`
//! and `reduce_sum`, then `sum`, `sqrt`, `elementwise_max` with a `[1]`
//! `fill_constant` of clip_norm, `elementwise_div`, and each gradient
//! `elementwise_mul`'d by that scale.
use std::collections::HashMap;

use fluidc_transpiler::backward::role;
use fluidc_transpiler::{AttrValue, Op, VarKind};

use super::builtin::{builtin, Args, Builtin, Rest, D};
use super::conv::append_inferred;
use super::layer::{append_sum, dims, dtype_of};
use super::math::elementwise;
use super::tensor::fill_constant;
use crate::front::diag::Result;
use crate::front::host::Host;
use crate::front::value::{Object, Value, VarRef};

use D::*;

/// A gradient clip.
#[derive(Debug, Clone, PartialEq)]
pub enum Clip {
    Value { min: f64, max: f64 },
    Norm { clip_norm: f64 },
    GlobalNorm { clip_norm: f64, group: String },
}

fn clip_value(c: Clip) -> Result<Value> {
    Ok(Value::object(Object::GradientClip(c)))
}

pub const BUILTINS: &[Builtin] = &[
    builtin!(
        ["fluid.clip.GradientClipByValue"],
        [("max", Req), ("min", Nil), ("need_clip", Nil)],
        Rest::No,
        |_, a| {
            let max = a.float("max")?;
            let min = if a.is_none("min") {
                -max
            } else {
                a.float("min")?
            };
            no_need_clip(a)?;
            clip_value(Clip::Value { min, max })
        }
    ),
    builtin!(
        ["fluid.clip.GradientClipByNorm"],
        [("clip_norm", Req), ("need_clip", Nil)],
        Rest::No,
        |_, a| {
            no_need_clip(a)?;
            clip_value(Clip::Norm {
                clip_norm: a.float("clip_norm")?,
            })
        }
    ),
    builtin!(
        ["fluid.clip.GradientClipByGlobalNorm"],
        [
            ("clip_norm", Req),
            ("group_name", Str("default_group")),
            ("need_clip", Nil)
        ],
        Rest::No,
        |_, a| {
            no_need_clip(a)?;
            clip_value(Clip::GlobalNorm {
                clip_norm: a.float("clip_norm")?,
                group: a.string("group_name")?,
            })
        }
    ),
    builtin!(
        ["fluid.clip.set_gradient_clip"],
        [("clip", Req), ("param_list", Nil), ("program", Nil)],
        Rest::No,
        set_gradient_clip
    ),
];

/// A `grad_clip=` argument: None or a `fluid.clip.GradientClipBy*`.
pub fn clip_arg(a: &Args, name: &str) -> Result<Option<Clip>> {
    match a.get(name) {
        Value::None => Ok(None),
        Value::Object(o) => match o.as_ref() {
            Object::GradientClip(c) => Ok(Some(c.clone())),
            _ => Err(a.err(name, format!("{name} must be a fluid.clip.GradientClipBy*"))),
        },
        _ => Err(a.err(name, format!("{name} must be a fluid.clip.GradientClipBy*"))),
    }
}

fn no_need_clip(a: &Args) -> Result<()> {
    if a.is_none("need_clip") {
        Ok(())
    } else {
        Err(a.err(
            "need_clip",
            "need_clip is not supported yet; use set_gradient_clip's param_list",
        ))
    }
}

/// `set_gradient_clip(clip, param_list=None, program=None)`: the clip of
/// the listed parameters (by name or Variable), else of every parameter of
/// the program (the default main program).
fn set_gradient_clip(i: &mut Host, a: &mut Args) -> Result<Value> {
    let clip = match a.get("clip") {
        Value::Object(o) => match o.as_ref() {
            Object::GradientClip(c) => c.clone(),
            _ => return Err(a.err("clip", "clip must be a fluid.clip.GradientClipBy*")),
        },
        _ => return Err(a.err("clip", "clip must be a fluid.clip.GradientClipBy*")),
    };
    let program = match a.get("program") {
        Value::None => i.b.main,
        Value::Object(o) => match o.as_ref() {
            Object::Program(p) => *p,
            _ => return Err(a.err("program", "program must be a fluid.Program")),
        },
        _ => return Err(a.err("program", "program must be a fluid.Program")),
    };
    let names: Vec<String> = match a.get("param_list") {
        Value::None => {
            i.b.block(program, 0)
                .vars
                .iter()
                .filter(|v| v.is_parameter == Some(true))
                .map(|v| v.name.clone())
                .collect()
        }
        Value::List(l) => l
            .borrow()
            .iter()
            .map(|v| match v {
                Value::Var(r) => Ok(r.name.to_string()),
                Value::Str(s) => Ok(s.to_string()),
                other => Err(a.err(
                    "param_list",
                    format!(
                        "param_list holds Variables or names, not {}",
                        other.type_name()
                    ),
                )),
            })
            .collect::<Result<_>>()?,
        other => {
            return Err(a.err(
                "param_list",
                format!("param_list must be a list, not {}", other.type_name()),
            ))
        }
    };
    for n in names {
        match i.b.params.get_mut(&n) {
            Some(info) => info.clip = Some(clip.clone()),
            None => {
                return Err(a.err(
                    "param_list",
                    format!("`{n}` is not a parameter fluidc created"),
                ))
            }
        }
    }
    Ok(Value::None)
}

/// Sets the guard attributes of `_optimized_guard([p, g])` inside
/// `name_scope('gradient_clip')`.
fn guard(i: &mut Host, p: &str, g: &str) {
    let scope = i.b.unique_scope("gradient_clip");
    i.b.op_guard = vec![
        ("op_role".into(), AttrValue::Int(role::OPTIMIZE)),
        (
            "op_role_var".into(),
            AttrValue::Strings(vec![p.to_string(), g.to_string()]),
        ),
        (
            "op_namescope".into(),
            AttrValue::String(format!("/{scope}/")),
        ),
    ];
}

fn var(program: usize, name: &str) -> VarRef {
    VarRef {
        program,
        block: 0,
        name: name.into(),
    }
}

/// One-input layer op `ty` into a fresh `<ty>_N.tmp_0` (1.x LayerHelper).
fn unary(
    i: &mut Host,
    a: &Args,
    ty: &str,
    x: &VarRef,
    attrs: Vec<(&str, AttrValue)>,
) -> Result<VarRef> {
    let helper = i.b.helper_name(ty);
    let out = i.b.tmp_var(&helper, dtype_of(i, x), dims(i, x));
    let mut op = Op::new(ty)
        .input("X", &[&x.name])
        .output("Out", &[&out.name]);
    for (n, v) in attrs {
        op = op.attr(n, v);
    }
    append_inferred(i, op, a)?;
    Ok(out)
}

/// An optimizer's `grad_clip=` (`ClipGradBase._static_clip`): one name
/// scope `/gradient_clip/` for all of it, each op under its pair's
/// `_optimized_guard`; the global norm's shared ops under the last pair's.
pub fn static_clip(
    i: &mut Host,
    a: &Args,
    program: usize,
    pairs: Vec<(String, String)>,
    clip: &Clip,
) -> Result<Vec<(String, String)>> {
    let scope = format!("/{}/", i.b.unique_scope("gradient_clip"));
    let result = static_clip_ops(i, a, program, &pairs, clip, &scope);
    i.b.op_guard.clear();
    let out = result?;
    correct_role_var(i, program, &out);
    Ok(out)
}

fn set_guard(i: &mut Host, p: &str, g: &str, scope: &str) {
    i.b.op_guard = vec![
        ("op_role".into(), AttrValue::Int(role::OPTIMIZE)),
        (
            "op_role_var".into(),
            AttrValue::Strings(vec![p.to_string(), g.to_string()]),
        ),
        ("op_namescope".into(), AttrValue::String(scope.to_string())),
    ];
}

fn static_clip_ops(
    i: &mut Host,
    a: &Args,
    program: usize,
    pairs: &[(String, String)],
    clip: &Clip,
    scope: &str,
) -> Result<Vec<(String, String)>> {
    let mut out = Vec::with_capacity(pairs.len());
    match clip {
        Clip::Value { min, max } => {
            for (p, g) in pairs {
                set_guard(i, p, g, scope);
                let attrs = vec![
                    ("min", AttrValue::Float(*min as f32)),
                    ("max", AttrValue::Float(*max as f32)),
                ];
                let n = unary(i, a, "clip", &var(program, g), attrs)?;
                out.push((p.clone(), n.name.to_string()));
            }
        }
        Clip::Norm { clip_norm } => {
            for (p, g) in pairs {
                set_guard(i, p, g, scope);
                let attrs = vec![("max_norm", AttrValue::Float(*clip_norm as f32))];
                let n = unary(i, a, "clip_by_norm", &var(program, g), attrs)?;
                out.push((p.clone(), n.name.to_string()));
            }
        }
        Clip::GlobalNorm { clip_norm, .. } => {
            let mut sums = Vec::new();
            for (p, g) in pairs {
                set_guard(i, p, g, scope);
                let square = unary(i, a, "square", &var(program, g), vec![])?;
                sums.push(reduce_all(i, a, &square)?);
            }
            let Some((lp, lg)) = pairs.last() else {
                return Ok(out);
            };
            set_guard(i, lp, lg, scope);
            let total = sum_of(i, &sums);
            let norm = unary(i, a, "sqrt", &total, vec![])?;
            let c = fill_constant(i, vec![1], VarKind::Fp32, *clip_norm, false, None);
            let max = elementwise(i, "elementwise_max", &c, &norm, -1, None);
            let scale = elementwise(i, "elementwise_div", &c, &max, -1, None);
            for (p, g) in pairs {
                set_guard(i, p, g, scope);
                let n = elementwise(i, "elementwise_mul", &var(program, g), &scale, -1, None);
                out.push((p.clone(), n.name.to_string()));
            }
        }
    }
    Ok(out)
}

/// `reduce_sum` of every element (1.x `reduce_sum(x)`).
fn reduce_all(i: &mut Host, a: &Args, x: &VarRef) -> Result<VarRef> {
    unary(
        i,
        a,
        "reduce_sum",
        x,
        vec![
            ("dim", AttrValue::Ints(vec![0])),
            ("keep_dim", AttrValue::Bool(false)),
            ("reduce_all", AttrValue::Bool(true)),
        ],
    )
}

/// 1.x `sums(xs)`: one `sum` into `sum_N.tmp_0`.
fn sum_of(i: &mut Host, xs: &[VarRef]) -> VarRef {
    let helper = i.b.helper_name("sum");
    let (dtype, d) = match xs.first() {
        Some(f) => (dtype_of(i, f), dims(i, f)),
        None => (VarKind::Fp32, vec![]),
    };
    let total = i.b.tmp_var(&helper, dtype, d);
    append_sum(i, xs, &total);
    total
}

/// `_correct_clip_op_role_var`: every op in a gradient-clip name scope
/// names its parameter's clipped gradient.
fn correct_role_var(i: &mut Host, program: usize, out: &[(String, String)]) {
    let renamed: HashMap<&str, &str> = out.iter().map(|(p, g)| (p.as_str(), g.as_str())).collect();
    for op in &mut i.b.programs[program].program.blocks[0].ops {
        let in_clip = matches!(op.get_attr("op_namescope"), Some(AttrValue::String(s)) if s.contains("gradient_clip"));
        let param = match op.get_attr("op_role_var") {
            Some(AttrValue::Strings(v)) if in_clip && !v.is_empty() => v[0].clone(),
            _ => continue,
        };
        if let Some(g) = renamed.get(param.as_str()) {
            op.set_attr(
                "op_role_var",
                AttrValue::Strings(vec![param.clone(), g.to_string()]),
            );
        }
    }
}

/// `append_gradient_clip_ops` over the (param, grad) pairs of `program`;
/// returns the pairs with the clipped gradients.
pub fn append_gradient_clip_ops(
    i: &mut Host,
    a: &Args,
    program: usize,
    pairs: Vec<(String, String)>,
) -> Result<Vec<(String, String)>> {
    let clips: Vec<Option<Clip>> = pairs
        .iter()
        .map(|(p, _)| i.b.params.get(p).and_then(|info| info.clip.clone()))
        .collect();
    let result = clip_ops(i, a, program, &pairs, &clips);
    i.b.op_guard.clear();
    result
}

fn clip_ops(
    i: &mut Host,
    a: &Args,
    program: usize,
    pairs: &[(String, String)],
    clips: &[Option<Clip>],
) -> Result<Vec<(String, String)>> {
    // Global-norm groups: the clip_norm constant and the squared norms.
    let mut groups: HashMap<String, (VarRef, Vec<VarRef>)> = HashMap::new();
    for ((p, g), clip) in pairs.iter().zip(clips) {
        guard(i, p, g);
        let Some(clip) = clip else {
            // Paddle returns at the first parameter without a clip.
            return Ok(pairs.to_vec());
        };
        if let Clip::GlobalNorm { clip_norm, group } = clip {
            if !groups.contains_key(group) {
                let c = fill_constant(i, vec![1], VarKind::Fp32, *clip_norm, false, None);
                groups.insert(group.clone(), (c, Vec::new()));
            }
            let grad = var(program, g);
            let square = unary(i, a, "square", &grad, vec![])?;
            let sum = reduce_all(i, a, &square)?;
            if let Some(entry) = groups.get_mut(group) {
                entry.1.push(sum);
            }
        }
    }
    let mut scales: HashMap<String, VarRef> = HashMap::new();
    let mut out = Vec::with_capacity(pairs.len());
    for ((p, g), clip) in pairs.iter().zip(clips) {
        guard(i, p, g);
        let grad = var(program, g);
        let new_grad = match clip {
            Some(Clip::Value { min, max }) => unary(
                i,
                a,
                "clip",
                &grad,
                vec![
                    ("min", AttrValue::Float(*min as f32)),
                    ("max", AttrValue::Float(*max as f32)),
                ],
            )?,
            Some(Clip::Norm { clip_norm }) => unary(
                i,
                a,
                "clip_by_norm",
                &grad,
                vec![("max_norm", AttrValue::Float(*clip_norm as f32))],
            )?,
            Some(Clip::GlobalNorm { group, .. }) => {
                if !scales.contains_key(group) {
                    let (clip_var, sums) = groups
                        .get(group)
                        .cloned()
                        .unwrap_or_else(|| (var(program, g), Vec::new()));
                    let total = sum_of(i, &sums);
                    let norm = unary(i, a, "sqrt", &total, vec![])?;
                    let max = elementwise(i, "elementwise_max", &clip_var, &norm, -1, None);
                    let scale = elementwise(i, "elementwise_div", &clip_var, &max, -1, None);
                    scales.insert(group.clone(), scale);
                }
                let scale = scales[group].clone();
                elementwise(i, "elementwise_mul", &grad, &scale, -1, None)
            }
            None => grad.clone(),
        };
        out.push((p.clone(), new_grad.name.to_string()));
    }
    correct_role_var(i, program, &out);
    Ok(out)
}
