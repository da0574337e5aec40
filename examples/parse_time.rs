//! The parser's own time on a script: `rustpython_parser::parse` alone, the
//! floor under `fluidc compile` (issue 17's compile target is ≤ 1.25× it).
//! bench/run.py runs it beside `fluidc compile` on the same file.
//!
//!     cargo run --release --example parse_time -- SCRIPT.py [REPS]
//!
//! Prints the median wall time of REPS parses (default 5), in seconds.
use std::time::Instant;

use rustpython_parser::{parse, Mode};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: parse_time SCRIPT.py [REPS]");
        std::process::exit(2);
    };
    let reps: usize = match args.get(1).map(|r| r.parse()) {
        None => 5,
        Some(Ok(n)) if n > 0 => n,
        Some(_) => {
            eprintln!("REPS must be a positive integer");
            std::process::exit(2);
        }
    };
    let source = match std::fs::read_to_string(path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    let mut times = Vec::with_capacity(reps);
    for _ in 0..reps {
        let start = Instant::now();
        let ast = parse(&source, Mode::Module, path);
        times.push(start.elapsed().as_secs_f64());
        if let Err(e) = ast {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    }
    times.sort_by(f64::total_cmp);
    println!("{}", times[reps / 2]);
}
