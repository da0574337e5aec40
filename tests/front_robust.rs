//! Building a script on the VM never panics or hangs: prefixes of every
//! testdata script, and hostile inputs, give a program or a user error
//! (through the `front` fuzz target's harness, in process).
use fluidc::fuzzing::{front, Outcome};

fn testdata_scripts() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for dir in ["testdata/front/ok", "testdata/front/err"] {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
        for e in std::fs::read_dir(dir).expect("dir") {
            let p = e.expect("entry").path();
            if p.extension().is_some_and(|x| x == "py") {
                out.push((
                    p.display().to_string(),
                    std::fs::read_to_string(&p).expect("read"),
                ));
            }
        }
    }
    out.sort();
    out
}

/// Cut points of `source`: a few line boundaries and a few points inside
/// lines (a cut mid-token is a syntax error the VM must report).
fn cuts(source: &str) -> Vec<usize> {
    let lines: Vec<usize> = source.match_indices('\n').map(|(i, _)| i + 1).collect();
    let step = (lines.len() / 4).max(1);
    let mut out: Vec<usize> = lines.iter().step_by(step).copied().collect();
    out.extend(
        lines
            .iter()
            .step_by(step)
            .map(|&i| i.saturating_sub(7))
            .filter(|&i| source.is_char_boundary(i)),
    );
    out
}

#[test]
fn prefixes_of_testdata_scripts_build_or_report() {
    for (name, source) in testdata_scripts() {
        for cut in cuts(&source) {
            // A panic here is the failure; either outcome is fine.
            let outcome = front(&source.as_bytes()[..cut]);
            if let Outcome::Rejected(m) = &outcome {
                assert!(!m.contains("internal error"), "{name}[..{cut}]: {m}");
            }
        }
    }
}

#[test]
fn hostile_inputs_give_a_program_or_an_error() {
    let deep_brackets = format!("x = {}1{}\n", "(".repeat(10_000), ")".repeat(10_000));
    let long_sum = format!("x = {}1\n", "1 + ".repeat(100_000));
    let deep_blocks: String = (0..1500)
        .map(|d| format!("{}if True:\n", " ".repeat(d)))
        .collect::<String>()
        + &" ".repeat(1500)
        + "pass\n";
    for (what, src) in [
        ("brackets", deep_brackets),
        ("sum", long_sum),
        ("blocks", deep_blocks),
    ] {
        // A panic (or a crash of the test process) is the failure.
        let outcome = front(src.as_bytes());
        println!("{what}: {outcome:?}");
    }
    let runaway = "def f(n):\n    return f(n + 1)\nf(0)\n";
    match front(runaway.as_bytes()) {
        Outcome::Rejected(m) => assert!(m.contains("RecursionError"), "{m}"),
        Outcome::Ok => panic!("a runaway recursion built a program"),
    }
    // The harness stops a script that runs past its time limit.
    match front(b"while True:\n    pass\n") {
        Outcome::Rejected(m) => assert!(m.contains("(--timeout 5)"), "{m}"),
        Outcome::Ok => panic!("an endless loop built a program"),
    }
    let not_utf8 = b"x = 1\ny = '\xff\xfe'\n";
    assert!(matches!(front(not_utf8), Outcome::Rejected(_)));
}
