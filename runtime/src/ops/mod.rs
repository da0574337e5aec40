//! Op kernels, one module per family, each with a `register_all`.
//!
//! A kernel is built once at load time from an op
//! ([`OpReader`](crate::kernel::OpReader)): the builder parses attributes
//! and resolves variables, and returns an [`Exec`](crate::exec::Exec): either
//! a compute kernel (a closure that reads its inputs from the running
//! frame's variables and writes its outputs) or a control op that the
//! interpreter carries out itself (see `crate::exec`).
//!
//! Families import the kernel interface (`crate::kernel`), `exec`, `scope`,
//! `value`, `tensor` and each other, never this module nor the loader:
//! [`registry`] here lists every family, and only the loader reads it.
pub(crate) mod arg;
pub(crate) mod array;
mod auc;
mod beam_search;
mod bilinear;
mod boxes;
mod chunk_eval;
mod collective;
pub(crate) mod compare;
pub(crate) mod control;
pub(crate) mod conv;
mod conv3d;
mod cos_sim;
mod crf;
mod ctc;
mod cvm;
mod dropout;
pub(crate) mod elementwise;
mod embedding;
mod encoding;
pub(crate) mod fill;
pub(crate) mod float;
mod fpn;
mod hash;
mod interp;
pub(crate) mod io;
pub(crate) mod lod;
mod loss;
pub(crate) mod manip;
mod matching;
pub(crate) mod matmul;
mod metric;
mod norm;
mod one_hot;
pub(crate) mod optim;
mod output;
mod pool;
mod proposal_labels;
pub(crate) mod reduce;
mod rnn_cells;
pub(crate) mod sequence;
mod sequence_edit;
mod sequence_expand;
mod sequence_rnn;
pub(crate) mod slice;
mod split_merge;
pub(crate) mod unary;

use crate::kernel::Registry;

/// A family's `register_all`: adds its kernels.
type RegisterAll = fn(&mut Registry);

/// Every op the runtime implements, built once per process: a load looks
/// kernels up here, and `fold_constants` loads a one-op program for every
/// op it folds, so building the map per load cost more than the fold
/// itself.
pub(crate) fn registry() -> &'static Registry {
    static REGISTRY: std::sync::OnceLock<Registry> = std::sync::OnceLock::new();
    REGISTRY.get_or_init(|| match build() {
        Ok(r) => r,
        // The kernels are part of the binary; a kernel registered twice is
        // a build defect that `every_kernel_is_registered_once` catches.
        Err(twice) => panic!(
            "fluidc's kernels are inconsistent: kernels registered twice: {}",
            twice.join(", ")
        ),
    })
}

/// Every family's kernels; an op type registered twice is refused (the
/// second would silently replace the first): the error lists them.
fn build() -> Result<Registry, Vec<&'static str>> {
    let mut r = Registry::new();
    let families: [(&'static str, RegisterAll); 45] = [
        ("array", array::register_all),
        ("fill", fill::register_all),
        ("elementwise", elementwise::register_all),
        ("compare", compare::register_all),
        ("unary", unary::register_all),
        ("reduce", reduce::register_all),
        ("matmul", matmul::register_all),
        ("io", io::register_all),
        ("optim", optim::register_all),
        ("loss", loss::register_all),
        ("metric", metric::register_all),
        ("embedding", embedding::register_all),
        ("fpn", fpn::register_all),
        ("hash", hash::register_all),
        ("encoding", encoding::register_all),
        ("pool", pool::register_all),
        ("interp", interp::register_all),
        ("dropout", dropout::register_all),
        ("norm", norm::register_all),
        ("conv", conv::register_all),
        ("manip", manip::register_all),
        ("slice", slice::register_all),
        ("lod", lod::register_all),
        ("split_merge", split_merge::register_all),
        ("sequence", sequence::register_all),
        ("sequence_edit", sequence_edit::register_all),
        ("rnn_cells", rnn_cells::register_all),
        ("cos_sim", cos_sim::register_all),
        ("crf", crf::register_all),
        ("cvm", cvm::register_all),
        ("ctc", ctc::register_all),
        ("beam_search", beam_search::register_all),
        ("bilinear", bilinear::register_all),
        ("boxes", boxes::register_all),
        ("proposal_labels", proposal_labels::register_all),
        ("chunk_eval", chunk_eval::register_all),
        ("auc", auc::register_all),
        ("one_hot", one_hot::register_all),
        ("sequence_expand", sequence_expand::register_all),
        ("sequence_rnn", sequence_rnn::register_all),
        ("arg", arg::register_all),
        ("collective", collective::register_all),
        ("control", control::register_all),
        ("matching", matching::register_all),
        ("conv3d", conv3d::register_all),
    ];
    for (family, register_all) in families {
        r.set_family(family);
        register_all(&mut r);
    }
    r.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kernel_is_registered_once() {
        let r = build();
        assert!(r.is_ok(), "{:?}", r.err());
    }

    /// One place per op (ARCHITECTURE.md): an op's kernels are in the
    /// runtime module named as the transpiler module that defines it.
    #[test]
    fn kernels_live_in_their_definitions_family() {
        let r = build().expect("builds");
        let mut apart: Vec<String> = r
            .families()
            .filter_map(|(ty, family)| {
                let def = fluidc_transpiler::ops::get(ty)?;
                (def.family != family).then(|| {
                    format!(
                        "{ty}: defined in ops/{}.rs, kernel in ops/{family}.rs",
                        def.family
                    )
                })
            })
            .collect();
        apart.sort();
        assert!(apart.is_empty(), "{}", apart.join("\n"));
    }

    #[test]
    fn a_second_kernel_for_an_op_is_refused() {
        let mut r = Registry::new();
        fill::register_all(&mut r);
        fill::register_all(&mut r);
        let twice = r.finish().err().unwrap_or_default();
        assert!(twice.contains(&"fill_constant"), "{twice:?}");
    }
}
