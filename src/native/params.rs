//! `fluid.io`'s native side: a scope's tensors to and from Paddle's tensor
//! files, and the inference program `save_inference_model` writes. The
//! formats and the pruning are [`crate::params`]'s, shared with the
//! command line; this binds them to `_fluidc.Session` and `ProgramDesc`.
//!
//! A file that cannot be read or written, or holds what the program does
//! not expect, raises `EnforceNotMet`, as the `save`/`load` ops 1.x ran
//! for these calls did.
use std::path::Path;

use fluidc_transpiler::Verified;
use rustpython_vm::builtins::{PyBaseExceptionRef, PyStrRef};
use rustpython_vm::function::OptionalArg;
use rustpython_vm::{PyObjectRef, PyPayload, PyRef, PyResult, VirtualMachine};

use super::program::ProgramState;
use super::session::Session;
use super::{convert, host, ProgramDesc};

/// Adds this file's functions to the module.
pub fn register(set: &dyn Fn(&str, PyObjectRef), vm: &VirtualMachine) {
    set(
        "save_tensors",
        vm.new_function("save_tensors", save_tensors).into(),
    );
    set(
        "load_tensors",
        vm.new_function("load_tensors", load_tensors).into(),
    );
    set(
        "inference_program",
        vm.new_function("inference_program", inference_program)
            .into(),
    );
    set(
        "split_feed_fetch",
        vm.new_function("split_feed_fetch", split_feed_fetch).into(),
    );
}

fn enforce(vm: &VirtualMachine, message: String) -> PyBaseExceptionRef {
    vm.new_exception_msg(host::enforce_type(vm).to_owned(), message)
}

fn file_name(filename: OptionalArg<Option<PyStrRef>>) -> Option<String> {
    filename.flatten().map(|f| f.as_str().to_string())
}

/// `save_tensors(session, names, dirname, filename=None)`: the session's
/// tensors for `names`, one `save` file each under `dirname`, or all,
/// sorted by name, in the combined `dirname/filename`.
fn save_tensors(
    session: PyRef<Session>,
    names: PyObjectRef,
    dirname: PyStrRef,
    filename: OptionalArg<Option<PyStrRef>>,
    vm: &VirtualMachine,
) -> PyResult<()> {
    let names = convert::names(&names, vm)?;
    let s = session.lock(vm)?;
    crate::params::write_tensors(
        |n| s.tensor(n),
        &names,
        Path::new(dirname.as_str()),
        file_name(filename).as_deref(),
    )
    .map_err(|e| enforce(vm, e))
}

/// `load_tensors(session, names, dirname, filename=None)`: the files
/// `save_tensors` writes (or Paddle's), into the session.
fn load_tensors(
    session: PyRef<Session>,
    names: PyObjectRef,
    dirname: PyStrRef,
    filename: OptionalArg<Option<PyStrRef>>,
    vm: &VirtualMachine,
) -> PyResult<()> {
    let names = convert::names(&names, vm)?;
    let loaded = crate::params::read_tensors(
        &names,
        Path::new(dirname.as_str()),
        file_name(filename).as_deref(),
    )
    .map_err(|e| enforce(vm, e))?;
    let mut s = session.lock(vm)?;
    for (name, t) in loaded {
        s.set_tensor(&name, t);
    }
    Ok(())
}

/// `inference_program(desc, feeds, targets)`: the program pruned to
/// `targets` with `feeds` as its inputs, `is_test` set, feed and fetch ops
/// added (see [`crate::params::prune_for_inference`]); a `ValueError` if
/// it does not verify.
fn inference_program(
    desc: PyRef<ProgramDesc>,
    feeds: PyObjectRef,
    targets: PyObjectRef,
    vm: &VirtualMachine,
) -> PyResult<ProgramDesc> {
    let feeds = convert::names(&feeds, vm)?;
    let targets = convert::names(&targets, vm)?;
    let mut program = desc.state.lock().program.clone();
    crate::params::prune_for_inference(&mut program, &feeds, &targets);
    crate::vm::add_feed_fetch(&mut program, &feeds, &targets);
    let verified = Verified::new(program)
        .map_err(|e| vm.new_value_error(format!("the inference program does not verify: {e}")))?;
    Ok(ProgramDesc::new(ProgramState::from_program(
        verified.into_inner(),
    )))
}

/// `split_feed_fetch(desc)`: `(program, feed_names, fetch_names)`, the
/// program without the feed and fetch ops a saved inference model has.
fn split_feed_fetch(desc: PyRef<ProgramDesc>, vm: &VirtualMachine) -> PyObjectRef {
    let program = desc.state.lock().program.clone();
    let (program, feeds, fetches) = crate::params::split_feed_fetch(program);
    let strs = |v: Vec<String>| -> PyObjectRef {
        vm.ctx
            .new_list(v.into_iter().map(|n| vm.ctx.new_str(n).into()).collect())
            .into()
    };
    let desc = ProgramDesc::new(ProgramState::from_program(program));
    vm.ctx
        .new_tuple(vec![desc.into_pyobject(vm), strs(feeds), strs(fetches)])
        .into()
}
