//! `_fluidc`: the native module under the fluid package, as Paddle 1.x's
//! `core` (pybind) was under its Python (docs/python-package.md).
//!
//! It owns what is not glue: the program model ([`ProgramDesc`], Paddle's
//! `ProgramDesc` with its blocks, variables and ops), the op definitions
//! (defaults, shape and dtype inference, through the transpiler), backward,
//! the passes, and the runtime sessions ([`session`]). The fluid package
//! (`src/python/paddle/fluid/`) builds `Program`, `Block`, `Variable` and
//! the layers on top of it, in Python, as Paddle 1.x did.
//!
//! The [`host::Host`] object (`_fluidc.HOST`) is the command line's side:
//! whether `Executor.run` records (build mode) or runs (run mode), the
//! options of the runs, and what the command reads back when the script
//! ends.
pub mod cjk_codecs;
pub mod convert;
pub mod host;
pub mod names;
pub mod params;
pub mod program;
pub mod py_func;
pub mod session;

use std::sync::Arc;

use fluidc_transpiler::text::{desc_text, Desc};
use fluidc_transpiler::{ops, AttrValue, Op, Slot, Var, VarKind};
use parking_lot::Mutex;
use rustpython_vm::builtins::{PyBytesRef, PyDictRef, PyModule, PyStrRef};
use rustpython_vm::class::PyClassImpl;
use rustpython_vm::function::OptionalArg;
use rustpython_vm::types::Constructor;
use rustpython_vm::{pyclass, AsObject, PyObjectRef, PyPayload, PyRef, PyResult, VirtualMachine};

use fluidc_transpiler::proto::var_type::{
    ChannelDesc, DenseTensorArrayDesc, DenseTensorDesc, ReaderDesc, TensorDesc,
};
use program::ProgramState;

/// The module's name in the VM.
pub const MODULE: &str = "_fluidc";

/// Creates the `_fluidc` module.
pub fn make_module(vm: &VirtualMachine) -> PyRef<PyModule> {
    let module = vm.new_module(MODULE, vm.ctx.new_dict(), None);
    let set = |name: &str, value: PyObjectRef| {
        let _ = module
            .as_object()
            .set_attr(vm.ctx.intern_str(name), value, vm);
    };
    set("ProgramDesc", ProgramDesc::make_class(&vm.ctx).into());
    set("BlockAttr", BlockAttr::make_class(&vm.ctx).into());
    set("Session", session::Session::make_class(&vm.ctx).into());
    set("Host", host::Host::make_class(&vm.ctx).into());
    set(
        "UniqueNameGenerator",
        names::UniqueNameGenerator::make_class(&vm.ctx).into(),
    );
    set("BuildStop", host::build_stop_type(vm).to_owned().into());
    set("EnforceNotMet", host::enforce_type(vm).to_owned().into());
    set(
        "op_attr_names",
        vm.new_function("op_attr_names", op_attr_names).into(),
    );
    set(
        "op_slot_names",
        vm.new_function("op_slot_names", op_slot_names).into(),
    );
    set("has_op", vm.new_function("has_op", has_op).into());
    params::register(&set, vm);
    cjk_codecs::register(&set, vm);
    module
}

/// A `BLOCK` attribute value: which block an op runs (`sub_block`).
#[pyclass(module = "_fluidc", name = "BlockAttr")]
#[derive(Debug, PyPayload)]
pub struct BlockAttr {
    pub idx: i32,
}

impl Constructor for BlockAttr {
    type Args = i32;
    fn py_new(cls: rustpython_vm::builtins::PyTypeRef, idx: i32, vm: &VirtualMachine) -> PyResult {
        BlockAttr { idx }
            .into_ref_with_type(vm, cls)
            .map(Into::into)
    }
}

#[pyclass(with(Constructor))]
impl BlockAttr {
    #[pygetset]
    fn idx(&self) -> i32 {
        self.idx
    }
}

/// The attributes an op's definition declares (Paddle's proto), in order.
fn op_attr_names(ty: PyStrRef, vm: &VirtualMachine) -> PyObjectRef {
    let names = ops::get(ty.as_str())
        .map(|d| {
            d.attrs
                .iter()
                .map(|a| vm.ctx.new_str(a.name.as_str()).into())
                .collect()
        })
        .unwrap_or_default();
    vm.ctx.new_list(names).into()
}

/// An op's declared input (or output) slots, with whether each is
/// duplicable, dispensable and intermediate: those 1.x's protos listed,
/// so an `extra` slot only if it is intermediate (1.x's `nce`, `dropout`,
/// `gru` listed those outputs; Paddle 3.3.1 marks them `extra`), and not
/// one Paddle added after 1.0 (`Behaviour::slots_after_1_0`).
fn op_slot_names(ty: PyStrRef, outputs: bool, vm: &VirtualMachine) -> PyObjectRef {
    let slots = ops::get(ty.as_str())
        .map(|d| {
            let s = if outputs { &d.outputs } else { &d.inputs };
            s.iter()
                .filter(|s| !s.extra || s.intermediate)
                .filter(|s| !d.behaviour.slots_after_1_0.contains(&s.name.as_str()))
                .map(|s| {
                    vm.ctx
                        .new_tuple(vec![
                            vm.ctx.new_str(s.name.as_str()).into(),
                            vm.ctx.new_bool(s.duplicable).into(),
                            vm.ctx.new_bool(s.dispensable).into(),
                            vm.ctx.new_bool(s.intermediate).into(),
                        ])
                        .into()
                })
                .collect()
        })
        .unwrap_or_default();
    vm.ctx.new_list(slots).into()
}

fn has_op(ty: PyStrRef) -> bool {
    ops::get(ty.as_str()).is_some()
}

