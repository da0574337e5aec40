//! Go's classic channel programs (test/chan, the Go tour), built as programs
//! through the model API the way the front end builds them, and run with one
//! and two workers under several seeds (`CONFIGS`). Each asserts the value
//! Go prints.
mod common;
use common::programs::*;
use common::*;

use fluidc_transpiler::{AttrValue, Op};

#[test]
fn unbuffered_ping_pong() {
    let p = ping_pong(1000).verified();
    for (workers, seed) in CONFIGS {
        let got = run_with(&p, &["x"], workers, seed).expect("runs");
        assert_eq!(ints(&got), vec![1000], "workers {workers}, seed {seed}");
    }
}

/// A goroutine sends 0..99 into a buffered channel of capacity 10; main
/// receives 100 values and counts those out of order (Go's test/chan/fifo.go).
#[test]
fn buffered_channel_is_fifo() {
    let mut p = Builder::new();
    p.make_channel(0, "ch", I64, 10);
    p.fill(0, "mismatches", I64, 0.0);
    p.fill(0, "last", I64, -1.0);
    let g = p.go(0, &["ch"]);
    let (body, end) = p.counted_loop(g, 100);
    p.send(body, "ch", &end.i);
    p.end_loop(body, &end);
    let (body, end) = p.counted_loop(0, 100);
    p.recv(body, "ch", "r", I64);
    p.var(body, "differs", BOOL);
    p.push(body, binary("not_equal", "r", &end.i, "differs"));
    p.var(body, "differs_i", I64);
    p.push(
        body,
        Op::new("cast")
            .input("X", &["differs"])
            .output("Out", &["differs_i"])
            .attr("in_dtype", AttrValue::Int(BOOL as i32))
            .attr("out_dtype", AttrValue::Int(I64 as i32)),
    );
    p.add(body, "mismatches", "differs_i", "mismatches", I64);
    p.assign(body, "r", "last", I64);
    p.end_loop(body, &end);
    let p = p.verified();
    for (workers, seed) in CONFIGS {
        let got = run_with(&p, &["mismatches", "last"], workers, seed).expect("runs");
        assert_eq!(ints(&got), vec![0, 99], "workers {workers}, seed {seed}");
    }
}

#[test]
fn daisy_chain_of_1000_goroutines() {
    let p = daisy_chain(1000).verified();
    for (workers, seed) in CONFIGS {
        let got = run_with(&p, &["x"], workers, seed).expect("runs");
        assert_eq!(ints(&got), vec![1001], "workers {workers}, seed {seed}");
    }
}

#[test]
#[ignore = "100,000 goroutines: run with --ignored (and --release for speed)"]
fn daisy_chain_of_100000_goroutines() {
    let p = daisy_chain(100_000).verified();
    for workers in [1, 2] {
        let got = run_with(&p, &["x"], workers, 1).expect("runs");
        assert_eq!(ints(&got), vec![100_001], "workers {workers}");
    }
}

/// Go's test/chan/nonblock.go in small: a select with a default case never
/// blocks; a ready send or receive case is taken instead of the default.
#[test]
fn select_with_default_does_not_block() {
    let mut p = Builder::new();
    p.make_channel(0, "c", I64, 1);
    p.fill(0, "five", I64, 5.0);
    for out in ["r1", "r2"] {
        p.var(0, out, I64);
    }
    // 1: receive from an empty channel -> default (r1 = 2).
    let bodies = p.select(0, &[Case::Recv("c", "v1"), Case::Default], I64);
    p.fill(bodies[0], "r1", I64, 1.0);
    p.fill(bodies[1], "r1", I64, 2.0);
    // 2: send with room -> the send case (s1 = 1); 3: channel full -> default (s2 = 2).
    for out in ["s1", "s2"] {
        p.fill(0, out, I64, 0.0);
        let bodies = p.select(0, &[Case::Send("c", "five"), Case::Default], I64);
        p.fill(bodies[0], out, I64, 1.0);
        p.fill(bodies[1], out, I64, 2.0);
    }
    // 4: receive the value sent -> the receive case, v2 = 5.
    let bodies = p.select(0, &[Case::Default, Case::Recv("c", "v2")], I64);
    p.fill(bodies[0], "r2", I64, 2.0);
    p.fill(bodies[1], "r2", I64, 1.0);
    let p = p.verified();
    for (workers, seed) in CONFIGS {
        let got = run_with(&p, &["r1", "s1", "s2", "r2", "v2"], workers, seed).expect("runs");
        assert_eq!(
            ints(&got),
            vec![2, 1, 2, 1, 5],
            "workers {workers}, seed {seed}"
        );
    }
}

#[test]
fn select_chooses_uniformly_among_ready_cases() {
    let p = fairness(1000).verified();
    for (workers, seed) in CONFIGS.iter().copied().chain([(1, 3), (2, 99), (1, 12345)]) {
        let got = ints(&run_with(&p, &["count_a", "count_b"], workers, seed).expect("runs"));
        assert_eq!(got[0] + got[1], 1000);
        // Binomial(1000, 1/2): 350 is 9.5 standard deviations below the mean.
        assert!(
            got.iter().all(|&c| c >= 350),
            "unfair choice {got:?} (workers {workers}, seed {seed})"
        );
    }
}

