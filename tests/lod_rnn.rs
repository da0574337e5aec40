//! LoD sequences, DynamicRNN and lstm_unit (issue 19). Paddle 3.3.1
//! dropped the LoD ops a DynamicRNN is built from, and the lstm_unit op,
//! so these scripts run in fluidc only: each asserts its own training (the
//! loss falls), and each is checked against the same computation written
//! with ops Paddle 3.3.1 still has, which Paddle runs (`static_*.py`).
mod common;
use common::*;

use std::path::Path;

/// Every `testdata/fluidc_only/*.py` that is not a peer runs to the end
/// (its asserts hold).
#[test]
fn fluidc_only_scripts_train() {
    let dir = repo().join("testdata/fluidc_only");
    let mut scripts: Vec<_> = std::fs::read_dir(&dir)
        .expect("testdata/fluidc_only")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "py"))
        // `static_*.py` are Paddle's peers, `numpy_*.py` numpy's, `_name.py`
        // modules they import.
        .filter(|p| {
            !p.file_name().is_some_and(|n| {
                let n = n.to_string_lossy();
                n.starts_with("static_") || n.starts_with("numpy_") || n.starts_with('_')
            })
        })
        .collect();
    scripts.sort();
    assert!(
        scripts.len() >= 3,
        "testdata/fluidc_only has too few scripts"
    );
    for script in scripts {
        let rel = script.strip_prefix(repo()).expect("in repo");
        let out = fluidc(&["run", path_str(rel)], b"");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}: stdout:\n{}\nstderr:\n{}",
            rel.display(),
            stdout(&out),
            stderr(&out)
        );
    }
}

/// fluidc's stdout for `ours` and Paddle 3.3.1's for `peer` (both
/// `testdata/fluidc_only/` scripts, both succeeding), with 20 lines of
/// losses from fluidc. The peers are StaticRNNs, on which Paddle 3.3.1
/// varies from run to run, so the peer's output is the first that two of
/// up to seven runs print ([`paddle_majority`]).
fn ours_and_peer(ours: &str, peer: &str) -> (Vec<u8>, Vec<u8>) {
    let dir = Path::new("testdata/fluidc_only");
    let out = fluidc(&["run", path_str(&dir.join(ours))], b"");
    let theirs = paddle_majority(&dir.join(peer), 7);
    assert!(out.status.success(), "{ours}: {}", stderr(&out));
    assert_eq!(stdout(&out).lines().count(), 20, "{}", stdout(&out));
    (out.stdout, theirs)
}

/// Sequences of equal length: fluidc's DynamicRNN (LoD ops, `while_grad`
/// through shrunk memories and arrays) trains with the losses Paddle
/// 3.3.1 prints for the same recurrence written as a StaticRNN.
#[test]
fn dynamic_rnn_trains_as_paddle_static_rnn_on_equal_lengths() {
    let (ours, theirs) = ours_and_peer(
        "dynamic_rnn_equal_lengths.py",
        "static_rnn_equal_lengths.py",
    );
    assert_eq!(
        String::from_utf8_lossy(&ours),
        String::from_utf8_lossy(&theirs)
    );
}

/// A DynamicRNN whose step embeds its word ids: the `while_grad` lists
/// the ids' gradient, which nothing produces and nothing declares (as in
/// Paddle's own programs), and skips it; the losses are those Paddle 3.3.1
/// prints for the StaticRNN embedding its ids in the step.
#[test]
fn dynamic_rnn_embedding_its_step_ids_trains_as_paddle_static_rnn() {
    let (ours, theirs) = ours_and_peer("dynamic_rnn_step_ids.py", "static_rnn_step_ids.py");
    assert_eq!(
        String::from_utf8_lossy(&ours),
        String::from_utf8_lossy(&theirs)
    );
}

/// A DynamicRNN whose step attends over a `static_input` of LoD
/// sequences (the book's machine translation decoder): each step's shrunk
/// static input keeps the LoD of its sequences still running, so
/// `sequence_expand` by it works, and its gradient goes back through
/// `shrink_rnn_memory_grad` and `reorder_lod_tensor_by_rank_grad`. The
/// probabilities and losses are exactly those Paddle 3.3.1 prints for the
/// decoder unrolled step by step on sequences fed in rank order.
#[test]
fn dynamic_rnn_attends_over_a_lod_static_input_as_paddle_unrolled() {
    let (ours, theirs) = ours_and_peer("dynamic_rnn_attention.py", "static_attention_unrolled.py");
    assert_eq!(
        String::from_utf8_lossy(&ours),
        String::from_utf8_lossy(&theirs)
    );
}

