//! Loading is linear in how deeply blocks nest: names used at every level
//! resolve through a per-block memo, not a walk to block 0 from each
//! level (a 30,000-deep program took 22 s to load; the walk is quadratic,
//! so at this depth it would take minutes, and the suite's time shows it).
mod common;
use common::*;

use fluidc_runtime::{Session, SessionOptions};

/// Depth of the nests below: deep enough that a quadratic loader takes
/// minutes, while a linear one takes milliseconds.
const DEPTH: usize = 30_000;

fn session() -> Session {
    Session::new(SessionOptions {
        seed: Some(1),
        workers: Some(1),
        ..SessionOptions::default()
    })
}

/// `conditional_block`s nested `DEPTH` deep, each on block 0's `c`; the
/// innermost writes block 0's `out`. `c` true runs every level.
#[test]
fn deeply_nested_conditional_blocks_load_and_run() {
    for taken in [true, false] {
        let mut b = Builder::new();
        b.var(0, "c", BOOL);
        b.push(0, fill("c", BOOL, f64::from(u8::from(taken))));
        b.fill(0, "out", I64, 1.0);
        let mut block = 0;
        for _ in 0..DEPTH {
            block = b.cond_block(block, "c");
        }
        b.push(block, fill("out", I64, 7.0));
        let program = b.verified();
        let fetched = session()
            .run_once(&program, Vec::new(), vec!["out".into()])
            .expect("the nest runs");
        assert_eq!(ints(&fetched), vec![if taken { 7 } else { 1 }]);
    }
}

/// The same nest inside a goroutine: its innermost block sends on a
/// channel of block 0 (a shared variable, resolved across the `go` body).
#[test]
fn deeply_nested_blocks_in_a_goroutine_share_block_0s_channel() {
    let mut b = Builder::new();
    b.make_channel(0, "ch", I64, 1);
    b.var(0, "c", BOOL);
    b.push(0, fill("c", BOOL, 1.0));
    b.fill(0, "seven", I64, 7.0);
    let mut block = b.go(0, &["ch", "c", "seven"]);
    for _ in 0..DEPTH {
        block = b.cond_block(block, "c");
    }
    b.send(block, "ch", "seven");
    b.recv(0, "ch", "got", I64);
    let program = b.verified();
    let fetched = session()
        .run_once(&program, Vec::new(), vec!["got".into()])
        .expect("the goroutine's nest runs");
    assert_eq!(ints(&fetched), vec![7]);
}
