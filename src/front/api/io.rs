//! `fluid.io` (SPEC §10): parameters and inference models in Paddle's files.
//!
//! - `save_vars`/`save_params`/`save_persistables` write each variable the
//!   executor's scope holds to `dirname/NAME` (the `save` op's file), or all
//!   of them, sorted by name, to one `dirname/filename` (`save_combine`'s),
//!   as Paddle 1.x's program of save ops wrote them; the `load_*` twins
//!   read them back into the scope.
//! - `save_inference_model` does what Paddle 3.3.1's
//!   `paddle.static.save_inference_model` does (`normalize_program`; 1.x's
//!   extra `scale(x, 1.0)` after each target is left out, as 3.3.1 does): a
//!   copy of the program without feed/fetch ops, pruned to the targets with
//!   the fed variables as inputs, `is_test` set, feed ops prepended and
//!   fetch ops appended; written as `__model__` (or `model_filename`), and
//!   its persistable variables saved as `save_persistables` saves them.
//! - `load_inference_model` reads such a directory (or Paddle 3's
//!   `PREFIX.pdmodel` + `PREFIX.pdiparams`) and returns `[program,
//!   feed_names, fetch_targets]` for `exe.run`.
//!
//! Files are read and written in run mode only (`fluidc run script.py`);
//! building (`fluidc compile`) leaves them alone, as the script has not run.
use std::collections::HashSet;
use std::path::{Path, PathBuf};

use fluidc_transpiler::{Program, Verified};

use super::builtin::{builtin, Args, Builtin, Rest, D};
use crate::front::builder::VarRef;
use crate::front::diag::{Diagnostic, Result};
use crate::front::host::Host;
use crate::front::value::{Object, Value};

use D::*;

