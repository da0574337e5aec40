//! The program model: Paddle's `ProgramDesc` as Rust values that passes edit.
//!
//! The model is the single source of truth (the petgraph view in
//! [`crate::graph`] is derived from it). It converts to and from the prost
//! messages of `framework.proto` with nothing lost: proto2 presence is kept
//! (`Option` where Paddle sometimes writes a default and sometimes omits it),
//! attributes and slots keep their order, and an attribute whose type fluidc
//! does not know, or whose fields do not match its type, is kept as Paddle
//! wrote it ([`AttrValue::Raw`]). Var types stay the proto's `VarType` message,
//! read through the helpers on [`Var`], because that message already is the
//! typed description and a copy of it would only drift.
use crate::proto;

pub use proto::var_type::Type as VarKind;
pub use proto::AttrType;

/// A whole program: blocks in index order, block 0 is the global block.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Program {
    pub blocks: Vec<Block>,
    /// `ProgramDesc.version` (field 4) as written, if present.
    pub version: Option<proto::Version>,
    /// `ProgramDesc.op_version_map` (field 5) as written, if present.
    pub op_version_map: Option<proto::OpVersionMap>,
}

/// One block: its variables and its ops in execution order.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    pub idx: i32,
    /// The enclosing block; -1 for block 0.
    pub parent_idx: i32,
    pub vars: Vec<Var>,
    pub ops: Vec<Op>,
    pub forward_block_idx: Option<i32>,
}

/// A variable declaration.
#[derive(Debug, Clone, PartialEq)]
pub struct Var {
    pub name: String,
    pub ty: proto::VarType,
    pub persistable: Option<bool>,
    pub need_check_feed: Option<bool>,
    pub is_parameter: Option<bool>,
    pub stop_gradient: Option<bool>,
    pub attrs: Vec<proto::var_desc::Attr>,
}

/// One named input or output slot of an op and the variables bound to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slot {
    pub parameter: String,
    pub arguments: Vec<String>,
}

/// An operator instance.
#[derive(Debug, Clone, PartialEq)]
pub struct Op {
    pub ty: String,
    pub inputs: Vec<Slot>,
    pub outputs: Vec<Slot>,
    pub attrs: Vec<Attr>,
    pub is_target: Option<bool>,
}

/// A named attribute.
#[derive(Debug, Clone, PartialEq)]
pub struct Attr {
    /// Interned ([`intern`]): programs use a few dozen attribute names
    /// over and over, and a string of its own for each was most of the
    /// allocations of loading a large program.
    pub name: &'static str,
    pub value: AttrValue,
}

/// A typed attribute value, one variant per `AttrType`.
#[derive(Debug, Clone, PartialEq)]
pub enum AttrValue {
    Int(i32),
    Float(f32),
    String(String),
    Ints(Vec<i32>),
    Floats(Vec<f32>),
    Strings(Vec<String>),
    Bool(bool),
    Bools(Vec<bool>),
    Block(i32),
    Long(i64),
    Blocks(Vec<i32>),
    Longs(Vec<i64>),
    Float64s(Vec<f64>),
    Var(String),
    Vars(Vec<String>),
    Float64(f64),
    /// Boxed: a `Scalar` is 64 bytes, and every attribute would be that size.
    Scalar(Box<proto::Scalar>),
    Scalars(Vec<proto::Scalar>),
    /// Kept exactly as read: an unknown `AttrType` number, or fields that do
    /// not match the type (so re-encoding gives the same bytes).
    Raw(Box<proto::op_desc::Attr>),
}

