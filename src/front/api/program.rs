//! Programs, blocks, `LayerHelper`, `Executor` and variable attributes.

use fluidc_transpiler::{AttrValue, Op, Slot, Var, VarKind};

use super::builtin::{builtin, recv_object, Args, Builtin, Rest, D};
use crate::front::builder::Run;
use crate::front::diag::{Diagnostic, Result};
use crate::front::host::Host;
use crate::front::value::{Object, Value, VarRef};

use D::*;

pub const BUILTINS: &[Builtin] = &[
    builtin!(
        ["fluid.Program", "fluid.framework.Program"],
        [],
        Rest::No,
        |i, _| Ok(Value::object(Object::Program(i.b.new_program())))
    ),
    builtin!(
        ["fluid.program_guard", "fluid.framework.program_guard"],
        [("main_program", Req), ("startup_program", Nil)],
        Rest::No,
        |_, a| {
            let main = program_arg(a, "main_program")?;
            let startup = if a.is_none("startup_program") {
                None
            } else {
                Some(program_arg(a, "startup_program")?)
            };
            Ok(Value::object(Object::ProgramGuard { main, startup }))
        }
    ),
    builtin!(
        [
            "fluid.default_main_program",
            "fluid.framework.default_main_program"
        ],
        [],
        Rest::No,
        |i, _| { Ok(Value::object(Object::Program(i.b.main))) }
    ),
    builtin!(
        [
            "fluid.default_startup_program",
            "fluid.framework.default_startup_program"
        ],
        [],
        Rest::No,
        |i, _| { Ok(Value::object(Object::Program(i.b.startup))) }
    ),
    builtin!(["Program.global_block"], [], Rest::No, |_, a| {
        let Object::Program(p) = *recv_object(a) else {
            unreachable!("bound to Program")
        };
        Ok(Value::object(Object::Block {
            program: p,
            block: 0,
        }))
    }),
    builtin!(
        ["Program.clone"],
        [("for_test", Bool(false))],
        Rest::No,
        |i, a| {
            let Object::Program(p) = *recv_object(a) else {
                unreachable!("bound to Program")
            };
            Ok(Value::object(Object::Program(clone_program(
                i,
                p,
                a.bool("for_test")?,
            ))))
        }
    ),
    builtin!(["Program.list_vars"], [], Rest::No, |i, a| {
        let Object::Program(p) = *recv_object(a) else {
            unreachable!("bound to Program")
        };
        Ok(Value::list(
            list_vars(i, p).into_iter().map(Value::Var).collect(),
        ))
    }),
    builtin!(["Program.current_block"], [], Rest::No, |i, a| {
        let Object::Program(p) = *recv_object(a) else {
            unreachable!("bound to Program")
        };
        Ok(Value::object(Object::Block {
            program: p,
            block: i.b.programs[p].current,
        }))
    }),
    builtin!(["Program.block"], [("index", Req)], Rest::No, |i, a| {
        let Object::Program(p) = *recv_object(a) else {
            unreachable!("bound to Program")
        };
        let idx = a.int("index")?;
        let n = i.b.programs[p].program.blocks.len();
        let block = usize::try_from(idx)
            .ok()
            .filter(|b| *b < n)
            .ok_or_else(|| a.err("index", format!("the program has {n} blocks")))?;
        Ok(Value::object(Object::Block { program: p, block }))
    }),
    builtin!(
        ["Block.create_var"],
        [
            ("name", Nil),
            ("shape", Nil),
            ("dtype", Nil),
            ("type", Nil),
            ("persistable", Bool(false)),
            ("lod_level", Int(0)),
            ("stop_gradient", Bool(false))
        ],
        Rest::IgnoreKwargs,
        |i, a| {
            let Object::Block { program, block } = *recv_object(a) else {
                unreachable!("bound to Block")
            };
            let var = var_from_args(i, a)?;
            Ok(Value::Var(i.b.declare_in(program, block, var)))
        }
    ),
    builtin!(["Block.var"], [("name", Req)], Rest::No, |i, a| {
        let Object::Block { program, block } = *recv_object(a) else {
            unreachable!("bound to Block")
        };
        let name = a.string("name")?;
        if i.b.block(program, block).var(&name).is_none() {
            return Err(a.err("name", format!("block {block} has no variable `{name}`")));
        }
        Ok(Value::Var(VarRef {
            program,
            block,
            name: name.as_str().into(),
        }))
    }),
    builtin!(
        ["Block.append_op"],
        [
            ("type", Req),
            ("inputs", Nil),
            ("outputs", Nil),
            ("attrs", Nil)
        ],
        Rest::IgnoreKwargs,
        |i, a| {
            let Object::Block { program, block } = *recv_object(a) else {
                unreachable!("bound to Block")
            };
            let op = op_from_args(a)?;
            i.b.append_to(program, block, op);
            Ok(Value::None)
        }
    ),
    builtin!(
        ["fluid.layer_helper.LayerHelper"],
        [("layer_type", Req)],
        Rest::IgnoreKwargs,
        |i, a| {
            let layer_type = a.string("layer_type")?;
            let name = i.b.helper_name(&layer_type);
            Ok(Value::object(Object::LayerHelper { layer_type, name }))
        }
    ),
    builtin!(
        ["LayerHelper.append_op"],
        [
            ("type", Req),
            ("inputs", Nil),
            ("outputs", Nil),
            ("attrs", Nil)
        ],
        Rest::IgnoreKwargs,
        |i, a| {
            let op = op_from_args(a)?;
            i.b.append(op);
            Ok(Value::None)
        }
    ),
    builtin!(
        ["LayerHelper.create_variable_for_type_inference"],
        [("dtype", Req), ("stop_gradient", Bool(false))],
        Rest::No,
        |i, a| {
            let Object::LayerHelper { name, .. } = &*recv_object(a) else {
                unreachable!("bound to LayerHelper")
            };
            let dtype = a.dtype("dtype")?;
            let v = i.b.tmp_var(name, dtype, Vec::new());
            Ok(Value::Var(v))
        }
    ),
    builtin!(
        ["LayerHelper.create_variable"],
        [
            ("name", Nil),
            ("shape", Nil),
            ("dtype", Nil),
            ("type", Nil),
            ("persistable", Bool(false)),
            ("lod_level", Int(0)),
            ("stop_gradient", Bool(false))
        ],
        Rest::IgnoreKwargs,
        |i, a| {
            let var = var_from_args(i, a)?;
            Ok(Value::Var(i.b.declare(var)))
        }
    ),
    builtin!(
        ["fluid.Executor", "fluid.executor.Executor"],
        [("place", Nil)],
        Rest::No,
        |_, _| Ok(Value::object(Object::Executor))
    ),
    builtin!(
        ["fluid.CPUPlace", "fluid.core.CPUPlace"],
        [],
        Rest::No,
        |_, _| Ok(Value::object(Object::Place))
    ),
    builtin!(
        ["Executor.run"],
        [
            ("program", Nil),
            ("feed", Nil),
            ("fetch_list", Nil),
            ("feed_var_name", Str("feed")),
            ("fetch_var_name", Str("fetch")),
            ("scope", Nil),
            ("return_numpy", Bool(true)),
            ("use_program_cache", Bool(false))
        ],
        Rest::No,
        executor_run
    ),
    builtin!(["Executor.close"], [], Rest::No, |_, _| Ok(Value::None)),
    builtin!(
        ["fluid.global_scope", "fluid.executor.global_scope"],
        [],
        Rest::No,
        // Inside `with fluid.scope_guard(s)`, the global scope is `s`.
        |i, _| Ok(Value::object(Object::Scope(i.b.scope)))
    ),
    builtin!(
        [
            "fluid.core.is_compiled_with_cuda",
            "fluid.is_compiled_with_cuda",
            "fluid.core.is_compiled_with_mkldnn"
        ],
        [],
        Rest::No,
        // fluidc runs on the CPU only: tests that need a GPU skip themselves.
        |_, _| Ok(Value::Bool(false))
    ),
    builtin!(
        ["fluid.Scope", "fluid.core.Scope", "fluid.executor.Scope"],
        [],
        Rest::No,
        |i, _| {
            let id = i.b.scopes;
            i.b.scopes += 1;
            Ok(Value::object(Object::Scope(id)))
        }
    ),
    builtin!(
        ["fluid.scope_guard", "fluid.executor.scope_guard"],
        [("scope", Req)],
        Rest::No,
        |_, a| Ok(Value::object(Object::ScopeGuard(scope_arg(a, "scope")?)))
    ),
    builtin!(["Scope.find_var"], [("name", Req)], Rest::No, |i, a| {
        let Object::Scope(scope) = *recv_object(a) else {
            unreachable!("bound to Scope")
        };
        let name = a.string("name")?;
        // Run mode knows what the scope holds: a name it lacks is `None`,
        // as Paddle gives (build mode cannot tell yet).
        if let Some(run) = i.b.run.as_ref() {
            if !run.scope_holds(scope, &name) {
                return Ok(Value::None);
            }
        }
        Ok(Value::object(Object::ScopeVar(scope, name)))
    }),
    builtin!(["ScopeVar.get_tensor"], [], Rest::No, |i, a| {
        match recv_object(a).as_ref() {
            Object::ScopeVar(scope, name) => scope_view(i, a, *scope, name),
            _ => Ok(Value::Poison),
        }
    }),
    builtin!(
        ["fluid.executor._fetch_var"],
        [("name", Req), ("scope", Nil), ("return_numpy", Bool(true))],
        Rest::No,
        |i, a| {
            let name = match a.get("name") {
                Value::Var(v) => v.name.to_string(),
                _ => a.string("name")?,
            };
            let scope = if a.is_none("scope") {
                0
            } else {
                scope_arg(a, "scope")?
            };
            let value = scope_tensor(i, a, scope, &name)?;
            Ok(if a.bool("return_numpy")? {
                value
            } else {
                dense_tensor(value)
            })
        }
    ),
    builtin!(["DenseTensor.shape"], [], Rest::No, |_, a| {
        let t = host_tensor_of(a)?;
        let shape = t.array.as_ref().map_or(&[][..], |x| x.shape());
        Ok(Value::list(
            shape.iter().map(|&d| Value::Int(d as i64)).collect(),
        ))
    }),
    builtin!(["DenseTensor.lod"], [], Rest::No, |_, a| {
        Ok(lod_value(&host_tensor_of(a)?.lod, false))
    }),
    builtin!(
        ["DenseTensor.recursive_sequence_lengths"],
        [],
        Rest::No,
        |_, a| Ok(lod_value(&host_tensor_of(a)?.lod, true))
    ),
    builtin!(
        ["DenseTensor.has_valid_recursive_sequence_lengths"],
        [],
        Rest::No,
        |_, a| {
            let t = host_tensor_of(a)?;
            let rows = t
                .array
                .as_ref()
                .map_or(0, |x| x.shape().first().copied().unwrap_or(1));
            Ok(Value::Bool(
                fluidc_runtime::Tensor::check_lod(&t.lod, rows).is_ok(),
            ))
        }
    ),
    builtin!(
        ["DenseTensor.set"],
        [("array", Req), ("place", Nil)],
        Rest::No,
        |i, a| {
            let array = super::numpy::as_array(a.get("array"))
                .ok_or_else(|| a.err("array", "set() takes a numpy array"))?;
            host_tensor_mut(a)?.with(i, |t| t.array = Some(array))
        }
    ),
    builtin!(["DenseTensor.set_lod"], [("lod", Req)], Rest::No, |i, a| {
        let lod = lod_arg(a, "lod", false)?;
        host_tensor_mut(a)?.with(i, |t| t.lod = lod)
    }),
    builtin!(
        ["DenseTensor.set_recursive_sequence_lengths"],
        [("recursive_sequence_lengths", Req)],
        Rest::No,
        |i, a| {
            let lod = lod_arg(a, "recursive_sequence_lengths", true)?;
            host_tensor_mut(a)?.with(i, |t| t.lod = lod)
        }
    ),
    builtin!(
        ["fluid.LoDTensor", "fluid.core.LoDTensor", "fluid.Tensor"],
        [],
        Rest::No,
        |_, _| Ok(Value::object(Object::DenseTensor(Default::default())))
    ),
    builtin!(
        ["fluid.create_lod_tensor"],
        [("data", Req), ("recursive_seq_lens", Req), ("place", Nil)],
        Rest::No,
        create_lod_tensor
    ),
    builtin!(
        ["fluid.create_random_int_lodtensor"],
        [
            ("recursive_seq_lens", Req),
            ("base_shape", Req),
            ("place", Req),
            ("low", Req),
            ("high", Req)
        ],
        Rest::No,
        create_random_int_lodtensor
    ),
    builtin!(
        ["fluid.unique_name.generate"],
        [("key", Req)],
        Rest::No,
        |i, a| Ok(Value::str(&i.b.unique(&a.string("key")?)))
    ),
    builtin!(
        ["fluid.unique_name.guard"],
        [("new_generator", Nil)],
        Rest::No,
        |_, _| Ok(Value::object(Object::UniqueNameGuard))
    ),
    builtin!(["fluid.framework.Variable"], [], Rest::No, |_, a| {
        Err(Diagnostic::new(
            a.call.clone(),
            "create variables with Block.create_var or a layers.* call",
        ))
    }),
    builtin!(["paddle.enable_static"], [], Rest::No, |_, _| Ok(
        Value::None
    )),
];

