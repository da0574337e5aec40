//! One definition per op (ARCHITECTURE.md, "Invariants"): everything fluidc knows about an op
//! type, used by every part of fluidc.
//!
//! - **Slots and attributes** are Paddle 3.3.1's own, read from its op protos
//!   (`data/op_protos.json`, written by `scripts/dump-op-protos.py` and
//!   checked against the venv by an interop test), so they cannot drift from
//!   what Paddle loads. Ops Paddle 3 no longer has (the 2018 CSP ops, fluidc's
//!   select node) are described in the same form in `data/fluidc_ops.json`.
//! - **Behaviour** is fluidc's and lives in this module's families (the same
//!   grouping as the runtime's kernels): shape and dtype inference, effects
//!   (what prune must keep), whether `fold_constants` may evaluate the op,
//!   whether it replaces its outputs whole, and the gradient maker interface.
//!
//! Users: the front end appends ops through [`OpDef::op`], the verifier
//! checks every op against its definition, prune and fold consult it, and
//! the runtime registers one kernel per definition and refuses, at load
//! time, an op that has a definition but no kernel.
//!
//! Adding an op: its name in `data/op_protos.json` (run the dump script with
//! `--add NAME`), a [`Behaviour`] in the family module, a kernel in the
//! runtime's family module, and tests.
mod arg;
mod array;
mod auc;
mod beam_search;
mod bilinear;
pub mod boxes;
mod chunk_eval;
mod collective;
mod compare;
mod control;
mod conv;
pub use conv::window_out;
mod conv3d;
mod cos_sim;
mod crf;
mod ctc;
mod cvm;
mod dropout;
mod elementwise;
mod embedding;
mod encoding;
mod fill;
mod fpn;
pub mod grad;
mod hash;
pub mod infer;
mod interp;
mod io;
mod lod;
pub mod loss;
pub mod manip;
mod matching;
pub mod matmul;
mod metric;
mod norm;
mod one_hot;
mod optim;
pub mod pool;
mod proposal_labels;
mod protos;
mod reduce;
mod rnn_cells;
mod sequence;
mod sequence_edit;
mod sequence_expand;
mod sequence_rnn;
pub mod slice;
mod split_merge;
mod unary;

use std::sync::OnceLock;

use foldhash::{HashMap, HashMapExt};

use crate::model::{AttrType, AttrValue, Op};

pub use grad::{GradMaker, GradOpSpec, EMPTY_VAR, GRAD_SUFFIX};
pub use infer::{typed_outputs, InferCtx, InferFn, TensorType};
pub use protos::{AttrDef, SlotDef};

/// What an op does besides computing its outputs from its inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// Nothing: an op whose outputs nobody reads can go.
    Pure,
    /// Reads or writes the world (channels, goroutines, printing,
    /// feed/fetch): never removed or reordered.
    World,
    /// Runs sub-blocks (`while`, `conditional_block`): as effectful as its
    /// blocks (prune looks inside).
    Blocks,
}

/// How an op writes its outputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Writes {
    /// Each output is replaced whole: an earlier store to it is dead.
    Whole,
    /// Outputs may be updated in part (or not at all), e.g. `while`.
    Partial,
}

/// What an op does with LoD (the level-of-detail offsets of a sequence
/// batch), as its Paddle `InferShape` says: the runtime gives outputs
/// their LoD from this, and checks inputs' LoD before ops that read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lod {
    /// Its outputs carry no LoD (unless its kernel sets one).
    None,
    /// `ShareLoD(input, output)`: the output takes the first `input`
    /// argument's LoD when it keeps that tensor's rows (`x_dims[0] ==
    /// out_dims[0]`); its grad gives each `X@GRAD` the LoD of `X`.
    Shares(&'static str, &'static str),
    /// `ShareLoD(input, output, 0, i)` for every argument `i` of the
    /// output slot, each when it keeps the input's rows: `split`'s outputs
    /// (Paddle shares only when not splitting along dim 0, where the
    /// outputs' rows differ from the input's unless there is one section).
    SharesEach(&'static str, &'static str),
    /// As `Shares`, but whatever the output's rows (Paddle 3.3.1's
    /// `reshape2` kernel sets `Out`'s LoD to `X`'s, and scripts see it).
    KeepsWhateverRows(&'static str, &'static str),
    /// Its output carries no LoD, but its grad gives each `X@GRAD` the LoD
    /// of `X` (1.x's `mean_grad` called `ShareLoD("X", X@GRAD)`, so a
    /// sequence batch's loss gradient keeps the batch's LoD back to the
    /// ops that read it, such as `merge_lod_tensor`'s grad).
    GradShares,
    /// It reads its inputs' LoD (and so does its grad): each input's LoD
    /// must describe its rows before it runs.
    Reads,
}