impl AttrValue {
    /// The `AttrType` number this value is written with.
    pub fn type_number(&self) -> i32 {
        use AttrType as T;
        let t = match self {
            AttrValue::Int(_) => T::Int,
            AttrValue::Float(_) => T::Float,
            AttrValue::String(_) => T::String,
            AttrValue::Ints(_) => T::Ints,
            AttrValue::Floats(_) => T::Floats,
            AttrValue::Strings(_) => T::Strings,
            AttrValue::Bool(_) => T::Boolean,
            AttrValue::Bools(_) => T::Booleans,
            AttrValue::Block(_) => T::Block,
            AttrValue::Long(_) => T::Long,
            AttrValue::Blocks(_) => T::Blocks,
            AttrValue::Longs(_) => T::Longs,
            AttrValue::Float64s(_) => T::Float64s,
            AttrValue::Var(_) => T::Var,
            AttrValue::Vars(_) => T::Vars,
            AttrValue::Float64(_) => T::Float64,
            AttrValue::Scalar(_) => T::Scalar,
            AttrValue::Scalars(_) => T::Scalars,
            AttrValue::Raw(a) => return a.r#type,
        };
        t as i32
    }

    /// The block indices this value refers to (`BLOCK` and `BLOCKS`).
    pub fn block_refs(&self) -> &[i32] {
        match self {
            AttrValue::Block(b) => std::slice::from_ref(b),
            AttrValue::Blocks(bs) => bs,
            _ => &[],
        }
    }

    /// Mutable access to the block indices, for renumbering blocks.
    pub fn block_refs_mut(&mut self) -> &mut [i32] {
        match self {
            AttrValue::Block(b) => std::slice::from_mut(b),
            AttrValue::Blocks(bs) => bs,
            _ => &mut [],
        }
    }
}

/// Whether `kind` is an element type (a tensor dtype), not a kind of variable.
pub fn is_tensor_dtype(kind: VarKind) -> bool {
    dtype_name(kind) != kind.as_str_name()
}

/// The numpy name of an element type (`float32`, `int64`, `bool`, ...), as
/// fluidc prints dtypes; other kinds print as Paddle names them.
pub fn dtype_name(kind: VarKind) -> &'static str {
    match kind {
        VarKind::Bool => "bool",
        VarKind::Int8 => "int8",
        VarKind::Int16 => "int16",
        VarKind::Int32 => "int32",
        VarKind::Int64 => "int64",
        VarKind::Uint8 => "uint8",
        VarKind::Uint32 => "uint32",
        VarKind::Uint64 => "uint64",
        VarKind::Fp16 => "float16",
        VarKind::Bf16 => "bfloat16",
        VarKind::Fp32 => "float32",
        VarKind::Fp64 => "float64",
        VarKind::Complex64 => "complex64",
        VarKind::Complex128 => "complex128",
        other => other.as_str_name(),
    }
}

impl Program {
    pub fn block(&self, idx: usize) -> Option<&Block> {
        self.blocks.get(idx)
    }

    /// The indices of `idx` and its ancestors, innermost first. Stops at a
    /// parent index that is out of range or repeats (the verifier reports those).
    pub fn scope_chain(&self, idx: usize) -> Vec<usize> {
        let mut chain = vec![idx];
        // Deep chains (thousands of nested blocks) check repeats with a set,
        // so the walk stays linear in the depth.
        let mut seen: Option<std::collections::HashSet<usize>> = None;
        let mut cur = idx;
        while let Some(block) = self.blocks.get(cur) {
            let Ok(parent) = usize::try_from(block.parent_idx) else {
                break;
            };
            if parent >= self.blocks.len() {
                break;
            }
            let repeated = match &mut seen {
                Some(set) => !set.insert(parent),
                None if chain.len() < 32 => chain.contains(&parent),
                None => {
                    let mut set: std::collections::HashSet<usize> = chain.iter().copied().collect();
                    let repeated = !set.insert(parent);
                    seen = Some(set);
                    repeated
                }
            };
            if repeated {
                break;
            }
            chain.push(parent);
            cur = parent;
        }
        chain
    }