pub const BUILTINS: &[Builtin] = &[
    builtin!(
        ["fluid.io.is_parameter"],
        [("var", Req)],
        Rest::No,
        |i, a| var_test(i, a, |v| v.is_parameter == Some(true))
    ),
    builtin!(
        ["fluid.io.is_persistable"],
        [("var", Req)],
        Rest::No,
        |i, a| var_test(i, a, crate::params::is_persistable)
    ),
    builtin!(
        ["fluid.io.save_vars", "paddle.static.save_vars"],
        [
            ("executor", Req),
            ("dirname", Req),
            ("main_program", Nil),
            ("vars", Nil),
            ("predicate", Nil),
            ("filename", Nil)
        ],
        Rest::No,
        |i, a| vars_io(i, a, Which::Given, true)
    ),
    builtin!(
        ["fluid.io.load_vars", "paddle.static.load_vars"],
        [
            ("executor", Req),
            ("dirname", Req),
            ("main_program", Nil),
            ("vars", Nil),
            ("predicate", Nil),
            ("filename", Nil)
        ],
        Rest::No,
        |i, a| vars_io(i, a, Which::Given, false)
    ),
    builtin!(
        ["fluid.io.save_params"],
        [
            ("executor", Req),
            ("dirname", Req),
            ("main_program", Nil),
            ("filename", Nil)
        ],
        Rest::No,
        |i, a| vars_io(i, a, Which::Params, true)
    ),
    builtin!(
        ["fluid.io.load_params"],
        [
            ("executor", Req),
            ("dirname", Req),
            ("main_program", Nil),
            ("filename", Nil)
        ],
        Rest::No,
        |i, a| vars_io(i, a, Which::Params, false)
    ),
    builtin!(
        ["fluid.io.save_persistables"],
        [
            ("executor", Req),
            ("dirname", Req),
            ("main_program", Nil),
            ("filename", Nil)
        ],
        Rest::No,
        |i, a| vars_io(i, a, Which::Persistables, true)
    ),
    builtin!(
        ["fluid.io.load_persistables"],
        [
            ("executor", Req),
            ("dirname", Req),
            ("main_program", Nil),
            ("filename", Nil)
        ],
        Rest::No,
        |i, a| vars_io(i, a, Which::Persistables, false)
    ),
    builtin!(
        ["fluid.io.save_inference_model"],
        [
            ("dirname", Req),
            ("feeded_var_names", Req),
            ("target_vars", Req),
            ("executor", Req),
            ("main_program", Nil),
            ("model_filename", Nil),
            ("params_filename", Nil),
            ("export_for_deployment", Bool(true)),
            ("program_only", Bool(false))
        ],
        Rest::No,
        save_inference_model_1x
    ),
    builtin!(
        ["fluid.io.load_inference_model"],
        [
            ("dirname", Req),
            ("executor", Req),
            ("model_filename", Nil),
            ("params_filename", Nil),
            ("pserver_endpoints", Nil)
        ],
        Rest::No,
        |i, a| {
            let dir = PathBuf::from(a.string("dirname")?);
            let model = dir.join(
                a.opt_string("model_filename")?
                    .unwrap_or("__model__".into()),
            );
            let params = a.opt_string("params_filename")?;
            load_inference_model(i, a, &model, &dir, params.as_deref())
        }
    ),
    builtin!(
        ["paddle.static.save_inference_model"],
        [
            ("path_prefix", Req),
            ("feed_vars", Req),
            ("fetch_vars", Req),
            ("executor", Req),
            ("program", Nil)
        ],
        Rest::IgnoreKwargs,
        save_inference_model_3x
    ),
    builtin!(
        ["paddle.static.load_inference_model"],
        [
            ("path_prefix", Req),
            ("executor", Req),
            ("model_filename", Nil),
            ("params_filename", Nil)
        ],
        Rest::IgnoreKwargs,
        |i, a| {
            let prefix = a.string("path_prefix")?;
            let (m, pf) = (
                a.opt_string("model_filename")?,
                a.opt_string("params_filename")?,
            );
            let (model, dir, params) = if m.is_some() || pf.is_some() {
                // The 1.x layout under a directory, as Paddle 3.3.1 reads it:
                // `NAME.pdmodel` if it exists, else `NAME`.
                let dir = PathBuf::from(&prefix);
                let pick = |n: &str, ext: &str| {
                    let with = dir.join(format!("{n}{ext}"));
                    if with.exists() {
                        with
                    } else {
                        dir.join(n)
                    }
                };
                let model = pick(m.as_deref().unwrap_or("__model__"), ".pdmodel");
                let params = pf.map(|p| {
                    let path = pick(&p, ".pdiparams");
                    path.file_name()
                        .and_then(|s| s.to_str())
                        .unwrap_or(&p)
                        .to_string()
                });
                (model, dir, params)
            } else {
                let p = Path::new(&prefix);
                let dir = p.parent().map(Path::to_path_buf).unwrap_or_default();
                let base = p.file_name().and_then(|s| s.to_str()).unwrap_or("");
                (
                    PathBuf::from(format!("{prefix}.pdmodel")),
                    dir,
                    Some(format!("{base}.pdiparams")),
                )
            };
            load_inference_model(i, a, &model, &dir, params.as_deref())
        }
    ),
];

/// Which variables a `save_*`/`load_*` call moves.
#[derive(Clone, Copy, PartialEq)]
enum Which {
    /// `vars=` (save_vars/load_vars); all persistables without it.
    Given,
    Params,
    Persistables,
}

/// The names of `program`'s variables that `which` selects, in
/// `list_vars` order (each name once).
fn select(program: &Program, which: Which) -> Vec<String> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for v in program.blocks.iter().flat_map(|b| &b.vars) {
        let pick = match which {
            Which::Params => v.is_parameter == Some(true) && crate::params::is_persistable(v),
            _ => crate::params::is_persistable(v),
        };
        if pick && seen.insert(v.name.clone()) {
            out.push(v.name.clone());
        }
    }
    out
}

