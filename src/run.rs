//! `fluidc run` (README, "Run mode"; docs/training.md): a script runs as
//! Python would run it; a compiled program runs once, or `--steps` times
//! (training), on one rank or `--nranks` ranks.
use crate::driver::{self, Stage};
use crate::input::{self, CliError};

/// What `fluidc run` was given, as clap parsed it.
#[derive(Debug)]
pub struct RunArgs {
    pub path: String,
    pub feed: Vec<String>,
    pub fetch: Vec<String>,
    /// `--format json`.
    pub json: bool,
    pub options: fluidc_runtime::SessionOptions,
    pub startup: Option<String>,
    pub steps: Option<u64>,
    pub batch_size: Option<u64>,
    pub nranks: Option<u64>,
    pub params: Option<String>,
    pub save_params: Option<String>,
    pub save_fetch: Option<String>,
    pub opt: driver::OptFlags,
    pub script_args: Vec<String>,
}

/// Runs a script or a compiled program as the arguments say.
pub fn run(args: RunArgs) -> Result<(), CliError> {
    if input::is_python(&args.path) {
        script(args)
    } else {
        program(args)
    }
}

/// A script: it runs its own startup program and loop.
fn script(args: RunArgs) -> Result<(), CliError> {
    let RunArgs {
        path,
        feed,
        fetch,
        json,
        options,
        startup,
        steps,
        batch_size,
        nranks,
        params,
        save_params,
        save_fetch,
        opt,
        script_args,
    } = args;
    script_flags_are_for_programs(&path, &startup, steps, batch_size, nranks)?;
    if opt.stats {
        return Err(CliError {
            code: 2,
            message: format!(
                "error: --stats reports one compile; {path} compiles a program at each \
                 exe.run: see them with `fluidc compile {path} --stats -o /dev/null`"
            ),
        });
    }
    if params.is_some() {
        return Err(CliError {
            code: 2,
            message: format!(
                "error: --params is for a saved model (.pdmodel, __model__); {path} is a \
                 script, which loads its parameters with fluid.io.load_params"
            ),
        });
    }
    run_script(
        &path,
        script_args,
        &feed,
        fetch,
        json,
        options,
        &opt,
        [save_params, save_fetch],
    )
}

/// A compiled program: run once, or `--steps` times on one or more ranks.
fn program(args: RunArgs) -> Result<(), CliError> {
    let RunArgs {
        path,
        feed,
        fetch,
        json,
        options,
        startup,
        steps,
        batch_size,
        nranks,
        params,
        save_params,
        save_fetch,
        opt,
        script_args,
    } = args;
    let profile = options.profile;
    if let Some(first) = script_args.first() {
        return Err(CliError {
            code: 2,
            message: format!(
                "error: the arguments after `--` ({first} ...) are a script's sys.argv; \
                 {path} is a compiled program, which takes --feed NAME=VALUE"
            ),
        });
    }
    if batch_size.is_some() && steps.is_none() {
        return Err(CliError {
            code: 2,
            message: "error: --batch-size cuts the feeds into one batch per step; \
                      give the number of steps with --steps N"
                .into(),
        });
    }
    let nranks = usize::try_from(nranks.unwrap_or(1)).unwrap_or(usize::MAX);
    if nranks > 1 {
        ranks_flags_fit(steps, profile, &save_params, &save_fetch)?;
    }
    if steps.is_some() && save_fetch.is_some() {
        return Err(CliError {
            code: 2,
            message: "error: --save-fetch writes the fetches of one run; with --steps \
                      each step prints its fetches (--format json for all values)"
                .into(),
        });
    }
    let program = driver::load_at(&path, Stage::Parsed, &opt)?;
    let startup = match &startup {
        Some(s) if input::is_python(s) => {
            return Err(CliError {
                code: 2,
                message: format!(
                    "error: --startup {s}: give the compiled startup program (.pb); \
                     `fluidc compile SCRIPT.py -o main.pb --startup-out startup.pb` writes it"
                ),
            })
        }
        Some(s) => Some((s.as_str(), input::load(s, None)?)),
        None => None,
    };
    // A batch larger than usize has more rows than any array.
    let batch_size = batch_size.map(|b| usize::try_from(b).unwrap_or(usize::MAX));
    // A persistable that only the startup program or a params file
    // declares can be fetched too; without those, check the names.
    let scope_vars = startup.is_some() || params.is_some();
    check_cli_names(&program, &feed, if scope_vars { &[] } else { &fetch })?;
    let feeds = crate::train::read_feeds(&program, &feed, batch_size)?;
    let params = params.or_else(|| crate::params::beside(&path));
    // A session with the parameters loaded and the startup program run.
    let start = |options: fluidc_runtime::SessionOptions| {
        let mut session = fluidc_runtime::Session::new(options);
        if let Some(p) = &params {
            crate::params::load(&program, p, &mut session)?;
        }
        if let Some((name, startup)) = &startup {
            session
                .run_once(startup, Vec::new(), Vec::new())
                .map_err(|e| CliError {
                    code: 3,
                    message: format!("error: {}: {e}", input::display_name(name)),
                })?;
            session.reset_profile();
        }
        Ok(session)
    };
    if let Some(steps) = steps {
        let training = crate::train::Training {
            path: &path,
            program: &program,
            feeds,
            fetch,
            steps,
            json,
            startup_given: startup.is_some(),
        };
        let trained = if nranks > 1 {
            crate::train::train_ranks(&start, &options, nranks, training)
        } else {
            start(options).and_then(|mut session| {
                let trained = crate::train::train(&mut session, training);
                print_profile(profile, &session.profile());
                if let (Ok(()), Some(dir)) = (&trained, &save_params) {
                    crate::params::save(&session, dir)?;
                }
                trained
            })
        };
        if let (Err(e), true) = (&trained, json) {
            let object = serde_json::json!({ "error": json_error(e) });
            input::write_output("-", format!("{object}\n").as_bytes())?;
        }
        return trained;
    }
    if nranks > 1 {
        return Err(CliError {
            code: 2,
            message: "error: --nranks trains data-parallel; give the number of steps \
                      with --steps N"
                .into(),
        });
    }
    let mut session = start(options)?;
    let feeds = feeds
        .into_iter()
        .map(|(name, f)| match f {
            crate::train::StepFeed::Whole(t) => (name, t),
            crate::train::StepFeed::Batched(b) => (name, b.get(0)),
        })
        .collect();
    let results = session.run_once(&program, feeds, fetch);
    print_profile(profile, &session.profile());
    let results = match results {
        Ok(r) => r,
        Err(e) => {
            let e = crate::train::runtime_error(&path, None, &e, startup.is_some());
            if json {
                let object = serde_json::json!({ "error": json_error(&e) });
                input::write_output("-", format!("{object}\n").as_bytes())?;
            }
            return Err(e);
        }
    };
    if let Some(dir) = &save_params {
        crate::params::save(&session, dir)?;
    }
    if let Some(dir) = &save_fetch {
        crate::params::save_fetches(&results, dir)?;
    }
    let out = match json {
        true => {
            let list: Vec<serde_json::Value> = results.iter().map(|(n, t)| t.to_json(n)).collect();
            format!("{}\n", serde_json::json!({ "fetch": list }))
        }
        false => results
            .iter()
            .map(|(n, t)| format!("{}\n", t.to_text(n)))
            .collect(),
    };
    input::write_output("-", out.as_bytes())
}

