//! `fluidc compile/dump/graph` on `.pb` input: byte-exact round trips of
//! programs Paddle wrote, and clear errors (never a panic) on bad input.
mod common;
use common::*;

#[test]
fn paddle_programs_reencode_byte_for_byte() {
    for pb in paddle_programs() {
        let original = std::fs::read(&pb).expect("read .pb");
        let out = fluidc(
            &["compile", path_str(&pb), "--passes", "none", "-o", "-"],
            b"",
        );
        assert!(out.status.success(), "{}: {}", pb.display(), stderr(&out));
        assert!(
            out.stdout == original,
            "{}: re-encoded bytes differ from Paddle's",
            pb.display()
        );
    }
}

#[test]
fn paddle_programs_dump_in_every_format_and_graph() {
    for pb in paddle_programs() {
        let p = path_str(&pb);
        for format in ["text", "pretty", "json"] {
            let out = fluidc(&["dump", p, "--format", format], b"");
            assert!(out.status.success(), "dump {format} {p}: {}", stderr(&out));
            assert!(!out.stdout.is_empty());
        }
        let json: serde_json::Value =
            serde_json::from_slice(&fluidc(&["dump", p, "--format", "json"], b"").stdout)
                .expect("dump --format json is JSON");
        assert!(
            json["blocks"][0]["ops"].is_array(),
            "{p}: JSON has blocks[0].ops"
        );
        let dot = fluidc(&["graph", p], b"");
        assert!(dot.status.success(), "graph {p}: {}", stderr(&dot));
        assert!(stdout(&dot).starts_with("digraph program {"));
        assert!(stdout(&dot).contains("[shape=box"), "{p}: ops are boxes");
    }
}

#[test]
fn text_format_reads_back_to_the_same_bytes() {
    let dir = temp_dir("pbtxt");
    for pb in paddle_programs() {
        let text = fluidc(&["dump", path_str(&pb), "--format", "text"], b"");
        let txt = dir.join("p.pbtxt");
        std::fs::write(&txt, &text.stdout).expect("write pbtxt");
        let back = fluidc(
            &["compile", path_str(&txt), "--passes", "none", "-o", "-"],
            b"",
        );
        assert!(back.status.success(), "{}", stderr(&back));
        assert!(
            back.stdout == std::fs::read(&pb).expect("read"),
            "{}: text -> bytes differs",
            pb.display()
        );
    }
}

fn assert_clean_user_error(out: &std::process::Output, needle: &str) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(1), "exit 1 expected, stderr: {err}");
    assert!(err.contains(needle), "stderr lacks {needle:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn empty_input_is_a_clear_error() {
    let out = fluidc(&["dump", "-"], b"");
    assert_clean_user_error(&out, "<stdin>: not a ProgramDesc: the input is empty");
}

#[test]
fn truncated_files_are_errors_not_panics() {
    let original = std::fs::read(&paddle_programs()[0]).expect("read");
    for len in (1..original.len()).step_by(7) {
        let out = fluidc(&["dump", "-", "--format", "text"], &original[..len]);
        let code = out.status.code();
        // A cut at a field boundary can still be a valid (smaller) message.
        assert!(
            code == Some(0) || code == Some(1),
            "len {len}: exit {code:?}: {}",
            stderr(&out)
        );
        assert!(
            !stderr(&out).contains("panicked"),
            "len {len}: {}",
            stderr(&out)
        );
        if code == Some(1) {
            assert!(
                stderr(&out).starts_with("error: <stdin>: "),
                "len {len}: {}",
                stderr(&out)
            );
        }
    }
}

#[test]
fn random_bytes_are_errors_not_panics() {
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    for round in 0..64 {
        let len = 1 + (round * 37) % 400;
        let bytes: Vec<u8> = (0..len)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state as u8
            })
            .collect();
        for cmd in [["dump", "-"], ["graph", "-"]] {
            let out = fluidc(&cmd, &bytes);
            assert!(
                matches!(out.status.code(), Some(0) | Some(1)),
                "round {round}: {}",
                stderr(&out)
            );
            assert!(
                !stderr(&out).contains("panicked"),
                "round {round}: {}",
                stderr(&out)
            );
        }
    }
}