/// Paddle's `core.ProgramDesc`: a program's blocks, variables and ops.
/// Shared: the fluid package's `Program` holds it, and a recorded run
/// keeps it.
#[pyclass(module = "_fluidc", name = "ProgramDesc")]
#[derive(Debug, PyPayload, Clone)]
pub struct ProgramDesc {
    pub state: Arc<Mutex<ProgramState>>,
}

impl ProgramDesc {
    pub fn new(state: ProgramState) -> ProgramDesc {
        ProgramDesc {
            state: Arc::new(Mutex::new(state)),
        }
    }
}

impl ProgramDesc {
    /// A copy of op `index` of block `block`.
    fn cloned_op(&self, block: usize, index: usize, vm: &VirtualMachine) -> PyResult<Op> {
        let s = self.state.lock();
        Ok(s.op(block, index).map_err(|e| value_error(vm, e))?.clone())
    }
}

impl Constructor for ProgramDesc {
    type Args = ();
    fn py_new(cls: rustpython_vm::builtins::PyTypeRef, _: (), vm: &VirtualMachine) -> PyResult {
        ProgramDesc::new(ProgramState::new())
            .into_ref_with_type(vm, cls)
            .map(Into::into)
    }
}

/// A Python error for a problem in the model (a missing block or op).
fn value_error(vm: &VirtualMachine, e: String) -> rustpython_vm::builtins::PyBaseExceptionRef {
    vm.new_value_error(e)
}

/// A variable's kind, dtype and shape as `var_create` takes them.
struct VarSpec {
    kind: VarKind,
    dtype: Option<VarKind>,
    dims: Option<Vec<i64>>,
    lod_level: Option<i32>,
    capacity: Option<i64>,
}

fn kind_of(n: i32, vm: &VirtualMachine) -> PyResult<VarKind> {
    VarKind::try_from(n).map_err(|_| vm.new_value_error(format!("{n} is not a VarType")))
}

/// A fresh declaration of the kind `spec` asks for.
fn new_var(name: &str, spec: &VarSpec) -> Var {
    let dtype = spec.dtype.unwrap_or(VarKind::Fp32);
    let dims = spec.dims.clone().unwrap_or_default();
    let mut var = match spec.kind {
        VarKind::DenseTensor => Var::dense(name, dtype, dims),
        VarKind::SelectedRows => {
            let mut v = Var::plain(name, VarKind::SelectedRows);
            v.ty.selected_rows = Some(TensorDesc {
                data_type: dtype as i32,
                dims,
            });
            v
        }
        VarKind::DenseTensorArray => {
            let mut v = Var::plain(name, VarKind::DenseTensorArray);
            v.ty.tensor_array = Some(DenseTensorArrayDesc {
                tensor: TensorDesc {
                    data_type: dtype as i32,
                    dims,
                },
                legacy_lod_level: Some(0),
            });
            v
        }
        VarKind::Channel => {
            let mut v = Var::plain(name, VarKind::Channel);
            v.ty.channel = Some(ChannelDesc {
                data_type: dtype as i32,
                capacity: spec.capacity.unwrap_or(0),
            });
            v
        }
        other => Var::plain(name, other),
    };
    if let Some(l) = spec.lod_level {
        set_lod_level(&mut var, l);
    }
    var
}

fn set_lod_level(var: &mut Var, level: i32) {
    if let Some(d) = var.ty.dense_tensor.as_mut() {
        d.legacy_lod_level = Some(level);
    } else if let Some(a) = var.ty.tensor_array.as_mut() {
        a.legacy_lod_level = Some(level);
    }
}

fn tensor_desc_mut(var: &mut Var) -> Option<&mut TensorDesc> {
    let t = &mut var.ty;
    if let Some(d) = t.dense_tensor.as_mut() {
        return Some(&mut d.tensor);
    }
    if let Some(a) = t.tensor_array.as_mut() {
        return Some(&mut a.tensor);
    }
    t.selected_rows.as_mut()
}

/// The tensors a READER variable gives (1.x's `VarDesc::tensor_descs`),
/// or None for another kind of variable.
fn reader_mut(var: &mut Var) -> Option<&mut ReaderDesc> {
    (var.ty.r#type == VarKind::Reader as i32)
        .then(|| var.ty.reader.get_or_insert_with(ReaderDesc::default))
}

/// Sets a READER variable's tensors to `n` (new ones empty FP32 with LoD
/// level 0, as 1.x's `SetTensorDescNum`) and returns them.
fn reader_tensors<'a>(
    var: &'a mut Var,
    n: usize,
    vm: &VirtualMachine,
) -> PyResult<&'a mut Vec<DenseTensorDesc>> {
    let name = var.name.clone();
    let r = reader_mut(var).ok_or_else(|| {
        vm.new_value_error(format!(
            "variable `{name}` is not a READER: only a READER holds several tensors"
        ))
    })?;
    r.dense_tensor.resize(
        n,
        DenseTensorDesc {
            tensor: TensorDesc {
                data_type: VarKind::Fp32 as i32,
                dims: Vec::new(),
            },
            legacy_lod_level: Some(0),
        },
    );
    Ok(&mut r.dense_tensor)
}

fn opt_bool(obj: &PyObjectRef, vm: &VirtualMachine) -> PyResult<Option<bool>> {
    if vm.is_none(obj) {
        Ok(None)
    } else {
        obj.clone().try_to_bool(vm).map(Some)
    }
}

/// The argument list of `var_create`, by position.
#[derive(rustpython_vm::FromArgs)]
struct VarCreateArgs {
    #[pyarg(positional)]
    block: usize,
    #[pyarg(positional)]
    name: PyStrRef,
    #[pyarg(positional)]
    kind: i32,
    #[pyarg(any, default)]
    dtype: Option<i32>,
    #[pyarg(any, default)]
    shape: Option<PyObjectRef>,
    #[pyarg(any, default)]
    lod_level: Option<i32>,
    #[pyarg(any, optional)]
    persistable: OptionalArg<PyObjectRef>,
    #[pyarg(any, optional)]
    stop_gradient: OptionalArg<PyObjectRef>,
    #[pyarg(any, optional)]
    need_check_feed: OptionalArg<PyObjectRef>,
    #[pyarg(any, optional)]
    is_parameter: OptionalArg<PyObjectRef>,
    #[pyarg(any, default)]
    capacity: Option<i64>,
}

