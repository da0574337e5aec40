//! `fluidc graph` (issue 18): one node per value (variables written more
//! than once are versioned `x#1`, `x#2`), so the drawing is acyclic; nodes
//! show dtypes, shapes and the attributes that differ from the defaults;
//! sub-blocks are clusters inside their parent's; `--format svg` goes
//! through Graphviz when it is installed. `FLUIDC_BLESS=1` rewrites the
//! golden file.
mod common;

use std::collections::{HashMap, HashSet};
use std::path::Path;

use common::{fluidc, fluidc_env, repo, stderr, stdout};

fn graph(script: &str) -> String {
    let out = fluidc(&["graph", script], b"");
    assert!(out.status.success(), "graph {script}: {}", stderr(&out));
    stdout(&out)
}

/// The data edges `a -> b` of a dot text (the dashed op -> sub-block edges
/// are control, not data, and left out).
fn data_edges(dot: &str) -> Vec<(String, String)> {
    dot.lines()
        .filter(|l| l.contains(" -> ") && !l.contains("lhead="))
        .filter_map(|l| {
            let (a, rest) = l.trim().split_once(" -> ")?;
            let b = rest.split(" [").next()?;
            Some((a.to_string(), b.to_string()))
        })
        .collect()
}

fn is_acyclic(edges: &[(String, String)]) -> bool {
    let mut next: HashMap<&str, Vec<&str>> = HashMap::new();
    let mut indegree: HashMap<&str, usize> = HashMap::new();
    for (a, b) in edges {
        next.entry(a).or_default().push(b);
        *indegree.entry(b).or_default() += 1;
        indegree.entry(a).or_default();
    }
    let mut ready: Vec<&str> = indegree
        .iter()
        .filter(|(_, d)| **d == 0)
        .map(|(n, _)| *n)
        .collect();
    let mut seen = 0;
    while let Some(n) = ready.pop() {
        seen += 1;
        for m in next.get(n).into_iter().flatten() {
            let d = indegree.get_mut(m).expect("counted");
            *d -= 1;
            if *d == 0 {
                ready.push(m);
            }
        }
    }
    seen == indegree.len()
}

#[test]
fn the_graph_of_a_cond_program_matches_its_golden_file() {
    let dot = graph("testdata/front/ok/seed003_cond.py");
    let golden = repo().join("testdata/graph/seed003_cond.dot");
    if std::env::var_os("FLUIDC_BLESS").is_some() {
        std::fs::write(&golden, &dot).expect("write golden");
    }
    let expected = std::fs::read_to_string(&golden).unwrap_or_default();
    assert_eq!(
        dot,
        expected,
        "graph output differs from {}",
        golden.display()
    );
}

#[test]
fn reassigned_variables_are_versioned_and_the_data_flow_is_acyclic() {
    let scripts = [
        "testdata/front/ok/seed003_cond.py",
        "testdata/programs/daisy_while.py",
        "testdata/train/while_rnn_sgd.py",
        "testdata/train/mlp_adam.py",
        "testdata/front/ok/csp_fibonacci.py",
    ];
    for script in scripts {
        let dot = graph(script);
        assert!(
            is_acyclic(&data_edges(&dot)),
            "{script}: the data flow has a cycle"
        );
        // Every value node is declared in exactly one cluster.
        let declared: Vec<&str> = dot
            .lines()
            .filter(|l| l.contains("shape=ellipse"))
            .filter_map(|l| l.trim().split(" [").next())
            .collect();
        let unique: HashSet<&&str> = declared.iter().collect();
        assert_eq!(
            unique.len(),
            declared.len(),
            "{script}: a value drawn twice"
        );
    }
    // The loop counter of a While is written before, inside and by the
    // loop: three versions, each with its dtype and shape.
    let dot = graph("testdata/programs/daisy_while.py");
    for v in [
        "fill_constant_1.tmp_0#1",
        "fill_constant_1.tmp_0#2",
        "fill_constant_1.tmp_0#3",
    ] {
        assert!(
            dot.contains(&format!("label=\"{v}\\nint64 [1]\"")),
            "no {v}:\n{dot}"
        );
    }
    // A variable written once keeps its plain name.
    assert!(
        dot.contains("label=\"fill_constant_0.tmp_0\\nint64 [1]\""),
        "{dot}"
    );
    // Ops show the attributes that differ from their defaults, dtypes by name.
    assert!(
        dot.contains(
            "label=\"fill_constant\\ndtype=int64\\nshape=[1]\\nstr_value=1000\\nvalue=1000.0\""
        ),
        "{dot}"
    );
    assert!(
        !dot.contains("op_callstack") && !dot.contains("op_role"),
        "{dot}"
    );
    // The while body is a cluster inside block 0's, entered by a dashed edge.
    let b0 = dot.find("subgraph cluster_b0").expect("block 0");
    let b1 = dot.find("subgraph cluster_b1").expect("block 1");
    let b0_end = dot[b0..]
        .find("\n  }\n")
        .map(|i| b0 + i)
        .expect("block 0 closes");
    assert!(b0 < b1 && b1 < b0_end, "block 1 is not nested in block 0");
    assert!(dot.contains("[lhead=cluster_b1, style=dashed, label=\"sub_block\"]"));
}

#[test]
fn svg_goes_through_graphviz_or_says_what_is_missing() {
    let empty = repo().join("testdata/graph");
    let out = fluidc_env(
        &[
            "graph",
            "--format",
            "svg",
            "testdata/front/ok/seed003_cond.py",
        ],
        &[("PATH", Path::new(&empty))],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("--format svg needs Graphviz's `dot` on PATH"),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).is_empty());
    let has_dot = std::process::Command::new("dot").arg("-V").output().is_ok();
    if has_dot {
        let out = fluidc(
            &[
                "graph",
                "--format",
                "svg",
                "testdata/front/ok/seed003_cond.py",
            ],
            b"",
        );
        assert!(out.status.success(), "{}", stderr(&out));
        let svg = stdout(&out);
        assert!(svg.contains("<svg") && svg.contains("block 1"), "{svg}");
    }
}