/// `program.clone(for_test)`: a copy paired with the same startup program.
/// For a test, as Paddle 1.x's `prune_backward` and `_inference_optimize`:
/// backward and optimizer ops (and the gradient variables) are left out, and
/// every op with an `is_test` attribute gets it set.
fn clone_program(i: &mut Host, p: usize, for_test: bool) -> usize {
    let mut program = i.b.programs[p].program.clone();
    if for_test {
        let role_of = |op: &fluidc_transpiler::Op| match op.get_attr("op_role") {
            Some(AttrValue::Int(r)) => *r,
            _ => 0,
        };
        for block in &mut program.blocks {
            block.ops.retain(|op| {
                role_of(op)
                    & (fluidc_transpiler::backward::role::BACKWARD
                        | fluidc_transpiler::backward::role::OPTIMIZE)
                    == 0
            });
            block
                .vars
                .retain(|v| !v.name.contains(fluidc_transpiler::ops::GRAD_SUFFIX));
            for op in &mut block.ops {
                if op.get_attr("is_test").is_some() {
                    op.set_attr("is_test", AttrValue::Bool(true));
                }
                if role_of(op) & fluidc_transpiler::backward::role::LOSS != 0 {
                    op.set_attr(
                        "op_role",
                        AttrValue::Int(fluidc_transpiler::backward::role::FORWARD),
                    );
                }
            }
        }
    }
    let q = i.b.new_program();
    i.b.programs[q].program = program;
    i.b.reindex(q);
    if let Some(&s) = i.b.startup_of.get(&p) {
        i.b.startup_of.insert(q, s);
    }
    q
}