fn program_of(i: &Host, a: &Args, name: &str) -> Result<usize> {
    match a.get(name) {
        Value::None => Ok(i.b.main),
        Value::Object(o) => match o.as_ref() {
            Object::Program(p) => Ok(*p),
            _ => Err(a.err(name, format!("`{name}` must be a fluid.Program()"))),
        },
        other => Err(a.err(
            name,
            format!(
                "`{name}` must be a fluid.Program(), not {}",
                other.type_name()
            ),
        )),
    }
}

fn vars_io(i: &mut Host, a: &mut Args, which: Which, save: bool) -> Result<Value> {
    let dir = PathBuf::from(a.string("dirname")?);
    let filename = a.opt_string("filename")?;
    let program = program_of(i, a, "main_program")?;
    let names = if which == Which::Given && !a.is_none("vars") {
        let items = a
            .get("vars")
            .items()
            .ok_or_else(|| a.err("vars", "`vars` must be a list of Variables"))?;
        let mut names = Vec::new();
        for it in items {
            match it {
                Value::Var(v) => names.push(v.name.to_string()),
                Value::Str(s) => names.push(s.to_string()),
                Value::Poison => return Ok(Value::Poison),
                other => {
                    return Err(a.err(
                        "vars",
                        format!("`vars` holds a {}; give Variables", other.type_name()),
                    ))
                }
            }
        }
        names
    } else if which == Which::Given && !a.is_none("predicate") {
        match chosen_by(i, a, program)? {
            Some(names) => names,
            None => return Ok(Value::Poison),
        }
    } else {
        select(&i.b.programs[program].program, which)
    };
    let scope = i.b.scope;
    let Some(run) = i.b.run.as_mut() else {
        return Ok(Value::None);
    };
    let done = if save {
        save_tensors(run, scope, &names, &dir, filename.as_deref())
    } else {
        load_tensors(run, scope, &names, &dir, filename.as_deref())
    };
    super::program::refresh_views(&mut i.b);
    done.map_err(|e| Diagnostic::new(a.call.clone(), e))?;
    Ok(Value::None)
}

/// `fluid.io.is_parameter(var)` / `is_persistable(var)`: the predicates
/// scripts pass to `save_vars`.
fn var_test(i: &Host, a: &Args, test: fn(&fluidc_transpiler::Var) -> bool) -> Result<Value> {
    match a.get("var") {
        Value::Var(r) => Ok(Value::Bool(test(i.b.var(r)))),
        Value::Poison => Ok(Value::Poison),
        other => Err(a.err(
            "var",
            format!("expected a Variable, not {}", other.type_name()),
        )),
    }
}

/// The variables of `program` (every block, `list_vars` order) for which
/// the script's `predicate` is true, as Paddle's `save_vars` filters
/// `main_program.list_vars()`; None when the predicate failed.
fn chosen_by(i: &mut Host, a: &Args, program: usize) -> Result<Option<Vec<String>>> {
    let predicate = a.get("predicate").clone();
    let mut names = Vec::new();
    for var in super::program::list_vars(i, program) {
        let name = var.name.to_string();
        let keep = i.call_with(predicate.clone(), vec![Value::Var(var)], a.call.clone())?;
        match keep.truthy() {
            Some(true) => names.push(name),
            Some(false) => {}
            None if matches!(keep, Value::Poison) => return Ok(None),
            None => {
                return Err(a.err(
                    "predicate",
                    format!(
                        "the predicate returned {} for `{name}`; it must return True or False",
                        keep.type_name()
                    ),
                ))
            }
        }
    }
    Ok(Some(names))
}

/// Writes the scope's tensors for `names` (see [`crate::params::write_tensors`]).
pub fn save_tensors(
    run: &crate::front::run::RunMode,
    scope: usize,
    names: &[String],
    dir: &Path,
    filename: Option<&str>,
) -> std::result::Result<(), String> {
    crate::params::write_tensors(|n| run.tensor(scope, n), names, dir, filename)
}

