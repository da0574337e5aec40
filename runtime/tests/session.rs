//! Sessions (README, "Run mode"): a startup and a main program share one scope;
//! persistable variables keep their values from run to run, others live for
//! one run; a program is loaded once.
mod common;
use common::*;

use fluidc_runtime::{Session, SessionOptions, Tensor};
use fluidc_transpiler::{Op, Var, Verified};

/// `startup` sets the persistable counter `n` to `start`; `main` adds 1 to
/// it and writes the non-persistable `seen`.
fn counter_programs(start: f64) -> (Verified, Verified) {
    let mut startup = Builder::new();
    let mut n = Var::dense("n", I64, vec![1]);
    n.persistable = Some(true);
    startup.program.blocks[0].vars.push(n.clone());
    startup.push(0, fill("n", I64, start));
    startup.push(0, fill("scratch", I64, 7.0));
    let mut main = Builder::new();
    main.program.blocks[0].vars.push(n);
    main.var(0, "one", I64);
    main.push(0, fill("one", I64, 1.0));
    main.add(0, "n", "one", "n", I64);
    main.assign(0, "n", "seen", I64);
    (startup.verified(), main.verified())
}

fn session() -> Session {
    Session::new(SessionOptions {
        seed: Some(1),
        workers: Some(1),
        ..SessionOptions::default()
    })
}

fn one_int(t: &Tensor) -> i64 {
    t.values::<i64>().expect("int64")[0]
}

#[test]
fn persistable_variables_keep_their_values_between_runs_and_programs() {
    let (startup, main) = counter_programs(10.0);
    let mut s = session();
    s.run(&startup, Vec::new(), Vec::new())
        .expect("startup runs");
    assert_eq!(s.tensor("n").map(|t| one_int(&t)), Some(10));
    for expected in 11..=13 {
        let out = s
            .run(&main, Vec::new(), vec!["seen".into()])
            .expect("main runs");
        assert_eq!(ints(&out), vec![expected]);
    }
    assert_eq!(s.tensor("n").map(|t| one_int(&t)), Some(13));
    // Only persistable variables stay in the scope.
    assert_eq!(s.names(), vec!["n"]);
    // Running the startup program again resets the parameter, as in Paddle.
    s.run(&startup, Vec::new(), Vec::new())
        .expect("startup runs");
    assert_eq!(
        ints(&s.run(&main, Vec::new(), vec!["n".into()]).expect("runs")),
        vec![11]
    );
}

#[test]
fn a_variable_set_in_the_scope_is_what_the_program_reads() {
    let (_, main) = counter_programs(0.0);
    let mut s = session();
    s.set_tensor("n", Tensor::from_vec(&[1], vec![41i64]).expect("tensor"));
    assert_eq!(
        ints(&s.run(&main, Vec::new(), vec!["n".into()]).expect("runs")),
        vec![42]
    );
}

#[test]
fn non_persistable_variables_live_for_one_run() {
    let (startup, _) = counter_programs(0.0);
    let mut reader = Builder::new();
    reader.var(0, "scratch", I64);
    reader.push(
        0,
        Op::new("assign")
            .input("X", &["scratch"])
            .output("Out", &["copy"]),
    );
    let mut s = session();
    s.run(&startup, Vec::new(), Vec::new())
        .expect("startup runs");
    let err = s
        .run(&reader.verified(), Vec::new(), vec!["copy".into()])
        .expect_err("scratch is gone after the startup run");
    assert!(err.to_string().contains("scratch"), "{err}");
}

#[test]
fn a_program_is_loaded_once_until_it_changes() {
    let (startup, main) = counter_programs(0.0);
    let mut s = session();
    s.run(&startup, Vec::new(), Vec::new()).expect("runs");
    for _ in 0..3 {
        s.run(&main, Vec::new(), Vec::new()).expect("runs");
    }
    assert_eq!(s.cached_programs(), 2);
    let (_, changed) = counter_programs(5.0);
    let (changed_startup, _) = counter_programs(5.0);
    s.run(&changed, Vec::new(), Vec::new()).expect("runs");
    assert_eq!(
        s.cached_programs(),
        2,
        "the same main program is found in the cache"
    );
    s.run(&changed_startup, Vec::new(), Vec::new())
        .expect("runs");
    assert_eq!(s.cached_programs(), 3, "a changed program is loaded anew");
}

/// `max_ops` limits each run, exactly with one worker: the main program's
/// three ops (fill, add, assign) run in a budget of 3, run after run; with
/// 2 the run stops before the third op, naming it.
#[test]
fn the_op_budget_of_a_run_is_exact() {
    let (startup, main) = counter_programs(0.0);
    let limited = |max_ops| {
        Session::new(SessionOptions {
            workers: Some(1),
            max_ops: Some(max_ops),
            ..SessionOptions::default()
        })
    };
    let mut s = limited(3);
    s.run(&startup, Vec::new(), Vec::new()).expect("runs");
    for expected in 1..=3 {
        let out = s.run(&main, Vec::new(), vec!["seen".into()]).expect("runs");
        assert_eq!(ints(&out), vec![expected]);
    }
    let mut s = limited(2);
    s.run(&startup, Vec::new(), Vec::new()).expect("runs");
    let err = s
        .run(&main, Vec::new(), vec!["seen".into()])
        .expect_err("the third op is over the budget");
    assert!(
        err.to_string()
            .starts_with("assign (block 0, op 2): stopped after 2 ops"),
        "{err}"
    );
}

/// A session whose time is up runs nothing more.
#[test]
fn a_run_past_the_deadline_stops() {
    let (startup, _) = counter_programs(0.0);
    let mut s = Session::new(SessionOptions {
        timeout: Some(std::time::Duration::ZERO),
        ..SessionOptions::default()
    });
    let err = s
        .run(&startup, Vec::new(), Vec::new())
        .expect_err("no time left");
    assert!(err.to_string().contains("--timeout 0"), "{err}");
}