pub(super) fn program_arg(a: &Args, name: &str) -> Result<usize> {
    match a.get(name) {
        Value::Object(o) => match o.as_ref() {
            Object::Program(p) => Ok(*p),
            _ => Err(a.err(name, "expected a fluid.Program()")),
        },
        _ => Err(a.err(name, "expected a fluid.Program()")),
    }
}

/// A variable declaration from `create_var`-style keyword arguments.
fn var_from_args(i: &mut Host, a: &Args) -> Result<Var> {
    let name = match a.opt_string("name")? {
        Some(n) => n,
        None => i.b.unique("_generated_var"),
    };
    let kind = match a.get("type") {
        Value::None => VarKind::DenseTensor,
        Value::DType(k) => *k,
        _ => return Err(a.err("type", "expected a core.VarDesc.VarType")),
    };
    let dims = if a.is_none("shape") {
        Vec::new()
    } else {
        a.ints("shape")?
    };
    let mut var = match kind {
        VarKind::DenseTensor | VarKind::SelectedRows | VarKind::DenseTensorArray => {
            let dtype = if a.is_none("dtype") {
                VarKind::Fp32
            } else {
                a.dtype("dtype")?
            };
            let mut v = Var::dense(name, dtype, dims);
            if kind != VarKind::DenseTensor {
                let t =
                    v.ty.dense_tensor
                        .take()
                        .expect("dense var has a tensor desc");
                v.ty.r#type = kind as i32;
                match kind {
                    VarKind::SelectedRows => v.ty.selected_rows = Some(t.tensor),
                    _ => {
                        v.ty.tensor_array =
                            Some(fluidc_transpiler::proto::var_type::DenseTensorArrayDesc {
                                tensor: t.tensor,
                                legacy_lod_level: Some(0),
                            })
                    }
                }
            }
            v
        }
        other => Var::plain(name, other),
    };
    var.persistable = Some(a.bool("persistable")?);
    if a.bool("stop_gradient")? {
        var.stop_gradient = Some(true);
    }
    Ok(var)
}

