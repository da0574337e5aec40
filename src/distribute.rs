//! `fluidc distribute` (docs/distributed.md): a training program and its
//! startup program made into the trainer programs of N ranks
//! ([`fluidc_transpiler::distribute`]), written beside `train.py`, the
//! worker Paddle's `paddle.distributed.launch` starts on each rank.
use fluidc_transpiler::{codec, distribute};

use crate::driver::{self, TargetArg};
use crate::input::{self, CliError};

/// The worker script: it loads the two programs from its own directory,
/// joins Paddle's gloo communicator, trains on its shard of the batch and
/// writes its losses and parameters (`PREFIX.RANK.json`). It is Python for
/// CPython + Paddle 3.3.1, not for fluidc's VM.
const TRAIN_PY: &str = include_str!("distribute/train.py");

/// What `fluidc distribute` was asked for.
#[derive(Debug)]
pub struct Request<'a> {
    pub main: &'a str,
    pub startup: &'a str,
    pub nranks: usize,
    pub out_dir: &'a str,
    pub target: TargetArg,
}

/// Writes `out_dir/main.pb`, `out_dir/startup.pb` and `out_dir/train.py`.
pub fn distribute(r: Request) -> Result<(), CliError> {
    for (flag, path) in [("", r.main), ("--startup ", r.startup)] {
        if input::is_python(path) {
            return Err(CliError {
                code: 2,
                message: format!(
                    "error: {flag}{path}: give compiled programs (.pb); `fluidc compile \
                     SCRIPT.py -o main.pb --startup-out startup.pb` writes both"
                ),
            });
        }
    }
    let main = input::load(r.main, None)?;
    let startup = input::load(r.startup, None)?;
    let (main, startup) = distribute::distribute(&main, &startup, r.nranks).map_err(|e| {
        let code = match e {
            distribute::DistributeError::TooFewRanks(_) => 2,
            _ => 1,
        };
        CliError {
            code,
            message: format!("error: {}: {e}", input::display_name(r.main)),
        }
    })?;
    let main = driver::for_target(main, r.target)?;
    let startup = driver::for_target(startup, r.target)?;
    let dir = std::path::Path::new(r.out_dir);
    std::fs::create_dir_all(dir)
        .map_err(|e| CliError::user(format!("{}: cannot create: {e}", r.out_dir)))?;
    let file = |name: &str| dir.join(name).to_string_lossy().into_owned();
    input::write_output(&file("main.pb"), &codec::encode_program(&main))?;
    input::write_output(&file("startup.pb"), &codec::encode_program(&startup))?;
    input::write_output(&file("train.py"), TRAIN_PY.as_bytes())
}
