//! The `fluidc` command line (README, "Commands").
use std::process::ExitCode;
use std::time::Duration;

use clap::{CommandFactory, Parser, Subcommand, ValueEnum};
use fluidc::driver::{self, OptFlags, Stage, TargetArg};
use fluidc::input::{self, CliError};
use fluidc_transpiler::verify::Verified;
use fluidc_transpiler::{codec, dot, pretty, text};

/// mimalloc: the VM allocates an object per Python value, and glibc's
/// malloc and free were a quarter of a script build's instructions.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser, Debug)]
#[command(
    name = "fluidc",
    version,
    about = "Compile, inspect and run PaddlePaddle Fluid programs",
    after_help = "`fluidc model.py -o model.pb` is short for `fluidc compile model.py -o model.pb`."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

// `Run` has many flags; the one value clap parses per process need not be small.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand, Debug)]
enum Command {
    /// Compile a program (.py, .pb or .pbtxt): lower select, optimize, write ProgramDesc bytes.
    Compile {
        /// The program: a script (.py), or a program to optimize (.pb, .pbtxt, `-` for stdin).
        input: String,
        /// Output file; `-` is standard output. Default: the input with `.pb`.
        #[arg(short = 'o', long = "output")]
        output: Option<String>,
        /// Which Paddle to write for: paddle3 (Paddle 3's op spellings) or fluid2018.
        #[arg(long, value_enum, default_value_t = TargetArg::Paddle3)]
        target: TargetArg,
        /// Write the script's startup program to FILE, apart (a .py only);
        /// without it, the startup program is merged into block 0.
        #[arg(long, value_name = "FILE")]
        startup_out: Option<String>,
        #[command(flatten)]
        opt: OptFlags,
    },
    /// Print a program as protobuf text (as protoc does), Paddle-style text or JSON.
    Dump {
        /// The program: a script (.py), or a compiled program (.pb, .pbtxt, `-` for stdin).
        input: String,
        /// text: protobuf text format (as protoc prints it); pretty: one line per op,
        /// as Paddle's `Program.__str__`; json: protobuf's JSON mapping.
        #[arg(long, value_enum, default_value_t = DumpFormat::Pretty)]
        format: DumpFormat,
        /// Print only this block (and, for `pretty`, the blocks nested in it).
        #[arg(long)]
        block: Option<usize>,
        /// parsed (default for .pb/.pbtxt), lowered, or optimized (default for .py).
        #[arg(long, value_enum)]
        stage: Option<Stage>,
        /// Rewrite for this target (after lowering or optimizing).
        #[arg(long, value_enum)]
        target: Option<TargetArg>,
        /// List a params file's tensors instead (name, dtype, shape, min/max/mean;
        /// a combined file's names are the program's persistables, sorted).
        #[arg(long, value_name = "FILE")]
        params: Option<String>,
        #[command(flatten)]
        opt: OptFlags,
    },
    /// Run a program (.py, .pb or .pbtxt) and print its fetches; a script runs as
    /// Python would run it. With --steps, run a compiled program N times (training).
    #[command(
        mut_arg("max_steps", |a| a
            .long("max-rewrites")
            .help("Stop rewriting after N rewrites, to bisect a bad rewrite (`--max-steps` of compile and dump)")),
        after_help = "Training: fluidc compile train.py -o main.pb --startup-out startup.pb, then\n  \
                      fluidc run main.pb --startup startup.pb --steps 100 --batch-size 4 --feed x=x.npy --feed y=y.npy\n\
                      prints one line per step: `step 0: mean_0.tmp_0 = 16.135` (or JSON lines with --format json)."
    )]
    Run {
        /// The program: a script (.py), or a compiled program (.pb, .pbtxt, `-` for stdin).
        input: String,
        /// NAME=VALUE: a .npy file or a literal such as [1,2,3] (the variable's declared dtype).
        #[arg(long = "feed", value_name = "NAME=VALUE")]
        feed: Vec<String>,
        /// Variables to print after the program's own fetch targets.
        #[arg(long = "fetch", value_name = "NAME")]
        fetch: Vec<String>,
        /// text: `name = value (dtype, shape)` per fetch, or one `step i: name = value, ...`
        /// line per step; json: one object (`{"fetch": [...]}`), or one per line, one line per step
        /// (`{"step": i, "fetch": [...]}`).
        #[arg(long, value_enum, default_value_t = RunFormat::Text)]
        format: RunFormat,
        /// Seeds select's random choice (with --workers 1, runs repeat exactly).
        #[arg(long)]
        seed: Option<u64>,
        /// Worker threads for goroutines (default: the number of cores).
        #[arg(long)]
        workers: Option<usize>,
        /// The most memory one tensor may take: bytes, or with a K, M, G or T
        /// suffix (binary: 1G = 2^30). Default: half the machine's memory,
        /// rounded down to whole GiB. A larger tensor is a runtime error.
        #[arg(long, value_name = "BYTES", value_parser = parse_bytes)]
        max_memory: Option<u64>,
        /// A startup program (.pb, as `compile --startup-out` writes it) to run once
        /// first, in the same scope: the parameters it initializes carry into the
        /// main program's runs. Not for a script, which runs its own.
        #[arg(long, value_name = "FILE")]
        startup: Option<String>,
        /// Run the program N times (training steps, N >= 1), parameters carrying from
        /// step to step, and print each step's fetches as one line. A compiled
        /// program only: a script's own loop decides how often it runs.
        #[arg(long, value_name = "N", value_parser = at_least_one("run at least one step (--steps 1 or more)"))]
        steps: Option<u64>,
        /// With --steps: cut each .npy feed along axis 0 into batches of B rows, one
        /// batch per step. The rows cycle: a batch past the last row goes on from
        /// the first (5 rows, B = 2: rows 0-1, 2-3, 4 and 0, 1-2, ...). Literal
        /// feeds are fed whole every step.
        #[arg(long, value_name = "B", value_parser = at_least_one("a batch has at least one row (--batch-size 1 or more)"))]
        batch_size: Option<u64>,
        /// With --steps: train data-parallel on N ranks, one thread each, in this
        /// process (the trainer programs `fluidc distribute` writes; their
        /// all_reduce and broadcast ops join the ranks). Rank r is fed rows
        /// [r*B/N, (r+1)*B/N) of each step's B rows; each step's line shows the
        /// mean over the ranks. Default: 1, one process alone, where the
        /// collectives are the identity.
        #[arg(long, value_name = "N", value_parser = at_least_one("a run has at least one rank (--nranks 1 or more)"))]
        nranks: Option<u64>,
        /// Stop a run that executes more than N ops (exit 3), to catch a runaway
        /// loop. Unit: ops executed in one run of a program (each --steps step,
        /// each `exe.run` of a script), counting every op of every goroutine, each
        /// loop iteration's ops again, and a `while` once per check of its
        /// condition. Default: no limit.
        #[arg(long = "max-steps", value_name = "N", value_parser = at_least_one("no program runs in 0 ops; give 1 or more"))]
        max_ops: Option<u64>,
        /// Stop running programs after SECONDS of wall-clock time (a decimal, such
        /// as 2 or 0.5) for the whole command (exit 3). Default: no limit.
        #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
        timeout: Option<Duration>,
        /// After the run, print to stderr the time spent per op type: calls,
        /// total and mean time, share (the program's runs: every `exe.run` of
        /// a script; the --steps of a training run, not its --startup program)
        #[arg(long)]
        profile: bool,
        /// How a lowered select runs its chosen case: direct (jump to the case's
        /// body) or ops (run the lowered cases block op by op, as Paddle would;
        /// slower, same results). For measuring what the lowering costs.
        #[arg(long, value_enum, default_value = "direct")]
        select_dispatch: SelectDispatch,
        /// Parameters for a saved model: a directory of tensor files or one
        /// combined file (Paddle's formats). `model.pdmodel` takes
        /// `model.pdiparams` beside it without this.
        #[arg(long, value_name = "DIR|FILE")]
        params: Option<String>,
        /// After the run, write every tensor the scope holds to DIR, one
        /// Paddle tensor file each.
        #[arg(long, value_name = "DIR")]
        save_params: Option<String>,
        /// After the run, write each fetched tensor to DIR as NAME.npy.
        #[arg(long, value_name = "DIR")]
        save_fetch: Option<String>,
        #[command(flatten)]
        opt: OptFlags,
        /// After `--`: the script's command-line arguments (`sys.argv[1:]`,
        /// what argparse parses), as `python script.py ARGS` would get them.
        #[arg(last = true, value_name = "ARGS")]
        script_args: Vec<String>,
    },
    /// Make a training program into the trainer programs of N data-parallel
    /// ranks, as Paddle's GradAllReduce does (docs/distributed.md): writes
    /// DIR/main.pb, DIR/startup.pb and DIR/train.py, the worker that
    /// `python -m paddle.distributed.launch --nproc_per_node N DIR/train.py`
    /// starts on each rank; `fluidc run DIR/main.pb --startup DIR/startup.pb
    /// --nranks N` runs them in one process.
    Distribute {
        /// The main program (.pb), as `compile --startup-out` writes it.
        input: String,
        /// Its startup program (.pb).
        #[arg(long, value_name = "FILE")]
        startup: String,
        /// How many ranks (trainer processes) share each batch: 2 or more.
        #[arg(long, value_name = "N")]
        nranks: usize,
        /// The directory to write the trainer programs and train.py to.
        #[arg(short = 'o', long = "output", value_name = "DIR")]
        output: String,
        /// Which Paddle to write for: paddle3 (all_reduce, broadcast) or
        /// fluid2018 (c_allreduce_sum, c_broadcast).
        #[arg(long, value_enum, default_value_t = TargetArg::Paddle3)]
        target: TargetArg,
    },
    /// Check a Python script: print its diagnostics, write nothing. A unittest
    /// file: list its tests and check each one's program (or only --test NAME).
    Check {
        /// The script (.py) to check.
        input: String,
        /// A unittest file: check only this test (`test_x` or `Class.test_x`).
        #[arg(long, value_name = "NAME")]
        test: Option<String>,
    },
    /// List every module, layer and function of the Python API fluidc knows.
    Api,
    /// Print a shell completion script: `fluidc completions bash >
    /// ~/.local/share/bash-completion/completions/fluidc` (zsh: a `_fluidc`
    /// file on $fpath; fish: ~/.config/fish/completions/fluidc.fish).
    Completions {
        /// The shell to complete in.
        shell: clap_complete::Shell,
    },
    /// Print a man page (roff): `fluidc man > fluidc.1`, then `man ./fluidc.1`.
    Man {
        /// The page of this subcommand (fluidc-run(1), ...); default: fluidc(1).
        command: Option<String>,
    },
    /// Write a script's model as Paddle inference files (PREFIX.pdmodel and
    /// PREFIX.pdiparams), which paddle.static.load_inference_model loads: the
    /// program it runs first, pruned to its fetches, with the parameters its
    /// startup program makes (or --params).
    Export {
        /// The script (.py).
        input: String,
        /// The path prefix of the two files (out/model writes out/model.pdmodel
        /// and out/model.pdiparams).
        #[arg(short = 'o', long = "output", value_name = "PREFIX")]
        output: String,
        /// The model's outputs (repeatable); default: what the script fetches.
        #[arg(long = "fetch", value_name = "NAME")]
        fetch: Vec<String>,
        /// Parameters to write instead of running the startup program: a
        /// directory of tensor files or one combined file.
        #[arg(long, value_name = "DIR|FILE")]
        params: Option<String>,
        /// Seeds the startup program's random initializers whose seed is 0.
        #[arg(long)]
        seed: Option<u64>,
    },
    /// Write the data-flow graph of a program as Graphviz dot (or SVG).
    Graph {
        /// The program: a script (.py), or a compiled program (.pb, .pbtxt, `-` for stdin).
        input: String,
        /// Draw only this block (and the blocks nested in it).
        #[arg(long)]
        block: Option<usize>,
        /// dot text, or svg laid out by Graphviz's `dot` (which must be installed).
        #[arg(long, value_enum, default_value = "dot")]
        format: GraphFormat,
        /// parsed (default for .pb/.pbtxt), lowered, or optimized (default for .py).
        #[arg(long, value_enum)]
        stage: Option<Stage>,
        #[command(flatten)]
        opt: OptFlags,
    },
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum RunFormat {
    Text,
    Json,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum SelectDispatch {
    Direct,
    Ops,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum GraphFormat {
    Dot,
    Svg,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum DumpFormat {
    Text,
    Pretty,
    Json,
}

/// `--max-memory`: `4096`, `512M`, `12G`, `1.5G`, `2GiB` (K, M, G, T are
/// powers of 1024).
fn parse_bytes(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let shift = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        "T" | "TB" | "TIB" => 40,
        _ => return Err(format!("`{s}`: write bytes, or a number with K, M, G or T")),
    };
    let n: f64 = number
        .parse()
        .map_err(|_| format!("`{s}`: write bytes, or a number with K, M, G or T"))?;
    let bytes = n * (1u64 << shift) as f64;
    if !(1.0..=u64::MAX as f64).contains(&bytes) {
        return Err(format!("`{s}`: the limit must be at least 1 byte"));
    }
    Ok(bytes as u64)
}

/// A whole number from 1 (`--steps`, `--batch-size`, `--max-steps`);
/// `zero` says why 0 is refused.
fn at_least_one(zero: &'static str) -> impl Fn(&str) -> Result<u64, String> + Clone {
    move |s| match s.trim().parse::<u64>() {
        Ok(0) => Err(zero.to_string()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("`{s}`: give a whole number from 1")),
    }
}

/// `--timeout`: seconds, more than 0.
fn parse_seconds(s: &str) -> Result<Duration, String> {
    let bad = || format!("`{s}`: give seconds, a number more than 0 (such as 30 or 0.5)");
    let secs: f64 = s.trim().parse().map_err(|_| bad())?;
    if secs.is_nan() || secs <= 0.0 {
        return Err(bad());
    }
    Duration::try_from_secs_f64(secs).map_err(|_| bad())
}

/// `fluidc model.py -o x` means `fluidc compile model.py -o x`.
fn with_implicit_compile(mut args: Vec<String>) -> Vec<String> {
    if let Some(first) = args.get(1) {
        let is_global_flag = matches!(first.as_str(), "-h" | "--help" | "-V" | "--version");
        // The subcommands clap knows (and `help`), so this cannot drift.
        let is_subcommand = first == "help"
            || Cli::command()
                .get_subcommands()
                .any(|c| c.get_name() == first);
        if !is_subcommand && !is_global_flag {
            args.insert(1, "compile".into());
        }
    }
    args
}

/// A `--block` the program lacks is a bad argument value: a usage error
/// (exit 2), as clap gives for values it can check itself.
fn check_block(program: &Verified, block: Option<usize>) -> Result<(), CliError> {
    match block {
        Some(b) if b >= program.blocks.len() => Err(CliError {
            code: 2,
            message: format!(
                "error: --block {b}: the program has {} blocks (0..{}); give one of those",
                program.blocks.len(),
                program.blocks.len() - 1
            ),
        }),
        _ => Ok(()),
    }
}

/// `.py` input is shown as it will be written; a `.pb` as it is.
fn default_stage(path: &str, stage: Option<Stage>) -> Stage {
    stage.unwrap_or(if input::is_python(path) {
        Stage::Optimized
    } else {
        Stage::Parsed
    })
}

/// `compile` of a script whose program has `py_func` ops: they call
/// Python functions that live only while the script runs (by the ids it
/// registered them under), so the written program could not run them.
/// Paddle's own saving keeps the op (a script's `serialize_to_string` and
/// `save_inference_model` do here too); the command refuses instead.
fn refuse_py_func(path: &str, program: &fluidc_transpiler::Program) -> Result<(), CliError> {
    let Some(op) = program
        .blocks
        .iter()
        .flat_map(|b| &b.ops)
        .find(|op| op.ty == "py_func")
    else {
        return Ok(());
    };
    let place = match op.get_attr("op_callstack") {
        Some(fluidc_transpiler::AttrValue::Strings(lines)) => lines
            .iter()
            .rev()
            .find(|l| l.trim_start().starts_with("File "))
            .map(|l| format!(" ({})", l.trim()))
            .unwrap_or_default(),
        _ => String::new(),
    };
    Err(CliError::user(format!(
        "{path}: the program has a py_func op{place}, which calls a Python function of the \
         script; the function exists only while the script runs, so a written program could \
         not run it: run the script instead (`fluidc run {path}`)"
    )))
}

fn run(cli: Cli) -> Result<(), CliError> {
    match cli.command {
        Command::Compile {
            input: path,
            output,
            target,
            startup_out,
            opt,
        } => {
            let output = match output {
                Some(o) => o,
                None if input::is_python(&path) => format!("{}.pb", path.trim_end_matches(".py")),
                None => {
                    return Err(CliError {
                        code: 2,
                        message: "error: give the output file with -o (`-` for stdout)".into(),
                    })
                }
            };
            if let Some(startup_out) = startup_out {
                if !input::is_python(&path) {
                    return Err(CliError {
                        code: 2,
                        message: format!(
                            "error: --startup-out takes a Python script; {path} is a program already"
                        ),
                    });
                }
                let (main, startup) = fluidc::script::compile_split(&path, opt.test.clone())?;
                let take = |p| driver::take_to(&path, p, Stage::Optimized, &opt);
                let main = driver::for_target(take(main)?, target)?;
                let startup = driver::for_target(take(startup)?, target)?;
                refuse_py_func(&path, &main)?;
                input::write_output(&startup_out, &codec::encode_program(&startup))?;
                return input::write_output(&output, &codec::encode_program(&main));
            }
            let program =
                driver::for_target(driver::load_at(&path, Stage::Optimized, &opt)?, target)?;
            if input::is_python(&path) {
                refuse_py_func(&path, &program)?;
            }
            input::write_output(&output, &codec::encode_program(&program))
        }
        Command::Dump {
            input: path,
            format,
            block,
            stage,
            target,
            params,
            opt,
        } => {
            let mut program = driver::load_at(&path, default_stage(&path, stage), &opt)?;
            if let Some(params) = params {
                let listing = fluidc::params::dump(&params, Some(&program))?;
                return input::write_output("-", listing.as_bytes());
            }
            if let Some(t) = target {
                program = driver::for_target(program, t)?;
            }
            check_block(&program, block)?;
            let (what, bytes) = match block {
                Some(b) => (text::Message::Block, text::encode_block(&program.blocks[b])),
                None => (text::Message::Program, codec::encode_program(&program)),
            };
            let out = match format {
                DumpFormat::Pretty => Ok(pretty::to_pretty(&program, block)),
                DumpFormat::Text => text::to_text(what, &bytes),
                DumpFormat::Json => text::to_json(what, &bytes),
            }
            .map_err(|e| CliError::user(format!("{path}: {e}")))?;
            input::write_output("-", out.as_bytes())
        }
        Command::Run {
            input: path,
            feed,
            fetch,
            format,
            seed,
            workers,
            max_memory,
            startup,
            steps,
            batch_size,
            nranks,
            max_ops,
            timeout,
            profile,
            select_dispatch,
            params,
            save_params,
            save_fetch,
            opt,
            script_args,
        } => fluidc::run::run(fluidc::run::RunArgs {
            path,
            feed,
            fetch,
            json: format == RunFormat::Json,
            options: fluidc_runtime::SessionOptions {
                seed,
                workers,
                max_memory,
                max_ops,
                timeout,
                profile,
                select_ops: select_dispatch == SelectDispatch::Ops,
                rank: None,
                // Fused optimizer updates off (same results; for measuring).
                no_fuse: std::env::var_os("FLUIDC_NO_FUSE").is_some_and(|v| v == "1"),
            },
            startup,
            steps,
            batch_size,
            nranks,
            params,
            save_params,
            save_fetch,
            opt,
            script_args,
        }),
        Command::Export {
            input: path,
            output,
            fetch,
            params,
            seed,
        } => fluidc::export::export(fluidc::export::Export {
            script: &path,
            prefix: &output,
            targets: &fetch,
            params: params.as_deref(),
            options: fluidc_runtime::SessionOptions {
                seed,
                ..Default::default()
            },
        }),
        Command::Distribute {
            input: path,
            startup,
            nranks,
            output,
            target,
        } => fluidc::distribute::distribute(fluidc::distribute::Request {
            main: &path,
            startup: &startup,
            nranks,
            out_dir: &output,
            target,
        }),
        Command::Api => input::write_output("-", fluidc::vm::api_listing().as_bytes()),
        Command::Completions { shell } => {
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "fluidc", &mut script);
            input::write_output("-", &script)
        }
        Command::Man { command } => {
            let cli = Cli::command();
            let page_of = match &command {
                None => cli,
                Some(name) => match cli.find_subcommand(name) {
                    Some(sub) => sub
                        .clone()
                        .display_name(format!("fluidc-{name}"))
                        .bin_name(format!("fluidc {name}"))
                        .version(env!("CARGO_PKG_VERSION")),
                    None => {
                        let names: Vec<&str> =
                            cli.get_subcommands().map(|c| c.get_name()).collect();
                        return Err(CliError {
                            code: 2,
                            message: format!(
                                "error: no subcommand `{name}`; man pages: {}",
                                names.join(", ")
                            ),
                        });
                    }
                },
            };
            let mut page = Vec::new();
            clap_mangen::Man::new(page_of)
                .render(&mut page)
                .map_err(|e| CliError::user(format!("cannot render the man page: {e}")))?;
            input::write_output("-", &page)
        }
        Command::Check { input: path, test } => {
            if !input::is_python(&path) {
                return Err(CliError {
                    code: 2,
                    message: format!("error: {path}: `check` takes a Python script (.py)"),
                });
            }
            check_script(&path, test)
        }
        Command::Graph {
            input: path,
            block,
            format,
            stage,
            opt,
        } => {
            let program = driver::load_at(&path, default_stage(&path, stage), &opt)?;
            check_block(&program, block)?;
            let dot =
                dot::to_dot(&program, block).map_err(|e| CliError::user(format!("{path}: {e}")))?;
            match format {
                GraphFormat::Dot => input::write_output("-", dot.as_bytes()),
                GraphFormat::Svg => input::write_output("-", &fluidc::graphviz::to_svg(&dot)?),
            }
        }
    }
}

/// `fluidc check`: a script's static problems (undefined names, unknown
/// fluid APIs), then its program's verifier problems; a unittest file's
/// tests are listed and each one's program checked.
fn check_script(path: &str, test: Option<String>) -> Result<(), CliError> {
    fluidc::check::static_check(path)?;
    if test.is_some() {
        return input::load(path, test).map(|_| ());
    }
    let tests = match fluidc::script::build(path, None)? {
        fluidc::script::BuildResult::Built(b) => {
            let program = b
                .merged()
                .map_err(|e| CliError::user(format!("{path}: {e}")))?;
            return fluidc_transpiler::Verified::new(program)
                .map(|_| ())
                .map_err(|e| CliError::user(input::verify_message(path, &e)));
        }
        fluidc::script::BuildResult::Tests(t) => t,
    };
    let mut out = format!("{path}: {} tests\n", tests.len());
    for t in &tests {
        out.push_str(&format!("  {t}\n"));
    }
    input::write_output("-", out.as_bytes())?;
    let mut failed = false;
    for t in tests {
        if let Err(e) = input::load(path, Some(t)) {
            eprintln!("{e}");
            failed = true;
        }
    }
    if failed {
        return Err(CliError {
            code: 1,
            message: String::new(),
        });
    }
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse_from(with_implicit_compile(std::env::args().collect()));
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            if !e.message.is_empty() {
                eprintln!("{e}");
            }
            ExitCode::from(e.code)
        }
    }
}