/// Variable names from an `inputs`/`outputs` dict value: a Variable, a
/// name, or a list of them.
fn slot_names(v: &Value, a: &Args, param: &str) -> Result<Vec<String>> {
    let one = |x: &Value| match x {
        Value::Var(v) => Ok(v.name.to_string()),
        Value::Str(s) => Ok(s.to_string()),
        other => Err(a.err(
            param,
            format!(
                "slot values must be Variables or names, not {}",
                other.type_name()
            ),
        )),
    };
    match v {
        Value::List(_) | Value::Tuple(_) => v.items().unwrap_or_default().iter().map(one).collect(),
        other => Ok(vec![one(other)?]),
    }
}

fn slots_from(a: &Args, param: &str) -> Result<Vec<Slot>> {
    match a.get(param) {
        Value::None => Ok(Vec::new()),
        Value::Dict(d) => d
            .borrow()
            .iter()
            .map(|(k, v)| match k {
                Value::Str(k) => Ok(Slot::new(k.to_string(), slot_names(v, a, param)?)),
                _ => Err(a.err(param, "slot names must be strings")),
            })
            .collect(),
        other => Err(a.err(
            param,
            format!("`{param}` must be a dict, not {}", other.type_name()),
        )),
    }
}

/// A Python value as an attribute, typed as Paddle's `append_op` types it.
fn attr_value(v: &Value, a: &Args) -> Result<AttrValue> {
    let bad = || {
        a.err(
            "attrs",
            "attribute values must be numbers, strings, bools, dtypes, blocks or lists of those",
        )
    };
    Ok(match v {
        Value::Bool(b) => AttrValue::Bool(*b),
        Value::Int(x) => match i32::try_from(*x) {
            Ok(x) => AttrValue::Int(x),
            Err(_) => AttrValue::Long(*x),
        },
        Value::Float(f) => AttrValue::Float(*f as f32),
        Value::Str(s) => AttrValue::String(s.to_string()),
        Value::DType(k) => AttrValue::Int(*k as i32),
        Value::Object(o) => match o.as_ref() {
            Object::Block { block, .. } => AttrValue::Block(*block as i32),
            _ => return Err(bad()),
        },
        Value::List(_) | Value::Tuple(_) => {
            let items = v.items().unwrap_or_default();
            if items.iter().all(|x| matches!(x, Value::Bool(_))) && !items.is_empty() {
                AttrValue::Bools(
                    items
                        .iter()
                        .map(|x| matches!(x, Value::Bool(true)))
                        .collect(),
                )
            } else if items.iter().all(|x| matches!(x, Value::Int(_))) {
                AttrValue::Ints(
                    items
                        .iter()
                        .map(|x| if let Value::Int(n) = x { *n as i32 } else { 0 })
                        .collect(),
                )
            } else if items
                .iter()
                .all(|x| matches!(x, Value::Int(_) | Value::Float(_)))
            {
                AttrValue::Floats(
                    items
                        .iter()
                        .map(|x| {
                            if let Value::Int(n) = x {
                                *n as f32
                            } else if let Value::Float(f) = x {
                                *f as f32
                            } else {
                                0.0
                            }
                        })
                        .collect(),
                )
            } else if items.iter().all(|x| matches!(x, Value::Str(_))) {
                AttrValue::Strings(
                    items
                        .iter()
                        .map(|x| {
                            if let Value::Str(s) = x {
                                s.to_string()
                            } else {
                                String::new()
                            }
                        })
                        .collect(),
                )
            } else {
                return Err(bad());
            }
        }
        _ => return Err(bad()),
    })
}

