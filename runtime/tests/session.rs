//! Sessions (SPEC §8.1): a startup and a main program share one scope;
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
        max_memory: None,
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
