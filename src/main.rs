//! The `fluidc` command line (SPEC §7).
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use fluidc::driver::{self, OptFlags, Stage, TargetArg};
use fluidc::input::{self, CliError};
use fluidc_transpiler::verify::Verified;
use fluidc_transpiler::{codec, dot, pretty, text};

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

#[derive(Subcommand, Debug)]
enum Command {
    /// Compile a program (.py, .pb or .pbtxt): lower select, optimize, write ProgramDesc bytes.
    Compile {
        input: String,
        /// Output file; `-` is standard output. Default: the input with `.pb`.
        #[arg(short = 'o', long = "output")]
        output: Option<String>,
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
        input: String,
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
        #[command(flatten)]
        opt: OptFlags,
    },
    /// Run a program (.py, .pb or .pbtxt; a .py is compiled first) and print its fetches.
    Run {
        input: String,
        /// NAME=VALUE: a .npy file or a literal such as [1,2,3] (the variable's declared dtype).
        #[arg(long = "feed", value_name = "NAME=VALUE")]
        feed: Vec<String>,
        /// Variables to print after the program's own fetch targets.
        #[arg(long = "fetch", value_name = "NAME")]
        fetch: Vec<String>,
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
        #[command(flatten)]
        opt: OptFlags,
    },
    /// Check a Python script: print its diagnostics, write nothing.
    Check { input: String },
    /// Write the data-flow graph of a program as Graphviz dot.
    Graph {
        input: String,
        #[arg(long)]
        block: Option<usize>,
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

const SUBCOMMANDS: &[&str] = &["compile", "dump", "graph", "check", "run", "help"];

/// `fluidc model.py -o x` means `fluidc compile model.py -o x`.
fn with_implicit_compile(mut args: Vec<String>) -> Vec<String> {
    if let Some(first) = args.get(1) {
        let is_global_flag = matches!(first.as_str(), "-h" | "--help" | "-V" | "--version");
        if !SUBCOMMANDS.contains(&first.as_str()) && !is_global_flag {
            args.insert(1, "compile".into());
        }
    }
    args
}

fn check_block(program: &Verified, block: Option<usize>) -> Result<(), CliError> {
    match block {
        Some(b) if b >= program.blocks.len() => Err(CliError::user(format!(
            "--block {b}: the program has {} blocks (0..{})",
            program.blocks.len(),
            program.blocks.len() - 1
        ))),
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
                let (main, startup) = input::compile_python_split(&path)?;
                let take = |p| driver::take_to(&path, p, Stage::Optimized, &opt);
                let main = driver::for_target(take(main)?, target)?;
                let startup = driver::for_target(take(startup)?, target)?;
                input::write_output(&startup_out, &codec::encode_program(&startup))?;
                return input::write_output(&output, &codec::encode_program(&main));
            }
            let program =
                driver::for_target(driver::load_at(&path, Stage::Optimized, &opt)?, target)?;
            input::write_output(&output, &codec::encode_program(&program))
        }
        Command::Dump {
            input: path,
            format,
            block,
            stage,
            target,
            opt,
        } => {
            let mut program = driver::load_at(&path, default_stage(&path, stage), &opt)?;
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
            opt,
        } => {
            if input::is_python(&path) {
                let options = fluidc_runtime::SessionOptions {
                    seed,
                    workers,
                    max_memory,
                };
                return run_script(&path, &feed, fetch, format, options, &opt);
            }
            let program = driver::load_at(&path, default_stage(&path, None), &opt)?;
            let mut feeds = Vec::with_capacity(feed.len());
            for f in &feed {
                let (name, value) = f.split_once('=').ok_or_else(|| CliError {
                    code: 2,
                    message: format!("error: --feed {f}: write NAME=VALUE"),
                })?;
                let tensor = fluidc_runtime::parse_feed(&program, name, value)
                    .map_err(|e| CliError::user(format!("--feed {name}: {e}")))?;
                feeds.push((name.to_string(), tensor));
            }
            let options = fluidc_runtime::RunOptions {
                feeds,
                fetch,
                seed,
                workers,
                max_memory,
            };
            let results = fluidc_runtime::run(&program, options).map_err(|e| CliError {
                code: 3,
                message: format!("error: {}: {e}", input::display_name(&path)),
            })?;
            let out = match format {
                RunFormat::Json => {
                    let list: Vec<serde_json::Value> =
                        results.iter().map(|(n, t)| t.to_json(n)).collect();
                    format!("{}\n", serde_json::json!({ "fetch": list }))
                }
                RunFormat::Text => results
                    .iter()
                    .map(|(n, t)| format!("{}\n", t.to_text(n)))
                    .collect(),
            };
            input::write_output("-", out.as_bytes())
        }
        Command::Check { input: path } => {
            if !input::is_python(&path) {
                return Err(CliError {
                    code: 2,
                    message: format!("error: {path}: `check` takes a Python script (.py)"),
                });
            }
            input::load(&path).map(|_| ())
        }
        Command::Graph {
            input: path,
            block,
            stage,
            opt,
        } => {
            let program = driver::load_at(&path, default_stage(&path, stage), &opt)?;
            check_block(&program, block)?;
            let dot =
                dot::to_dot(&program, block).map_err(|e| CliError::user(format!("{path}: {e}")))?;
            input::write_output("-", dot.as_bytes())
        }
    }
}

