//! The executor's ops: `feed`, `fetch` and `print`; the tensor-file ops
//! `save`, `load`, `save_combine`, `load_combine` (they touch files: World);
//! and `py_func`, which calls a Python function of the script's host
//! (World: it may print; its grad, when it has one, is a `py_func` too).
use super::infer::{unknown, TensorType};
use super::{Behaviour, Effect, InferCtx};

pub(super) fn register(r: &mut Vec<Behaviour>) {
    r.push(
        Behaviour::pure("feed", unknown)
            .effect(Effect::World)
            .no_infer(),
    );
    r.push(
        Behaviour::pure("fetch", unknown)
            .effect(Effect::World)
            .no_infer(),
    );
    r.push(Behaviour::pure("print", print).effect(Effect::World));
    // Paddle's InferShape does nothing: the script declares the outputs'
    // shapes and dtypes, and the function's arrays are what they hold.
    r.push(Behaviour::pure("py_func", unknown).effect(Effect::World));
    // A loaded tensor's type is the file's, known only when it runs.
    for ty in ["save", "load", "save_combine", "load_combine"] {
        r.push(
            Behaviour::pure(ty, unknown)
                .effect(Effect::World)
                .no_infer(),
        );
    }
}

/// `Out` passes `In` through.
fn print(c: &InferCtx) -> Result<Vec<(&'static str, TensorType)>, String> {
    Ok(c.input("In")
        .map(|x| ("Out", x.clone()))
        .into_iter()
        .collect())
}