/// fluidc's side of an op's definition (the proto's side is in [`OpDef`]).
#[derive(Debug, Clone, Copy)]
pub struct Behaviour {
    pub ty: &'static str,
    pub effect: Effect,
    pub writes: Writes,
    /// Whether `fold_constants` may evaluate the op when its inputs are
    /// constants: pure, deterministic and cheap.
    pub foldable: bool,
    pub infer: Option<InferFn>,
    /// Slot names older programs use for this op's slots: (old, new).
    pub legacy_slots: &'static [(&'static str, &'static str)],
    /// Slots Paddle added after 1.0 (1.6's padded modes, ...): the op
    /// takes them, but the proto 1.x's Python saw (`OpProtoHolder`, which
    /// 1.0's `OpTest` builds every output of) did not list them.
    pub slots_after_1_0: &'static [&'static str],
    /// Outputs whose declared dtype Paddle's versions disagree on (and
    /// the verifier does not check): the op's kernel decides it.
    pub dtype_unchecked: &'static [&'static str],
    pub lod: Lod,
}

impl Behaviour {
    /// A pure op that replaces its outputs whole and may be folded.
    pub const fn pure(ty: &'static str, infer: InferFn) -> Behaviour {
        Behaviour {
            ty,
            effect: Effect::Pure,
            writes: Writes::Whole,
            foldable: true,
            infer: Some(infer),
            legacy_slots: &[],
            slots_after_1_0: &[],
            dtype_unchecked: &[],
            lod: Lod::None,
        }
    }

    /// `ShareLoD(input, output)` (see [`Lod::Shares`]).
    pub const fn shares_lod(mut self, input: &'static str, output: &'static str) -> Behaviour {
        self.lod = Lod::Shares(input, output);
        self
    }

    pub const fn lod(mut self, lod: Lod) -> Behaviour {
        self.lod = lod;
        self
    }

    /// It reads its inputs' LoD (see [`Lod::Reads`]).
    pub const fn reads_lod(mut self) -> Behaviour {
        self.lod = Lod::Reads;
        self
    }

    pub const fn effect(mut self, effect: Effect) -> Behaviour {
        self.effect = effect;
        self.foldable = false;
        self
    }

    pub const fn writes(mut self, writes: Writes) -> Behaviour {
        self.writes = writes;
        self
    }

    pub const fn not_foldable(mut self) -> Behaviour {
        self.foldable = false;
        self
    }

    pub const fn no_infer(mut self) -> Behaviour {
        self.infer = None;
        self
    }

    pub const fn legacy_slots(
        mut self,
        slots: &'static [(&'static str, &'static str)],
    ) -> Behaviour {
        self.legacy_slots = slots;
        self
    }

    /// See [`Behaviour::slots_after_1_0`].
    pub const fn slots_after_1_0(mut self, slots: &'static [&'static str]) -> Behaviour {
        self.slots_after_1_0 = slots;
        self
    }

    /// See [`Behaviour::dtype_unchecked`].
    pub const fn dtype_unchecked(mut self, slots: &'static [&'static str]) -> Behaviour {
        self.dtype_unchecked = slots;
        self
    }
}

/// Everything fluidc knows about one op type. See the module docs.
#[derive(Debug, Clone)]
pub struct OpDef {
    pub ty: &'static str,
    /// The family module that defines it (`transpiler/src/ops/FAMILY.rs`);
    /// its kernels are in `runtime/src/ops/FAMILY.rs`. A grad op is its
    /// forward op's family.
    pub family: &'static str,
    pub inputs: Vec<SlotDef>,
    pub outputs: Vec<SlotDef>,
    pub attrs: Vec<AttrDef>,
    pub behaviour: Behaviour,
    /// Its backward (Paddle's grad maker, `data/grad_makers.json`).
    pub grad: GradMaker,
}

impl OpDef {
    pub fn input(&self, name: &str) -> Option<&SlotDef> {
        self.inputs.iter().find(|s| s.name == name)
    }

    pub fn output(&self, name: &str) -> Option<&SlotDef> {
        self.outputs.iter().find(|s| s.name == name)
    }

    pub fn attr(&self, name: &str) -> Option<&AttrDef> {
        self.attrs.iter().find(|a| a.name == name)
    }

