//! Concurrency checked by stress, not hoped for.
//!
//! We chose stress testing over model checking (loom/shuttle would need the
//! channel core rebuilt on their primitives): the Go programs that exercise
//! every path of the waiter mechanism — unbuffered handoff, buffered FIFO,
//! select with several ready cases, select woken by a counterpart, close
//! waking parked goroutines, a goroutine woken while still registering, and
//! deadlock detection racing with wake-ups — run hundreds of times with two
//! and four workers on varied seeds, and every run must give Go's answer.
//! The channel module's own unit tests (`src/channel/tests.rs`) add a
//! thread-level stress of select against plain operations.
mod common;
use common::programs::*;
use common::*;

const RUNS: u64 = 400;

fn hammer(p: &fluidc_transpiler::Verified, fetch: &[&str], want: &[i64]) {
    for seed in 0..RUNS {
        for workers in [2, 4] {
            let got = run_with(p, fetch, workers, seed)
                .unwrap_or_else(|e| panic!("workers {workers}, seed {seed}: {e}"));
            assert_eq!(ints(&got), want, "workers {workers}, seed {seed}");
        }
    }
}

#[test]
fn ping_pong_under_two_and_four_workers() {
    hammer(&ping_pong(200).verified(), &["x"], &[200]);
}

#[test]
fn daisy_chain_under_two_and_four_workers() {
    hammer(&daisy_chain(200).verified(), &["x"], &[201]);
}

#[test]
fn fibonacci_select_under_two_and_four_workers() {
    hammer(&fibonacci().verified(), &["result", "x"], &[34, 55]);
}

#[test]
fn sieve_under_two_and_four_workers() {
    hammer(&sieve(10).verified(), &["sum", "last"], &[129, 29]);
}

#[test]
fn deadlock_detection_under_two_and_four_workers() {
    // Many goroutines pass a token around and then all block: the report must
    // come every time (never a hang, never a false success).
    let mut p = daisy_chain(50);
    p.make_channel(0, "never", I64, 0);
    p.recv(0, "never", "y", I64);
    let p = p.verified();
    for seed in 0..RUNS {
        for workers in [2, 4] {
            let err = run_with(&p, &[], workers, seed)
                .expect_err("deadlock")
                .to_string();
            assert!(
                err.starts_with("deadlock: all goroutines are asleep\n  goroutine 0 (main) is blocked in channel_recv"),
                "workers {workers}, seed {seed}: {err}"
            );
        }
    }
}