    /// Each block's nesting depth (block 0 is 0), or `None` where its
    /// parent chain does not reach block 0. Linear in the number of blocks
    /// however deep they nest: each depth is computed once.
    pub fn depths(&self) -> Vec<Option<usize>> {
        let n = self.blocks.len();
        // Outer `None`: not known yet; `Some(None)`: no depth.
        let mut depth: Vec<Option<Option<usize>>> = vec![None; n];
        if let Some(d) = depth.first_mut() {
            *d = Some(Some(0));
        }
        let (mut path, mut on_path) = (Vec::new(), vec![false; n]);
        for start in 0..n {
            let mut cur = start;
            // Walk up to a block whose depth is known, a bad parent or a cycle.
            let base = loop {
                if let Some(d) = depth[cur] {
                    break d;
                }
                if on_path[cur] {
                    break None;
                }
                on_path[cur] = true;
                path.push(cur);
                match usize::try_from(self.blocks[cur].parent_idx) {
                    Ok(parent) if parent < n => cur = parent,
                    _ => break None,
                }
            };
            let mut d = base;
            for &b in path.iter().rev() {
                d = d.map(|d| d + 1);
                depth[b] = Some(d);
                on_path[b] = false;
            }
            path.clear();
        }
        depth.into_iter().map(Option::flatten).collect()
    }

    /// Finds a variable as Paddle's `BlockDesc::FindVarRecursive` does:
    /// breadth first from block `idx` through each block's forward block
    /// (a grad block sees the variables of the block it differentiates)
    /// and its parent. Returns the declaring block and the variable.
    pub fn find_var_recursive(&self, idx: usize, name: &str) -> Option<(usize, &Var)> {
        let mut frontier = std::collections::VecDeque::from([idx]);
        let mut visited = std::collections::HashSet::new();
        while let Some(cur) = frontier.pop_front() {
            let Some(block) = self.blocks.get(cur) else {
                continue;
            };
            if !visited.insert(cur) {
                continue;
            }
            if let Some(v) = block.var(name) {
                return Some((cur, v));
            }
            for next in [block.forward_block_idx.unwrap_or(-1), block.parent_idx] {
                if let Ok(next) = usize::try_from(next) {
                    frontier.push_back(next);
                }
            }
        }
        None
    }

    /// Finds a variable declared in block `idx` or one of its ancestors.
    pub fn find_var(&self, idx: usize, name: &str) -> Option<&Var> {
        self.scope_chain(idx)
            .into_iter()
            .find_map(|b| self.blocks[b].var(name))
    }
}

impl Block {
    pub fn new(idx: i32, parent_idx: i32) -> Self {
        Block {
            idx,
            parent_idx,
            vars: Vec::new(),
            ops: Vec::new(),
            forward_block_idx: None,
        }
    }

    pub fn var(&self, name: &str) -> Option<&Var> {
        self.vars.iter().find(|v| v.name == name)
    }
}

impl Var {
    /// A dense tensor variable (`DENSE_TENSOR`, formerly `LOD_TENSOR`).
    pub fn dense(name: impl Into<String>, dtype: VarKind, dims: Vec<i64>) -> Self {
        let ty = proto::VarType {
            r#type: VarKind::DenseTensor as i32,
            dense_tensor: Some(proto::var_type::DenseTensorDesc {
                tensor: proto::var_type::TensorDesc {
                    data_type: dtype as i32,
                    dims,
                },
                legacy_lod_level: Some(0),
            }),
            ..Default::default()
        };
        Var::of_type(name, ty)
    }

    /// Declares a dense tensor variable `SELECTED_ROWS` instead, with the
    /// same dtype and dims (what Paddle's `infer_var_type` does to a
    /// sparse gradient); other kinds are left as they are.
    pub fn make_selected_rows(&mut self) {
        if let Some(d) = self.ty.dense_tensor.take() {
            self.ty.r#type = VarKind::SelectedRows as i32;
            self.ty.selected_rows = Some(d.tensor);
        }
    }

