//! The interpreter runs the chosen case of a lowered select directly when
//! its cases block is exactly the lowered dispatch (fill_constant k, equal,
//! conditional_block per case). These check that it keeps the meaning of
//! the ops when a program steps outside that shape.
mod common;
use common::*;

/// The name of the select's `case_to_execute` in block `b`.
fn case_to_execute(p: &Builder, b: usize) -> String {
    let op = p.program.blocks[b]
        .ops
        .iter()
        .find(|op| op.ty == "select")
        .expect("a select");
    op.inputs_of("case_to_execute")[0].clone()
}

/// Case 0's body sets case_to_execute to 1, so the ops of case 1's triple,
/// which run after it, see 1 and run case 1's body too.
#[test]
fn a_case_that_changes_case_to_execute_lets_later_cases_run() {
    let mut p = Builder::new();
    p.make_channel(0, "c", I64, 1);
    p.fill(0, "five", I64, 5.0);
    p.send(0, "c", "five");
    p.fill(0, "a", I64, 0.0);
    p.fill(0, "b", I64, 0.0);
    let bodies = p.select(0, &[Case::Recv("c", "v"), Case::Default], I64);
    let cte = case_to_execute(&p, 0);
    p.fill(bodies[0], "a", I64, 1.0);
    p.fill(bodies[0], &cte, I32, 1.0);
    p.fill(bodies[1], "b", I64, 1.0);
    let p = p.verified();
    for (workers, seed) in CONFIGS {
        let got = run_with(&p, &["a", "b", "v"], workers, seed).expect("runs");
        assert_eq!(ints(&got), vec![1, 1, 5], "workers {workers}, seed {seed}");
    }
}

/// The same select in its lowered shape runs only the chosen case.
#[test]
fn a_lowered_select_runs_only_the_chosen_case() {
    let mut p = Builder::new();
    p.make_channel(0, "c", I64, 1);
    p.fill(0, "five", I64, 5.0);
    p.send(0, "c", "five");
    p.fill(0, "a", I64, 0.0);
    p.fill(0, "b", I64, 0.0);
    let bodies = p.select(0, &[Case::Recv("c", "v"), Case::Default], I64);
    p.fill(bodies[0], "a", I64, 1.0);
    p.fill(bodies[1], "b", I64, 1.0);
    let p = p.verified();
    for (workers, seed) in CONFIGS {
        let got = run_with(&p, &["a", "b", "v"], workers, seed).expect("runs");
        assert_eq!(ints(&got), vec![1, 0, 5], "workers {workers}, seed {seed}");
    }
}
