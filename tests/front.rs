//! The front end, end to end: `testdata/front/ok/*.py` compile and dump to
//! their `.pretty` golden files; `testdata/front/err/*.py` fail `fluidc check`
//! with their `.stderr` golden output (the static findings, all at once, or
//! the traceback of the first exception the script raises). `FLUIDC_BLESS=1` rewrites the
//! golden files; review the diff.
mod common;
use common::*;

use std::path::{Path, PathBuf};

fn scripts(dir: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(repo().join(dir))
        .expect("testdata dir exists")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "py"))
        // `_name.py` is a module the scripts beside it import.
        .filter(|p| {
            !p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('_'))
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{dir} has no scripts");
    files
}

/// Compares `actual` with the golden file, or rewrites it when blessing.
fn golden(path: &Path, actual: &str) -> Result<(), String> {
    if std::env::var_os("FLUIDC_BLESS").is_some() {
        std::fs::write(path, actual).expect("write golden file");
        return Ok(());
    }
    let expected = std::fs::read_to_string(path).unwrap_or_default();
    if expected == actual {
        Ok(())
    } else {
        Err(format!("{} differs (FLUIDC_BLESS=1 rewrites it):\n--- expected\n{expected}\n--- actual\n{actual}", path.display()))
    }
}

fn relative(p: &Path) -> String {
    p.strip_prefix(repo())
        .expect("under the repo")
        .to_str()
        .expect("UTF-8")
        .to_string()
}

#[test]
fn ok_scripts_match_their_pretty_dumps() {
    let mut failures = Vec::new();
    for py in scripts("testdata/front/ok") {
        let rel = relative(&py);
        let out = fluidc(&["dump", &rel, "--stage", "parsed"], b"");
        assert!(out.status.success(), "{rel}: {}", stderr(&out));
        if let Err(e) = golden(&py.with_extension("pretty"), &stdout(&out)) {
            failures.push(e);
        }
        let check = fluidc(&["check", &rel], b"");
        assert!(
            check.status.success() && check.stdout.is_empty(),
            "check {rel}: {}",
            stderr(&check)
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn err_scripts_match_their_diagnostics() {
    let mut failures = Vec::new();
    for py in scripts("testdata/front/err") {
        let rel = relative(&py);
        let out = fluidc(&["check", &rel], b"");
        assert_eq!(
            out.status.code(),
            Some(1),
            "{rel} must fail with exit 1: {}",
            stderr(&out)
        );
        assert!(out.stdout.is_empty());
        // Tracebacks name the script as CPython does, by its absolute
        // path: the golden files have it from the repository.
        let shown = stderr(&out).replace(&format!("{}/", repo().display()), "");
        if let Err(e) = golden(&py.with_extension("stderr"), &shown) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn seed_000_as_written_reports_its_three_undefined_names_with_lines() {
    let out = fluidc(&["check", "testdata/front/err/seed000_select.py"], b"");
    let err = stderr(&out);
    for (name, line) in [("channel", 19), ("quit_channel", 25), ("result2", 25)] {
        assert!(
            err.contains(&format!("name `{name}` is not defined")),
            "{err}"
        );
        assert!(err.contains(&format!("seed000_select.py:{line}:")), "{err}");
    }
    assert!(err.contains("3 errors"), "{err}");
}

#[test]
fn ops_record_their_python_source_line() {
    let out = fluidc(
        &[
            "dump",
            "testdata/front/ok/csp_ping_pong.py",
            "--format",
            "text",
        ],
        b"",
    );
    let text = stdout(&out);
    // The copy `assign` of ping()'s send: called at line 23, sent at line
    // 8. The file is named as CPython names the main script: absolute.
    let file = repo().join("testdata/front/ok/csp_ping_pong.py");
    let frames = format!(
        "      strings: \"  File \\\"{0}\\\", line 23, in <module>\"\n      \
         strings: \"    ping(pings, msg)\"\n      \
         strings: \"  File \\\"{0}\\\", line 8, in ping\"",
        file.display()
    );
    assert!(
        text.contains(&frames),
        "op_callstack names the file, lines and functions:\n{text}"
    );
}

#[test]
fn python_compiles_to_a_pb_that_reads_back() {
    let dir = temp_dir("front_pb");
    let pb = dir.join("daisy.pb");
    let out = fluidc(
        &[
            "testdata/front/ok/csp_daisy_chain.py",
            "--passes",
            "none",
            "-o",
            path_str(&pb),
        ],
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let dumped = fluidc(&["dump", path_str(&pb)], b"");
    let from_py = fluidc(
        &[
            "dump",
            "testdata/front/ok/csp_daisy_chain.py",
            "--stage",
            "parsed",
        ],
        b"",
    );
    assert_eq!(stdout(&dumped), stdout(&from_py));
    // 100 goroutines plus the one that starts the chain.
    assert_eq!(stdout(&from_py).matches("= go(").count(), 101);
}

#[test]
fn a_keyword_paddle_ignores_is_a_warning_naming_the_likely_one() {
    let out = fluidc(&["check", "testdata/front/warn/cond_keyword_typo.py"], b"");
    let err = stderr(&out);
    assert!(
        out.status.success(),
        "a warning does not fail the compile: {err}"
    );
    // Python's warning, at the user's line.
    assert!(
        err.contains(
            "cond_keyword_typo.py:12: UserWarning: less_than() ignores the keyword argument \
             `cnd`; did you mean `cond`?\n  layers.less_than(i, n, cnd=cond)\n"
        ),
        "{err}"
    );
    assert_eq!(err.matches("UserWarning").count(), 1, "{err}");
}
