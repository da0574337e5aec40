//! Random ops and the session's engine (docs/training.md): a non-zero `seed`
//! attribute draws the same values on every run; seed 0 draws from the
//! session's engine, which `SessionOptions.seed` (`fluidc run --seed N`)
//! seeds as `paddle.seed(N)` does and whose draws continue from run to run.
//! (`tests/kernels_vs_paddle.rs` compares the values with Paddle's.)
use fluidc_runtime::{Session, SessionOptions, Tensor};
use fluidc_transpiler::{AttrValue, Block, Op, Program, Var, VarKind, Verified};

fn program(seed: i32) -> Verified {
    let mut block = Block::new(0, -1);
    block.vars.push(Var::dense("u", VarKind::Fp32, vec![4]));
    block.ops.push(
        Op::new("uniform_random")
            .output("Out", &["u"])
            .attr("shape", AttrValue::Longs(vec![4]))
            .attr("seed", AttrValue::Int(seed)),
    );
    Verified::new(Program {
        blocks: vec![block],
        ..Default::default()
    })
    .expect("verifies")
}

fn draw(session: &mut Session, p: &Verified) -> Vec<f32> {
    let got = session
        .run(p, Vec::new(), vec!["u".to_string()])
        .expect("runs");
    let t: &Tensor = &got[0].1;
    t.values::<f32>().expect("f32").to_vec()
}

fn session(seed: Option<u64>) -> Session {
    Session::new(SessionOptions {
        seed,
        ..SessionOptions::default()
    })
}

#[test]
fn a_seed_attribute_gives_the_same_values_every_run() {
    let p = program(7);
    let mut s = session(None);
    let first = draw(&mut s, &p);
    assert_eq!(first, draw(&mut s, &p));
    assert_eq!(first, draw(&mut session(Some(3)), &p));
    assert_eq!(first[0], 0.508_770_6);
}

#[test]
fn seed_zero_draws_from_the_session_engine() {
    let p = program(0);
    let mut a = session(Some(5));
    let (a1, a2) = (draw(&mut a, &p), draw(&mut a, &p));
    assert_ne!(a1, a2, "the engine's draws continue from run to run");
    let mut b = session(Some(5));
    assert_eq!((a1.clone(), a2), (draw(&mut b, &p), draw(&mut b, &p)));
    assert_ne!(a1, draw(&mut session(Some(6)), &p));
    assert_ne!(draw(&mut session(None), &p), draw(&mut session(None), &p));
}
