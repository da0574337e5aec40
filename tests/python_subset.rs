//! README's "Python: the VM" and issue 14: classes, exceptions, generators, the small
//! modules and `unittest` in run mode, compared with CPython's own output;
//! a unittest file of channel programs; `check`/`--test` on unittest files.
mod common;

use std::process::Command;

use common::{fluidc, repo, stderr, stdout};

/// `Ran N tests in 0.123s` with the time blanked (it differs run to run).
fn untimed(text: &str) -> String {
    text.lines()
        .map(|l| match (l.starts_with("Ran "), l.rfind(" in ")) {
            (true, Some(at)) => format!("{} in X.XXXs", &l[..at]),
            _ => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Runs `file` (relative to the repository) in CPython (the venv's, with
/// numpy), from the repository.
fn cpython(file: &str) -> std::process::Output {
    Command::new(common::paddle_python())
        .arg(repo().join(file))
        .current_dir(repo())
        .output()
        .expect("python runs")
}

#[test]
fn a_python_unittest_file_prints_what_cpython_prints() {
    let file = "testdata/unittest/python_subset.py";
    let py = cpython(file);
    let ours = fluidc(&["run", file], b"");
    assert_eq!(stdout(&ours), stdout(&py), "stdout differs");
    assert_eq!(
        untimed(&stderr(&ours)),
        untimed(&stderr(&py)),
        "stderr differs"
    );
    assert_eq!(ours.status.code(), py.status.code());
    assert_eq!(ours.status.code(), Some(1), "one test fails on purpose");
}

/// unittest's failure texts (`Lists differ`, ndiff of pprint-ed values,
/// shortened reprs, `maxDiff`) are CPython 3.11's: a unittest file whose
/// tests fail on purpose prints what CPython + Paddle 3.3.1 print.
/// So do skipped tests (`@unittest.skipIf` on a class, `skip`,
/// `skipUnless`, `skipTest`, `SkipTest`) and docstrings under FAIL.
#[test]
fn assertion_failures_print_cpythons_diffs() {
    for name in ["failure_diffs.py", "skips.py"] {
        let file = repo().join("testdata/unittest").join(name);
        let path = file.to_str().expect("UTF-8 path");
        let py = common::run_with_paddle(&file, &repo(), &[]);
        let ours = fluidc(&["run", path], b"");
        assert_eq!(
            untimed(&stderr(&ours)),
            untimed(&stderr(&py)),
            "{name}: stderr differs"
        );
        assert_eq!(ours.status.code(), py.status.code(), "{name}");
        assert_eq!(ours.status.code(), Some(1), "{name}: tests fail on purpose");
    }
}

/// 2018 unittest files that inspect built programs (`block.create_parameter`,
/// `block.ops`, `op.attr`) pass as they pass in Paddle.
/// So do those that inspect an optimizer's internals (`_accumulators`,
/// `_create_optimization_pass`, the ops `minimize` returns).
#[test]
fn program_inspecting_unittest_files_pass_as_in_paddle() {
    for name in ["initializers.py", "optimizer_internals.py"] {
        let file = repo().join("testdata/unittest").join(name);
        let py = common::run_with_paddle(&file, &repo(), &[]);
        let ours = fluidc(&["run", file.to_str().expect("UTF-8 path")], b"");
        assert_eq!(
            untimed(&stderr(&ours)),
            untimed(&stderr(&py)),
            "{name}: stderr differs"
        );
        assert_eq!(ours.status.code(), Some(0), "{name}: {}", stderr(&ours));
        assert_eq!(py.status.code(), Some(0), "{name}");
    }
}

#[test]
fn the_concurrency_unittest_file_passes() {
    let out = fluidc(&["run", "testdata/unittest/concurrency.py"], b"");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("\nRan 6 tests in "), "{err}");
    assert!(err.contains("\n\nOK\n"), "{err}");
    // xrange runs as range, with a warning (Python's, at the line).
    assert!(
        err.contains("concurrency.py:129: UserWarning: `xrange` is Python 2's"),
        "{err}"
    );
    // A unittest file prints only what it prints (no fetches at the end).
    assert_eq!(stdout(&out), "");
}

#[test]
fn a_wrong_expected_value_fails_with_both_values() {
    let source = std::fs::read_to_string(repo().join("testdata/unittest/concurrency.py"))
        .expect("the test file");
    let bad = source.replace(
        "self.assertEqual(outs[0][0], 34)",
        "self.assertEqual(outs[0][0], 35)",
    );
    assert_ne!(bad, source);
    let dir = common::temp_dir("unittest_bad");
    let path = dir.join("concurrency_bad.py");
    std::fs::write(&path, bad).expect("write");
    let out = fluidc(&["run", common::path_str(&path)], b"");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    // The dots of the tests run, around the warning xrange gives.
    let warning = format!(
        "{}:129: UserWarning: `xrange` is Python 2's; fluidc runs it as `range`\n  for i in xrange(10):\n",
        common::path_str(&path)
    );
    assert!(err.replace(&warning, "").starts_with("....F.\n"), "{err}");
    assert!(
        err.contains("FAIL: test_fibonacci (__main__.TestSelect.test_fibonacci)"),
        "{err}"
    );
    assert!(
        err.contains("AssertionError: np.int32(34) != 35\n"),
        "{err}"
    );
    assert!(err.contains("\nFAILED (failures=1)\n"), "{err}");
}

#[test]
fn check_lists_the_tests_and_compile_takes_one() {
    let file = "testdata/unittest/concurrency.py";
    let out = fluidc(&["check", file], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let listing = stdout(&out);
    assert!(
        listing.starts_with(&format!("{file}: 6 tests\n")),
        "{listing}"
    );
    assert!(
        listing.contains("\n  TestSelect.test_fibonacci\n"),
        "{listing}"
    );

    let out = fluidc(&["compile", file, "-o", "-"], b"");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("this is a unittest file with 6 tests"),
        "{err}"
    );
    assert!(err.contains("--test NAME"), "{err}");

    let out = fluidc(
        &["compile", file, "--test", "test_fibonacci", "-o", "-"],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!out.stdout.is_empty());
    let out = fluidc(
        &["dump", file, "--test", "TestRoutineOp.test_ping_pong"],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("channel_send"), "{}", stdout(&out));

    let out = fluidc(&["compile", file, "--test", "test_nope", "-o", "-"], b"");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("--test test_nope: the file has no such test"),
        "{err}"
    );
}

fn run_snippet(name: &str, source: &str) -> std::process::Output {
    let dir = common::temp_dir(name);
    let path = dir.join("script.py");
    std::fs::write(&path, source).expect("write");
    fluidc(&["run", common::path_str(&path)], b"")
}

#[test]
fn a_runtime_error_in_exe_run_can_be_caught() {
    let out = run_snippet(
        "catch_runtime",
        "import paddle.fluid as fluid\n\
         x = fluid.layers.fill_constant(shape=[1], dtype='int32', value=6)\n\
         y = fluid.layers.fill_constant(shape=[1], dtype='int32', value=0)\n\
         z = fluid.layers.elementwise_div(x, y)\n\
         exe = fluid.Executor(fluid.CPUPlace())\n\
         try:\n    exe.run(fetch_list=[z])\n    print('no error')\n\
         except RuntimeError as e:\n    print('caught RuntimeError')\n\
         print('done')\n",
    );
    assert_eq!(
        stdout(&out),
        "caught RuntimeError\ndone\n",
        "{}",
        stderr(&out)
    );
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn an_uncaught_raise_stops_the_script_with_one_error() {
    let out = run_snippet(
        "uncaught",
        "def f(x):\n    raise ValueError('bad %d' % x)\nprint('before')\nf(2)\nprint('after')\n",
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(stdout(&out), "before\n");
    // CPython's traceback: the calls, then the exception.
    assert!(
        err.contains("script.py\", line 4, in <module>\n    f(2)\n"),
        "{err}"
    );
    assert!(
        err.ends_with(
            "script.py\", line 2, in f\n    raise ValueError('bad %d' % x)\nValueError: bad 2\n"
        ),
        "{err}"
    );
    assert_eq!(err.matches("Traceback").count(), 1, "{err}");
}

#[test]
fn sys_exit_sets_the_status() {
    let out = run_snippet(
        "sys_exit",
        "import sys\nprint('x')\nsys.exit(3)\nprint('y')\n",
    );
    assert_eq!(stdout(&out), "x\n");
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
}

/// Run mode stops at the first uncaught exception, as CPython does: the
/// same stdout up to it, exit status 1, one error at its line.
#[test]
fn run_mode_stops_at_the_first_uncaught_exception_as_cpython_does() {
    let file = "testdata/run_errors/uncaught_index_error.py";
    let py = cpython(file);
    let ours = fluidc(&["run", file], b"");
    assert_eq!(stdout(&ours), stdout(&py), "stdout differs");
    assert_eq!(ours.status.code(), py.status.code());
    assert!(stderr(&py).contains("IndexError"), "{}", stderr(&py));
    let err = stderr(&ours);
    assert!(err.contains("\nIndexError: "), "{err}");
    assert!(
        err.contains("uncaught_index_error.py\", line 10, in <listcomp>\n"),
        "{err}"
    );
    assert_eq!(err.matches("Traceback").count(), 1, "{err}");
}

/// argparse (with `*args`/`**kwargs`, `type()`, `vars`, `six` and
/// `distutils.util.strtobool`, as the book's and models' scripts use them):
/// the words after `--` are the script's `sys.argv[1:]`, and every run
/// prints, writes to stderr and exits as CPython does, help and errors
/// included.
#[test]
fn argparse_scripts_parse_their_arguments_as_cpython_does() {
    let file = "testdata/python/argparse_args.py";
    for words in [
        &[][..],
        &["--num_epochs", "3", "--enable_ce", "a", "b"],
        &[
            "--use_cuda",
            "yes",
            "--lr=0.5",
            "--mode",
            "infer",
            "-vv",
            "--layer",
            "2",
        ],
        &["--num", "5", "--", "-x"],
        &["-h"],
        &["--batch_size", "abc"],
        &["--bogus", "1"],
    ] {
        let py = Command::new(common::paddle_python())
            .arg(repo().join(file))
            .args(words)
            .current_dir(repo())
            .output()
            .expect("python runs");
        let mut args = vec!["run", file, "--"];
        args.extend(words);
        let ours = fluidc(&args, b"");
        assert_eq!(stdout(&ours), stdout(&py), "stdout differs for {words:?}");
        assert_eq!(stderr(&ours), stderr(&py), "stderr differs for {words:?}");
        assert_eq!(ours.status.code(), py.status.code(), "{words:?}");
    }
}

#[test]
fn script_arguments_are_refused_for_a_compiled_program() {
    let out = fluidc(&["run", "testdata/paddle/compare.pb", "--", "--x"], b"");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("are a script's sys.argv"), "{err}");
}
