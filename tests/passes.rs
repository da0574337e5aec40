//! One folder per pass, `testdata/passes/<pass>/`: each script is compiled
//! and the named pass alone is run on it; the result must equal the
//! `.expected` pretty dump (`FLUIDC_BLESS=1` rewrites them). Plus the 2018
//! target's lowering of seed 000 against the structure seed 000 prints.
mod common;
use common::*;

#[test]
fn each_pass_matches_its_golden_output() {
    let mut failures = Vec::new();
    let mut count = 0;
    for dir in std::fs::read_dir(repo().join("testdata/passes")).expect("testdata/passes") {
        let dir = dir.expect("entry").path();
        let pass = dir
            .file_name()
            .and_then(|n| n.to_str())
            .expect("UTF-8")
            .to_string();
        for f in std::fs::read_dir(&dir).expect("pass dir") {
            let py = f.expect("entry").path();
            if py.extension().is_none_or(|e| e != "py") {
                continue;
            }
            count += 1;
            let rel = py
                .strip_prefix(repo())
                .expect("in repo")
                .to_str()
                .expect("UTF-8")
                .to_string();
            let out = fluidc(&["dump", &rel, "--passes", &pass, "--verify"], b"");
            assert!(out.status.success(), "{rel}: {}", stderr(&out));
            let golden = py.with_extension("expected");
            let actual = stdout(&out);
            if std::env::var_os("FLUIDC_BLESS").is_some() {
                std::fs::write(&golden, &actual).expect("write golden");
            } else if std::fs::read_to_string(&golden).unwrap_or_default() != actual {
                failures.push(format!(
                    "{} differs (FLUIDC_BLESS=1 rewrites it):\n{actual}",
                    golden.display()
                ));
            }
        }
    }
    assert!(count >= 4, "expected pass test scripts");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn seed_000_lowers_to_the_2018_structure_it_prints() {
    let out = fluidc(
        &[
            "dump",
            "testdata/front/ok/seed000_select_fixed.py",
            "-O0",
            "--target",
            "fluid2018",
            "--format",
            "json",
        ],
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let p: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let blocks = p["blocks"].as_array().expect("blocks");
    let ops = |b: &serde_json::Value| -> Vec<String> {
        b["ops"]
            .as_array()
            .map(|o| {
                o.iter()
                    .map(|op| op["type"].as_str().unwrap_or("").to_string())
                    .collect()
            })
            .unwrap_or_default()
    };
    // The while body: the is_copy assign, case_to_execute, select.
    let body = blocks
        .iter()
        .find(|b| ops(b).contains(&"select".to_string()))
        .expect("a block with the select");
    assert_eq!(ops(body), ["assign", "fill_constant", "select"]);
    let fill = &body["ops"][1];
    let attr = |op: &serde_json::Value, name: &str| {
        op["attrs"]
            .as_array()
            .and_then(|a| a.iter().find(|x| x["name"] == name).cloned())
    };
    assert_eq!(attr(fill, "shape").expect("shape")["type"], "INTS");
    assert_eq!(attr(fill, "value").expect("value")["f"], -1.0);
    assert_eq!(attr(fill, "dtype").expect("dtype")["i"], 2);
    assert!(
        attr(fill, "str_value").is_none(),
        "2018 fill_constant has no str_value"
    );
    let select = &body["ops"][2];
    assert_eq!(
        attr(select, "cases").expect("cases")["strings"],
        serde_json::json!([
            "0,1,channel_0,fill_constant_2.tmp_0_copy_0",
            "1,2,channel_1,fill_constant_1.tmp_0"
        ])
    );
    assert_eq!(
        attr(select, "sub_block").expect("sub_block")["type"],
        "BLOCK"
    );
    let params: Vec<&str> = select["inputs"]
        .as_array()
        .expect("inputs")
        .iter()
        .map(|s| s["parameter"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(params, ["X", "case_to_execute"]);
    // The cases block: per case fill_constant, equal, conditional_block(X, Params).
    let cases_idx = attr(select, "sub_block").expect("sub_block")["block_idx"]
        .as_i64()
        .expect("idx") as usize;
    let cases = &blocks[cases_idx];
    assert_eq!(
        ops(cases),
        [
            "fill_constant",
            "equal",
            "conditional_block",
            "fill_constant",
            "equal",
            "conditional_block"
        ]
    );
    let cb = &cases["ops"][2];
    let cb_params: Vec<&str> = cb["inputs"]
        .as_array()
        .expect("inputs")
        .iter()
        .map(|s| s["parameter"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(cb_params, ["X", "Params"]);
    assert_eq!(attr(cb, "is_scalar_condition").expect("attr")["b"], true);
    let body_idx = attr(cb, "sub_block").expect("sub_block")["block_idx"]
        .as_i64()
        .expect("idx") as usize;
    assert_eq!(
        blocks[body_idx]["parent_idx"].as_i64(),
        Some(cases_idx as i64),
        "case bodies are children of the cases block"
    );
}

#[test]
fn unknown_pass_and_bad_print_after_are_usage_errors() {
    let out = fluidc(
        &[
            "dump",
            "testdata/passes/prune/dead_code.py",
            "--passes",
            "inline_everything",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("unknown pass `inline_everything`"),
        "{}",
        stderr(&out)
    );
    let out = fluidc(
        &[
            "dump",
            "testdata/passes/prune/dead_code.py",
            "-O0",
            "--print-after",
            "prune",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn print_after_and_max_steps_bisect_a_pipeline() {
    let out = fluidc(
        &[
            "dump",
            "testdata/passes/fold_constants/arithmetic.py",
            "-O2",
            "--print-after",
            "fold_constants",
        ],
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).starts_with("// after fold_constants\n{ // block 0"),
        "{}",
        stderr(&out)
    );
    // With no rewrites allowed, -O2 leaves the program as the front end built it.
    let none = fluidc(
        &[
            "dump",
            "testdata/passes/fold_constants/arithmetic.py",
            "-O2",
            "--max-steps",
            "0",
        ],
        b"",
    );
    let parsed = fluidc(
        &[
            "dump",
            "testdata/passes/fold_constants/arithmetic.py",
            "--stage",
            "parsed",
        ],
        b"",
    );
    assert_eq!(stdout(&none), stdout(&parsed));
    let one = fluidc(
        &[
            "dump",
            "testdata/passes/fold_constants/arithmetic.py",
            "-O2",
            "--max-steps",
            "1",
        ],
        b"",
    );
    assert_ne!(stdout(&one), stdout(&parsed));
}

/// A pass never changes a fetch: every fold_constants script gives the same
/// fetches unfolded (-O0) and folded (-O2). `cast_saturates.py` used to
/// give -1 folded and 2147483647 unfolded (the fold had its own evaluator).
#[test]
fn folding_gives_the_fetches_of_the_unfolded_program() {
    for f in std::fs::read_dir(repo().join("testdata/passes/fold_constants")).expect("dir") {
        let py = f.expect("entry").path();
        if py.extension().is_none_or(|e| e != "py") {
            continue;
        }
        let run = |level: &str| {
            let out = fluidc(&["run", path_str(&py), level, "--format", "json"], b"");
            (out.status.code(), stdout(&out))
        };
        let (unfolded, folded) = (run("-O0"), run("-O2"));
        assert_eq!(unfolded, folded, "{}", py.display());
    }
}

/// `compile --stats` (`-v`) prints a line per pass: the ops and variables
/// after it, the change, and `(no change)` where a pass did nothing, so a
/// user sees why two -O levels give the same program.
#[test]
fn stats_print_what_each_pass_did() {
    let out = fluidc(
        &[
            "compile",
            "testdata/front/ok/csp_fibonacci.py",
            "-O2",
            "--stats",
            "-o",
            "-",
        ],
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    let lines: Vec<&str> = err.lines().collect();
    let names: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(
        names,
        [
            "input",
            "lower_select",
            "prune",
            "fold_constants",
            "dedup_constants",
            "prune"
        ],
        "{err}"
    );
    assert!(
        lines[1].contains(" ms  (+"),
        "lower_select adds the lowered cases: {err}"
    );
    assert!(lines[3].ends_with("(no change)"), "{err}");
    // The program written is the one the last line counts.
    let ops: usize = lines[5].split_whitespace().nth(1).unwrap().parse().unwrap();
    let dump = fluidc(&["dump", "-", "--format", "json"], &out.stdout);
    let v: serde_json::Value = serde_json::from_slice(&dump.stdout).expect("json");
    let written: usize = v["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["ops"].as_array().map_or(0, Vec::len))
        .sum();
    assert_eq!(ops, written, "{err}");

    let out = fluidc(&["run", "testdata/run/host_loop.py", "--stats"], b"");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}