    /// The slot name Paddle 3 uses for `name` (older programs' names map through
    /// [`Behaviour::legacy_slots`]).
    pub fn canonical_slot<'a>(&self, name: &'a str) -> &'a str {
        self.behaviour
            .legacy_slots
            .iter()
            .find(|(old, _)| *old == name)
            .map_or(name, |(_, new)| new)
    }

    /// The default Paddle's attribute checker fills in for `attr`, if any.
    pub fn default(&self, attr: &str) -> Option<&AttrValue> {
        self.attr(attr).and_then(|a| a.default.as_ref())
    }

    /// A new op of this type, for builders (the front end, passes): the
    /// slots and attributes set on it are checked against this definition
    /// by the verifier.
    pub fn op(&self) -> Op {
        Op::new(self.ty)
    }

    pub fn effect(&self) -> Effect {
        self.behaviour.effect
    }
}

/// The effect of an op of type `ty`; an op fluidc does not know is assumed
/// to act on the world, so passes never drop or move it.
pub fn effect_of(ty: &str) -> Effect {
    get(ty).map_or(Effect::World, OpDef::effect)
}

/// What an op of type `ty` does with LoD ([`Lod::None`] for unknown ops).
pub fn lod_of(ty: &str) -> Lod {
    get(ty).map_or(Lod::None, |d| d.behaviour.lod)
}

/// Whether an op of type `ty` replaces each of its outputs whole (so an
/// earlier store to them is dead); not assumed for unknown ops.
pub fn writes_whole(ty: &str) -> bool {
    get(ty).is_some_and(|d| d.behaviour.writes == Writes::Whole)
}

/// The outputs of `op` that Paddle's `infer_var_type` declares
/// `SELECTED_ROWS`, given which variables already are (`sparse`): a sparse
/// `lookup_table(_v2)_grad`'s `W@GRAD` (and a sparse `nce_grad`'s
/// `Weight@GRAD`), a `sum` of sparse gradients only,
/// and `merge_selected_rows` and `elementwise_mul` of a sparse `X` (they
/// pass X's type on; 1.x's GradientClipByGlobalNorm scales a sparse
/// gradient so). The runtime keeps such a variable dense, with its rows.
pub fn selected_rows_outputs(op: &Op, sparse: impl Fn(&str) -> bool) -> Vec<String> {
    let sparse_x = || op.inputs_of("X").first().is_some_and(|x| sparse(x));
    match op.ty.as_str() {
        "lookup_table_grad" | "lookup_table_v2_grad"
            if op.get_attr("is_sparse") == Some(&AttrValue::Bool(true)) =>
        {
            op.outputs_of("W@GRAD").to_vec()
        }
        "nce_grad" if op.get_attr("is_sparse") == Some(&AttrValue::Bool(true)) => {
            op.outputs_of("Weight@GRAD").to_vec()
        }
        "sum" if !op.inputs_of("X").is_empty() && op.inputs_of("X").iter().all(|x| sparse(x)) => {
            op.outputs_of("Out").to_vec()
        }
        "merge_selected_rows" | "elementwise_mul" if sparse_x() => op.outputs_of("Out").to_vec(),
        _ => Vec::new(),
    }
}

/// A family's `register`: pushes its ops' behaviours.
type Register = fn(&mut Vec<Behaviour>);

/// Every op definition, by type.
#[derive(Debug)]
pub struct Registry {
    defs: HashMap<&'static str, OpDef>,
}