/// `--feed NAME=...` and `--fetch NAME` of a program must name variables of
/// its global block; a misspelt one gets the closest name.
fn check_cli_names(
    program: &fluidc_transpiler::Program,
    feed: &[String],
    fetch: &[String],
) -> Result<(), CliError> {
    let vars = &program.blocks[0].vars;
    let feed_names = feed
        .iter()
        .filter_map(|f| f.split_once('=').map(|(n, _)| n));
    for (flag, name) in feed_names
        .map(|n| ("--feed", n))
        .chain(fetch.iter().map(|n| ("--fetch", n.as_str())))
    {
        if vars.iter().any(|v| v.name == name) {
            continue;
        }
        let hint = match crate::check::closest(vars.iter().map(|v| v.name.as_str()), name) {
            Some(c) => format!("; did you mean `{c}`?"),
            None => "; `fluidc dump` lists the program's variables".to_string(),
        };
        return Err(CliError::user(format!(
            "{flag} {name}: the program's global block has no variable `{name}`{hint}"
        )));
    }
    Ok(())
}

/// What `--nranks` cannot go with: it needs --steps, and --profile,
/// --save-params and --save-fetch report on one session, not N.
fn ranks_flags_fit(
    steps: Option<u64>,
    profile: bool,
    save_params: &Option<String>,
    save_fetch: &Option<String>,
) -> Result<(), CliError> {
    let why = if steps.is_none() {
        "--nranks trains data-parallel; give the number of steps with --steps N"
    } else if profile {
        "--profile times one session's ops; drop it or --nranks"
    } else if save_params.is_some() || save_fetch.is_some() {
        "--save-params and --save-fetch write one session's tensors; run the trained programs \
         with --nranks 1 (the default) to save them"
    } else {
        return Ok(());
    };
    Err(CliError {
        code: 2,
        message: format!("error: {why}"),
    })
}

/// `--startup`, `--steps`, `--batch-size` and `--nranks` run compiled programs; a
/// script runs its own startup program and its own loop.
fn script_flags_are_for_programs(
    path: &str,
    startup: &Option<String>,
    steps: Option<u64>,
    batch_size: Option<u64>,
    nranks: Option<u64>,
) -> Result<(), CliError> {
    let flag = match (startup, steps, batch_size, nranks) {
        (Some(_), ..) => "--startup",
        (_, Some(_), ..) => "--steps",
        (_, _, Some(_), _) => "--batch-size",
        (.., Some(_)) => "--nranks",
        _ => return Ok(()),
    };
    let name = input::display_name(path);
    Err(CliError {
        code: 2,
        message: format!(
            "error: {flag} is for a compiled program; {name} is a script, which runs its own \
             startup program and decides how often it runs. To train from the command line, \
             compile it apart: `fluidc compile {name} -o main.pb --startup-out startup.pb`, \
             then `fluidc run main.pb --startup startup.pb --steps N --feed ...`"
        ),
    })
}

