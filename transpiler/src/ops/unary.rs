//! One-input math: activations (`relu6`, `elu`, `pow`, `hard_sigmoid` and
//! `swish` among them), `scale`, `increment`, `softmax`, `clip`,
//! `sign`, `floor`, `ceil`, `cos`, and 1.x's other activations (`sin`,
//! `softplus`, `selu`, `brelu`, `stanh`, the shrinks, `gelu`, ...).
use super::infer::same_as_x;
use super::Behaviour;

pub(super) fn register(r: &mut Vec<Behaviour>) {
    for ty in [
        "relu",
        "sigmoid",
        "tanh",
        "square",
        "sqrt",
        "abs",
        "exp",
        "log",
        "scale",
        "increment",
        "softmax",
        "leaky_relu",
        "relu6",
        "elu",
        "pow",
        "hard_sigmoid",
        "swish",
        "sign",
        "clip",
        "floor",
        "ceil",
        "cos",
        "sin",
        "atan",
        "reciprocal",
        "rsqrt",
        "round",
        "softsign",
        "softplus",
        "logsigmoid",
        "tanh_shrink",
        "softshrink",
        "hard_shrink",
        "thresholded_relu",
        "selu",
        "brelu",
        "stanh",
        "hard_swish",
        "soft_relu",
        "gelu",
    ] {
        // Paddle's ActivationOp (and scale, clip, softmax) share X's LoD.
        r.push(Behaviour::pure(ty, same_as_x).shares_lod("X", "Out"));
    }
}