    /// The LoD levels a dense tensor variable is declared with
    /// (`layers.data(lod_level=...)`; 0 for others).
    pub fn lod_level(&self) -> i32 {
        self.ty
            .dense_tensor
            .as_ref()
            .and_then(|d| d.legacy_lod_level)
            .unwrap_or(0)
    }

    /// A variable of a kind with no tensor description (STEP_SCOPES, FEED_MINIBATCH, ...).
    pub fn plain(name: impl Into<String>, kind: VarKind) -> Self {
        Var::of_type(
            name,
            proto::VarType {
                r#type: kind as i32,
                ..Default::default()
            },
        )
    }

    fn of_type(name: impl Into<String>, ty: proto::VarType) -> Self {
        Var {
            name: name.into(),
            ty,
            persistable: Some(false),
            need_check_feed: None,
            is_parameter: None,
            stop_gradient: None,
            attrs: Vec::new(),
        }
    }

    /// The variable kind, or `None` for a number fluidc does not know.
    pub fn kind(&self) -> Option<VarKind> {
        VarKind::try_from(self.ty.r#type).ok()
    }

    /// The tensor description of a dense tensor, tensor array or selected-rows variable.
    pub fn tensor_desc(&self) -> Option<&proto::var_type::TensorDesc> {
        let t = &self.ty;
        t.dense_tensor
            .as_ref()
            .map(|d| &d.tensor)
            .or(t.tensor_array.as_ref().map(|d| &d.tensor))
            .or(t.selected_rows.as_ref())
    }

    /// The element type of a tensor variable.
    pub fn dtype(&self) -> Option<VarKind> {
        self.tensor_desc()
            .and_then(|t| VarKind::try_from(t.data_type).ok())
    }

    pub fn is_persistable(&self) -> bool {
        self.persistable.unwrap_or(false)
    }
}

impl Slot {
    pub fn new(parameter: impl Into<String>, arguments: Vec<String>) -> Self {
        Slot {
            parameter: parameter.into(),
            arguments,
        }
    }
}

impl Op {
    pub fn new(ty: impl Into<String>) -> Self {
        Op {
            ty: ty.into(),
            inputs: Vec::new(),
            outputs: Vec::new(),
            attrs: Vec::new(),
            is_target: None,
        }
    }

    /// Adds an input slot (builder style).
    pub fn input(mut self, parameter: &str, args: &[&str]) -> Self {
        self.inputs.push(Slot::new(
            parameter,
            args.iter().map(|s| s.to_string()).collect(),
        ));
        self
    }

    /// Adds an output slot (builder style).
    pub fn output(mut self, parameter: &str, args: &[&str]) -> Self {
        self.outputs.push(Slot::new(
            parameter,
            args.iter().map(|s| s.to_string()).collect(),
        ));
        self
    }

    /// Adds an attribute (builder style).
    pub fn attr(mut self, name: &str, value: AttrValue) -> Self {
        self.set_attr(name, value);
        self
    }

    /// Sets an attribute, replacing one of the same name in place.
    pub fn set_attr(&mut self, name: &str, value: AttrValue) {
        match self.attrs.iter_mut().find(|a| a.name == name) {
            Some(a) => a.value = value,
            None => self.attrs.push(Attr {
                name: intern(name),
                value,
            }),
        }
    }

    pub fn get_attr(&self, name: &str) -> Option<&AttrValue> {
        self.attrs.iter().find(|a| a.name == name).map(|a| &a.value)
    }

    /// The arguments of input slot `parameter` (empty if the slot is absent).
    pub fn inputs_of(&self, parameter: &str) -> &[String] {
        slot_args(&self.inputs, parameter)
    }

    /// The arguments of output slot `parameter` (empty if the slot is absent).
    pub fn outputs_of(&self, parameter: &str) -> &[String] {
        slot_args(&self.outputs, parameter)
    }