impl Registry {
    fn build() -> Result<Registry, String> {
        // Each family's behaviours, with the family's name: the runtime's
        // kernels of an op live in the module of the same name
        // (`runtime/src/ops/`), which a runtime test checks.
        let families: [(&'static str, Register); 45] = [
            ("arg", arg::register),
            ("array", array::register),
            ("auc", auc::register),
            ("beam_search", beam_search::register),
            ("bilinear", bilinear::register),
            ("boxes", boxes::register),
            ("proposal_labels", proposal_labels::register),
            ("chunk_eval", chunk_eval::register),
            ("collective", collective::register),
            ("compare", compare::register),
            ("control", control::register),
            ("conv", conv::register),
            ("conv3d", conv3d::register),
            ("cos_sim", cos_sim::register),
            ("crf", crf::register),
            ("cvm", cvm::register),
            ("ctc", ctc::register),
            ("dropout", dropout::register),
            ("elementwise", elementwise::register),
            ("embedding", embedding::register),
            ("fpn", fpn::register),
            ("hash", hash::register),
            ("encoding", encoding::register),
            ("fill", fill::register),
            ("interp", interp::register),
            ("io", io::register),
            ("lod", lod::register),
            ("loss", loss::register),
            ("manip", manip::register),
            ("matching", matching::register),
            ("matmul", matmul::register),
            ("metric", metric::register),
            ("norm", norm::register),
            ("one_hot", one_hot::register),
            ("optim", optim::register),
            ("pool", pool::register),
            ("reduce", reduce::register),
            ("rnn_cells", rnn_cells::register),
            ("sequence", sequence::register),
            ("sequence_edit", sequence_edit::register),
            ("sequence_expand", sequence_expand::register),
            ("sequence_rnn", sequence_rnn::register),
            ("slice", slice::register),
            ("split_merge", split_merge::register),
            ("unary", unary::register),
        ];
        let mut behaviours = Vec::new();
        for (family, register) in families {
            let mut of_family = Vec::new();
            register(&mut of_family);
            behaviours.extend(of_family.into_iter().map(|b| (family, b)));
        }
        let mut protos = protos::load()?;
        let mut makers = grad::load()?;
        let mut defs = HashMap::new();
        for (family, b) in behaviours {
            let proto = protos
                .remove(b.ty)
                .ok_or_else(|| format!("op `{}` has a behaviour but no proto", b.ty))?;
            let def = OpDef {
                ty: b.ty,
                family,
                inputs: proto.inputs,
                outputs: proto.outputs,
                attrs: proto.attrs,
                behaviour: b,
                grad: makers.remove(b.ty).unwrap_or(GradMaker::None),
            };
            if defs.insert(b.ty, def).is_some() {
                return Err(format!("op `{}` is defined twice", b.ty));
            }
        }
        if let Some(name) = protos.keys().next() {
            return Err(format!("op `{name}` has a proto but no behaviour"));
        }
        if let Some(name) = makers.keys().next() {
            return Err(format!("op `{name}` has a grad maker but no definition"));
        }
        Self::define_grad_ops(&mut defs);
        Ok(Registry { defs })
    }

    /// Definitions of the `*_grad` op types the makers emit (Paddle gives
    /// them no proto): slots from the maker, attributes from the forward
    /// op; pure, never folded. Grad ops of forward types (`scale`, `cast`)
    /// are those types' own definitions.
    fn define_grad_ops(defs: &mut HashMap<&'static str, OpDef>) {
        let mut derived = Vec::new();
        for def in defs.values() {
            let GradMaker::Ops(specs) = &def.grad else {
                continue;
            };
            let forward = protos::Proto {
                inputs: def.inputs.clone(),
                outputs: def.outputs.clone(),
                attrs: def.attrs.clone(),
            };
            for spec in specs {
                if spec.ty.ends_with("_grad") && !defs.contains_key(spec.ty.as_str()) {
                    let proto = grad::grad_proto(&forward, spec);
                    derived.push((spec.ty.clone(), def.ty, def.family, proto));
                }
            }
        }
        derived.sort_by(|a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
        for (ty, _, family, proto) in derived {
            if defs.contains_key(ty.as_str()) {
                // Two forward ops share a grad type: the first by name wins.
                continue;
            }
            let ty: &'static str = Box::leak(ty.into_boxed_str());
            let behaviour = Behaviour::pure(ty, infer::same_as_x)
                .no_infer()
                .not_foldable();
            defs.insert(
                ty,
                OpDef {
                    ty,
                    family,
                    inputs: proto.inputs,
                    outputs: proto.outputs,
                    attrs: proto.attrs,
                    behaviour,
                    grad: GradMaker::None,
                },
            );
        }
    }

    pub fn get(&self, ty: &str) -> Option<&OpDef> {
        self.defs.get(ty)
    }

    /// Every defined op type, sorted.
    pub fn types(&self) -> Vec<&'static str> {
        let mut v: Vec<&'static str> = self.defs.keys().copied().collect();
        v.sort_unstable();
        v
    }
}

/// The registry. Its data is compiled in and checked by this crate's tests,
/// so building it cannot fail in a tested build.
pub fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| match Registry::build() {
        Ok(r) => r,
        // The data and the behaviours are part of the binary; a mismatch is
        // a build defect that `registry_builds` catches before release.
        Err(e) => panic!("fluidc's op definitions are inconsistent: {e}"),
    })
}

/// The definition of op type `ty`, if fluidc knows it.
pub fn get(ty: &str) -> Option<&'static OpDef> {
    registry().get(ty)
}

/// The definition of an op type fluidc emits itself. Builders only name
/// types that have a definition (a test checks every builder's output).
pub fn def(ty: &str) -> &'static OpDef {
    match get(ty) {
        Some(d) => d,
        None => panic!("op `{ty}` has no definition in fluidc_transpiler::ops"),
    }
}

