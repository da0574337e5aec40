//! The documented runtime errors: deadlock (every blocked goroutine listed
//! with its op and source line), send on a closed channel, closing a closed
//! channel, unknown ops (at load time), element type mismatches and
//! uninitialized channels (Paddle's ChannelHolder cases), each naming the op,
//! its block and index. Deadlocks are reported at once, never a hang, with
//! one worker and with two.
mod common;
use common::*;

use fluidc_transpiler::{Op, Verified};

fn error_of(p: &Verified) -> Vec<String> {
    CONFIGS
        .iter()
        .map(|&(workers, seed)| {
            run_with(p, &[], workers, seed)
                .expect_err("the program fails")
                .to_string()
        })
        .collect()
}

fn assert_all_contain(errors: &[String], needles: &[&str]) {
    for e in errors {
        for n in needles {
            assert!(e.contains(n), "missing {n:?} in:\n{e}");
        }
    }
}

fn with_line(p: &mut Builder, b: usize, op: usize, line: u32) {
    at_line(&mut p.program.blocks[b].ops[op], line);
}

#[test]
fn main_receiving_on_a_channel_nobody_sends_on_is_a_deadlock() {
    let mut p = Builder::new();
    p.make_channel(0, "ch", I64, 0);
    p.recv(0, "ch", "x", I64);
    with_line(&mut p, 0, 1, 3);
    let errors = error_of(&p.verified());
    assert_all_contain(
        &errors,
        &[
            "deadlock: all goroutines are asleep",
            "goroutine 0 (main) is blocked in channel_recv (block 0, op 1)",
            "at File \"model.py\", line 3, in <module>",
        ],
    );
}

#[test]
fn the_deadlock_report_lists_every_blocked_goroutine() {
    let mut p = Builder::new();
    p.make_channel(0, "c", I64, 0);
    p.make_channel(0, "d", I64, 0);
    p.fill(0, "v", I64, 1.0);
    let sender = p.go(0, &["d", "v"]);
    p.send(sender, "d", "v");
    with_line(&mut p, sender, 0, 8);
    let stuck = p.go(0, &[]);
    p.select(stuck, &[], I64); // a select with no cases blocks forever
    let done = p.go(0, &[]);
    p.fill(done, "nothing", I64, 0.0);
    let recv = p.program.blocks[0].ops.len();
    p.recv(0, "c", "x", I64);
    with_line(&mut p, 0, recv, 12);
    let errors = error_of(&p.verified());
    assert_all_contain(
        &errors,
        &[
            "goroutine 0 (main) is blocked in channel_recv (block 0, op 6)",
            "line 12",
            "goroutine 1 is blocked in channel_send (block 1, op 0)",
            "line 8",
            "goroutine 2 is blocked in select (block 2, op 1)",
        ],
    );
    for e in &errors {
        assert!(!e.contains("goroutine 3"), "goroutine 3 finished: {e}");
    }
}

#[test]
fn a_deadlock_is_found_when_the_last_runnable_goroutine_exits() {
    let mut p = Builder::new();
    p.make_channel(0, "c", I64, 0);
    let g = p.go(0, &[]);
    p.fill(g, "busy", I64, 0.0);
    p.recv(0, "c", "x", I64);
    assert_all_contain(
        &error_of(&p.verified()),
        &["deadlock", "channel_recv (block 0, op 2)"],
    );
}

#[test]
fn send_on_a_closed_channel() {
    let mut p = Builder::new();
    p.make_channel(0, "c", I64, 1);
    p.close(0, "c");
    p.fill(0, "v", I64, 1.0);
    let send = p.send(0, "c", "v");
    with_line(&mut p, 0, send, 5);
    assert_all_contain(
        &error_of(&p.verified()),
        &[
            "channel_send (block 0, op 3): send on closed channel",
            "  at File \"model.py\", line 5, in <module>",
        ],
    );
}