/// Types an attribute as Paddle's op proto declares it: a list of ints is
/// LONGS where the definition says so (`fill_constant.shape`), an int is LONG.
fn typed_as_declared(op: &str, name: &str, value: AttrValue) -> AttrValue {
    use fluidc_transpiler::model::AttrType;
    let declared = fluidc_transpiler::ops::get(op)
        .and_then(|d| d.attr(name))
        .map(|a| a.ty);
    match (declared, value) {
        (Some(AttrType::Longs), AttrValue::Ints(v)) => {
            AttrValue::Longs(v.into_iter().map(i64::from).collect())
        }
        (Some(AttrType::Long), AttrValue::Int(v)) => AttrValue::Long(i64::from(v)),
        (Some(AttrType::Float64), AttrValue::Float(v)) => AttrValue::Float64(f64::from(v)),
        (_, v) => v,
    }
}

fn op_from_args(a: &Args) -> Result<Op> {
    let mut op = Op::new(a.string("type")?);
    op.inputs = slots_from(a, "inputs")?;
    op.outputs = slots_from(a, "outputs")?;
    if let Value::Dict(d) = a.get("attrs") {
        for (k, v) in d.borrow().iter() {
            let Value::Str(k) = k else {
                return Err(a.err("attrs", "attribute names must be strings"));
            };
            let value = typed_as_declared(&op.ty, k, attr_value(v, a)?);
            op.set_attr(k, value);
        }
    } else if !a.is_none("attrs") {
        return Err(a.err("attrs", "`attrs` must be a dict"));
    }
    Ok(op)
}

/// Which programs are startup programs (run for initialization only).
fn is_startup(i: &Host, p: usize) -> bool {
    p == i.b.startup || i.b.startup_of.values().any(|s| *s == p)
}

/// `exe.run(program, feed, fetch_list)`. Build mode records the run (the
/// program's feed and fetch ops come from it) and returns placeholders; run
/// mode runs the program now and returns the fetched arrays.
fn executor_run(i: &mut Host, a: &mut Args) -> Result<Value> {
    let program = if a.is_none("program") {
        i.b.main
    } else {
        program_arg(a, "program")?
    };
    if i.b.run.is_some() {
        return run_now(i, a, program);
    }
    if is_startup(i, program) {
        return Ok(Value::list(Vec::new()));
    }
    let mut feed = Vec::new();
    match a.get("feed") {
        Value::None => {}
        Value::Dict(d) => {
            for (k, _) in d.borrow().iter() {
                match k {
                    Value::Str(k) => feed.push(k.to_string()),
                    _ => return Err(a.err("feed", "feed keys must be variable names")),
                }
            }
        }
        _ => return Err(a.err("feed", "`feed` must be a dict of name: value")),
    }
    let Some(fetch) = fetch_names(a)? else {
        return Ok(Value::Poison);
    };
    let global = &i.b.programs[program].program.blocks[0];
    for (name, what) in feed
        .iter()
        .map(|n| (n, "feed"))
        .chain(fetch.iter().map(|n| (n, "fetch_list")))
    {
        if global.var(name).is_none() {
            return Err(a.err(
                what,
                format!("`{name}` is not a variable of the program's global block"),
            ));
        }
    }
    let n = fetch.len();
    i.b.runs.push(Run {
        span: a.call.clone(),
        program,
        feed,
        fetch,
    });
    i.b.stopped = true;
    Ok(Value::list(vec![Value::RunTime; n]))
}

/// A `scope=` argument: the global scope or a `fluid.Scope()`.
fn scope_arg(a: &Args, name: &str) -> Result<usize> {
    match a.get(name) {
        Value::Object(o) => match o.as_ref() {
            Object::Scope(s) => Ok(*s),
            _ => Err(a.err(
                name,
                format!("{name} must be fluid.global_scope() or a fluid.Scope()"),
            )),
        },
        other => Err(a.err(
            name,
            format!(
                "{name} must be fluid.global_scope() or a fluid.Scope(), not {}",
                other.type_name()
            ),
        )),
    }
}

/// A fetched array as `return_numpy=False` returns it: a DenseTensor.
fn dense_tensor(v: Value) -> Value {
    match v {
        Value::Array(x) => host_tensor(x, Vec::new()),
        other => other,
    }
}

/// The DenseTensor a method is bound to.
fn host_tensor_of(a: &Args) -> Result<crate::front::value::HostTensor> {
    match recv_object(a).as_ref() {
        Object::DenseTensor(t) => Ok(t.borrow().clone()),
        _ => Err(Diagnostic::new(
            a.call.clone(),
            "this method needs a DenseTensor",
        )),
    }
}

/// Changes the DenseTensor a method is bound to.
fn host_tensor_mut(a: &Args) -> Result<HostTensorMut<'_>> {
    let o = recv_object(a);
    match o.as_ref() {
        Object::DenseTensor(_) => Ok(HostTensorMut(o, a)),
        _ => Err(Diagnostic::new(
            a.call.clone(),
            "this method needs a DenseTensor",
        )),
    }
}

