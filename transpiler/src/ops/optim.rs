//! Optimizers: `sgd`, `momentum`, `adam`, `adamax`, `adagrad`,
//! `decayed_adagrad`, `ftrl`, `rmsprop`,
//! `adadelta`, `lamb`, and ModelAverage's `average_accumulates`. Each updates its parameter and accumulators in
//! place (`ParamOut` is `Param`): every `XOut` has the type of `X`. They
//! write persistable variables, so prune keeps them; they are never folded.
use super::infer::TensorType;
use super::{Behaviour, InferCtx};

/// Each optimizer's (output, input) slot pairs.
const OPTIMIZERS: &[(&str, &[(&str, &str)])] = &[
    ("sgd", &[("ParamOut", "Param")]),
    (
        "momentum",
        &[("ParamOut", "Param"), ("VelocityOut", "Velocity")],
    ),
    (
        "adam",
        &[
            ("ParamOut", "Param"),
            ("Moment1Out", "Moment1"),
            ("Moment2Out", "Moment2"),
            ("Beta1PowOut", "Beta1Pow"),
            ("Beta2PowOut", "Beta2Pow"),
        ],
    ),
    (
        "adamax",
        &[
            ("ParamOut", "Param"),
            ("MomentOut", "Moment"),
            ("InfNormOut", "InfNorm"),
        ],
    ),
    ("adagrad", &[("ParamOut", "Param"), ("MomentOut", "Moment")]),
    (
        "decayed_adagrad",
        &[("ParamOut", "Param"), ("MomentOut", "Moment")],
    ),
    (
        "ftrl",
        &[
            ("ParamOut", "Param"),
            ("SquaredAccumOut", "SquaredAccumulator"),
            ("LinearAccumOut", "LinearAccumulator"),
        ],
    ),
    (
        "rmsprop",
        &[
            ("ParamOut", "Param"),
            ("MomentOut", "Moment"),
            ("MeanSquareOut", "MeanSquare"),
        ],
    ),
    (
        "adadelta",
        &[
            ("ParamOut", "Param"),
            ("AvgSquaredGradOut", "AvgSquaredGrad"),
            ("AvgSquaredUpdateOut", "AvgSquaredUpdate"),
        ],
    ),
    (
        "lamb",
        &[
            ("ParamOut", "Param"),
            ("Moment1Out", "Moment1"),
            ("Moment2Out", "Moment2"),
        ],
    ),
    // ModelAverage's sums and counts of the parameter (not an update of it).
    (
        "average_accumulates",
        &[
            ("out_sum_1", "in_sum_1"),
            ("out_sum_2", "in_sum_2"),
            ("out_sum_3", "in_sum_3"),
            ("out_num_accumulates", "in_num_accumulates"),
            ("out_old_num_accumulates", "in_old_num_accumulates"),
            ("out_num_updates", "in_num_updates"),
        ],
    ),
];

pub(super) fn register(r: &mut Vec<Behaviour>) {
    for (ty, _) in OPTIMIZERS {
        // adam's outputs for the beta powers came with Paddle 1.7 (1.x's
        // optimizer appended `scale` ops for them), as did every
        // optimizer's MasterParam(Out), adam's Moment2MaxOut and adadelta's
        // LearningRate later: 1.x's op tests and saved programs have none
        // of them.
        let after_1_0: &[&str] = match *ty {
            "adam" => &[
                "Beta1PowOut",
                "Beta2PowOut",
                "Moment2MaxOut",
                "MasterParam",
                "MasterParamOut",
            ],
            // 1.x's adadelta had no learning rate (a step of 1).
            "adadelta" => &["LearningRate", "MasterParam", "MasterParamOut"],
            _ => &["MasterParam", "MasterParamOut"],
        };
        r.push(
            Behaviour::pure(ty, infer)
                .not_foldable()
                .slots_after_1_0(after_1_0),
        );
    }
}

fn infer(c: &InferCtx) -> Result<Vec<(&'static str, TensorType)>, String> {
    let Some((_, pairs)) = OPTIMIZERS.iter().find(|(ty, _)| *ty == c.op.ty) else {
        return Ok(Vec::new());
    };
    if let (Some(p), Some(g)) = (c.input("Param"), c.input("Grad")) {
        super::infer::same_dtype(p, g)?;
    }
    Ok(pairs
        .iter()
        .filter_map(|(out, input)| c.input(input).map(|t| (*out, t.clone())))
        .collect())
}