/// Reads `names` into the scope, from the files [`save_tensors`] writes.
pub fn load_tensors(
    run: &mut crate::front::run::RunMode,
    scope: usize,
    names: &[String],
    dir: &Path,
    filename: Option<&str>,
) -> std::result::Result<(), String> {
    for (name, t) in crate::params::read_tensors(names, dir, filename)? {
        run.session(scope).set_tensor(&name, t);
    }
    Ok(())
}

/// The target variables of a `save_inference_model` call.
fn targets(a: &Args, name: &str) -> Result<Option<Vec<VarRef>>> {
    let v = a.get(name);
    let items = match v {
        Value::Var(_) => vec![v.clone()],
        _ => v
            .items()
            .ok_or_else(|| a.err(name, format!("`{name}` must be a list of Variables")))?,
    };
    let mut out = Vec::new();
    for it in items {
        match it {
            Value::Var(v) => out.push(v),
            Value::Poison => return Ok(None),
            other => {
                return Err(a.err(
                    name,
                    format!("`{name}` holds a {}; give Variables", other.type_name()),
                ))
            }
        }
    }
    Ok(Some(out))
}

fn save_inference_model_1x(i: &mut Host, a: &mut Args) -> Result<Value> {
    let dir = PathBuf::from(a.string("dirname")?);
    let feeds = match a.get("feeded_var_names") {
        Value::Str(s) => vec![s.to_string()],
        v => {
            let items = v.items().ok_or_else(|| {
                a.err(
                    "feeded_var_names",
                    "`feeded_var_names` must be a list of names",
                )
            })?;
            let mut names = Vec::new();
            for it in items {
                match it {
                    Value::Str(s) => names.push(s.to_string()),
                    other => {
                        return Err(a.err(
                            "feeded_var_names",
                            format!(
                                "`feeded_var_names` holds a {}; give the variables' names",
                                other.type_name()
                            ),
                        ))
                    }
                }
            }
            names
        }
    };
    let Some(targets) = targets(a, "target_vars")? else {
        return Ok(Value::Poison);
    };
    let program = program_of(i, a, "main_program")?;
    let model = dir.join(
        a.opt_string("model_filename")?
            .unwrap_or("__model__".into()),
    );
    let params = a
        .opt_string("params_filename")?
        .map(|p| p.rsplit('/').next().unwrap_or(&p).to_string());
    let program_only = a.bool("program_only")?;
    let names = save_inference_model(
        i,
        a,
        program,
        &feeds,
        &targets,
        &model,
        (!program_only).then_some((dir.as_path(), params.as_deref())),
    )?;
    Ok(Value::list(names.iter().map(|n| Value::str(n)).collect()))
}

fn save_inference_model_3x(i: &mut Host, a: &mut Args) -> Result<Value> {
    let prefix = a.string("path_prefix")?;
    if prefix.ends_with('/') || Path::new(&prefix).is_dir() {
        return Err(a.err(
            "path_prefix",
            format!(
                "`{prefix}` is a directory; give a path prefix such as `{}model`",
                if prefix.ends_with('/') {
                    prefix.clone()
                } else {
                    format!("{prefix}/")
                }
            ),
        ));
    }
    let Some(feeds) = targets(a, "feed_vars")? else {
        return Ok(Value::Poison);
    };
    let feeds: Vec<String> = feeds.iter().map(|v| v.name.to_string()).collect();
    let Some(fetch) = targets(a, "fetch_vars")? else {
        return Ok(Value::Poison);
    };
    let program = program_of(i, a, "program")?;
    let p = Path::new(&prefix);
    let dir = p.parent().map(Path::to_path_buf).unwrap_or_default();
    let base = p.file_name().and_then(|s| s.to_str()).unwrap_or("model");
    let params = format!("{base}.pdiparams");
    save_inference_model(
        i,
        a,
        program,
        &feeds,
        &fetch,
        &PathBuf::from(format!("{prefix}.pdmodel")),
        Some((dir.as_path(), Some(params.as_str()))),
    )?;
    Ok(Value::None)
}