#[test]
fn unknown_op_type_is_valid_data() {
    let text = "blocks { idx: 0 parent_idx: -1 ops { type: \"no_such_op_anywhere\" attrs { name: \"k\" type: INT i: 3 } } }";
    let dir = temp_dir("unknown_op");
    let txt = dir.join("u.pbtxt");
    std::fs::write(&txt, text).expect("write");
    let out = fluidc(&["dump", path_str(&txt)], b"");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("{} = no_such_op_anywhere(inputs={}, k = 3)"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn structurally_broken_programs_are_reported_by_block_and_op() {
    let dir = temp_dir("broken");
    let cases = [
        (
            "blocks { idx: 0 parent_idx: -1 ops { type: \"while\" attrs { name: \"sub_block\" type: BLOCK block_idx: 5 } } }",
            "block 0, op 0 (while): sub_block = 5 does not exist",
        ),
        ("blocks { idx: 0 parent_idx: -1 } blocks { idx: 4 parent_idx: 0 }", "block 1: idx is 4 but the block is at position 1"),
        ("blocks { idx: 0 parent_idx: -1 } blocks { idx: 1 parent_idx: 8 }", "block 1: parent_idx 8 is out of range"),
    ];
    for (i, (text, needle)) in cases.iter().enumerate() {
        let txt = dir.join(format!("b{i}.pbtxt"));
        std::fs::write(&txt, text).expect("write");
        let out = fluidc(&["dump", path_str(&txt)], b"");
        assert_clean_user_error(&out, needle);
    }
}

#[test]
fn a_missing_file_is_a_user_error() {
    let out = fluidc(&["dump", "no/such/file.pb"], b"");
    assert_clean_user_error(&out, "no/such/file.pb: cannot read");
}

#[test]
fn implicit_compile_and_usage_errors() {
    let pb = paddle_programs()[0].clone();
    let out = fluidc(&[path_str(&pb), "--passes", "none", "-o", "-"], b"");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(out.stdout, std::fs::read(&pb).expect("read"));
    let out = fluidc(&["dump", "x.pb", "--format", "yaml"], b"");
    assert_eq!(out.status.code(), Some(2), "usage errors exit 2");
}

#[test]
fn text_format_errors_name_line_and_column() {
    let dir = temp_dir("pbtxt_error");
    let txt = dir.join("bad.pbtxt");
    std::fs::write(&txt, "blocks {\n  idx: 0\n  parent_idx: \"x\"\n}\n").expect("write");
    let out = fluidc(&["dump", path_str(&txt)], b"");
    assert_clean_user_error(
        &out,
        "text format at line 3, column 15: expected an integer",
    );
}

/// A hand-made program: `x` float32 and `y` of `y_dtype` in block 0, and
/// the op given as protobuf text.
fn hand_made(y_dtype: &str, op: &str) -> String {
    let var = |name: &str, dtype: &str| {
        format!(
            "vars {{ name: \"{name}\" type {{ type: DENSE_TENSOR dense_tensor {{ tensor {{ data_type: {dtype} dims: 2 }} }} }} }}"
        )
    };
    format!(
        "blocks {{ idx: 0 parent_idx: -1 {} {} {} ops {{ {op} }} }}",
        var("x", "FP32"),
        var("y", y_dtype),
        var("out", "FP32")
    )
}

#[test]
fn the_verifier_checks_hand_made_programs_against_op_definitions() {
    let add = |slots: &str, attrs: &str| {
        format!("type: \"elementwise_add\" {slots} outputs {{ parameter: \"Out\" arguments: \"out\" }} {attrs}")
    };
    let both =
        "inputs { parameter: \"X\" arguments: \"x\" } inputs { parameter: \"Y\" arguments: \"y\" }";
    let cases = [
        (
            "unknown slot",
            hand_made("FP32", &add(&format!("{both} inputs {{ parameter: \"Z\" arguments: \"x\" }}"), "")),
            "block 0, op 0 (elementwise_add): unknown input slot `Z`; elementwise_add has X, Y",
        ),
        (
            "missing required input",
            hand_made("FP32", &add("inputs { parameter: \"X\" arguments: \"x\" }", "")),
            "block 0, op 0 (elementwise_add): required input `Y` is missing",
        ),
        (
            "wrong attribute type",
            hand_made("FP32", &add(both, "attrs { name: \"axis\" type: FLOAT f: 1 }")),
            "block 0, op 0 (elementwise_add): attribute `axis` has type FLOAT, expected INT",
        ),
        (
            "mismatched dtypes",
            hand_made("INT64", &add(both, "")),
            "block 0, op 0 (elementwise_add): inputs X and Y have different dtypes (float32 and int64)",
        ),
    ];
    let dir = temp_dir("hand_made");
    for (what, text, expected) in cases {
        let file = dir.join(format!("{}.pbtxt", what.replace(' ', "_")));
        std::fs::write(&file, text).expect("write pbtxt");
        let out = fluidc(&["compile", path_str(&file), "-o", "-"], b"");
        assert_eq!(out.status.code(), Some(1), "{what}: {}", stderr(&out));
        assert!(
            stderr(&out).contains(expected),
            "{what}: expected {expected:?} in:\n{}",
            stderr(&out)
        );
        assert!(!stderr(&out).contains("panicked"), "{what}");
    }
    // The same program with matching dtypes and known slots passes.
    let file = dir.join("good.pbtxt");
    std::fs::write(&file, hand_made("FP32", &add(both, ""))).expect("write pbtxt");
    let out = fluidc(&["compile", path_str(&file), "-o", "-"], b"");
    assert!(out.status.success(), "{}", stderr(&out));
}

/// A program of `n` nested conditional_blocks, as protobuf text.
fn nested_blocks(n: usize) -> String {
    let mut text = String::new();
    for i in 0..=n {
        let parent = if i == 0 { -1 } else { i as i64 - 1 };
        let var = if i == 0 {
            "vars { name: \"c\" type { type: DENSE_TENSOR dense_tensor { tensor { data_type: BOOL dims: 1 } } } }"
        } else {
            ""
        };
        let op = if i < n {
            format!(
                "ops {{ type: \"conditional_block\" inputs {{ parameter: \"Cond\" arguments: \"c\" }} \
                 inputs {{ parameter: \"Input\" }} outputs {{ parameter: \"Out\" }} \
                 outputs {{ parameter: \"Scope\" arguments: \"s\" }} \
                 attrs {{ name: \"sub_block\" type: BLOCK block_idx: {} }} }}",
                i + 1
            )
        } else {
            String::new()
        };
        text.push_str(&format!(
            "blocks {{ idx: {i} parent_idx: {parent} {var} {op} }}\n"
        ));
    }
    text
}

/// Deeply nested blocks verify, dump and re-encode (the verifier and
/// `pretty` used to be quadratic in depth, and `pretty` recursive); `graph`
/// refuses more levels than Graphviz lays out, with a way out.
#[test]
fn deeply_nested_programs_verify_and_print() {
    let dir = temp_dir("nested");
    let txt = dir.join("nested.pbtxt");
    std::fs::write(&txt, nested_blocks(10_000)).expect("write");
    let pb = dir.join("nested.pb");
    let out = fluidc(
        &[
            "compile",
            path_str(&txt),
            "--passes",
            "none",
            "-o",
            path_str(&pb),
        ],
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    for format in ["pretty", "text"] {
        let out = fluidc(&["dump", path_str(&pb), "--format", format], b"");
        assert!(out.status.success(), "{format}: {}", stderr(&out));
        assert!(stdout(&out).contains("block 10000, parent 9999") || format == "text");
    }
    let out = fluidc(&["graph", path_str(&pb)], b"");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out)
        .contains("graph draws at most 200 levels: draw part of the program with --block N"));
    let out = fluidc(&["graph", path_str(&pb), "--block", "9990"], b"");
    assert!(out.status.success(), "{}", stderr(&out));
}

/// A fetch column beyond the program's fetch ops is a verify error (the
/// runtime used to resize the fetch list to two billion entries and abort).
#[test]
fn a_fetch_column_out_of_range_is_refused() {
    let text = "blocks { idx: 0 parent_idx: -1 \
        vars { name: \"x\" type { type: DENSE_TENSOR dense_tensor { tensor { data_type: FP32 dims: 1 } } } } \
        vars { name: \"fetch\" type { type: FETCH_LIST } persistable: true } \
        ops { type: \"fill_constant\" outputs { parameter: \"Out\" arguments: \"x\" } \
              attrs { name: \"shape\" type: LONGS longs: 1 } attrs { name: \"dtype\" type: INT i: 5 } } \
        ops { type: \"fetch\" inputs { parameter: \"X\" arguments: \"x\" } outputs { parameter: \"Out\" arguments: \"fetch\" } \
              attrs { name: \"col\" type: INT i: 2000000000 } } }";
    let file = temp_dir("big_col").join("big_col.pbtxt");
    std::fs::write(&file, text).expect("write");
    let out = fluidc(&["run", path_str(&file)], b"");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "block 0, op 1 (fetch): col 2000000000 is out of range: the program has 1 fetch op(s)"
        ),
        "{}",
        stderr(&out)
    );
}

