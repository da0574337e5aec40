//! Replays every saved fuzz input (`testdata/fuzz/TARGET/*`: the findings
//! of the campaigns and a small seed corpus, FUZZING.md) through the same
//! harness function its cargo-fuzz target calls, on stable, so a fixed bug
//! stays fixed. Each input must give its documented outcome: Ok or a user
//! error, never a panic (a broken property panics in the harness).
use std::path::PathBuf;

use fluidc::fuzzing::{self, Outcome};

fn saved(target: &str) -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/fuzz")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no saved inputs in {}", dir.display());
    files
}

/// Replays `target`'s inputs; returns each file's outcome.
fn replay(target: &str, harness: fn(&[u8]) -> Outcome) -> Vec<(String, Outcome)> {
    saved(target)
        .into_iter()
        .map(|path| {
            let bytes = std::fs::read(&path).expect("read a saved input");
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            (name, harness(&bytes))
        })
        .collect()
}

/// A file named `ok-*` must succeed; `err-*` must be a user error; others
/// (seeds, findings that may go either way) must only not panic.
fn check(results: &[(String, Outcome)]) {
    for (name, outcome) in results {
        if name.starts_with("ok-") {
            assert_eq!(outcome, &Outcome::Ok, "{name}");
        }
        if name.starts_with("err-") {
            assert!(
                matches!(outcome, Outcome::Rejected(_)),
                "{name}: {outcome:?}"
            );
        }
    }
}

#[test]
fn front_inputs_replay() {
    check(&replay("front", fuzzing::front));
}

#[test]
fn decode_inputs_replay() {
    check(&replay("decode", fuzzing::decode));
}

/// Saved `passes` inputs are the fuzzer's bytes, or the script they
/// generate (easier to read) for findings.
#[test]
fn passes_inputs_replay() {
    check(&replay("passes", |bytes| {
        if fuzzing::is_script(bytes) {
            fuzzing::passes_script(&String::from_utf8_lossy(bytes))
        } else {
            fuzzing::passes(bytes)
        }
    }));
}

#[test]
fn runtime_inputs_replay() {
    check(&replay("runtime", fuzzing::runtime));
}

/// Paddle's own programs (`testdata/paddle/*.pb`) go through the decode and
/// runtime harnesses too: they decode, print and re-encode, and run or give
/// a runtime error.
#[test]
fn paddle_programs_pass_the_decode_and_runtime_harnesses() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/paddle");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("testdata/paddle") {
        let path = entry.expect("an entry").path();
        if path.extension().is_some_and(|e| e == "pb") {
            let bytes = std::fs::read(&path).expect("read");
            assert_eq!(fuzzing::decode(&bytes), Outcome::Ok, "{}", path.display());
            // Some read variables no feed op writes (the tests feed them
            // into the scope): a runtime error, which is an outcome too.
            let _ = fuzzing::runtime(&bytes);
            n += 1;
        }
    }
    assert!(n > 0, "no .pb files in {}", dir.display());
}

/// The generator writes scripts the front end compiles: most byte strings
/// give a program, and every level agrees on its fetches.
#[test]
fn generated_scripts_mostly_compile() {
    let mut ok = 0;
    let total: u32 = 64;
    for seed in 0..total {
        // A simple byte stream per seed (an LCG), as the fuzzer would give.
        let mut x: u32 = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
        let bytes: Vec<u8> = (0..200)
            .map(|_| {
                x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                (x >> 16) as u8
            })
            .collect();
        let script = fuzzing::generate_script(&bytes);
        match fuzzing::passes_script(&script) {
            Outcome::Ok => ok += 1,
            Outcome::Rejected(e) => eprintln!("seed {seed}: {e}\n{script}"),
        }
    }
    assert!(
        ok * 4 >= total * 3,
        "only {ok} of {total} generated scripts ran"
    );
}
