//! The classic Go programs the tests run, built through the model API.
use fluidc_transpiler::{AttrValue, Op};

use super::*;

/// Unbuffered ping-pong: main sends x on `ping`, a goroutine answers x+1 on
/// `pong`, 1,000 rounds.
pub fn ping_pong(rounds: i64) -> Builder {
    let mut p = Builder::new();
    p.make_channel(0, "ping", I64, 0);
    p.make_channel(0, "pong", I64, 0);
    p.fill(0, "x", I64, 0.0);
    let g = p.go(0, &["ping", "pong"]);
    let (body, end) = p.counted_loop(g, rounds);
    p.recv(body, "ping", "v", I64);
    p.fill(body, "one", I64, 1.0);
    p.add(body, "v", "one", "w", I64);
    p.send(body, "pong", "w");
    p.end_loop(body, &end);
    let (body, end) = p.counted_loop(0, rounds);
    p.send(body, "ping", "x");
    p.recv(body, "pong", "x", I64);
    p.end_loop(body, &end);
    p
}

/// Go's daisy chain: n goroutines, each `left <- 1 + <-right`, built with a
/// `while` loop whose body makes a fresh channel and goroutine per iteration
/// (step scopes give each iteration its own `right` and `my_left`).
pub fn daisy_chain(n: i64) -> Builder {
    let mut p = Builder::new();
    p.make_channel(0, "leftmost", I64, 0);
    p.assign_chan(0, "leftmost", "left");
    let (body, end) = p.counted_loop(0, n);
    p.make_channel(body, "right", I64, 0);
    p.assign_chan(body, "left", "my_left");
    let f = p.go(body, &["my_left", "right"]);
    p.recv(f, "right", "v", I64);
    p.fill(f, "one", I64, 1.0);
    p.add(f, "v", "one", "w", I64);
    p.send(f, "my_left", "w");
    p.assign_chan(body, "right", "left");
    p.end_loop(body, &end);
    let h = p.go(0, &["left"]);
    p.fill(h, "first", I64, 1.0);
    p.send(h, "left", "first");
    p.recv(0, "leftmost", "x", I64);
    p
}

/// Two channels that are always ready (closed: a receive completes at once):
/// over 1,000 selects each case is chosen about half of the time.
pub fn fairness(iterations: i64) -> Builder {
    let mut p = Builder::new();
    for ch in ["a", "b"] {
        p.make_channel(0, ch, I64, 0);
        p.close(0, ch);
    }
    p.fill(0, "count_a", I64, 0.0);
    p.fill(0, "count_b", I64, 0.0);
    let (body, end) = p.counted_loop(0, iterations);
    let cases = p.select(body, &[Case::Recv("a", "va"), Case::Recv("b", "vb")], I64);
    for (case, count) in cases.into_iter().zip(["count_a", "count_b"]) {
        p.push(
            case,
            Op::new("increment")
                .input("X", &[count])
                .output("Out", &[count])
                .attr("step", AttrValue::Float(1.0)),
        );
    }
    p.end_loop(body, &end);
    p
}

/// The Go tour's Fibonacci with a quit channel (seed 000's example, fixed):
/// main's select sends x on `c` or receives from `quit`; a goroutine receives
/// ten values into `result` and then sends on `quit`. The 10th value is 34.
pub fn fibonacci() -> Builder {
    let mut p = Builder::new();
    p.make_channel(0, "c", I64, 0);
    p.make_channel(0, "quit", I64, 0);
    p.fill(0, "x", I64, 0.0);
    p.fill(0, "y", I64, 1.0);
    p.fill(0, "result", I64, -1.0);
    p.fill(0, "running", BOOL, 1.0);
    let g = p.go(0, &["c", "quit", "result"]);
    let (body, end) = p.counted_loop(g, 10);
    p.recv(body, "c", "result", I64);
    p.end_loop(body, &end);
    p.fill(g, "zero", I64, 0.0);
    p.send(g, "quit", "zero");
    let w = p.while_(0, "running");
    let cases = p.select(w, &[Case::Send("c", "x"), Case::Recv("quit", "q")], I64);
    p.assign(cases[0], "x", "x_tmp", I64);
    p.assign(cases[0], "y", "x", I64);
    p.add(cases[0], "x_tmp", "y", "y", I64);
    p.fill(cases[1], "stop", BOOL, 0.0);
    p.assign(cases[1], "stop", "running", BOOL);
    p
}

/// Go's prime sieve: a generator goroutine and a chain of filter goroutines,
/// one started per prime found.
pub fn sieve(primes: i64) -> Builder {
    let mut p = Builder::new();
    p.make_channel(0, "ch0", I64, 0);
    p.assign_chan(0, "ch0", "ch");
    p.fill(0, "forever", BOOL, 1.0);
    p.fill(0, "sum", I64, 0.0);
    p.fill(0, "last", I64, 0.0);
    // generate(ch0): for i := 2; ; i++ { ch0 <- i }
    let gen = p.go(0, &["ch0", "forever"]);
    p.fill(gen, "n", I64, 2.0);
    let gw = p.while_(gen, "forever");
    p.send(gw, "ch0", "n");
    p.push(
        gw,
        Op::new("increment")
            .input("X", &["n"])
            .output("Out", &["n"])
            .attr("step", AttrValue::Float(1.0)),
    );
    // for i := 0; i < primes; i++ { prime := <-ch; ch1 := make(chan int); go filter(ch, ch1, prime); ch = ch1 }
    let (body, end) = p.counted_loop(0, primes);
    p.recv(body, "ch", "prime", I64);
    p.add(body, "sum", "prime", "sum", I64);
    p.assign(body, "prime", "last", I64);
    p.make_channel(body, "ch1", I64, 0);
    p.assign_chan(body, "ch", "my_in");
    p.assign(body, "prime", "my_prime", I64);
    let f = p.go(body, &["my_in", "ch1", "my_prime", "forever"]);
    let fw = p.while_(f, "forever");
    p.recv(fw, "my_in", "k", I64);
    p.var(fw, "rem", I64);
    p.push(fw, binary("elementwise_mod", "k", "my_prime", "rem"));
    p.fill(fw, "zero", I64, 0.0);
    p.var(fw, "keep", BOOL);
    p.push(fw, binary("not_equal", "rem", "zero", "keep"));
    let pass = p.cond_block(fw, "keep");
    p.send(pass, "ch1", "k");
    p.assign_chan(body, "ch1", "ch");
    p.end_loop(body, &end);
    p
}