/// `fluidc run script.py`: the script runs as Python would run it (SPEC
/// §8.1); its output is what it prints, or, if it printed nothing, the
/// last run's fetches.
fn run_script(
    path: &str,
    feed: &[String],
    fetch: Vec<String>,
    format: RunFormat,
    options: fluidc_runtime::SessionOptions,
    opt: &driver::OptFlags,
) -> Result<(), CliError> {
    let mut mode = fluidc::front::run::RunMode::new(options, opt.pipeline_names()?);
    for f in feed {
        let (name, value) = f.split_once('=').ok_or_else(|| CliError {
            code: 2,
            message: format!("error: --feed {f}: write NAME=VALUE"),
        })?;
        mode.cli_feeds.push((name.to_string(), value.to_string()));
    }
    mode.extra_fetch = fetch;
    let bytes = input::read_bytes(path)?;
    let name = input::display_name(path);
    let source = String::from_utf8(bytes).map_err(|e| {
        CliError::user(format!(
            "{name}: the file is not UTF-8 text (at byte {})",
            e.utf8_error().valid_up_to()
        ))
    })?;
    let render = |diags: &[fluidc::front::diag::Diagnostic]| {
        fluidc::front::diag::render(name, &source, diags)
    };
    let (run, failure) = match fluidc::front::run_script(name, &source, mode) {
        Ok(done) => {
            if !done.warnings.is_empty() {
                eprint!("{}", render(&done.warnings));
            }
            (done.run, None)
        }
        Err((diags, run)) => (*run, Some(diags)),
    };
    let fetched = &run.last;
    let out = match format {
        RunFormat::Json => {
            let list: Vec<serde_json::Value> = fetched.iter().map(|(n, t)| t.to_json(n)).collect();
            format!(
                "{}\n",
                serde_json::json!({ "fetch": list, "stdout": run.stdout })
            )
        }
        RunFormat::Text if run.stdout.is_empty() && failure.is_none() => fetched
            .iter()
            .map(|(n, t)| format!("{}\n", t.to_text(n)))
            .collect(),
        RunFormat::Text => run.stdout.clone(),
    };
    input::write_output("-", out.as_bytes())?;
    match (failure, &run.error) {
        (_, Some(e)) => Err(CliError {
            code: 3,
            message: format!("error: {name}: {e}"),
        }),
        (Some(diags), None) => Err(CliError::rendered(render(&diags))),
        (None, None) => Ok(()),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse_from(with_implicit_compile(std::env::args().collect()));
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(e.code)
        }
    }
}