/// A `--block` the program lacks is a usage error (exit 2), as other bad
/// argument values are.
#[test]
fn a_block_the_program_lacks_is_a_usage_error() {
    for cmd in ["dump", "graph"] {
        let out = fluidc(&[cmd, "testdata/paddle/compare.pb", "--block", "9"], b"");
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{cmd}: {err}");
        assert!(err.contains("--block 9: the program has 1 blocks"), "{err}");
    }
}

/// With `--format json`, a deadlock is JSON on stdout too (and text on
/// stderr), for a script and for a compiled program.
#[test]
fn run_errors_are_json_on_stdout_with_format_json() {
    let dir = temp_dir("json_errors");
    let pb = dir.join("deadlock.pb");
    let out = fluidc(
        &[
            "compile",
            "testdata/programs/deadlock.py",
            "-o",
            path_str(&pb),
        ],
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    for input in ["testdata/programs/deadlock.py", path_str(&pb)] {
        let out = fluidc(&["run", input, "--format", "json"], b"");
        assert_eq!(out.status.code(), Some(3), "{input}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
        assert_eq!(v["error"]["kind"], "deadlock", "{v}");
        assert_eq!(v["error"]["exit_code"], 3, "{v}");
        let message = v["error"]["message"].as_str().expect("a message");
        assert!(message.contains("blocked in channel_recv"), "{message}");
        assert!(
            stderr(&out).contains("deadlock: all goroutines are asleep"),
            "text on stderr too"
        );
    }
}

/// `fluidc completions SHELL` prints a completion script generated from the
/// command definitions: bash parses it, and it offers every subcommand and
/// the flags of `run`.
#[test]
fn completions_cover_every_subcommand() {
    let out = fluidc(&["completions", "bash"], b"");
    assert!(out.status.success(), "{}", stderr(&out));
    let script = stdout(&out);
    for word in [
        "compile", "dump", "graph", "check", "run", "export", "--steps", "--stats",
    ] {
        assert!(script.contains(word), "bash completions lack {word}");
    }
    let dir = temp_dir("completions");
    let file = dir.join("fluidc.bash");
    std::fs::write(&file, &script).expect("write");
    let syntax = std::process::Command::new("bash")
        .args(["-n", path_str(&file)])
        .output()
        .expect("bash runs");
    assert!(
        syntax.status.success(),
        "{}",
        String::from_utf8_lossy(&syntax.stderr)
    );
    for shell in ["zsh", "fish"] {
        let out = fluidc(&["completions", shell], b"");
        assert!(
            out.status.success() && stdout(&out).contains("--steps"),
            "{shell}"
        );
    }
    assert_eq!(fluidc(&["completions", "tcsh"], b"").status.code(), Some(2));
}

/// `fluidc man [COMMAND]` prints roff man pages generated from the same
/// definitions as `--help`: fluidc(1) lists every subcommand, each has its
/// own page, and an unknown one is a usage error.
#[test]
fn man_pages_cover_every_subcommand() {
    let out = fluidc(&["man"], b"");
    assert!(out.status.success(), "{}", stderr(&out));
    let page = stdout(&out);
    assert!(page.starts_with(".ie"), "not roff: {page}");
    for sub in [
        "compile",
        "dump",
        "run",
        "check",
        "graph",
        "export",
        "completions",
    ] {
        assert!(
            page.contains(&format!("fluidc\\-{sub}(1)")),
            "fluidc(1) lacks {sub}:\n{page}"
        );
        let sub_page = fluidc(&["man", sub], b"");
        assert!(sub_page.status.success(), "{sub}: {}", stderr(&sub_page));
        assert!(
            stdout(&sub_page).contains(&format!(".TH fluidc-{sub} 1")),
            "{sub}"
        );
    }
    assert!(stdout(&fluidc(&["man", "graph"], b"")).contains("\\-\\-format"));
    let bad = fluidc(&["man", "nope"], b"");
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("no subcommand `nope`; man pages: compile,"),
        "{}",
        stderr(&bad)
    );
}

/// `--help` documents every argument (issue 18): in each subcommand's
/// help, no option or positional stands without a description.
#[test]
fn every_argument_in_help_has_a_description() {
    let top = stdout(&fluidc(&["--help"], b""));
    let subcommands: Vec<&str> = top
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert!(subcommands.len() >= 8, "{top}");
    for sub in subcommands {
        let help = stdout(&fluidc(&[sub, "--help"], b""));
        let lines: Vec<&str> = help.lines().collect();
        let indent = |l: &str| l.len() - l.trim_start().len();
        for (k, line) in lines.iter().enumerate() {
            let t = line.trim();
            // An argument's line: `-o, --output <OUTPUT>` or `<INPUT>`
            // (`- value: ...` lines describe possible values).
            let defines = (t.starts_with('-') && !t.starts_with("- "))
                || (t.starts_with('<') && t.contains('>'));
            if !line.starts_with("  ") || !defines {
                continue;
            }
            // Its description follows two spaces on, or (clap's long
            // layout) on the next, deeper-indented line.
            let inline = t
                .split_once("  ")
                .is_some_and(|(_, d)| !d.trim().is_empty());
            let below = lines
                .get(k + 1)
                .is_some_and(|n| indent(n) > indent(line) && !n.trim().is_empty());
            assert!(
                inline || below,
                "`fluidc {sub} --help` has an argument without a description: {line}"
            );
        }
    }
}