#[pyclass(with(Constructor))]
impl ProgramDesc {
    /// `ProgramDesc.parse_from_string(bytes)`: a program Paddle or fluidc
    /// wrote.
    #[pystaticmethod]
    fn parse_from_string(bytes: PyBytesRef, vm: &VirtualMachine) -> PyResult<ProgramDesc> {
        let program = fluidc_transpiler::codec::decode_program(bytes.as_bytes())
            .map_err(|e| vm.new_value_error(e.to_string()))?;
        Ok(ProgramDesc::new(ProgramState::from_program(program)))
    }

    /// The program's bytes, as Paddle's `serialize_to_string` writes them.
    #[pymethod]
    fn serialize_to_string(&self, vm: &VirtualMachine) -> PyObjectRef {
        use prost::Message;
        let s = self.state.lock();
        let proto = fluidc_transpiler::proto::ProgramDesc::from(&s.program);
        vm.ctx.new_bytes(proto.encode_to_vec()).into()
    }

    /// A deep copy.
    #[pymethod]
    fn clone(&self) -> ProgramDesc {
        ProgramDesc::new(self.state.lock().clone())
    }

    /// The program 1.x's ParallelExecutor ran on `nranks` places: its
    /// gradients scaled by 1/nranks and all-reduced over the places
    /// (`fluidc_transpiler::distribute::data_parallel`); a program with no
    /// backward is the same program.
    #[pymethod]
    fn data_parallel(&self, nranks: usize, vm: &VirtualMachine) -> PyResult<ProgramDesc> {
        let program = self.state.lock().program.clone();
        let parallel = fluidc_transpiler::distribute::data_parallel(&program, nranks)
            .map_err(|e| vm.new_value_error(format!("ParallelExecutor: {e}")))?;
        Ok(ProgramDesc::new(ProgramState::from_program(parallel)))
    }

    /// Whether two handles are the same program.
    #[pymethod]
    fn same(&self, other: PyRef<ProgramDesc>) -> bool {
        Arc::ptr_eq(&self.state, &other.state)
    }

    #[pymethod]
    fn num_blocks(&self) -> usize {
        self.state.lock().num_blocks()
    }

    /// A new block with parent `parent`; its index.
    #[pymethod]
    fn append_block(&self, parent: i32) -> usize {
        self.state.lock().append_block(parent)
    }

    #[pymethod]
    fn block_parent(&self, block: usize, vm: &VirtualMachine) -> PyResult<i32> {
        let s = self.state.lock();
        Ok(s.block(block).map_err(|e| value_error(vm, e))?.parent_idx)
    }

    /// A block's forward block (a grad block's), or -1.
    #[pymethod]
    fn forward_block(&self, block: usize, vm: &VirtualMachine) -> PyResult<i32> {
        let s = self.state.lock();
        Ok(s.block(block)
            .map_err(|e| value_error(vm, e))?
            .forward_block_idx
            .unwrap_or(-1))
    }

    #[pymethod]
    fn set_forward_block(&self, block: usize, forward: i32, vm: &VirtualMachine) -> PyResult<()> {
        let mut s = self.state.lock();
        s.block_mut(block)
            .map_err(|e| value_error(vm, e))?
            .forward_block_idx = Some(forward);
        Ok(())
    }

    /// Declares a variable (or updates the declaration the block has):
    /// kind, dtype, shape and LoD level, and the flags given (`None`:
    /// unset). Returns whether the block already declared it.
    #[pymethod]
    fn var_create(&self, args: VarCreateArgs, vm: &VirtualMachine) -> PyResult<bool> {
        let spec = VarSpec {
            kind: kind_of(args.kind, vm)?,
            dtype: args.dtype.map(|d| kind_of(d, vm)).transpose()?,
            dims: match &args.shape {
                Some(s) if !vm.is_none(s) => Some(convert::dims(s, vm)?),
                _ => None,
            },
            lod_level: args.lod_level,
            capacity: args.capacity,
        };
        let flag = |a: &OptionalArg<PyObjectRef>| match a {
            OptionalArg::Present(o) => opt_bool(o, vm),
            OptionalArg::Missing => Ok(None),
        };
        let persistable = flag(&args.persistable)?;
        let stop_gradient = flag(&args.stop_gradient)?;
        let need_check_feed = flag(&args.need_check_feed)?;
        let is_parameter = flag(&args.is_parameter)?;
        let name = args.name.as_str();
        let mut s = self.state.lock();
        let existed = s.has_var(args.block, name);
        if existed {
            let var = s
                .var_mut(args.block, name)
                .ok_or_else(|| vm.new_value_error(name.to_string()))?;
            if let Some(d) = spec.dtype {
                if let Some(t) = tensor_desc_mut(var) {
                    t.data_type = d as i32;
                }
            }
            if let Some(dims) = spec.dims {
                if let Some(t) = tensor_desc_mut(var) {
                    t.dims = dims;
                }
            }
            if let Some(l) = spec.lod_level {
                set_lod_level(var, l);
            }
            if persistable.is_some() {
                var.persistable = persistable;
            }
            if stop_gradient.is_some() {
                var.stop_gradient = stop_gradient;
            }
            if need_check_feed.is_some() {
                var.need_check_feed = need_check_feed;
            }
            if is_parameter.is_some() {
                var.is_parameter = is_parameter;
            }
        } else {
            let mut var = new_var(name, &spec);
            if persistable.is_some() {
                var.persistable = persistable;
            }
            var.stop_gradient = stop_gradient;
            var.need_check_feed = need_check_feed;
            var.is_parameter = is_parameter;
            s.declare(args.block, var).map_err(|e| value_error(vm, e))?;
        }
        Ok(existed)
    }

