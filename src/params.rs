//! Parameters and inference models in Paddle's files (docs/models.md), for
//! `fluid.io` in scripts (through `_fluidc`, src/native/params.rs) and for
//! the command line: `run model.pdmodel` (with `model.pdiparams` beside
//! it), `run --params DIR|FILE`, `--save-params DIR`, `--save-fetch DIR`
//! and `dump --params FILE`.
//!
//! A directory holds one `save` file per variable, named as the variable;
//! a combined file (`save_combine`) holds the program's persistable
//! variables sorted by name, as Paddle's `save_vars(filename=...)` and
//! `save_inference_model` write them.
use std::collections::HashSet;
use std::path::Path;

use fluidc_runtime::tensor::file;
use fluidc_runtime::{Data, Session, Tensor};
use fluidc_transpiler::{AttrValue, Op, Program, Var, VarKind};

use crate::input::CliError;

/// Paddle's `is_persistable`: persistable, and not a feed/fetch holder, a
/// reader or RAW (which `save_vars` skips).
pub fn is_persistable(v: &Var) -> bool {
    v.is_persistable()
        && !matches!(
            v.kind(),
            Some(VarKind::FeedMinibatch | VarKind::FetchList | VarKind::Reader | VarKind::Raw)
        )
}

/// The program's persistable variables (any block), sorted by name: the
/// order of a combined params file.
pub fn persistable_names(program: &Program) -> Vec<String> {
    let mut names: Vec<String> = program
        .blocks
        .iter()
        .flat_map(|b| &b.vars)
        .filter(|v| is_persistable(v))
        .map(|v| v.name.clone())
        .collect();
    names.sort();
    names.dedup();
    names
}

fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| {
        format!(
            "cannot read {}: {e}; check the directory and the file names the parameters were saved with",
            path.display()
        )
    })
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    if let Some(d) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(d)
            .map_err(|e| format!("cannot create the directory {}: {e}", d.display()))?;
    }
    std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The tensors for `names`: one file each under `dir`, or, with