#[test]
fn close_wakes_a_blocked_sender_with_an_error() {
    let mut p = Builder::new();
    p.make_channel(0, "c", I64, 0);
    p.make_channel(0, "ready", I64, 1);
    p.make_channel(0, "never", I64, 0);
    let g = p.go(0, &["c", "ready"]);
    p.fill(g, "v", I64, 1.0);
    p.send(g, "ready", "v");
    p.send(g, "c", "v");
    p.recv(0, "ready", "r", I64);
    p.close(0, "c");
    p.recv(0, "never", "x", I64);
    // With one worker the goroutine is parked in the send when main closes
    // (main waits on `ready`, the goroutine runs until it blocks); with two
    // it may also find the channel closed: the same report either way.
    assert_all_contain(
        &error_of(&p.verified()),
        &["channel_send (block 1, op 2): send on closed channel"],
    );
}

#[test]
fn a_chosen_send_case_on_a_closed_channel_is_an_error() {
    let mut p = Builder::new();
    p.make_channel(0, "c", I64, 0);
    p.close(0, "c");
    p.fill(0, "v", I64, 1.0);
    p.select(0, &[Case::Send("c", "v")], I64);
    assert_all_contain(
        &error_of(&p.verified()),
        &["select (block 0, op 4): send on closed channel"],
    );
}

#[test]
fn closing_a_closed_channel() {
    let mut p = Builder::new();
    p.make_channel(0, "c", I64, 0);
    p.close(0, "c");
    let close = p.close(0, "c");
    with_line(&mut p, 0, close, 9);
    assert_all_contain(
        &error_of(&p.verified()),
        &[
            "channel_close (block 0, op 2): close of closed channel",
            "line 9",
        ],
    );
}

#[test]
fn unknown_ops_are_reported_at_load_time_all_at_once() {
    let mut p = Builder::new();
    p.push(0, Op::new("frobnicate"));
    let g = p.go(0, &[]);
    p.push(g, Op::new("teleport"));
    let err = run_with(&p.verified(), &[], 1, 1).unwrap_err().to_string();
    assert_eq!(
        err,
        "op frobnicate is not implemented (block 0, op 0)\nop teleport is not implemented (block 1, op 0)"
    );
}

#[test]
fn a_channel_of_another_element_type_is_a_verify_error() {
    // Sending or receiving a value of another dtype than the channel's is
    // caught before the program runs (it used to turn a float32 variable
    // into int64 silently on receive).
    let mut p = Builder::new();
    p.make_channel(0, "c", I64, 1);
    p.fill(0, "v", F32, 1.5);
    p.send(0, "c", "v");
    p.recv(0, "c", "got", F32);
    let err = Verified::new(p.program).unwrap_err().to_string();
    assert_all_contain(
        &[err],
        &[
            "block 0, op 2 (channel_send): the channel carries int64 but X is float32",
            "block 0, op 3 (channel_recv): output Out `got` is declared float32 but the op makes int64",
        ],
    );
}

#[test]
fn a_channel_op_on_a_variable_without_a_channel() {
    let mut p = Builder::new();
    p.chan_var(0, "c");
    p.fill(0, "v", I64, 1.0);
    p.send(0, "c", "v");
    assert_all_contain(
        &error_of(&p.verified()),
        &["channel_send (block 0, op 1): `c` must hold a channel (made by channel_create) but holds nothing"],
    );
}

#[test]
fn an_uninitialized_input_names_the_variable() {
    let mut p = Builder::new();
    p.var(0, "x", I64);
    p.fill(0, "y", I64, 1.0);
    p.add(0, "x", "y", "z", I64);
    assert_all_contain(
        &error_of(&p.verified()),
        &["elementwise_add (block 0, op 1): `x` must hold a tensor but holds nothing"],
    );
}

#[test]
fn an_error_in_a_goroutine_ends_the_run() {
    let mut p = Builder::new();
    p.make_channel(0, "c", I64, 0);
    p.make_channel(0, "never", I64, 0);
    let g = p.go(0, &["c"]);
    p.close(g, "c");
    p.close(g, "c");
    p.recv(0, "never", "x", I64);
    assert_all_contain(
        &error_of(&p.verified()),
        &["channel_close (block 1, op 1): close of closed channel"],
    );
}