/// A DenseTensor being changed through its `RefCell`, by the call `.1`.
struct HostTensorMut<'a>(std::rc::Rc<Object>, &'a Args);

impl HostTensorMut<'_> {
    /// Changes the tensor, and the scope variable it is, if it is one.
    fn with(
        &self,
        i: &mut Host,
        f: impl FnOnce(&mut crate::front::value::HostTensor),
    ) -> Result<Value> {
        if let Object::DenseTensor(t) = self.0.as_ref() {
            f(&mut t.borrow_mut());
            let t = t.borrow().clone();
            if let Some(run) = i.b.run.as_mut().filter(|_| t.view.is_some()) {
                let written = run.write_view(&t);
                // Every view shows the scope again; one whose change the
                // scope refused (a LoD that does not fit) is undone, as
                // Paddle's `set_lod` checks before it changes anything.
                refresh_views(&mut i.b);
                written.map_err(|e| Diagnostic::new(self.1.call.clone(), e))?;
            }
        }
        Ok(Value::None)
    }
}

/// LoD as a script sees it: offsets (`lod()`), or lengths
/// (`recursive_sequence_lengths()`, as Paddle 1.x's LoDTensor gave them).
fn lod_value(lod: &[Vec<usize>], lengths: bool) -> Value {
    Value::list(
        lod.iter()
            .map(|level| {
                let v: Vec<Value> = if lengths {
                    level
                        .windows(2)
                        .map(|w| Value::Int((w[1] - w[0]) as i64))
                        .collect()
                } else {
                    level.iter().map(|&o| Value::Int(o as i64)).collect()
                };
                Value::list(v)
            })
            .collect(),
    )
}

/// A LoD argument: a list of levels of offsets, or of lengths (`lengths`),
/// as offsets.
fn lod_arg(a: &Args, name: &str, lengths: bool) -> Result<Vec<Vec<usize>>> {
    let bad = || {
        a.err(
            name,
            if lengths {
                "give the sequence lengths level by level, as a list of lists of ints ([[3, 2]])"
            } else {
                "give the LoD offsets level by level, as a list of lists of ints ([[0, 3, 5]])"
            },
        )
    };
    let levels = a.get(name).items().ok_or_else(bad)?;
    levels
        .iter()
        .map(|level| {
            let items = level.items().ok_or_else(bad)?;
            let mut v = Vec::with_capacity(items.len() + 1);
            if lengths {
                v.push(0);
            }
            for it in items {
                let Value::Int(n) = it else { return Err(bad()) };
                let n = usize::try_from(n).map_err(|_| bad())?;
                if lengths {
                    let last = v.last().copied().unwrap_or(0);
                    v.push(last + n);
                } else {
                    v.push(n);
                }
            }
            Ok(v)
        })
        .collect()
}

/// `fluid.create_lod_tensor(data, recursive_seq_lens, place)`: `data` a
/// numpy array, a DenseTensor, or a list of sequences (of ints: one
/// int64 column, as Paddle 1.x builds it); the lengths must fit its rows.
fn create_lod_tensor(_: &mut Host, a: &mut Args) -> Result<Value> {
    let lod = lod_arg(a, "recursive_seq_lens", true)?;
    let data = a.get("data");
    let array = match &data {
        Value::List(_) => {
            let mut flat = Vec::new();
            for seq in data.items().unwrap_or_default() {
                let items = seq.items().ok_or_else(|| {
                    a.err(
                        "data",
                        "a list `data` must be a list of sequences (lists of ints)",
                    )
                })?;
                flat.extend(items);
            }
            let nested = super::numpy::nested(&Value::list(flat))
                .ok_or_else(|| a.err("data", "the sequences must hold numbers"))?;
            let arr = crate::host::HostArray::from_nested(&nested, Some(crate::host::DType::Int64))
                .map_err(|e| a.err("data", e.message))?;
            let n = arr.size() as i64;
            std::rc::Rc::new(arr.reshape(&[n, 1]).map_err(|e| a.err("data", e.message))?)
        }
        other => super::numpy::as_array(other).ok_or_else(|| {
            a.err(
                "data",
                "data must be a numpy array, a list of sequences or a LoDTensor",
            )
        })?,
    };
    let rows = array.shape().first().copied().unwrap_or(1);
    fluidc_runtime::Tensor::check_lod(&lod, rows).map_err(|e| {
        a.err(
            "recursive_seq_lens",
            format!("the lengths do not fit the data: {e}"),
        )
    })?;
    Ok(host_tensor(array, lod))
}

/// `fluid.create_random_int_lodtensor`: int64 data of shape
/// `[total length] + base_shape` drawn from numpy's global generator in
/// `[low, high]`, as 1.x's `np.random.random_integers` drew it (which is
/// `randint(low, high + 1)`), with the given sequence lengths.
fn create_random_int_lodtensor(i: &mut Host, a: &mut Args) -> Result<Value> {
    let lod = lod_arg(a, "recursive_seq_lens", true)?;
    let total = lod.last().and_then(|l| l.last()).copied().unwrap_or(0) as i64;
    let mut shape = vec![Value::Int(total)];
    shape.extend(a.ints("base_shape")?.into_iter().map(Value::Int));
    let call = a.call.clone();
    let data = super::builtin::call_layer(
        i,
        "numpy.random.randint",
        vec![
            ("low", Value::Int(a.int("low")?)),
            ("high", Value::Int(a.int("high")? + 1)),
            ("size", Value::list(shape)),
        ],
        &call,
    )?;
    let array = super::numpy::as_array(&data)
        .ok_or_else(|| a.err("base_shape", "the random data is not an array"))?;
    Ok(host_tensor(array, lod))
}