/// fluidc's `lstm_unit` (kernel and grad) in a StaticRNN trains with the
/// losses Paddle 3.3.1 prints for the same cell written out of concat,
/// fc, split, sigmoid and tanh (to 1e-5: Paddle's sigmoid and tanh round
/// differently from the cell's own).
#[test]
fn lstm_unit_trains_as_paddle_trains_the_cell_written_out() {
    let (ours, theirs) = ours_and_peer("lstm_unit_steps.py", "static_lstm_composed.py");
    let dir = temp_dir("lstm_unit");
    assert_numbers_agree(&dir, "lstm_unit_steps.py", &ours, &theirs, "1e-5");
}

/// `lod_tensor_to_array` on a 2-level LoD input keeps each item's
/// sub-sequence LoD (1.0's test_lod_tensor_array_ops expected
/// `[[[2, 3]], [[6, 6]], [[3]]]` for its input), `array_to_lod_tensor`
/// restores the input with its LoD, `reorder_lod_tensor_by_rank` moves
/// whole sequences with their LoD, and the gradient through all three
/// (with `reduce_sum`'s and `mean`'s, which keep the LoD as 1.x's did)
/// comes back with the input's LoD: what numpy computes after 1.x's
/// kernels (`numpy_lod_arrays_two_levels.py`, run by CPython).
#[test]
fn lod_arrays_keep_two_level_lod_as_numpy_computes() {
    prints_as_numpy("lod_arrays_two_levels.py", "numpy_lod_arrays_two_levels.py");
}

/// 1.x's `rnn_memory_helper` (Out is X with its LoD) and
/// `rnn_memory_helper_grad` (X@GRAD is Out@GRAD) appended directly, as
/// 1.x's `test_rnn_memory_helper_op.py` did: what numpy computes after
/// 1.x's `rnn_memory_helper_op.cc` (`numpy_rnn_memory_helper_op.py`).
#[test]
fn rnn_memory_helper_ops_copy_as_numpy_computes() {
    prints_as_numpy("rnn_memory_helper_op.py", "numpy_rnn_memory_helper_op.py");
}

/// 1.x's `recurrent` op (a StaticRNN as 1.x saved it) appended as 1.x's
/// StaticRNN built it, forward and reversed: what numpy computes after
/// 1.x's `recurrent_op.cc` (`numpy_recurrent_op_1x.py`).
#[test]
fn recurrent_op_runs_its_steps_as_numpy_computes_after_1x() {
    prints_as_numpy("recurrent_op_1x.py", "numpy_recurrent_op_1x.py");
}

/// `concat` of inputs of different ranks (PaddleGAN's 2019 CGAN joins
/// its noise `[-1, 100]` with a label reshaped to `[-1, 1, 1, 1]`), which
/// Paddle 1.5 built and ran and Paddle 3.3.1 refuses: the declared dims,
/// values and gradients are what numpy computes after 1.5's kernel, which
/// flattened every input from the axis (`numpy_concat_ranks_1x.py`).
#[test]
fn concat_of_inputs_of_different_ranks_as_numpy_computes_after_1x() {
    prints_as_numpy("concat_ranks_1x.py", "numpy_concat_ranks_1x.py");
}

/// Runs `testdata/fluidc_only/<ours>` with fluidc and `<numpy>` (numpy
/// after 1.x's kernels) with CPython; both succeed and print the same.
fn prints_as_numpy(ours: &str, numpy: &str) {
    let dir = Path::new("testdata/fluidc_only");
    let out = fluidc(&["run", path_str(&dir.join(ours))], b"");
    assert!(out.status.success(), "{}", stderr(&out));
    let theirs = std::process::Command::new(paddle_python())
        .arg(repo().join(dir).join(numpy))
        .output()
        .expect("python runs");
    assert!(theirs.status.success(), "{}", stderr(&theirs));
    assert_eq!(stdout(&out), stdout(&theirs));
}