    /// Every variable name the op reads.
    pub fn input_names(&self) -> impl Iterator<Item = &str> {
        self.inputs
            .iter()
            .flat_map(|s| s.arguments.iter().map(String::as_str))
    }

    /// Every variable name the op writes.
    pub fn output_names(&self) -> impl Iterator<Item = &str> {
        self.outputs
            .iter()
            .flat_map(|s| s.arguments.iter().map(String::as_str))
    }

    /// The blocks this op runs (its `BLOCK`/`BLOCKS` attributes), with the attribute name.
    pub fn sub_blocks(&self) -> impl Iterator<Item = (&str, i32)> {
        self.attrs
            .iter()
            .flat_map(|a| a.value.block_refs().iter().map(move |b| (a.name, *b)))
    }
}

fn slot_args<'a>(slots: &'a [Slot], parameter: &str) -> &'a [String] {
    slots
        .iter()
        .find(|s| s.parameter == parameter)
        .map(|s| s.arguments.as_slice())
        .unwrap_or(&[])
}

// ---- conversion to and from the prost messages ----

impl From<proto::ProgramDesc> for Program {
    fn from(p: proto::ProgramDesc) -> Self {
        Program {
            blocks: convert(p.blocks, Block::from),
            version: p.version,
            op_version_map: p.op_version_map,
        }
    }
}

impl From<&Program> for proto::ProgramDesc {
    fn from(p: &Program) -> Self {
        proto::ProgramDesc {
            blocks: p.blocks.iter().map(proto::BlockDesc::from).collect(),
            version: p.version,
            op_version_map: p.op_version_map.clone(),
        }
    }
}

/// Converts decoded proto messages into a new vector of exactly their
/// number. `collect` would reuse the messages' own buffer, sized for the
/// larger proto structs (a proto `Attr` has a field for every type), and
/// keep it for the life of the program.
fn convert<P, M>(protos: Vec<P>, f: impl FnMut(P) -> M) -> Vec<M> {
    let mut out = Vec::with_capacity(protos.len());
    out.extend(protos.into_iter().map(f));
    out
}

impl From<proto::BlockDesc> for Block {
    fn from(b: proto::BlockDesc) -> Self {
        Block {
            idx: b.idx,
            parent_idx: b.parent_idx,
            vars: convert(b.vars, Var::from),
            ops: convert(b.ops, Op::from),
            forward_block_idx: b.forward_block_idx,
        }
    }
}

impl From<&Block> for proto::BlockDesc {
    fn from(b: &Block) -> Self {
        proto::BlockDesc {
            idx: b.idx,
            parent_idx: b.parent_idx,
            vars: b.vars.iter().map(proto::VarDesc::from).collect(),
            ops: b.ops.iter().map(proto::OpDesc::from).collect(),
            forward_block_idx: b.forward_block_idx,
        }
    }
}

impl From<proto::VarDesc> for Var {
    fn from(v: proto::VarDesc) -> Self {
        Var {
            name: v.name,
            ty: v.r#type,
            persistable: v.persistable,
            need_check_feed: v.need_check_feed,
            is_parameter: v.is_parameter,
            stop_gradient: v.stop_gradient,
            attrs: v.attrs,
        }
    }
}

impl From<&Var> for proto::VarDesc {
    fn from(v: &Var) -> Self {
        proto::VarDesc {
            name: v.name.clone(),
            r#type: v.ty.clone(),
            persistable: v.persistable,
            need_check_feed: v.need_check_feed,
            is_parameter: v.is_parameter,
            stop_gradient: v.stop_gradient,
            attrs: v.attrs.clone(),
        }
    }
}

impl From<proto::OpDesc> for Op {
    fn from(o: proto::OpDesc) -> Self {
        let slot = |v: proto::op_desc::Var| Slot {
            parameter: v.parameter,
            arguments: v.arguments,
        };
        Op {
            ty: o.r#type,
            inputs: convert(o.inputs, slot),
            outputs: convert(o.outputs, slot),
            attrs: convert(o.attrs, Attr::from),
            is_target: o.is_target,
        }
    }
}

