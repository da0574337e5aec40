//! `fluid.nets`: Paddle 1.x's composite layers, built from the layers they
//! call (through [`call_layer`], so the names and ops are the layers'
//! own): `simple_img_conv_pool` (conv2d then pool2d) and
//! `sequence_conv_pool` (sequence_conv then sequence_pool).
//! `use_cudnn` and 2018's `use_mkldnn` pick Paddle's GPU and MKL-DNN
//! kernels, which compute the same values; on the CPU they change
//! nothing, in Paddle as in fluidc.
use super::builtin::{builtin, call_layer, Args, Builtin, Rest, D};
use crate::front::diag::Result;
use crate::front::host::Host;
use crate::front::value::Value;

use D::*;

pub const BUILTINS: &[Builtin] = &[
    builtin!(
        ["fluid.nets.simple_img_conv_pool"],
        [
            ("input", Req),
            ("num_filters", Req),
            ("filter_size", Req),
            ("pool_size", Req),
            ("pool_stride", Req),
            ("pool_padding", Int(0)),
            ("pool_type", Str("max")),
            ("global_pooling", Bool(false)),
            ("conv_stride", Int(1)),
            ("conv_padding", Int(0)),
            ("conv_dilation", Int(1)),
            ("conv_groups", Int(1)),
            ("param_attr", Nil),
            ("bias_attr", Nil),
            ("act", Nil),
            ("use_cudnn", Bool(true)),
            ("use_mkldnn", Bool(false))
        ],
        Rest::No,
        simple_img_conv_pool
    ),
    builtin!(
        ["fluid.nets.sequence_conv_pool"],
        [
            ("input", Req),
            ("num_filters", Req),
            ("filter_size", Req),
            ("param_attr", Nil),
            ("act", Str("sigmoid")),
            ("pool_type", Str("max")),
            ("bias_attr", Nil)
        ],
        Rest::No,
        sequence_conv_pool
    ),
];

/// The arguments `names` as keyword arguments, renamed by `to` where a
/// layer calls them otherwise.
fn pass(a: &Args, names: &[(&'static str, &'static str)]) -> Vec<(&'static str, Value)> {
    names
        .iter()
        .map(|&(from, to)| (to, a.get(from).clone()))
        .collect()
}

fn simple_img_conv_pool(i: &mut Host, a: &mut Args) -> Result<Value> {
    let conv = pass(
        a,
        &[
            ("input", "input"),
            ("num_filters", "num_filters"),
            ("filter_size", "filter_size"),
            ("conv_stride", "stride"),
            ("conv_padding", "padding"),
            ("conv_dilation", "dilation"),
            ("conv_groups", "groups"),
            ("param_attr", "param_attr"),
            ("bias_attr", "bias_attr"),
            ("act", "act"),
            ("use_cudnn", "use_cudnn"),
        ],
    );
    let call = a.call.clone();
    let out = call_layer(i, "fluid.layers.conv2d", conv, &call)?;
    let mut pool = pass(
        a,
        &[
            ("pool_size", "pool_size"),
            ("pool_type", "pool_type"),
            ("pool_stride", "pool_stride"),
            ("pool_padding", "pool_padding"),
            ("global_pooling", "global_pooling"),
            ("use_cudnn", "use_cudnn"),
        ],
    );
    pool.push(("input", out));
    call_layer(i, "fluid.layers.pool2d", pool, &call)
}

fn sequence_conv_pool(i: &mut Host, a: &mut Args) -> Result<Value> {
    let conv = pass(
        a,
        &[
            ("input", "input"),
            ("num_filters", "num_filters"),
            ("filter_size", "filter_size"),
            ("param_attr", "param_attr"),
            ("bias_attr", "bias_attr"),
            ("act", "act"),
        ],
    );
    let call = a.call.clone();
    let out = call_layer(i, "fluid.layers.sequence_conv", conv, &call)?;
    let pool = vec![("input", out), ("pool_type", a.get("pool_type").clone())];
    call_layer(i, "fluid.layers.sequence_pool", pool, &call)
}