#[test]
fn fetching_an_unknown_variable() {
    let p = Verified::new(Builder::new().program).expect("verifies");
    let err = run_with(&p, &["nope"], 1, 1).unwrap_err().to_string();
    assert_eq!(
        err,
        "cannot fetch `nope`: it is not a variable of block 0 (nor a persistable one)"
    );
}

/// A kernel's error keeps its kind, so callers tell them apart; the text
/// is the same as before.
#[test]
fn kernel_errors_keep_their_kind() {
    use fluidc_runtime::KernelError;
    use fluidc_transpiler::{AttrValue, Var};
    let fails = |p: Builder| run_with(&p.verified(), &[], 1, 1).expect_err("fails");

    let mut p = Builder::new();
    p.program.blocks[0]
        .vars
        .push(Var::dense("big", F32, vec![100_000, 100_000]));
    p.push(
        0,
        fill("big", F32, 1.0).attr("shape", AttrValue::Longs(vec![100_000, 100_000])),
    );
    let e = fails(p);
    assert!(
        matches!(e.kernel_error(), Some(KernelError::OutOfMemory(a)) if a.bytes == Some(40_000_000_000)),
        "{e:?}"
    );
    assert!(
        e.to_string().starts_with(
            "fill_constant (block 0, op 0): the output of shape [100000, 100000] float32 needs 40000000000 bytes"
        ),
        "{e}"
    );

    let mut p = Builder::new();
    p.fill(0, "i", I64, 1.0);
    p.var(0, "never_written", I64);
    p.add(0, "i", "never_written", "out", I64);
    let e = fails(p);
    assert!(
        matches!(e.kernel_error(), Some(KernelError::MissingInput(_))),
        "{e:?}"
    );

    let mut p = Builder::new();
    p.fill(0, "i", I64, 1.0);
    p.fill(0, "zero", I64, 0.0);
    p.var(0, "q", I64);
    p.push(0, binary("elementwise_div", "i", "zero", "q"));
    let e = fails(p);
    assert!(
        matches!(e.kernel_error(), Some(KernelError::Invalid(m)) if m == "integer division by zero"),
        "{e:?}"
    );
}

/// An op the runtime cannot build is refused at load time with the kind of
/// its builder's error, so callers match on the kind and not the wording.
#[test]
fn load_errors_keep_their_kind() {
    use fluidc_runtime::KernelError;
    use fluidc_transpiler::AttrValue;
    let fails = |p: Builder| run_with(&p.verified(), &[], 1, 1).expect_err("fails");

    // An attribute value the op cannot use.
    let mut p = Builder::new();
    p.var(0, "x", F32);
    p.push(
        0,
        fill("x", F32, 0.0).attr("str_value", AttrValue::String("abc".into())),
    );
    let e = fails(p);
    assert!(
        matches!(e.kernel_error(), Some(KernelError::Attribute(m)) if m == "str_value \"abc\" is not a number"),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        "fill_constant (block 0, op 0): str_value \"abc\" is not a number"
    );

    // A dtype the op does not produce.
    let mut p = Builder::new();
    p.var(0, "r", I64);
    p.push(
        0,
        Op::new("uniform_random")
            .output("Out", &["r"])
            .attr("shape", AttrValue::Longs(vec![1]))
            .attr("dtype", AttrValue::Int(I64 as i32))
            .attr("min", AttrValue::Float(0.0))
            .attr("max", AttrValue::Float(1.0))
            .attr("seed", AttrValue::Int(0)),
    );
    let e = fails(p);
    assert!(
        matches!(e.kernel_error(), Some(KernelError::Dtype(m)) if m == "uniform_random draws float32 or float64 values, not int64"),
        "{e:?}"
    );

    // An op fluidc does not implement; of several, the first one's kind.
    let mut p = Builder::new();
    p.push(0, Op::new("frobnicate"));
    p.push(0, Op::new("teleport"));
    let e = fails(p);
    assert!(
        matches!(e.kernel_error(), Some(KernelError::Unsupported(m)) if m == "op frobnicate is not implemented"),
        "{e:?}"
    );
}