#[test]
fn one_worker_and_a_seed_give_the_same_run() {
    let p = fairness(200).verified();
    let once = run_with(&p, &["count_a", "count_b"], 1, 5).expect("runs");
    let again = run_with(&p, &["count_a", "count_b"], 1, 5).expect("runs");
    assert_eq!(ints(&once), ints(&again));
    let runs: Vec<Vec<i64>> = (0..8)
        .map(|seed| ints(&run_with(&p, &["count_a", "count_b"], 1, seed).expect("runs")))
        .collect();
    assert!(
        runs.iter().any(|r| r != &runs[0]),
        "the seed changes the choices: {runs:?}"
    );
}

/// The Go tour's Fibonacci (see `programs::fibonacci`): the 10th value is 34.
#[test]
fn fibonacci_with_quit_channel() {
    let p = fibonacci().verified();
    for (workers, seed) in CONFIGS {
        let got = run_with(&p, &["result", "x"], workers, seed).expect("runs");
        assert_eq!(ints(&got), vec![34, 55], "workers {workers}, seed {seed}");
    }
}

/// Go's prime sieve: a generator goroutine and a chain of filter goroutines,
/// one started per prime found; the first ten primes sum to 129, the tenth is 29.
#[test]
fn sieve_of_the_first_ten_primes() {
    let p = sieve(10).verified();
    for (workers, seed) in CONFIGS {
        let got = run_with(&p, &["sum", "last"], workers, seed).expect("runs");
        assert_eq!(ints(&got), vec![129, 29], "workers {workers}, seed {seed}");
    }
}

/// A send passes the value; the sender keeps its own (Go's value semantics).
#[test]
fn a_send_passes_the_value_and_the_sender_keeps_its_own() {
    let mut p = Builder::new();
    p.make_channel(0, "c", I64, 1);
    p.fill(0, "x", I64, 5.0);
    p.send(0, "c", "x");
    p.fill(0, "one", I64, 1.0);
    p.add(0, "x", "one", "x", I64);
    p.recv(0, "c", "r", I64);
    let got = run_with(&p.verified(), &["r", "x"], 1, 1).expect("runs");
    assert_eq!(ints(&got), vec![5, 6]);
}

/// A goroutine sees the variables of the scope it started in by reference.
#[test]
fn a_goroutine_writes_are_seen_by_main() {
    let mut p = Builder::new();
    p.make_channel(0, "done", BOOL, 0);
    p.fill(0, "flag", I64, 0.0);
    let g = p.go(0, &["done", "flag"]);
    p.fill(g, "flag", I64, 1.0);
    p.fill(g, "t", BOOL, 1.0);
    p.send(g, "done", "t");
    p.recv(0, "done", "ok", BOOL);
    let p = p.verified();
    for (workers, seed) in CONFIGS {
        assert_eq!(
            ints(&run_with(&p, &["flag"], workers, seed).expect("runs")),
            vec![1]
        );
    }
}

/// A receive from a closed channel drains the buffer, then gives the zero
/// value with status false; close wakes a blocked receiver the same way.
#[test]
fn receive_from_a_closed_channel() {
    let mut p = Builder::new();
    p.make_channel(0, "c", I64, 2);
    p.fill(0, "seven", I64, 7.0);
    p.send(0, "c", "seven");
    p.close(0, "c");
    let s1 = p.recv(0, "c", "r1", I64);
    let s2 = p.recv(0, "c", "r2", I64);
    // A receiver blocked in a goroutine is woken by close.
    p.make_channel(0, "d", I64, 0);
    p.make_channel(0, "done", I64, 0);
    p.var(0, "r3", I64);
    p.var(0, "s3_out", BOOL);
    let g = p.go(0, &["d", "done"]);
    let s3 = p.recv(g, "d", "r3", I64);
    p.assign(g, &s3, "s3_out", BOOL);
    p.fill(g, "fin", I64, 1.0);
    p.send(g, "done", "fin");
    p.close(0, "d");
    p.recv(0, "done", "fin_r", I64);
    let p = p.verified();
    for (workers, seed) in CONFIGS {
        let got =
            run_with(&p, &["r1", &s1, "r2", &s2, "r3", "s3_out"], workers, seed).expect("runs");
        let v: Vec<String> = got.iter().map(|(n, t)| t.to_text(n)).collect();
        assert_eq!(
            v,
            vec![
                "r1 = [7] (int64, shape [1])".to_string(),
                format!("{s1} = [true] (bool, shape [1])"),
                "r2 = [0] (int64, shape [1])".to_string(),
                format!("{s2} = [false] (bool, shape [1])"),
                "r3 = [0] (int64, shape [1])".to_string(),
                "s3_out = [false] (bool, shape [1])".to_string(),
            ]
        );
    }
}

/// The main goroutine's end ends the program, as in Go, even with
/// goroutines blocked forever or still looping.
#[test]
fn main_ending_ends_the_program() {
    let mut p = Builder::new();
    p.make_channel(0, "never", I64, 0);
    p.fill(0, "forever", BOOL, 1.0);
    let g = p.go(0, &["never"]);
    p.recv(g, "never", "v", I64);
    let spin = p.go(0, &["forever"]);
    let w = p.while_(spin, "forever");
    p.fill(w, "busy", I64, 1.0);
    p.fill(0, "x", I64, 3.0);
    let p = p.verified();
    for (workers, seed) in CONFIGS {
        assert_eq!(
            ints(&run_with(&p, &["x"], workers, seed).expect("runs")),
            vec![3]
        );
    }
}