/// The `--profile` table, on stderr.
fn print_profile(wanted: bool, rows: &[fluidc_runtime::OpProfile]) {
    if wanted {
        eprint!("{}", fluidc_runtime::format_table(rows));
    }
}

/// `fluidc run script.py`: the script runs as Python would run it (README,
/// "Run mode"); its output is what it prints, or, if it printed nothing, the
/// last run's fetches.
// The `run` flags a script takes, one by one as clap parsed them.
#[allow(clippy::too_many_arguments)]
fn run_script(
    path: &str,
    script_args: Vec<String>,
    feed: &[String],
    fetch: Vec<String>,
    json: bool,
    options: fluidc_runtime::SessionOptions,
    opt: &driver::OptFlags,
    [save_params, save_fetch]: [Option<String>; 2],
) -> Result<(), CliError> {
    let profiled = options.profile;
    let mut config = crate::native::host::RunConfig {
        options,
        passes: opt.pipeline_names()?,
        cli_feeds: Vec::new(),
        extra_fetch: fetch,
    };
    for f in feed {
        let (name, value) = crate::train::split_feed(f)?;
        config.cli_feeds.push((name.to_string(), value.to_string()));
    }
    let name = input::display_name(path);
    let ran = crate::script::run(path, script_args, config.clone(), json)?;
    let out = &ran.outcome;
    let state = out.state.lock();
    for warning in crate::script::unused_cli_names(&config, &state) {
        eprintln!("{warning}");
    }
    if profiled {
        if let Some(g) = &state.global {
            print_profile(true, &g.lock().profile());
        }
    }
    let fetched = &ran.last;
    let verdict = match &out.end {
        crate::vm::End::Error {
            text,
            kind: crate::vm::ErrorKind::Runtime,
        } => {
            let message = state
                .error
                .as_ref()
                .map_or_else(|| text.clone(), |e| e.to_string());
            Err(CliError {
                code: 3,
                message: format!("error: {name}: {message}"),
            })
        }
        crate::vm::End::Error {
            text,
            kind: crate::vm::ErrorKind::Interrupted,
        } => {
            // CPython dies of the SIGINT it caught, after its traceback.
            eprint!("{text}");
            let _ = std::io::Write::flush(&mut std::io::stdout());
            let _ = nix::sys::signal::raise(nix::sys::signal::Signal::SIGINT);
            Err(CliError {
                code: 130,
                message: String::new(),
            })
        }
        crate::vm::End::Error { text, .. } => Err(CliError::rendered(text.clone())),
        crate::vm::End::Exit(code) if *code != 0 => Err(CliError {
            code: *code,
            message: String::new(),
        }),
        _ => Ok(()),
    };
    let exited = matches!(out.end, crate::vm::End::Exit(_));
    let text = match json {
        true => {
            let list: Vec<serde_json::Value> = fetched.iter().map(|(n, t)| t.to_json(n)).collect();
            let mut object = serde_json::json!({
                "fetch": list,
                "stdout": out.stdout.clone().unwrap_or_default(),
            });
            if let Err(e) = &verdict {
                if !e.message.is_empty() {
                    object["error"] = json_error(e);
                }
            }
            format!("{object}\n")
        }
        // A script that prints nothing shows its last run's fetches, named
        // after the script's variable where there is one:
        // `result (_generated_var_1) = [34] ...`.
        false if !out.printed && verdict.is_ok() && !exited => fetched
            .iter()
            .map(|(n, t)| match out.var_names.get(n) {
                Some(py) if py != n => format!("{}\n", t.to_text(&format!("{py} ({n})"))),
                _ => format!("{}\n", t.to_text(n)),
            })
            .collect(),
        false => String::new(),
    };
    input::write_output("-", text.as_bytes())?;
    if verdict.is_ok() {
        if let (Some(dir), Some(g)) = (&save_params, &state.global) {
            crate::params::save(&g.lock(), dir)?;
        }
        if let Some(dir) = &save_fetch {
            crate::params::save_fetches(fetched, dir)?;
        }
    }
    verdict
}

/// An error as `--format json` reports it on stdout (besides the text on
/// stderr): `{"exit_code": 3, "kind": "deadlock", "message": "..."}`.
/// `kind` is `deadlock`, `runtime` (exit 3), `usage` (exit 2) or `error`.
fn json_error(e: &CliError) -> serde_json::Value {
    let text = e.message.strip_prefix("error: ").unwrap_or(&e.message);
    let kind = match e.code {
        3 if text.contains("deadlock: all goroutines are asleep") => "deadlock",
        3 => "runtime",
        2 => "usage",
        _ => "error",
    };
    serde_json::json!({ "exit_code": e.code, "kind": kind, "message": text })
}
