//! Ops that move data in and out of the program: feed, fetch and print;
//! `save`/`load` (one tensor file) and `save_combine`/`load_combine` (one
//! file of several), in Paddle's format (`crate::tensor::file`); and
//! `py_func`, which calls the session's host (`crate::host`).
use std::sync::atomic::{AtomicI64, Ordering};

use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{is_placeholder, OpReader, Registry};
use crate::tensor::file;
use crate::value::Value;

pub(crate) fn register_all(r: &mut Registry) {
    r.add("feed", feed);
    r.add("fetch", fetch);
    r.add("print", print);
    r.add("save", save);
    r.add("save_combine", save_combine);
    r.add("load", load);
    r.add("load_combine", load_combine);
    r.add("py_func", py_func);
}

/// `py_func` (1.x's PyFuncOp): calls the host's function
/// `forward_callable_id` with the `X` tensors (None for a variable with no
/// value, as an output gradient nobody wrote) and sets each `Out` variable
/// to the tensor it returned, in the dtype, shape and LoD it has (Paddle
/// shares the returned tensor's data). A function with no outputs may
/// return None; otherwise it returns one tensor per `Out` argument,
/// `@EMPTY@` ones included (a grad op's unwanted input gradients), whose
/// tensors go nowhere.
fn py_func(l: &OpReader) -> Result<Exec, KernelError> {
    let id = l.int("forward_callable_id")?;
    if id < 0 {
        return Err(KernelError::Attribute(
            "Function id cannot be less than 0".into(),
        ));
    }
    // Paddle's scope.FindVar: a name no block declares is no variable.
    let resolve = |names: &[String]| -> Vec<_> {
        names
            .iter()
            .map(|n| (!is_placeholder(n)).then(|| l.var(n).ok()).flatten())
            .collect()
    };
    let ins = resolve(l.op.inputs_of("X"));
    let outs = resolve(l.op.outputs_of("Out"));
    compute(move |s| {
        let Some(host) = crate::host::current() else {
            return Err(KernelError::Unsupported(format!(
                "py_func calls Python function {id} of the script that built the program, \
                 which is not running: run the script (`fluidc run script.py`)"
            )));
        };
        let inputs = ins
            .iter()
            .map(|r| r.as_ref().and_then(|r| s.get(r).to_tensor()))
            .collect();
        let returned = host.call(id, inputs)?;
        let none_for_nothing = outs.is_empty() && returned.len() == 1 && returned[0].is_none();
        if returned.len() != outs.len() && !none_for_nothing {
            return Err(KernelError::Invalid(format!(
                "Output number not match. Expected {}, actual {}",
                outs.len(),
                returned.len()
            )));
        }
        for (i, (out, t)) in outs.iter().zip(returned).enumerate() {
            let Some(out) = out else {
                continue;
            };
            let t = t.ok_or_else(|| {
                KernelError::Invalid(format!("Output tensor {i} should not be nullptr"))
            })?;
            s.set_tensor(out, t);
        }
        Ok(())
    })
}

fn file_path(l: &OpReader) -> Result<String, KernelError> {
    match l.string("file_path")? {
        Some(p) if !p.is_empty() => Ok(p.to_string()),
        _ => Err(KernelError::Attribute(
            "attribute `file_path` is missing or empty: give the file to use".into(),
        )),
    }
}

/// Writes `bytes` to `path`, making its directory, as Paddle's save ops do;
/// refuses an existing file unless `overwrite`.
fn write_file(path: &str, bytes: &[u8], overwrite: bool) -> Result<(), KernelError> {
    let p = std::path::Path::new(path);
    if !overwrite && p.exists() {
        return Err(KernelError::Invalid(format!(
            "{path} exists and `overwrite` is false: remove it or set overwrite=True"
        )));
    }
    if let Some(dir) = p.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| {
            KernelError::Io(format!(
                "cannot create the directory {}: {e}",
                dir.display()
            ))
        })?;
    }
    std::fs::write(p, bytes).map_err(|e| KernelError::Io(format!("cannot write {path}: {e}")))
}

fn read_file(path: &str) -> Result<Vec<u8>, KernelError> {
    std::fs::read(path).map_err(|e| {
        KernelError::Io(format!(
            "cannot read {path}: {e}; save the variables there first (fluid.io.save_vars) or fix the path"
        ))
    })
}

/// `save`: `X` to `file_path` as one DenseTensor stream.
fn save(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, path) = (l.input("X")?, file_path(l)?);
    let overwrite = l.bool("overwrite")?;
    let fp16 = l.bool("save_as_fp16")?;
    compute(move |s| {
        let t = s.tensor(&x)?.into_owned();
        let mut bytes = Vec::new();
        file::write_stream(&mut bytes, &t, &[], fp16);
        write_file(&path, &bytes, overwrite)
    })
}