    /// Whether block `block` itself declares `name`.
    #[pymethod]
    fn var_has(&self, block: usize, name: PyStrRef) -> bool {
        self.state.lock().has_var(block, name.as_str())
    }

    /// The block among `block` and its ancestors that declares `name`, or -1.
    #[pymethod]
    fn var_find(&self, block: usize, name: PyStrRef) -> i64 {
        self.state
            .lock()
            .find_var(block, name.as_str())
            .map_or(-1, |b| b as i64)
    }

    /// The names block `block` declares, in order.
    #[pymethod]
    fn var_names(&self, block: usize, vm: &VirtualMachine) -> PyResult<PyObjectRef> {
        let s = self.state.lock();
        let b = s.block(block).map_err(|e| value_error(vm, e))?;
        Ok(vm
            .ctx
            .new_list(
                b.vars
                    .iter()
                    .map(|v| vm.ctx.new_str(v.name.as_str()).into())
                    .collect(),
            )
            .into())
    }

    #[pymethod]
    fn var_remove(&self, block: usize, name: PyStrRef) -> bool {
        self.state.lock().remove_var(block, name.as_str())
    }

    /// One field of a declaration: `type`, `dtype`, `shape`, `lod_level`,
    /// `persistable`, `stop_gradient`, `need_check_feed`, `is_parameter`,
    /// `capacity`.
    #[pymethod]
    fn var_get(
        &self,
        block: usize,
        name: PyStrRef,
        field: PyStrRef,
        vm: &VirtualMachine,
    ) -> PyResult<PyObjectRef> {
        let s = self.state.lock();
        let var = s.var(block, name.as_str()).ok_or_else(|| {
            vm.new_value_error(format!("block {block} has no variable `{}`", name.as_str()))
        })?;
        let ctx = &vm.ctx;
        let flag = |b: Option<bool>| -> PyObjectRef {
            match b {
                Some(b) => ctx.new_bool(b).into(),
                None => ctx.none(),
            }
        };
        Ok(match field.as_str() {
            "type" => ctx.new_int(var.ty.r#type).into(),
            "dtype" => match var.dtype() {
                Some(d) => ctx.new_int(d as i32).into(),
                None => match &var.ty.channel {
                    Some(c) => ctx.new_int(c.data_type).into(),
                    None => ctx.none(),
                },
            },
            "shape" => match var.tensor_desc() {
                Some(t) => ctx
                    .new_tuple(t.dims.iter().map(|d| ctx.new_int(*d).into()).collect())
                    .into(),
                None => ctx.none(),
            },
            "lod_level" => ctx.new_int(var.lod_level()).into(),
            "persistable" => flag(var.persistable),
            "stop_gradient" => flag(var.stop_gradient),
            "need_check_feed" => flag(var.need_check_feed),
            "is_parameter" => flag(var.is_parameter),
            "capacity" => match &var.ty.channel {
                Some(c) => ctx.new_int(c.capacity).into(),
                None => ctx.none(),
            },
            "shapes" | "dtypes" | "lod_levels" => {
                let tensors = var
                    .ty
                    .reader
                    .as_ref()
                    .map_or(&[][..], |r| &r.dense_tensor[..]);
                let items = tensors
                    .iter()
                    .map(|t| -> PyObjectRef {
                        match field.as_str() {
                            "shapes" => ctx
                                .new_list(
                                    t.tensor
                                        .dims
                                        .iter()
                                        .map(|d| ctx.new_int(*d).into())
                                        .collect(),
                                )
                                .into(),
                            "dtypes" => ctx.new_int(t.tensor.data_type).into(),
                            _ => ctx.new_int(t.legacy_lod_level.unwrap_or(0)).into(),
                        }
                    })
                    .collect();
                ctx.new_list(items).into()
            }
            other => return Err(vm.new_value_error(format!("no variable field `{other}`"))),
        })
    }

    /// Sets one field of a declaration (see `var_get`).
    #[pymethod]
    fn var_set(
        &self,
        block: usize,
        name: PyStrRef,
        field: PyStrRef,
        value: PyObjectRef,
        vm: &VirtualMachine,
    ) -> PyResult<()> {
        let mut s = self.state.lock();
        let var = s.var_mut(block, name.as_str()).ok_or_else(|| {
            vm.new_value_error(format!("block {block} has no variable `{}`", name.as_str()))
        })?;
        match field.as_str() {
            "dtype" => {
                let d = i32::try_from_object_ref(&value, vm)?;
                kind_of(d, vm)?;
                if let Some(t) = tensor_desc_mut(var) {
                    t.data_type = d;
                } else if let Some(c) = var.ty.channel.as_mut() {
                    c.data_type = d;
                }
            }
            "shape" => {
                let dims = convert::dims(&value, vm)?;
                if let Some(t) = tensor_desc_mut(var) {
                    t.dims = dims;
                }
            }
            "lod_level" => set_lod_level(var, i32::try_from_object_ref(&value, vm)?),
            "persistable" => var.persistable = opt_bool(&value, vm)?,
            "stop_gradient" => var.stop_gradient = opt_bool(&value, vm)?,
            "need_check_feed" => var.need_check_feed = opt_bool(&value, vm)?,
            "is_parameter" => var.is_parameter = opt_bool(&value, vm)?,
            "shapes" => {
                let shapes: Vec<PyObjectRef> = value.try_to_value(vm)?;
                let dims = shapes
                    .iter()
                    .map(|s| convert::dims(s, vm))
                    .collect::<PyResult<Vec<_>>>()?;
                let tensors = reader_tensors(var, dims.len(), vm)?;
                for (t, d) in tensors.iter_mut().zip(dims) {
                    t.tensor.dims = d;
                }
            }
            "dtypes" => {
                let types: Vec<i32> = value.try_to_value(vm)?;
                for &d in &types {
                    kind_of(d, vm)?;
                }
                let tensors = reader_tensors(var, types.len(), vm)?;
                for (t, d) in tensors.iter_mut().zip(types) {
                    t.tensor.data_type = d;
                }
            }
            "lod_levels" => {
                let levels: Vec<i32> = value.try_to_value(vm)?;
                let tensors = reader_tensors(var, levels.len(), vm)?;
                for (t, l) in tensors.iter_mut().zip(levels) {
                    t.legacy_lod_level = Some(l);
                }
            }
            other => return Err(vm.new_value_error(format!("no variable field `{other}`"))),
        }
        Ok(())
    }

    /// Appends an op to block `block` (or inserts it at `at`): Paddle's
    /// `Operator.__init__` and `append_op`. `inputs`/`outputs` map slots to
    /// variables or names; attributes take the types the op's proto
    /// declares, and the proto's defaults fill the rest. Returns the op's
    /// index.
    #[pymethod]
    // Python's keyword arguments, one parameter each.
    #[allow(clippy::too_many_arguments)]
    fn op_append(
        &self,
        block: usize,
        ty: PyStrRef,
        inputs: PyObjectRef,
        outputs: PyObjectRef,
        attrs: PyObjectRef,
        at: OptionalArg<Option<usize>>,
        vm: &VirtualMachine,
    ) -> PyResult<usize> {
        let op = build_op(ty.as_str(), &inputs, &outputs, &attrs, vm)?;
        let mut s = self.state.lock();
        s.add_op(block, at.flatten(), op)
            .map_err(|e| host::op_error(vm, e))
    }

    /// 1.x's `BlockDesc.append_op()` (`at`: `_insert_op`): an op with
    /// no type yet, which `OpDesc.set_type`, `set_input` and `set_output`
    /// fill; nothing is completed or inferred until `check_attrs` and
    /// `infer_shape`. Returns the op's index.
    #[pymethod]
    fn op_append_empty(
        &self,
        block: usize,
        at: OptionalArg<Option<usize>>,
        vm: &VirtualMachine,
    ) -> PyResult<usize> {
        let mut s = self.state.lock();
        let b = s.block_mut(block).map_err(|e| value_error(vm, e))?;
        let at = at.flatten().unwrap_or(b.ops.len()).min(b.ops.len());
        b.ops.insert(
            at,
            Op {
                ty: String::new(),
                inputs: Vec::new(),
                outputs: Vec::new(),
                attrs: Vec::new(),
                is_target: None,
            },
        );
        s.touch();
        Ok(at)
    }

    /// Sets an op's type (1.x's `OpDesc.set_type`).
    #[pymethod]
    fn op_set_type(
        &self,
        block: usize,
        index: usize,
        ty: PyStrRef,
        vm: &VirtualMachine,
    ) -> PyResult<()> {
        let mut s = self.state.lock();
        let op = s.op_mut(block, index).map_err(|e| value_error(vm, e))?;
        op.ty = ty.as_str().to_string();
        s.touch();
        Ok(())
    }

    /// 1.x's `OpDesc.check_attrs`: the proto's defaults fill the
    /// attributes the op lacks.
    #[pymethod]
    fn op_check_attrs(&self, block: usize, index: usize, vm: &VirtualMachine) -> PyResult<()> {
        let mut s = self.state.lock();
        let op = s.op_mut(block, index).map_err(|e| value_error(vm, e))?;
        if ops::get(&op.ty).is_none() {
            return Err(host::op_error(
                vm,
                format!("Operator \"{}\" has not been registered.", op.ty),
            ));
        }
        ops::fill_attr_defaults(op);
        s.touch();
        Ok(())
    }

    /// 1.x's `OpDesc.infer_shape(block)`: the op's outputs, declared in
    /// its block or an ancestor, take the types inference gives them.
    #[pymethod]
    fn op_infer_shape(&self, block: usize, index: usize, vm: &VirtualMachine) -> PyResult<()> {
        let mut s = self.state.lock();
        let op = s.op(block, index).map_err(|e| value_error(vm, e))?.clone();
        if ops::get(&op.ty).is_none() {
            return Err(host::op_error(
                vm,
                format!("Operator \"{}\" has not been registered.", op.ty),
            ));
        }
        let types = s
            .infer(block, &op)
            .map_err(|e| host::op_error(vm, format!("{}: {e}", op.ty)))?;
        s.apply_types(block, types);
        s.touch();
        Ok(())
    }

    /// 1.x's `OpDesc.infer_var_type(block)` ([`ProgramState::infer_var_types`]).
    #[pymethod]
    fn op_infer_var_type(&self, block: usize, index: usize, vm: &VirtualMachine) -> PyResult<()> {
        let mut s = self.state.lock();
        let op = s.op(block, index).map_err(|e| value_error(vm, e))?.clone();
        s.infer_var_types(block, &op)
            .map_err(|e| host::op_error(vm, format!("{}: {e}", op.ty)))?;
        s.touch();
        Ok(())
    }

    #[pymethod]
    fn op_count(&self, block: usize, vm: &VirtualMachine) -> PyResult<usize> {
        let s = self.state.lock();
        Ok(s.block(block).map_err(|e| value_error(vm, e))?.ops.len())
    }

    #[pymethod]
    fn op_type(&self, block: usize, index: usize, vm: &VirtualMachine) -> PyResult<String> {
        let s = self.state.lock();
        Ok(s.op(block, index)
            .map_err(|e| value_error(vm, e))?
            .ty
            .clone())
    }

    /// An op's slots, `{slot: [names]}` in order.
    #[pymethod]
    fn op_slots(
        &self,
        block: usize,
        index: usize,
        outputs: bool,
        vm: &VirtualMachine,
    ) -> PyResult<PyDictRef> {
        let s = self.state.lock();
        let op = s.op(block, index).map_err(|e| value_error(vm, e))?;
        let dict = vm.ctx.new_dict();
        let slots = if outputs { &op.outputs } else { &op.inputs };
        for slot in slots {
            let names = slot
                .arguments
                .iter()
                .map(|n| vm.ctx.new_str(n.as_str()).into())
                .collect();
            dict.set_item(slot.parameter.as_str(), vm.ctx.new_list(names).into(), vm)?;
        }
        Ok(dict)
    }

    /// Sets an op's slot (`outputs`: an output slot) to `names`.
    #[pymethod]
    fn op_set_slot(
        &self,
        block: usize,
        index: usize,
        outputs: bool,
        slot: PyStrRef,
        names: PyObjectRef,
        vm: &VirtualMachine,
    ) -> PyResult<()> {
        let names = convert::names(&names, vm)?;
        let mut s = self.state.lock();
        let op = s.op_mut(block, index).map_err(|e| value_error(vm, e))?;
        let slots = if outputs {
            &mut op.outputs
        } else {
            &mut op.inputs
        };
        match slots.iter_mut().find(|s| s.parameter == slot.as_str()) {
            Some(s) => s.arguments = names,
            None => slots.push(Slot::new(slot.as_str(), names)),
        }
        Ok(())
    }

    /// An op's attribute (a block as its index), or None.
    #[pymethod]
    fn op_attr(
        &self,
        block: usize,
        index: usize,
        name: PyStrRef,
        vm: &VirtualMachine,
    ) -> PyResult<PyObjectRef> {
        let s = self.state.lock();
        let op = s.op(block, index).map_err(|e| value_error(vm, e))?;
        Ok(match op.get_attr(name.as_str()) {
            Some(v) => convert::attr_to_py(v, vm),
            None => vm.ctx.none(),
        })
    }

    /// The `AttrType` number of an op's attribute, or None.
    #[pymethod]
    fn op_attr_type(
        &self,
        block: usize,
        index: usize,
        name: PyStrRef,
        vm: &VirtualMachine,
    ) -> PyResult<Option<i32>> {
        let s = self.state.lock();
        let op = s.op(block, index).map_err(|e| value_error(vm, e))?;
        Ok(op.get_attr(name.as_str()).map(AttrValue::type_number))
    }

    /// An op's attribute names, in order.
    #[pymethod]
    fn op_attr_names(
        &self,
        block: usize,
        index: usize,
        vm: &VirtualMachine,
    ) -> PyResult<PyObjectRef> {
        let s = self.state.lock();
        let op = s.op(block, index).map_err(|e| value_error(vm, e))?;
        Ok(vm
            .ctx
            .new_list(
                op.attrs
                    .iter()
                    .map(|a| vm.ctx.new_str(a.name).into())
                    .collect(),
            )
            .into())
    }

    /// Sets an op's attribute (typed as its proto declares it).
    #[pymethod]
    fn op_set_attr(
        &self,
        block: usize,
        index: usize,
        name: PyStrRef,
        value: PyObjectRef,
        vm: &VirtualMachine,
    ) -> PyResult<()> {
        let mut s = self.state.lock();
        let ty = s
            .op(block, index)
            .map_err(|e| value_error(vm, e))?
            .ty
            .clone();
        let declared = declared_attr(&ty, name.as_str(), vm);
        let value = convert::attr_value(name.as_str(), &value, declared, vm)?;
        s.set_op_attr(block, index, name.as_str(), value)
            .map_err(|e| value_error(vm, e))
    }

    /// Removes ops `start..end` of a block.
    #[pymethod]
    fn op_remove(
        &self,
        block: usize,
        start: usize,
        end: usize,
        vm: &VirtualMachine,
    ) -> PyResult<()> {
        let mut s = self.state.lock();
        let b = s.block_mut(block).map_err(|e| value_error(vm, e))?;
        if start > end || end > b.ops.len() {
            return Err(vm.new_index_error(format!(
                "ops {start}..{end} are not in block {block} ({} ops)",
                b.ops.len()
            )));
        }
        b.ops.drain(start..end);
        Ok(())
    }

    /// Renames a variable in every op of block `block` and in its
    /// declaration.
    #[pymethod]
    fn rename_var(
        &self,
        block: usize,
        old: PyStrRef,
        new: PyStrRef,
        vm: &VirtualMachine,
    ) -> PyResult<()> {
        let mut s = self.state.lock();
        let (old, new) = (old.as_str(), new.as_str());
        let b = s.block_mut(block).map_err(|e| value_error(vm, e))?;
        for op in &mut b.ops {
            for slot in op.inputs.iter_mut().chain(op.outputs.iter_mut()) {
                for a in &mut slot.arguments {
                    if a == old {
                        *a = new.to_string();
                    }
                }
            }
        }
        for v in &mut b.vars {
            if v.name == old {
                v.name = new.to_string();
            }
        }
        s.reindex();
        Ok(())
    }

    /// Paddle's `Program.__str__` text (one line per op, blocks nested).
    #[pymethod]
    fn pretty(&self, block: OptionalArg<usize>) -> String {
        fluidc_transpiler::pretty::to_pretty(&self.state.lock().program, block.into_option())
    }

    /// `print(program)`: every block as Paddle 3.3.1 prints it.
    #[pymethod]
    fn program_text(&self) -> String {
        fluidc_transpiler::pretty::paddle_program_text(&self.state.lock().program)
    }

    /// 1.x's `Program.to_string(throw_on_error)`: the protobuf text.
    #[pymethod]
    fn program_proto_text(&self) -> String {
        desc_text(Desc::Program(&self.state.lock().program))
    }

    /// 1.x's `Block.to_string(throw_on_error)`: the block's protobuf text.
    #[pymethod]
    fn block_proto_text(&self, block: usize, vm: &VirtualMachine) -> PyResult<String> {
        let s = self.state.lock();
        let b = s
            .program
            .blocks
            .get(block)
            .ok_or_else(|| vm.new_index_error(format!("the program has no block {block}")))?;
        Ok(desc_text(Desc::Block(b)))
    }

    /// 1.x's `Variable.to_string(throw_on_error)`: the VarDesc's text.
    #[pymethod]
    fn var_proto_text(
        &self,
        block: usize,
        name: PyStrRef,
        vm: &VirtualMachine,
    ) -> PyResult<String> {
        let s = self.state.lock();
        let var = s.var(block, name.as_str()).ok_or_else(|| {
            vm.new_value_error(format!("block {block} has no variable `{}`", name.as_str()))
        })?;
        Ok(desc_text(Desc::Var(var)))
    }

    /// 1.x's `Operator.to_string(throw_on_error)`: the OpDesc's text.
    #[pymethod]
    fn op_proto_text(&self, block: usize, idx: usize, vm: &VirtualMachine) -> PyResult<String> {
        let s = self.state.lock();
        let op = s
            .program
            .blocks
            .get(block)
            .and_then(|b| b.ops.get(idx))
            .ok_or_else(|| vm.new_index_error(format!("block {block} has no op {idx}")))?;
        Ok(desc_text(Desc::Op(op)))
    }

    /// `print(var)`: the variable's line of `print(program)`.
    #[pymethod]
    fn var_line(&self, block: usize, name: PyStrRef, vm: &VirtualMachine) -> PyResult<String> {
        let s = self.state.lock();
        let var = s.var(block, name.as_str()).ok_or_else(|| {
            vm.new_value_error(format!("block {block} has no variable `{}`", name.as_str()))
        })?;
        Ok(fluidc_transpiler::pretty::var_line(var))
    }

    /// `print(op)`: the op's line of `print(program)`.
    #[pymethod]
    fn op_line(&self, block: usize, index: usize, vm: &VirtualMachine) -> PyResult<String> {
        let s = self.state.lock();
        let op = s.op(block, index).map_err(|e| value_error(vm, e))?;
        Ok(fluidc_transpiler::pretty::op_line(op))
    }

    /// `program.clone(for_test=True)`: as Paddle 1.x's `prune_backward`
    /// and `_inference_optimize`, backward and optimizer ops (and the
    /// gradient variables) are left out, and every op with an `is_test`
    /// attribute gets it set; the loss op is a forward op again.
    #[pymethod]
    fn clone_for_test(&self) -> ProgramDesc {
        use fluidc_transpiler::backward::role;
        let mut program = self.state.lock().program.clone();
        let role_of = |op: &Op| match op.get_attr("op_role") {
            Some(AttrValue::Int(r)) => *r,
            _ => 0,
        };
        for block in &mut program.blocks {
            block
                .ops
                .retain(|op| role_of(op) & (role::BACKWARD | role::OPTIMIZE) == 0);
            block.vars.retain(|v| !v.name.contains(ops::GRAD_SUFFIX));
            for op in &mut block.ops {
                if op.get_attr("is_test").is_some() {
                    op.set_attr("is_test", AttrValue::Bool(true));
                }
                if role_of(op) & role::LOSS != 0 {
                    op.set_attr("op_role", AttrValue::Int(role::FORWARD));
                }
            }
        }
        ProgramDesc::new(ProgramState::from_program(program))
    }

    /// `prune(targets)`: 1.x's `core.prune`, a copy cut down to the ops
    /// the targets (`[block, op]` pairs) need
    /// ([`fluidc_transpiler::passes::prune::to_targets`]).
    #[pymethod]
    fn prune(&self, targets: Vec<Vec<usize>>, vm: &VirtualMachine) -> PyResult<ProgramDesc> {
        let targets = targets
            .iter()
            .map(|t| match t[..] {
                [b, i] => Ok((b, i)),
                _ => Err(vm.new_value_error("prune: each target is [block, op]".to_string())),
            })
            .collect::<PyResult<Vec<(usize, usize)>>>()?;
        let s = self.state.lock();
        for &(b, i) in &targets {
            if s.program.blocks.get(b).is_none_or(|blk| i >= blk.ops.len()) {
                return Err(vm.new_index_error(format!("prune: block {b} has no op {i}")));
            }
        }
        let program = fluidc_transpiler::passes::prune::to_targets(&s.program, &targets);
        Ok(ProgramDesc::new(ProgramState::from_program(program)))
    }

    /// `calc_gradient(targets, inputs, target_grads, no_grad)`: the
    /// gradients of `targets` (block 0) with respect to `inputs`, built as
    /// Paddle 3.3.1's first `calc_gradient` builds them; each input's
    /// gradient name, or None.
    #[pymethod]
    fn calc_gradient(
        &self,
        targets: PyObjectRef,
        inputs: PyObjectRef,
        target_grads: PyObjectRef,
        no_grad: PyObjectRef,
        vm: &VirtualMachine,
    ) -> PyResult<PyObjectRef> {
        let targets = convert::names(&targets, vm)?;
        let inputs = convert::names(&inputs, vm)?;
        let no_grad = convert::names(&no_grad, vm)?;
        let target_grads: Vec<Option<String>> = target_grads
            .try_to_value::<Vec<PyObjectRef>>(vm)?
            .into_iter()
            .map(|g| {
                if vm.is_none(&g) {
                    Ok(None)
                } else {
                    g.try_into_value::<String>(vm).map(Some)
                }
            })
            .collect::<PyResult<_>>()?;
        if target_grads.len() != targets.len() {
            return Err(vm.new_value_error(
                "Should have the same number of target_gradients as targets".to_owned(),
            ));
        }
        let mut s = self.state.lock();
        let grads = fluidc_transpiler::backward::calc_gradient(
            &mut s.program,
            &targets,
            &target_grads,
            &inputs,
            &no_grad,
        )
        .map_err(|e| vm.new_not_implemented_error(e))?;
        s.reindex();
        Ok(vm
            .ctx
            .new_list(
                grads
                    .into_iter()
                    .map(|g| match g {
                        Some(g) => vm.ctx.new_str(g).into(),
                        None => vm.ctx.none(),
                    })
                    .collect(),
            )
            .into())
    }

    /// 1.x's `core.get_grad_op_desc(op, no_grad_set, [])`: a new program
    /// whose global block holds the grad ops of op `index` of `block` (the
    /// caller copies them where it wants: `OpDesc.copy_from`), and the
    /// `{input gradient: forward variable}` of what they write.
    #[pymethod]
    fn op_grad_descs(
        &self,
        block: usize,
        index: usize,
        no_grad: PyObjectRef,
        vm: &VirtualMachine,
    ) -> PyResult<PyObjectRef> {
        let no_grad = convert::names(&no_grad, vm)?.into_iter().collect();
        let fwd = self.cloned_op(block, index, vm)?;
        let (made, grad_to_var) = fluidc_transpiler::backward::grad_op_descs(&fwd, &no_grad)
            .map_err(|e| host::op_error(vm, e))?;
        let mut state = ProgramState::new();
        state.program.blocks[0].ops = made;
        state.reindex();
        let dict = vm.ctx.new_dict();
        for (g, v) in grad_to_var {
            dict.set_item(g.as_str(), vm.ctx.new_str(v).into(), vm)?;
        }
        let desc = ProgramDesc::new(state).into_ref(&vm.ctx);
        Ok(vm.ctx.new_tuple(vec![desc.into(), dict.into()]).into())
    }

    /// 1.x's `OpDesc.copy_from`: op `index` of `block` becomes a copy of
    /// op `from_index` of block `from_block` of `from` (this or another
    /// program).
    #[pymethod]
    fn op_copy_from(
        &self,
        block: usize,
        index: usize,
        from: PyRef<ProgramDesc>,
        from_block: usize,
        from_index: usize,
        vm: &VirtualMachine,
    ) -> PyResult<()> {
        let op = from.cloned_op(from_block, from_index, vm)?;
        let mut s = self.state.lock();
        let slot = s.op_mut(block, index).map_err(|e| value_error(vm, e))?;
        *slot = op;
        s.touch();
        Ok(())
    }

    /// `append_backward(loss)`: Paddle 3.3.1's backward of block 0; the
    /// (parameter, gradient) name pairs in the order of `parameters`.
    #[pymethod]
    fn append_backward(
        &self,
        loss: PyStrRef,
        parameters: PyObjectRef,
        no_grad: PyObjectRef,
        vm: &VirtualMachine,
    ) -> PyResult<PyObjectRef> {
        let parameters = convert::names(&parameters, vm)?;
        let no_grad = convert::names(&no_grad, vm)?;
        let mut s = self.state.lock();
        let pairs = fluidc_transpiler::backward::append_backward(
            &mut s.program,
            loss.as_str(),
            &parameters,
            &no_grad,
        )
        .map_err(|e| vm.new_value_error(e))?;
        s.reindex();
        Ok(vm
            .ctx
            .new_list(
                pairs
                    .into_iter()
                    .map(|(p, g)| {
                        vm.ctx
                            .new_tuple(vec![vm.ctx.new_str(p).into(), vm.ctx.new_str(g).into()])
                            .into()
                    })
                    .collect(),
            )
            .into())
    }
}

/// The type an op's proto declares for attribute `name`, if any.
fn declared_attr(
    ty: &str,
    name: &str,
    _vm: &VirtualMachine,
) -> Option<fluidc_transpiler::model::AttrType> {
    ops::get(ty)?.attr(name).map(|a| a.ty)
}

/// An op from the Python arguments of `append_op`, completed with the
/// proto's slots and defaults and the user's `op_callstack`.
pub fn build_op(
    ty: &str,
    inputs: &PyObjectRef,
    outputs: &PyObjectRef,
    attrs: &PyObjectRef,
    vm: &VirtualMachine,
) -> PyResult<Op> {
    let mut op = Op::new(ty);
    for (slot, names) in convert::slots(inputs, vm)? {
        op.inputs.push(Slot::new(slot, names));
    }
    for (slot, names) in convert::slots(outputs, vm)? {
        op.outputs.push(Slot::new(slot, names));
    }
    if !vm.is_none(attrs) {
        let dict = attrs
            .downcast_ref::<rustpython_vm::builtins::PyDict>()
            .ok_or_else(|| vm.new_type_error("attrs must be a dict".to_string()))?;
        for (k, v) in dict {
            let name = k
                .downcast_ref::<rustpython_vm::builtins::PyStr>()
                .ok_or_else(|| vm.new_type_error("an attribute name must be a str".to_string()))?
                .as_str()
                .to_string();
            if vm.is_none(&v) {
                continue;
            }
            let declared = declared_attr(ty, &name, vm);
            let value = convert::attr_value(&name, &v, declared, vm)?;
            op.set_attr(&name, value);
        }
    }
    if op.get_attr("op_callstack").is_none() {
        let stack = host::user_callstack(vm);
        if !stack.is_empty() {
            op.set_attr("op_callstack", AttrValue::Strings(stack));
        }
    }
    ProgramState::complete(&mut op);
    Ok(op)
}

/// `i32::try_from_object` for a borrowed object.
trait FromObjectRef: Sized {
    fn try_from_object_ref(obj: &PyObjectRef, vm: &VirtualMachine) -> PyResult<Self>;
}

impl FromObjectRef for i32 {
    fn try_from_object_ref(obj: &PyObjectRef, vm: &VirtualMachine) -> PyResult<i32> {
        rustpython_vm::TryFromObject::try_from_object(vm, obj.clone())
    }
}