/// A DenseTensor object of `array` with LoD `lod`.
pub fn host_tensor(array: std::rc::Rc<crate::host::HostArray>, lod: Vec<Vec<usize>>) -> Value {
    Value::object(Object::DenseTensor(std::cell::RefCell::new(
        crate::front::value::HostTensor {
            array: Some(array),
            lod,
            view: None,
        },
    )))
}

/// The tensor scope `scope` holds for `name`, as an array; known only when
/// the script runs (run mode).
fn scope_tensor(i: &mut Host, a: &Args, scope: usize, name: &str) -> Result<Value> {
    let Some(run) = i.b.run.as_ref() else {
        return Ok(Value::RunTime);
    };
    run.scope_tensor(scope, name)
        .map(|x| Value::Array(std::rc::Rc::new(x)))
        .ok_or_else(|| no_scope_tensor(a, name))
}

/// `scope.find_var(name).get_tensor()`: a DenseTensor that is the scope's
/// variable, as Paddle's is: its `set` writes through to the scope
/// (`RunMode::write_view`), and each run or load refreshes it while the
/// script holds it (a copy of each held view per run). Build mode gives
/// one without a value, so that scripts which `set` parameters compile.
fn scope_view(i: &mut Host, a: &Args, scope: usize, name: &str) -> Result<Value> {
    let t = match i.b.run.as_ref() {
        Some(run) => run
            .view(scope, name)
            .ok_or_else(|| no_scope_tensor(a, name))?,
        None => crate::front::value::HostTensor {
            view: Some((scope, name.to_string())),
            ..Default::default()
        },
    };
    let o = std::rc::Rc::new(Object::DenseTensor(std::cell::RefCell::new(t)));
    i.b.views.retain(|v| v.strong_count() > 0);
    i.b.views.push(std::rc::Rc::downgrade(&o));
    Ok(Value::Object(o))
}

/// Gives the scope views the script still holds their variables' values.
pub fn refresh_views(b: &mut crate::front::builder::ProgramBuilder) {
    b.views.retain(|v| v.strong_count() > 0);
    let Some(run) = b.run.as_ref() else {
        return;
    };
    for o in b.views.iter().filter_map(std::rc::Weak::upgrade) {
        if let Object::DenseTensor(t) = o.as_ref() {
            let view = t.borrow().view.clone();
            if let Some(fresh) = view.and_then(|(scope, name)| run.view(scope, &name)) {
                *t.borrow_mut() = fresh;
            }
        }
    }
}

fn no_scope_tensor(a: &Args, name: &str) -> Diagnostic {
    Diagnostic::new(
        a.call.clone(),
        format!("the scope holds no tensor `{name}` (only persistable variables stay in it after a run)"),
    )
}

/// The names `fetch_list` gives; `None` when an item already failed (its
/// error is reported; no follow-on error).
fn fetch_names(a: &Args) -> Result<Option<Vec<String>>> {
    let mut fetch = Vec::new();
    if a.is_none("fetch_list") {
        return Ok(Some(fetch));
    }
    let items = a
        .get("fetch_list")
        .items()
        .ok_or_else(|| a.err("fetch_list", "`fetch_list` must be a list"))?;
    for it in items {
        match it {
            Value::Var(v) => fetch.push(v.name.to_string()),
            Value::Str(s) => fetch.push(s.to_string()),
            Value::Poison => return Ok(None),
            other => {
                return Err(a.err(
                    "fetch_list",
                    format!(
                        "fetch targets must be Variables or names, not {}",
                        other.type_name()
                    ),
                ))
            }
        }
    }
    Ok(Some(fetch))
}

/// Run mode's `exe.run`: the program runs now with the script's feeds.
fn run_now(i: &mut Host, a: &mut Args, program: usize) -> Result<Value> {
    let mut feeds = Vec::new();
    match a.get("feed") {
        Value::None => {}
        Value::Dict(d) => {
            for (k, v) in d.borrow().iter() {
                let Value::Str(name) = k else {
                    return Err(a.err("feed", "feed keys must be variable names"));
                };
                let lod = match &v {
                    Value::Object(o) => match o.as_ref() {
                        Object::DenseTensor(t) => t.borrow().lod.clone(),
                        _ => Vec::new(),
                    },
                    _ => Vec::new(),
                };
                let value = super::numpy::as_array(&v).ok_or_else(|| {
                    a.err(
                        "feed",
                        format!(
                            "the value fed for `{name}` is a {}; feed numpy arrays, lists or numbers",
                            v.type_name()
                        ),
                    )
                })?;
                feeds.push((name.to_string(), (*value).clone(), lod));
            }
        }
        _ => return Err(a.err("feed", "`feed` must be a dict of name: value")),
    }
    let Some(fetch) = fetch_names(a)? else {
        return Ok(Value::Poison);
    };
    let scope = if a.is_none("scope") {
        i.b.scope
    } else {
        scope_arg(a, "scope")?
    };
    let numpy = a.bool("return_numpy")?;
    let built = i.b.programs[program].program.clone();
    let Some(run) = i.b.run.as_mut() else {
        return Ok(Value::Poison);
    };
    let arrays = run.run(built, feeds, &fetch, scope);
    refresh_views(&mut i.b);
    let arrays = arrays.map_err(|e| Diagnostic::new(a.call.clone(), e))?;
    if numpy {
        if let Some(k) = arrays.iter().position(|(_, lod)| !lod.is_empty()) {
            return Err(lod_fetch_as_numpy(a, &fetch[k]));
        }
    }
    Ok(Value::list(
        arrays
            .into_iter()
            .map(|(x, lod)| {
                if numpy {
                    Value::Array(std::rc::Rc::new(x))
                } else {
                    host_tensor(std::rc::Rc::new(x), lod)
                }
            })
            .collect(),
    ))
}

