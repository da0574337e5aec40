//! Output targets. fluidc's program model uses Paddle 3's spelling; the
//! `fluid2018` target rewrites it into the 2018 form that seed 000 shows:
//! `conditional_block` inputs `X`/`Params` instead of `Cond`/`Input`, and
//! `fill_constant` with `shape` as INTS and no `str_value`; the collective
//! ops as `c_allreduce_sum` and `c_broadcast`.
use crate::model::{AttrValue, Program};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Target {
    /// What PaddlePaddle 3.x loads and runs (the default).
    #[default]
    Paddle3,
    /// The 2018 Fluid form, as seed 000 prints it.
    Fluid2018,
}

/// Rewrites a (Paddle 3 form) program for `target`.
pub fn retarget(mut program: Program, target: Target) -> Program {
    if target == Target::Paddle3 {
        return program;
    }
    for op in program.blocks.iter_mut().flat_map(|b| b.ops.iter_mut()) {
        match op.ty.as_str() {
            "conditional_block" => {
                for slot in &mut op.inputs {
                    match slot.parameter.as_str() {
                        "Cond" => slot.parameter = "X".into(),
                        "Input" => slot.parameter = "Params".into(),
                        _ => {}
                    }
                }
            }
            "fill_constant" => {
                if let Some(AttrValue::Longs(shape)) = op.get_attr("shape").cloned() {
                    let ints = shape
                        .iter()
                        .map(|d| i32::try_from(*d).unwrap_or(i32::MAX))
                        .collect();
                    op.set_attr("shape", AttrValue::Ints(ints));
                }
                op.attrs.retain(|a| a.name != "str_value");
            }
            // The collective ops of `distribute`: 1.x spelt them
            // c_allreduce_sum and c_broadcast, with upper-case slots.
            "all_reduce" | "broadcast" => {
                op.ty = if op.ty == "all_reduce" {
                    "c_allreduce_sum"
                } else {
                    "c_broadcast"
                }
                .into();
                for slot in op.inputs.iter_mut().chain(op.outputs.iter_mut()) {
                    slot.parameter = slot.parameter.to_uppercase();
                }
                op.attrs.retain(|a| a.name != "reduce_type");
            }
            _ => {}
        }
    }
    program
}
