//! LoD sequences and DynamicRNN (issue 19). Paddle 3.3.1 dropped the LoD
//! ops a DynamicRNN is built from, so these scripts run in fluidc only:
//! each asserts its own training (the loss falls), and on sequences of
//! equal length the DynamicRNN is checked against the same recurrence as a
//! StaticRNN that Paddle 3.3.1 runs.
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
        .filter(|p| {
            !p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("static_"))
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

/// Sequences of equal length: fluidc's DynamicRNN (LoD ops, `while_grad`
/// through shrunk memories and arrays) trains with the losses Paddle
/// 3.3.1 prints for the same recurrence written as a StaticRNN.
#[test]
fn dynamic_rnn_trains_as_paddle_static_rnn_on_equal_lengths() {
    let ours = fluidc(
        &["run", "testdata/fluidc_only/dynamic_rnn_equal_lengths.py"],
        b"",
    );
    let peer = Path::new("testdata/fluidc_only/static_rnn_equal_lengths.py");
    let theirs = run_with_paddle(peer, &repo(), &[]);
    assert!(
        theirs.status.success(),
        "{}",
        String::from_utf8_lossy(&theirs.stderr)
    );
    assert!(ours.status.success(), "{}", stderr(&ours));
    let (ours, theirs) = (
        stdout(&ours),
        String::from_utf8_lossy(&theirs.stdout).into_owned(),
    );
    assert_eq!(ours.lines().count(), 20, "{ours}");
    assert_eq!(ours, theirs);
}
