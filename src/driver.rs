//! From a file on the command line to the program a command works on:
//! load (decode or compile), then run the pass pipeline the flags choose.
use clap::{Args, ValueEnum};
use fluidc_transpiler::passes::{self, Pipeline};
use fluidc_transpiler::pretty;
use fluidc_transpiler::target::{retarget, Target};
use fluidc_transpiler::Verified;

use crate::input::{self, CliError};

/// How far to take a program before printing it.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// As read (or as the front end built it, select nodes included).
    Parsed,
    /// After lower_select only.
    Lowered,
    /// After the whole pipeline (-O level or --passes).
    Optimized,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetArg {
    Paddle3,
    Fluid2018,
}

/// The optimization flags shared by `compile`, `dump`, `graph` and `run`.
#[derive(Args, Debug, Clone)]
pub struct OptFlags {
    /// Optimization level: 0 = lower_select, 1 = + prune (default), 2 = + fold and dedup constants.
    #[arg(short = 'O', default_value_t = 1, value_parser = clap::value_parser!(u8).range(0..=2))]
    pub level: u8,
    /// Run exactly these passes, comma separated (`none` for no pass).
    #[arg(long)]
    pub passes: Option<String>,
    /// Print the program (pretty) to stderr after this pass.
    #[arg(long, value_name = "PASS")]
    pub print_after: Option<String>,
    /// Verify the program after every pass (always on in debug builds).
    #[arg(long)]
    pub verify: bool,
    /// Stop rewriting after N rewrites, to bisect a bad rewrite.
    #[arg(long, value_name = "N")]
    pub max_steps: Option<usize>,
    /// Extra fetch targets that prune keeps (beyond the program's fetch ops).
    #[arg(long = "keep", value_name = "VAR")]
    pub keep: Vec<String>,
    /// A unittest file: the test whose program to build (`test_x` or `Class.test_x`).
    #[arg(long, value_name = "NAME")]
    pub test: Option<String>,
    /// Print to stderr, per pass, the ops and variables it removed or added
    /// and the time it took (with --verify or in a debug build, verification
    /// included).
    #[arg(long, short = 'v')]
    pub stats: bool,
}

impl OptFlags {
    /// The passes these flags choose (`-O` level or `--passes`).
    pub fn pipeline_names(&self) -> Result<Vec<&'static passes::Pass>, CliError> {
        let names: Vec<String> = match &self.passes {
            Some(list) if list == "none" => Vec::new(),
            Some(list) => list
                .split(',')
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect(),
            None => passes::level(self.level)
                .into_iter()
                .map(str::to_string)
                .collect(),
        };
        names
            .iter()
            .map(|n| {
                passes::find(n).ok_or_else(|| {
                    let known: Vec<&str> = passes::PASSES.iter().map(|p| p.name).collect();
                    CliError {
                        code: 2,
                        message: format!(
                            "error: unknown pass `{n}`; the passes are {}, or `none`",
                            known.join(", ")
                        ),
                    }
                })
            })
            .collect()
    }
}

/// Loads `path` and takes it to `stage`.
pub fn load_at(path: &str, stage: Stage, flags: &OptFlags) -> Result<Verified, CliError> {
    take_to(path, input::load(path, flags.test.clone())?, stage, flags)
}

/// Takes a program read from `path` to `stage`.
pub fn take_to(
    path: &str,
    program: Verified,
    stage: Stage,
    flags: &OptFlags,
) -> Result<Verified, CliError> {
    let chosen = match stage {
        Stage::Parsed => return Ok(program),
        Stage::Lowered => vec![passes::find("lower_select").expect("lower_select exists")],
        Stage::Optimized => flags.pipeline_names()?,
    };
    if let Some(p) = &flags.print_after {
        if !chosen.iter().any(|c| c.name == p) {
            return Err(CliError {
                code: 2,
                message: format!("error: --print-after {p}: that pass is not in this pipeline"),
            });
        }
    }
    let mut last = (size(&program), std::time::Instant::now());
    if flags.stats {
        let (ops, vars) = last.0;
        eprintln!("{:<16} {ops:>8} ops {vars:>8} vars", "input");
    }
    let mut print = |name: &str, program: &fluidc_transpiler::Program, changed: bool| {
        if flags.stats {
            let ((ops0, vars0), started) = last;
            let (ops, vars) = size(program);
            let ms = started.elapsed().as_secs_f64() * 1e3;
            let change = if !changed {
                "  (no change)".to_string()
            } else if (ops, vars) == (ops0, vars0) {
                "  (ops rewritten in place)".to_string()
            } else {
                format!(
                    "  ({:+} ops, {:+} vars)",
                    ops as i64 - ops0 as i64,
                    vars as i64 - vars0 as i64
                )
            };
            eprintln!("{name:<16} {ops:>8} ops {vars:>8} vars {ms:>10.3} ms{change}");
            last = ((ops, vars), std::time::Instant::now());
        }
        if flags.print_after.as_deref() == Some(name) {
            eprint!("// after {name}\n{}", pretty::to_pretty(program, None));
        }
    };
    let pipeline = Pipeline {
        passes: chosen,
        options: passes::Options {
            fetch: flags.keep.clone(),
            evaluator: Some(passes::EvaluatorRef(std::sync::Arc::new(
                fluidc_runtime::KernelEvaluator,
            ))),
        },
        verify_each: flags.verify,
        max_steps: flags.max_steps,
        after_pass: Some(&mut print),
    };
    pipeline
        .run(program)
        .map_err(|e| CliError::user(format!("{}: {e}", input::display_name(path))))
}

/// Rewrites a verified program for the output target.
pub fn for_target(program: Verified, target: TargetArg) -> Result<Verified, CliError> {
    let target = match target {
        TargetArg::Paddle3 => Target::Paddle3,
        TargetArg::Fluid2018 => Target::Fluid2018,
    };
    Verified::new(retarget(program.into_inner(), target))
        .map_err(|e| CliError::user(format!("retargeting broke the program: {e}")))
}

/// Ops and variables over every block, for `--stats`.
fn size(program: &fluidc_transpiler::Program) -> (usize, usize) {
    program
        .blocks
        .iter()
        .fold((0, 0), |(o, v), b| (o + b.ops.len(), v + b.vars.len()))
}