impl From<&Op> for proto::OpDesc {
    fn from(o: &Op) -> Self {
        let var = |s: &Slot| proto::op_desc::Var {
            parameter: s.parameter.clone(),
            arguments: s.arguments.clone(),
        };
        proto::OpDesc {
            r#type: o.ty.clone(),
            inputs: o.inputs.iter().map(var).collect(),
            outputs: o.outputs.iter().map(var).collect(),
            attrs: o.attrs.iter().map(proto::op_desc::Attr::from).collect(),
            is_target: o.is_target,
        }
    }
}

impl From<proto::op_desc::Attr> for Attr {
    fn from(mut a: proto::op_desc::Attr) -> Self {
        // Typed only when the type's field is the only one set besides name
        // and type, so that encoding the typed value gives the same bytes
        // back. The rest is compared with the field taken out: a NaN value
        // is not equal to itself, and must still decode typed (found by
        // fuzzing).
        let name = std::mem::take(&mut a.name);
        let value = match take_typed(&mut a) {
            Some(v)
                if a == proto::op_desc::Attr {
                    r#type: a.r#type,
                    ..Default::default()
                } =>
            {
                v
            }
            taken => {
                if let Some(v) = taken {
                    put_typed(&mut a, v);
                }
                a.name = name.clone();
                AttrValue::Raw(Box::new(a))
            }
        };
        Attr {
            name: intern(&name),
            value,
        }
    }
}

impl From<&Attr> for proto::op_desc::Attr {
    fn from(a: &Attr) -> Self {
        encode_value(a.name, &a.value)
    }
}

/// Takes the field that `a.type` selects out of `a`; `None` (and `a`
/// unchanged) for an unknown type or a missing field.
fn take_typed(a: &mut proto::op_desc::Attr) -> Option<AttrValue> {
    use std::mem::take;
    use AttrType as T;
    Some(match AttrType::try_from(a.r#type).ok()? {
        T::Int => AttrValue::Int(a.i.take()?),
        T::Float => AttrValue::Float(a.f.take()?),
        T::String => AttrValue::String(a.s.take()?),
        T::Ints => AttrValue::Ints(take(&mut a.ints)),
        T::Floats => AttrValue::Floats(take(&mut a.floats)),
        T::Strings => AttrValue::Strings(take(&mut a.strings)),
        T::Boolean => AttrValue::Bool(a.b.take()?),
        T::Booleans => AttrValue::Bools(take(&mut a.bools)),
        T::Block => AttrValue::Block(a.block_idx.take()?),
        T::Long => AttrValue::Long(a.l.take()?),
        T::Blocks => AttrValue::Blocks(take(&mut a.blocks_idx)),
        T::Longs => AttrValue::Longs(take(&mut a.longs)),
        T::Float64s => AttrValue::Float64s(take(&mut a.float64s)),
        T::Var => AttrValue::Var(a.var_name.take()?),
        T::Vars => AttrValue::Vars(take(&mut a.vars_name)),
        T::Float64 => AttrValue::Float64(a.float64.take()?),
        T::Scalar => AttrValue::Scalar(Box::new(a.scalar.take()?)),
        T::Scalars => AttrValue::Scalars(take(&mut a.scalars)),
    })
}

