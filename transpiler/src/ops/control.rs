//! Ops that run blocks (`while`, `conditional_block`, their grads, 1.x's
//! `recurrent`, `go`, `select` and fluidc's select node) and the 2018 CSP
//! channel ops.
use super::infer::{unknown, Out, TensorType};
use super::{Behaviour, Effect, InferCtx, Writes};
use crate::model::{dtype_name, VarKind};

pub(super) fn register(r: &mut Vec<Behaviour>) {
    let blocks = |ty| {
        Behaviour::pure(ty, unknown)
            .effect(Effect::Blocks)
            .writes(Writes::Partial)
            .no_infer()
    };
    r.push(blocks("while"));
    // 1.x's StaticRNN as saved (runtime/src/recurrent.rs runs its forward).
    r.push(blocks("recurrent"));
    // Their grads run grad blocks over the scopes the forward ops kept.
    r.push(blocks("while_grad"));
    r.push(blocks("conditional_block_grad"));
    // 2018 programs name the condition `X` and the inputs `Params`.
    r.push(blocks("conditional_block").legacy_slots(&[("X", "Cond"), ("Params", "Input")]));
    // A goroutine and a select communicate: never removed, whatever their
    // blocks hold.
    r.push(blocks("go").effect(Effect::World));
    r.push(blocks("select").effect(Effect::World));
    r.push(blocks(crate::SELECT_NODE).effect(Effect::World));
    let world = |ty, infer| Behaviour::pure(ty, infer).effect(Effect::World);
    r.push(world("channel_create", unknown).no_infer());
    r.push(world("channel_send", channel_send));
    r.push(world("channel_recv", channel_recv));
    r.push(world("channel_close", unknown).no_infer());
}

/// What is sent must be of the channel's element type (a channel variable's
/// type is its element type, see [`InferCtx::new`]).
fn channel_send(c: &InferCtx) -> Out {
    if let (Some(ch), Some(x)) = (c.input("Channel"), c.input("X")) {
        if ch.dtype != x.dtype {
            return Err(format!(
                "the channel carries {} but X is {}; send a value of the channel's type",
                dtype_name(ch.dtype),
                dtype_name(x.dtype)
            ));
        }
    }
    Ok(Vec::new())
}

/// `Out` receives the channel's element type, `Status` is a bool.
fn channel_recv(c: &InferCtx) -> Out {
    let mut out = vec![("Status", TensorType::new(VarKind::Bool, vec![1]))];
    if let Some(ch) = c.input("Channel") {
        out.push(("Out", TensorType::new(ch.dtype, Vec::new())));
    }
    Ok(out)
}
