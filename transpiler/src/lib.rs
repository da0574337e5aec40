//! fluidc's program model, passes and text output.
//!
//! # The model
//! A [`Program`](model::Program) is Paddle's `ProgramDesc`: a flat list of
//! blocks, block 0 the global block. Every other block has a parent
//! (`parent_idx`) and is run by an op in its parent through a `sub_block`
//! attribute (`while`, `conditional_block`, `go`, `select`). A block's ops see
//! the variables declared in it and in its ancestors, as scopes nest at run
//! time. Ops name their inputs and outputs by slot (`X`, `Out`, ...) exactly as
//! Paddle does, and carry typed attributes.
//!
//! Which parts are Paddle's and which are ours: every message and field of
//! `proto/framework.proto` is Paddle 3.3.1's, with the same numbers, plus the
//! 2018 CSP channel type (`VarType.channel`, `CHANNEL = 16`). The op types
//! `channel_create`, `channel_send`, `channel_recv`, `channel_close`, `go` and
//! `select` are 2018 Paddle's; Paddle 3 no longer has them, so programs that
//! use them run only in fluidc's runtime.
//!
//! # Flow
//! bytes -[`codec`]-> [`Program`](model::Program) -[`verify`]-> [`Verified`](verify::Verified)
//! -> passes -> [`codec::encode_program`] / [`text`] / [`pretty`] / [`dot`] / the runtime.
//! The petgraph view of a block ([`graph`]) is derived from the model when
//! needed and written back; the model stays the one source of truth.
pub mod backward;
pub mod codec;
mod cxx_hash;
pub mod dataflow;
pub mod distribute;
pub mod dot;
pub mod graph;
pub mod model;
pub mod names;
pub mod ops;
pub mod passes;
pub mod pretty;
pub mod target;
pub mod text;
pub mod verify;

/// The prost types generated from `proto/framework.proto`.
#[allow(missing_docs, clippy::all)]
pub mod proto {
    include!(concat!(env!("OUT_DIR"), "/paddle.framework.proto.rs"));
}

pub use model::{Attr, AttrValue, Block, Op, Program, Slot, Var, VarKind};
pub use verify::{Problem, ProblemKind, Verified, VerifyError};

/// The op type of the high-level select node the front end builds: attrs
/// `cases` (STRINGS, `"<index>,<kind>,<channel>,<value>"`) and `case_blocks`
/// (BLOCKS, one body per case); inputs `Channel` and `X` (values sent),
/// output `Out` (variables received into). `lower_select` turns it into
/// Paddle's `select` op with its cases block (docs/programs.md).
pub const SELECT_NODE: &str = "fluidc_select";