/// A fetch of a tensor with LoD as a numpy array: Paddle's `as_numpy`
/// refuses it (LoD is lost in an ndarray), after the program ran, with
/// this `RuntimeError` (Paddle 3.3.1's words and spacing, its source's
/// line continuations; 1.x said `LoDTensor` for `DenseTensor`).
fn lod_fetch_as_numpy(a: &Args, name: &str) -> Diagnostic {
    Diagnostic::new(
        a.call.clone(),
        "RuntimeError: Some of your fetched tensors hold LoD information. \
         \x20           They can not be completely cast to Python ndarray. \
         \x20           Please set the parameter 'return_numpy' as 'False' to \
         \x20           return DenseTensor itself directly.",
    )
    .help(format!(
        "`{name}` holds LoD (a sequence batch); fetch with return_numpy=False and \
         read it with np.array(t) and t.recursive_sequence_lengths()"
    ))
}

/// `program.list_vars()`: every block's variables, block by block.
pub fn list_vars(i: &Host, program: usize) -> Vec<VarRef> {
    let blocks = &i.b.programs[program].program.blocks;
    blocks
        .iter()
        .enumerate()
        .flat_map(|(block, b)| {
            b.vars.iter().map(move |v| VarRef {
                program,
                block,
                name: v.name.as_str().into(),
            })
        })
        .collect()
}

/// The attributes of a Block and a Program that scripts read:
/// `block.vars` (name to Variable, in declaration order, as Paddle's
/// ordered dict), `block.idx`, `block.parent_idx`, `block.program`,
/// `program.num_blocks` and `program.blocks`.
pub fn object_attr(i: &Host, o: &Object, name: &str) -> Option<Value> {
    match (o, name) {
        (&Object::Block { program, block }, _) => {
            let b = i.b.block(program, block);
            Some(match name {
                "vars" => {
                    let mut vars = crate::front::value::Dict::default();
                    for var in &b.vars {
                        let v = Value::Var(VarRef {
                            program,
                            block,
                            name: var.name.as_str().into(),
                        });
                        vars.insert(Value::str(&var.name), v).ok()?;
                    }
                    Value::Dict(std::rc::Rc::new(std::cell::RefCell::new(vars)))
                }
                "ops" => Value::list(
                    (0..b.ops.len())
                        .map(|index| {
                            Value::object(Object::Operator {
                                program,
                                block,
                                index,
                            })
                        })
                        .collect(),
                ),
                "idx" => Value::Int(i64::from(b.idx)),
                "parent_idx" => Value::Int(i64::from(b.parent_idx)),
                "program" => Value::object(Object::Program(program)),
                _ => return None,
            })
        }
        (
            &Object::Operator {
                program,
                block,
                index,
            },
            _,
        ) => super::operator::operator_attr(i, program, block, index, name),
        (&Object::Program(p), "num_blocks") => {
            Some(Value::Int(i.b.programs[p].program.blocks.len() as i64))
        }
        (&Object::Program(p), "blocks") => Some(Value::list(
            (0..i.b.programs[p].program.blocks.len())
                .map(|block| Value::object(Object::Block { program: p, block }))
                .collect(),
        )),
        _ => None,
    }
}

/// `var.name`, `var.dtype`, `var.shape`, ... for a program variable.
pub fn var_attr(i: &Host, v: &VarRef, name: &str) -> Option<Value> {
    let var = i.b.var(v);
    Some(match name {
        "name" => Value::str(&v.name),
        "dtype" => Value::DType(var.dtype().unwrap_or(VarKind::Fp32)),
        "shape" => Value::tuple(
            var.tensor_desc()
                .map(|t| t.dims.iter().map(|d| Value::Int(*d)).collect())
                .unwrap_or_default(),
        ),
        "persistable" => Value::Bool(var.is_persistable()),
        "stop_gradient" => Value::Bool(var.stop_gradient.unwrap_or(false)),
        "type" => Value::DType(var.kind().unwrap_or(VarKind::DenseTensor)),
        "lod_level" => Value::Int(var.lod_level().into()),
        "block" => Value::object(Object::Block {
            program: v.program,
            block: v.block,
        }),
        _ => return None,
    })
}