/// `save_combine`: every `X`, in order, to one file.
fn save_combine(l: &OpReader) -> Result<Exec, KernelError> {
    let (xs, path) = (l.inputs("X")?, file_path(l)?);
    let overwrite = l.bool("overwrite")?;
    let fp16 = l.bool("save_as_fp16")?;
    compute(move |s| {
        let mut bytes = Vec::new();
        for x in &xs {
            let t = s.tensor(x)?.into_owned();
            file::write_stream(&mut bytes, &t, &[], fp16);
        }
        write_file(&path, &bytes, overwrite)
    })
}

/// `load`: `Out` from a `save` file (`seek` reads the stream at that byte
/// offset of a combined file; fluidc does not take `shape` with it).
fn load(l: &OpReader) -> Result<Exec, KernelError> {
    let (out, path) = (l.output("Out")?, file_path(l)?);
    let seek = l.int("seek")?;
    compute(move |s| {
        let bytes = read_file(&path)?;
        let record = if seek >= 0 {
            let mut pos = seek as usize;
            file::read_stream(&bytes, &mut pos)
        } else {
            file::from_bytes(&bytes)
        }
        .map_err(|e| e.map_message(|e| format!("{path}: {e}")))?;
        s.set_tensor(&out, record.tensor);
        Ok(())
    })
}

/// `load_combine`: each `Out`, in order, from one combined file.
fn load_combine(l: &OpReader) -> Result<Exec, KernelError> {
    let (outs, path) = (l.outputs("Out")?, file_path(l)?);
    compute(move |s| {
        let bytes = read_file(&path)?;
        let records = file::combined_from_bytes(&bytes)
            .map_err(|e| e.map_message(|e| format!("{path}: {e}")))?;
        if records.len() != outs.len() {
            return Err(KernelError::Invalid(format!(
                "{path} holds {} tensors but the program loads {} from it: the file was saved from other variables",
                records.len(),
                outs.len()
            )));
        }
        for (out, r) in outs.iter().zip(records) {
            s.set_tensor(out, r.tensor);
        }
        Ok(())
    })
}

fn column(l: &OpReader) -> Result<usize, KernelError> {
    usize::try_from(l.int_or("col", 0)?)
        .map_err(|_| KernelError::Attribute("attribute `col` must not be negative".into()))
}

/// Copies column `col` of the feed holder into `Out`.
fn feed(l: &OpReader) -> Result<Exec, KernelError> {
    let (holder, out, col) = (l.input("X")?, l.output("Out")?, column(l)?);
    compute(move |s| {
        let fed = s.with(&holder, |v| match v {
            Value::FeedList(cols) => cols.get(col).cloned().flatten(),
            _ => None,
        });
        let t = fed.ok_or_else(|| {
            KernelError::MissingInput(format!(
                "nothing was fed for `{}` (feed column {col}); give it with --feed {}=VALUE",
                out.name, out.name
            ))
        })?;
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// Copies `X` into column `col` of the fetch holder.
fn fetch(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, holder, col) = (l.input("X")?, l.output("Out")?, column(l)?);
    compute(move |s| {
        let t = s.tensor(&x)?.into_owned();
        s.with(&holder, |v| {
            if !matches!(v, Value::FetchList(_)) {
                *v = Value::FetchList(Vec::new());
            }
            if let Value::FetchList(cols) = v {
                if cols.len() <= col {
                    cols.resize(col + 1, None);
                }
                cols[col] = Some(t);
            }
        });
        Ok(())
    })
}

/// Paddle's `print` (`layers.Print`): writes the tensor to stderr, at most
/// `first_n` times if that is set, and passes it on to `Out`.
fn print(l: &OpReader) -> Result<Exec, KernelError> {
    let x = l.input("In")?;
    let out = l.opt_output("Out")?;
    let message = l.string("message")?.unwrap_or_default().to_string();
    let first_n = l.int_or("first_n", -1)?;
    let printed = AtomicI64::new(0);
    compute(move |s| {
        let t = s.tensor(&x)?.into_owned();
        if first_n < 0 || printed.fetch_add(1, Ordering::Relaxed) < first_n {
            let line = t.to_text(&x.name);
            if message.is_empty() {
                eprintln!("{line}");
            } else {
                eprintln!("{message} {line}");
            }
        }
        if let Some(out) = &out {
            s.set_tensor(out, t);
        }
        Ok(())
    })
}
