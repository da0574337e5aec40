//! `fluidc export script.py -o PREFIX` (docs/models.md): the script's model as
//! Paddle 3.3.1's inference files, `PREFIX.pdmodel` and `PREFIX.pdiparams`,
//! which `paddle.static.load_inference_model(PREFIX, exe)` loads.
//!
//! The program is the one the script runs first (build mode), pruned to
//! its fetch targets (or `--fetch NAME`s) as `save_inference_model` prunes
//! it, fed only what those targets need. The parameters come from running
//! the script's startup program once (seeded by `--seed`), or from
//! `--params`.
use std::path::Path;

use fluidc_runtime::{Session, SessionOptions};
use fluidc_transpiler::{codec, Verified};

use crate::input::{self, CliError};
use crate::params;
use crate::params::{prune_for_inference, split_feed_fetch};

/// What to export.
#[derive(Debug)]
pub struct Export<'a> {
    pub script: &'a str,
    pub prefix: &'a str,
    /// Outputs to keep (default: what the script fetches).
    pub targets: &'a [String],
    pub params: Option<&'a str>,
    pub options: SessionOptions,
}

pub fn export(e: Export) -> Result<(), CliError> {
    if !input::is_python(e.script) {
        return Err(CliError::user(format!(
            "{}: export takes a Python script; a compiled program runs as it is",
            e.script
        )));
    }
    let (main, startup) = crate::script::compile_split(e.script, None)?;
    let (program, feeds, fetches) = split_feed_fetch(main.into_inner());
    let targets = if e.targets.is_empty() {
        fetches
    } else {
        e.targets.to_vec()
    };
    if targets.is_empty() {
        return Err(CliError::user(format!(
            "{}: the script fetches nothing to export; name the model's outputs with --fetch NAME",
            e.script
        )));
    }
    for t in &targets {
        if program.blocks[0].var(t).is_none() {
            return Err(CliError::user(format!(
                "--fetch {t}: the script's program has no variable `{t}`"
            )));
        }
    }
    let mut pruned = program;
    prune_for_inference(&mut pruned, &feeds, &targets);
    // Only the feeds the kept ops read (a label the loss needed goes).
    let read: std::collections::HashSet<&str> = pruned.blocks[0]
        .ops
        .iter()
        .flat_map(|op| op.input_names())
        .collect();
    let feeds: Vec<String> = feeds
        .iter()
        .filter(|f| read.contains(f.as_str()))
        .cloned()
        .collect();
    crate::vm::add_feed_fetch(&mut pruned, &feeds, &targets);
    let model = Verified::new(pruned).map_err(|err| {
        CliError::user(format!(
            "{}: the inference program does not verify: {err}",
            e.script
        ))
    })?;
    let mut session = Session::new(e.options);
    match e.params {
        Some(p) => params::load(&model, p, &mut session)?,
        None => {
            session
                .run_once(&startup, Vec::new(), Vec::new())
                .map_err(|err| CliError {
                    code: 3,
                    message: format!("error: {}: the startup program: {err}", e.script),
                })?;
        }
    }
    let model_path = format!("{}.pdmodel", e.prefix);
    let prefix = Path::new(e.prefix);
    let dir = prefix.parent().unwrap_or(Path::new(""));
    let stem = prefix.file_name().and_then(|s| s.to_str()).ok_or_else(|| {
        CliError::user(format!(
            "-o {}: give a path prefix such as out/model",
            e.prefix
        ))
    })?;
    input::write_output(&model_path, &codec::encode_program(&model))?;
    let names = params::persistable_names(&model);
    params::write_tensors(
        |n| session.tensor(n),
        &names,
        dir,
        Some(&format!("{stem}.pdiparams")),
    )
    .map_err(|err| CliError::user(format!("-o {}: {err}", e.prefix)))?;
    Ok(())
}