/// Completes an op of a known type as Paddle's Python does when it appends
/// one: every slot the proto declares is written (empty if unused), and
/// every attribute gets its default (`OpDesc::CheckAttrs`), with `op_role`
/// forward and `op_namescope` `/` as the framework sets them. So a program
/// fluidc builds carries what Paddle's would. The `op_callstack` is the
/// builder's to set. Unknown op types are left alone.
pub fn fill_defaults(op: &mut Op) {
    let Some(def) = get(&op.ty) else {
        return;
    };
    for (slots, defined) in [
        (&mut op.inputs, &def.inputs),
        (&mut op.outputs, &def.outputs),
    ] {
        for s in defined.iter().filter(|s| !s.extra) {
            let present = slots
                .iter()
                .any(|u| def.canonical_slot(&u.parameter) == s.name);
            if !present {
                slots.push(crate::model::Slot::new(s.name.clone(), Vec::new()));
            }
        }
    }
    fill_attr_defaults(op);
}

/// 1.x's `OpDesc::CheckAttrs`: every attribute the op's proto declares
/// and `op` lacks gets its default (see [`fill_defaults`]). Unknown op
/// types are left alone.
pub fn fill_attr_defaults(op: &mut Op) {
    let Some(def) = get(&op.ty) else {
        return;
    };
    let defaults: Vec<crate::model::Attr> = def
        .attrs
        .iter()
        .filter(|a| a.name != "op_callstack" && op.get_attr(&a.name).is_none())
        .filter_map(|a| {
            let value = match a.name.as_str() {
                "op_role" => AttrValue::Int(0),
                "op_namescope" => AttrValue::String("/".into()),
                _ => a.default.clone()?,
            };
            Some(crate::model::Attr {
                name: crate::model::intern(&a.name),
                value,
            })
        })
        .collect();
    // Exactly the room the defaults take: a program keeps its ops' attribute
    // lists whole, and growth by doubling left up to half of them unused.
    op.attrs.reserve_exact(defaults.len());
    op.attrs.extend(defaults);
}

/// Whether an attribute of type `actual` is acceptable where the proto
/// declares `declared`: the same type, or the other width of it (2018
/// programs wrote shapes as INTS where Paddle 3 declares LONGS, and Paddle
/// converts between the widths when it loads a program), or an INT where a
/// BOOLEAN is declared: 1.1-1.5's `Program._inference_optimize` set
/// `is_test` through the C++ OpDesc as an INT in every model
/// `save_inference_model` wrote, and 1.x read an INT as a bool.
pub fn attr_type_accepts(declared: AttrType, actual: i32) -> bool {
    use AttrType as T;
    if declared == T::Boolean && actual == T::Int as i32 {
        return true;
    }
    let family = |t: AttrType| match t {
        T::Int | T::Long => 1,
        T::Ints | T::Longs => 2,
        T::Float | T::Float64 => 3,
        T::Floats | T::Float64s => 4,
        other => 100 + other as i32,
    };
    match AttrType::try_from(actual) {
        Ok(a) => family(a) == family(declared),
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_builds() {
        assert!(Registry::build().is_ok(), "{:?}", Registry::build().err());
        assert!(registry().types().len() > 50);
    }

    #[test]
    fn definitions_carry_paddle_defaults() {
        let fill = def("fill_constant");
        assert_eq!(fill.default("dtype"), Some(&AttrValue::Int(5)));
        assert_eq!(fill.default("value"), Some(&AttrValue::Float(0.0)));
        assert!(fill.input("ShapeTensor").is_some_and(|s| s.dispensable));
        let while_ = def("while");
        assert!(while_
            .attr("sub_block")
            .is_some_and(|a| a.default.is_none()));
        assert!(while_.input("X").is_some_and(|s| s.duplicable));
    }

    #[test]
    fn legacy_slot_names_map_to_paddle_3() {
        assert_eq!(def("conditional_block").canonical_slot("Params"), "Input");
        assert_eq!(def("conditional_block").canonical_slot("Cond"), "Cond");
    }

    #[test]
    fn attribute_widths_are_interchangeable() {
        assert!(attr_type_accepts(AttrType::Longs, AttrType::Ints as i32));
        assert!(attr_type_accepts(AttrType::Float, AttrType::Float64 as i32));
        assert!(!attr_type_accepts(AttrType::Int, AttrType::Float as i32));
        assert!(!attr_type_accepts(AttrType::Block, AttrType::Int as i32));
    }
}