/// See the module docs. Returns the fetch targets' names.
fn save_inference_model(
    i: &mut Host,
    a: &Args,
    program: usize,
    feeds: &[String],
    targets: &[VarRef],
    model: &Path,
    params: Option<(&Path, Option<&str>)>,
) -> Result<Vec<String>> {
    for f in feeds {
        if i.b.programs[program].program.blocks[0].var(f).is_none() {
            return Err(Diagnostic::new(
                a.call.clone(),
                format!("cannot feed `{f}`: it is not a variable of the program's global block; give the names of its data layers"),
            ));
        }
    }
    let fetch: Vec<String> = targets.iter().map(|t| t.name.to_string()).collect();
    let mut pruned = i.b.programs[program].program.clone();
    prune_for_inference(&mut pruned, feeds, &fetch);
    crate::front::add_feed_fetch(&mut pruned, feeds, &fetch);
    let persistables = select(&pruned, Which::Persistables);
    let verified = Verified::new(pruned).map_err(|e| {
        Diagnostic::new(
            a.call.clone(),
            format!("the inference program does not verify: {e}"),
        )
    })?;
    let scope = i.b.scope;
    let Some(run) = i.b.run.as_ref() else {
        return Ok(fetch);
    };
    let err = |e: String| Diagnostic::new(a.call.clone(), e);
    if let Some(d) = model.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(d)
            .map_err(|e| err(format!("cannot create the directory {}: {e}", d.display())))?;
    }
    std::fs::write(model, fluidc_transpiler::codec::encode_program(&verified))
        .map_err(|e| err(format!("cannot write {}: {e}", model.display())))?;
    if let Some((dir, filename)) = params {
        save_tensors(run, scope, &persistables, dir, filename).map_err(err)?;
    }
    Ok(fetch)
}

pub use crate::params::{prune_for_inference, split_feed_fetch};

/// Reads a model file (a ProgramDesc), naming the file in every error.
pub fn read_model(model: &Path) -> std::result::Result<Program, String> {
    let bytes = std::fs::read(model).map_err(|e| {
        format!(
            "cannot read {}: {e}; give the directory (or path prefix) save_inference_model wrote",
            model.display()
        )
    })?;
    fluidc_transpiler::codec::decode_program(&bytes).map_err(|e| {
        format!(
            "{}: not a Paddle program ({e}); give the model file save_inference_model wrote",
            model.display()
        )
    })
}

fn load_inference_model(
    i: &mut Host,
    a: &Args,
    model: &Path,
    dir: &Path,
    params: Option<&str>,
) -> Result<Value> {
    let err = |e: String| Diagnostic::new(a.call.clone(), e);
    if i.b.run.is_none() && !model.exists() {
        return Ok(Value::Poison);
    }
    let program = read_model(model).map_err(err)?;
    let persistables = crate::params::persistable_names(&program);
    let (program, feeds, fetch) = split_feed_fetch(program);
    let scope = i.b.scope;
    if let Some(run) = i.b.run.as_mut() {
        load_tensors(run, scope, &persistables, dir, params).map_err(err)?;
        super::program::refresh_views(&mut i.b);
    }
    let q = i.b.new_program();
    i.b.programs[q].program = program;
    i.b.reindex(q);
    let fetch_targets = fetch
        .iter()
        .map(|n| {
            Value::Var(VarRef {
                program: q,
                block: 0,
                name: n.as_str().into(),
            })
        })
        .collect();
    Ok(Value::list(vec![
        Value::object(Object::Program(q)),
        Value::list(feeds.iter().map(|n| Value::str(n)).collect()),
        Value::list(fetch_targets),
    ]))
}
