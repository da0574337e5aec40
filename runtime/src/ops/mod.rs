//! Op kernels, one module per family, each with a `register_all`.
//!
//! A kernel is built once at load time from an op ([`OpLoader`]): the builder
//! parses attributes and resolves variables, and returns an [`Exec`]: either
//! a compute kernel (a closure that reads its inputs from the running
//! frame's variables and writes its outputs) or a control op that the
//! interpreter carries out itself (see `crate::exec`).
pub(crate) mod arg;
pub(crate) mod array;
mod auc;
mod beam_search;
mod chunk_eval;
mod collective;
pub(crate) mod compare;
pub(crate) mod control;
pub(crate) mod conv;
mod cos_sim;
mod crf;
pub(crate) mod elementwise;
pub(crate) mod fill;
pub(crate) mod float;
pub(crate) mod io;
pub(crate) mod lod;
pub(crate) mod manip;
pub(crate) mod matmul;
pub(crate) mod nn;
mod norm;
mod one_hot;
pub(crate) mod optim;
mod output;
pub(crate) mod reduce;
mod rnn_cells;
pub(crate) mod sequence;
mod sequence_expand;
mod sequence_rnn;
pub(crate) mod slice;
mod split_merge;
pub(crate) mod unary;

pub(crate) use array::add_values;

use std::collections::HashMap;

use crate::exec::{compute, Exec};
use crate::loader::OpLoader;
use crate::scope::Vars;

/// Builds an op's [`Exec`] at load time.
pub(crate) type Builder = fn(&OpLoader) -> Result<Exec, String>;

/// Op type -> builder.
pub(crate) struct Registry {
    builders: HashMap<&'static str, Builder>,
    /// Op types `add`ed more than once (refused by `build`).
    duplicates: Vec<&'static str>,
}

impl Registry {
    /// Every op the runtime implements, built once per process: a load
    /// looks kernels up here, and `fold_constants` loads a one-op program
    /// for every op it folds, so building the map per load cost more than
    /// the fold itself.
    pub(crate) fn global() -> &'static Registry {
        static REGISTRY: std::sync::OnceLock<Registry> = std::sync::OnceLock::new();
        REGISTRY.get_or_init(|| match Registry::build() {
            Ok(r) => r,
            // The kernels are part of the binary; a kernel registered twice is
            // a build defect that `every_kernel_is_registered_once` catches.
            Err(e) => panic!("fluidc's kernels are inconsistent: {e}"),
        })
    }

    /// Every family's kernels; an op type registered twice is refused (the
    /// second would silently replace the first).
    fn build() -> Result<Registry, String> {
        let mut r = Registry {
            builders: HashMap::new(),
            duplicates: Vec::new(),
        };
        array::register_all(&mut r);
        fill::register_all(&mut r);
        elementwise::register_all(&mut r);
        compare::register_all(&mut r);
        unary::register_all(&mut r);
        reduce::register_all(&mut r);
        matmul::register_all(&mut r);
        io::register_all(&mut r);
        optim::register_all(&mut r);
        nn::register_all(&mut r);
        norm::register_all(&mut r);
        conv::register_all(&mut r);
        manip::register_all(&mut r);
        slice::register_all(&mut r);
        lod::register_all(&mut r);
        split_merge::register_all(&mut r);
        sequence::register_all(&mut r);
        rnn_cells::register_all(&mut r);
        cos_sim::register_all(&mut r);
        crf::register_all(&mut r);
        beam_search::register_all(&mut r);
        chunk_eval::register_all(&mut r);
        auc::register_all(&mut r);
        one_hot::register_all(&mut r);
        sequence_expand::register_all(&mut r);
        sequence_rnn::register_all(&mut r);
        arg::register_all(&mut r);
        collective::register_all(&mut r);
        control::register_all(&mut r);
        match r.duplicates.as_slice() {
            [] => Ok(r),
            twice => Err(format!("kernels registered twice: {}", twice.join(", "))),
        }
    }

    pub(crate) fn add(&mut self, op: &'static str, build: Builder) {
        if self.builders.insert(op, build).is_some() {
            self.duplicates.push(op);
        }
    }

    pub(crate) fn get(&self, op: &str) -> Option<Builder> {
        self.builders.get(op).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kernel_is_registered_once() {
        let r = Registry::build();
        assert!(r.is_ok(), "{:?}", r.err());
    }

    #[test]
    fn a_second_kernel_for_an_op_is_refused() {
        let mut r = Registry {
            builders: HashMap::new(),
            duplicates: Vec::new(),
        };
        fill::register_all(&mut r);
        fill::register_all(&mut r);
        assert!(r.duplicates.contains(&"fill_constant"));
    }
}