/// Puts a typed value into its field of `a`: the inverse of [`take_typed`].
fn put_typed(a: &mut proto::op_desc::Attr, value: AttrValue) {
    match value {
        AttrValue::Int(v) => a.i = Some(v),
        AttrValue::Float(v) => a.f = Some(v),
        AttrValue::String(v) => a.s = Some(v),
        AttrValue::Ints(v) => a.ints = v,
        AttrValue::Floats(v) => a.floats = v,
        AttrValue::Strings(v) => a.strings = v,
        AttrValue::Bool(v) => a.b = Some(v),
        AttrValue::Bools(v) => a.bools = v,
        AttrValue::Block(v) => a.block_idx = Some(v),
        AttrValue::Long(v) => a.l = Some(v),
        AttrValue::Blocks(v) => a.blocks_idx = v,
        AttrValue::Longs(v) => a.longs = v,
        AttrValue::Float64s(v) => a.float64s = v,
        AttrValue::Var(v) => a.var_name = Some(v),
        AttrValue::Vars(v) => a.vars_name = v,
        AttrValue::Float64(v) => a.float64 = Some(v),
        AttrValue::Scalar(v) => a.scalar = Some(*v),
        AttrValue::Scalars(v) => a.scalars = v,
        AttrValue::Raw(raw) => *a = *raw,
    }
}

fn encode_value(name: &str, value: &AttrValue) -> proto::op_desc::Attr {
    let mut a = proto::op_desc::Attr {
        r#type: value.type_number(),
        ..Default::default()
    };
    put_typed(&mut a, value.clone());
    a.name = name.to_string();
    a
}

/// The one `&'static str` with the text `s`, shared by every caller. The
/// texts are kept for the life of the process: attribute names, a set a
/// program only adds to for names it invents.
pub fn intern(s: &str) -> &'static str {
    use std::sync::{Mutex, OnceLock};
    static NAMES: OnceLock<Mutex<foldhash::HashSet<&'static str>>> = OnceLock::new();
    let mut names = NAMES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(&name) = names.get(s) {
        return name;
    }
    let name: &'static str = Box::leak(s.into());
    names.insert(name);
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_attr_round_trips_and_odd_attr_stays_raw() {
        let typed = proto::op_desc::Attr {
            name: "axis".into(),
            r#type: AttrType::Int as i32,
            i: Some(-1),
            ..Default::default()
        };
        let attr = Attr::from(typed.clone());
        assert_eq!(attr.value, AttrValue::Int(-1));
        assert_eq!(proto::op_desc::Attr::from(&attr), typed);

        // An INT attribute that also carries `f` is kept raw, so nothing is lost.
        let odd = proto::op_desc::Attr {
            f: Some(2.5),
            ..typed
        };
        let attr = Attr::from(odd.clone());
        assert!(matches!(attr.value, AttrValue::Raw(_)));
        assert_eq!(proto::op_desc::Attr::from(&attr), odd);

        // An AttrType number fluidc does not know is kept as a number.
        let unknown = proto::op_desc::Attr {
            name: "x".into(),
            r#type: 99,
            l: Some(7),
            ..Default::default()
        };
        let attr = Attr::from(unknown.clone());
        assert_eq!(attr.value.type_number(), 99);
        assert_eq!(proto::op_desc::Attr::from(&attr), unknown);
    }

    #[test]
    fn depths_are_linear_and_stop_on_cycles() {
        let mut p = Program::default();
        p.blocks.push(Block::new(0, -1));
        p.blocks.push(Block::new(1, 3));
        p.blocks.push(Block::new(2, 0));
        p.blocks.push(Block::new(3, 2));
        p.blocks.push(Block::new(4, 5));
        p.blocks.push(Block::new(5, 4));
        p.blocks.push(Block::new(6, 9));
        assert_eq!(
            p.depths(),
            vec![Some(0), Some(3), Some(1), Some(2), None, None, None]
        );
    }

    #[test]
    fn scope_chain_stops_on_cycles_and_bad_parents() {
        let mut p = Program::default();
        p.blocks.push(Block::new(0, -1));
        p.blocks.push(Block::new(1, 2));
        p.blocks.push(Block::new(2, 1));
        assert_eq!(p.scope_chain(0), vec![0]);
        assert_eq!(p.scope_chain(1), vec![1, 2]);
    }
}