/// `filename`, all from the combined `dir/filename` in sorted name order.
pub fn read_tensors(
    names: &[String],
    dir: &Path,
    filename: Option<&str>,
) -> Result<Vec<(String, Tensor)>, String> {
    let Some(f) = filename else {
        return names
            .iter()
            .map(|n| {
                let path = dir.join(n);
                let r = file::from_bytes(&read(&path)?)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                Ok((n.clone(), r.tensor))
            })
            .collect();
    };
    let path = dir.join(f);
    let mut sorted: Vec<&String> = names.iter().collect();
    sorted.sort();
    sorted.dedup();
    let records =
        file::combined_from_bytes(&read(&path)?).map_err(|e| format!("{}: {e}", path.display()))?;
    if records.len() != sorted.len() {
        return Err(format!(
            "{} holds {} tensors but {} variables are to be loaded from it ({}); \
             it was saved from another program",
            path.display(),
            records.len(),
            sorted.len(),
            sorted
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    Ok(sorted
        .into_iter()
        .cloned()
        .zip(records.into_iter().map(|r| r.tensor))
        .collect())
}

/// Writes `tensor(name)` for each of `names`: one file each under `dir`,
/// or all, sorted by name, to the combined `dir/filename`.
pub fn write_tensors(
    tensor: impl Fn(&str) -> Option<Tensor>,
    names: &[String],
    dir: &Path,
    filename: Option<&str>,
) -> Result<(), String> {
    let get = |name: &str| {
        tensor(name).ok_or_else(|| {
            format!(
                "cannot save `{name}`: the scope holds no value for it; run the startup program \
                 (exe.run(fluid.default_startup_program())) first"
            )
        })
    };
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("cannot create the directory {}: {e}", dir.display()))?;
    let Some(f) = filename else {
        for n in names {
            write(&dir.join(n), &file::to_bytes(&get(n)?))?;
        }
        return Ok(());
    };
    let mut sorted: Vec<&String> = names.iter().collect();
    sorted.sort();
    sorted.dedup();
    let tensors = sorted
        .iter()
        .map(|n| get(n))
        .collect::<Result<Vec<Tensor>, String>>()?;
    write(&dir.join(f), &file::combined_to_bytes(&tensors))
}

/// The params file Paddle keeps beside a `.pdmodel`: `X.pdiparams`.
pub fn beside(model: &str) -> Option<String> {
    let stem = model.strip_suffix(".pdmodel")?;
    let p = format!("{stem}.pdiparams");
    Path::new(&p).exists().then_some(p)
}

/// `run --params DIR|FILE`: the program's persistable variables into the
/// session, from a directory of `save` files or a combined file.
pub fn load(program: &Program, params: &str, session: &mut Session) -> Result<(), CliError> {
    let names = persistable_names(program);
    let p = Path::new(params);
    let loaded = if p.is_dir() {
        read_tensors(&names, p, None)
    } else {
        let dir = p.parent().unwrap_or(Path::new(""));
        let f = p.file_name().and_then(|s| s.to_str()).unwrap_or(params);
        read_tensors(&names, dir, Some(f))
    }
    .map_err(|e| CliError::user(format!("--params {params}: {e}")))?;
    for (name, t) in loaded {
        session.set_tensor(&name, t);
    }
    Ok(())
}

/// `--save-params DIR`: every tensor the session's scope holds, one `save`
/// file each.
pub fn save(session: &Session, dir: &str) -> Result<(), CliError> {
    let names: Vec<String> = session
        .names()
        .into_iter()
        .filter(|n| session.tensor(n).is_some())
        .map(String::from)
        .collect();
    write_tensors(|n| session.tensor(n), &names, Path::new(dir), None)
        .map_err(|e| CliError::user(format!("--save-params {dir}: {e}")))
}

/// `--save-fetch DIR`: each fetched tensor as `DIR/NAME.npy` (a `/` in a
/// name becomes `_`).
pub fn save_fetches(fetched: &[(String, Tensor)], dir: &str) -> Result<(), CliError> {
    for (name, t) in fetched {
        let path = Path::new(dir).join(format!("{}.npy", name.replace('/', "_")));
        write(&path, &npy(t)).map_err(|e| CliError::user(format!("--save-fetch {dir}: {e}")))?;
    }
    Ok(())
}

/// A version-1 `.npy` file of `t` (little-endian, C order).
pub fn npy(t: &Tensor) -> Vec<u8> {
    let (descr, body): (&str, Vec<u8>) = match t.data() {
        Data::Bool(v) => ("|b1", v.iter().map(|b| u8::from(*b)).collect()),
        Data::Int8(v) => ("|i1", v.iter().map(|x| x.to_le_bytes()[0]).collect()),
        Data::Int32(v) => ("<i4", v.iter().flat_map(|x| x.to_le_bytes()).collect()),
        Data::Int64(v) => ("<i8", v.iter().flat_map(|x| x.to_le_bytes()).collect()),
        Data::Float32(v) => ("<f4", v.iter().flat_map(|x| x.to_le_bytes()).collect()),
        Data::Float64(v) => ("<f8", v.iter().flat_map(|x| x.to_le_bytes()).collect()),
    };
    let dims: Vec<String> = t.shape().iter().map(|d| d.to_string()).collect();
    let shape = match dims.len() {
        1 => format!("({},)", dims[0]),
        _ => format!("({})", dims.join(", ")),
    };
    let mut header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend((header.len() as u16).to_le_bytes());
    out.extend(header.as_bytes());
    out.extend(body);
    out
}

/// `dump --params FILE`: one line per tensor (name, dtype, shape, min, max,
/// mean). A combined file's names are the program's persistable variables
/// in sorted order (`#N` when the counts differ); a directory's are its
/// file names.
pub fn dump(params: &str, program: Option<&Program>) -> Result<String, CliError> {
    let err = |e: String| CliError::user(format!("--params {params}: {e}"));
    let p = Path::new(params);
    let mut rows: Vec<(String, file::TensorRecord)> = Vec::new();
    if p.is_dir() {
        let mut entries: Vec<_> = std::fs::read_dir(p)
            .map_err(|e| err(e.to_string()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file())
            .collect();
        entries.sort();
        for e in entries {
            let name = e.file_name().and_then(|s| s.to_str()).unwrap_or("?");
            let r = file::from_bytes(&read(&e).map_err(err)?)
                .map_err(|x| err(format!("{}: {x}", e.display())))?;
            rows.push((name.to_string(), r));
        }
    } else {
        let records =
            file::combined_from_bytes(&read(p).map_err(err)?).map_err(|e| err(e.to_string()))?;
        let names = program.map(persistable_names).unwrap_or_default();
        let named = names.len() == records.len();
        for (k, r) in records.into_iter().enumerate() {
            let name = if named {
                names[k].clone()
            } else {
                format!("#{k}")
            };
            rows.push((name, r));
        }
    }
    let mut out = String::new();
    for (name, r) in rows {
        let t = &r.tensor;
        let values: Vec<f64> = match t.data() {
            Data::Bool(v) => v.iter().map(|b| f64::from(u8::from(*b))).collect(),
            Data::Int8(v) => v.iter().map(|x| f64::from(*x)).collect(),
            Data::Int32(v) => v.iter().map(|x| f64::from(*x)).collect(),
            Data::Int64(v) => v.iter().map(|x| *x as f64).collect(),
            Data::Float32(v) => v.iter().map(|x| f64::from(*x)).collect(),
            Data::Float64(v) => v.to_vec(),
        };
        let stats = if values.is_empty() {
            "empty".to_string()
        } else {
            let min = values.iter().copied().fold(f64::INFINITY, f64::min);
            let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let mean = values.iter().sum::<f64>() / values.len() as f64;
            format!("min {min:.6} max {max:.6} mean {mean:.6}")
        };
        out.push_str(&format!(
            "{name}  {}  {:?}  {stats}\n",
            fluidc_transpiler::model::dtype_name(r.file_dtype),
            t.shape()
        ));
    }
    Ok(out)
}

/// Paddle's `_prune_with_input` and `_inference_optimize` on a copy: feed
/// and fetch ops go; in block 0, walking back from the end, an op stays if
/// it writes a needed name (the targets, then what kept ops read; fed
/// names are inputs, so their writers go); variables no op names go; every
/// op with an `is_test` attribute gets it set.
pub fn prune_for_inference(program: &mut Program, feeds: &[String], targets: &[String]) {
    use fluidc_transpiler::dataflow::{op_reads, op_writes};
    let fed: HashSet<&str> = feeds.iter().map(String::as_str).collect();
    let mut needed: HashSet<String> = targets.iter().cloned().collect();
    let blocks = program.blocks.clone();
    let global = &mut program.blocks[0];
    global.ops.retain(|op| op.ty != "feed" && op.ty != "fetch");
    let mut keep = vec![false; global.ops.len()];
    for (k, op) in global.ops.iter().enumerate().rev() {
        let writes = op_writes(op);
        if !writes
            .iter()
            .any(|w| needed.contains(*w) && !fed.contains(w))
        {
            continue;
        }
        keep[k] = true;
        let mut reads: Vec<String> = op_reads(op).into_iter().map(String::from).collect();
        // What an op's blocks read is read by the op.
        let mut subs: Vec<usize> = op
            .sub_blocks()
            .filter_map(|(_, b)| usize::try_from(b).ok())
            .collect();
        while let Some(b) = subs.pop() {
            for sop in blocks.get(b).map(|b| b.ops.as_slice()).unwrap_or(&[]) {
                reads.extend(op_reads(sop).into_iter().map(String::from));
                subs.extend(
                    sop.sub_blocks()
                        .filter_map(|(_, b)| usize::try_from(b).ok()),
                );
            }
        }
        for r in reads {
            if !fed.contains(r.as_str()) {
                needed.insert(r);
            }
        }
    }
    let mut k = keep.iter();
    global.ops.retain(|_| *k.next().unwrap_or(&true));
    let mut used: HashSet<String> = HashSet::new();
    for b in &program.blocks {
        for op in &b.ops {
            used.extend(op.input_names().map(String::from));
            used.extend(op.output_names().map(String::from));
        }
    }
    program.blocks[0]
        .vars
        .retain(|v| used.contains(&v.name) || fed.contains(v.name.as_str()));
    for b in &mut program.blocks {
        for op in &mut b.ops {
            let has = op.get_attr("is_test").is_some()
                || fluidc_transpiler::ops::get(&op.ty).is_some_and(|d| d.attr("is_test").is_some());
            if has {
                op.set_attr("is_test", AttrValue::Bool(true));
            }
        }
    }
}

/// A saved inference program without its feed and fetch ops (and their
/// holders), with the fed names and fetch targets those ops gave, in column
/// order: `exe.run` adds its own for each run.
pub fn split_feed_fetch(mut program: Program) -> (Program, Vec<String>, Vec<String>) {
    let col = |op: &Op| match op.get_attr("col") {
        Some(AttrValue::Int(c)) => *c as i64,
        Some(AttrValue::Long(c)) => *c,
        _ => 0,
    };
    let global = &mut program.blocks[0];
    let mut feeds: Vec<(i64, String)> = Vec::new();
    let mut fetches: Vec<(i64, String)> = Vec::new();
    let mut holders = HashSet::new();
    for op in &global.ops {
        match op.ty.as_str() {
            "feed" => {
                if let Some(n) = op.output_names().next() {
                    feeds.push((col(op), n.to_string()));
                }
                holders.extend(op.input_names().map(String::from));
            }
            "fetch" => {
                if let Some(n) = op.input_names().next() {
                    fetches.push((col(op), n.to_string()));
                }
                holders.extend(op.output_names().map(String::from));
            }
            _ => {}
        }
    }
    global.ops.retain(|op| op.ty != "feed" && op.ty != "fetch");
    global.vars.retain(|v| !holders.contains(&v.name));
    feeds.sort();
    fetches.sort();
    (
        program,
        feeds.into_iter().map(|(_, n)| n).collect(),
        fetches.into_iter().map(|(_, n)| n).collect(),
    )
}
