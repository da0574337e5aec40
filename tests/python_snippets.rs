//! How faithful fluidc's Python (RustPython) is: every snippet of plain
//! Python in `testdata/python/snippets/` runs under `fluidc run` and under
//! CPython 3.11 (the interop venv's), and their stdout, stderr and exit
//! status are compared. At least 97% must agree, and every snippet that
//! differs must be listed, with the reason, in
//! `testdata/python/snippets/KNOWN_DIFFERENCES.md`; a listed snippet that
//! starts to agree fails the test too, so the list stays true.
//!
//! Before comparing, both outputs are normalized for what fluidc does on
//! purpose: tracebacks name the script by the path given on the command
//! line (CPython makes `__main__`'s path absolute), they have no
//! `~~~^^^` caret lines (CPython 3.11 marks the failing expression), and
//! unittest's `Ran N tests in 0.001s` has its time blanked.
mod common;

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use common::repo;

const SNIPPETS: &str = "testdata/python/snippets";
const KNOWN: &str = "testdata/python/snippets/KNOWN_DIFFERENCES.md";
/// The share of snippets that must print what CPython prints.
const MIN_AGREEMENT: f64 = 0.97;
const MIN_SNIPPETS: usize = 300;
/// A snippet that runs longer than this (in either Python) has hung.
const TIMEOUT: Duration = Duration::from_secs(120);

/// What one run printed, normalized, and how it ended.
#[derive(Debug, PartialEq, Eq)]
struct Run {
    stdout: String,
    stderr: String,
    status: String,
}

/// The snippets' file names, sorted.
fn snippets() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(repo().join(SNIPPETS))
        .expect("the snippets directory exists")
        .map(|e| {
            e.expect("readable entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n.ends_with(".py"))
        .collect();
    names.sort();
    names
}

/// `KNOWN_DIFFERENCES.md`'s entries: lines `- name.py: reason`.
fn known_differences() -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(repo().join(KNOWN)).expect("KNOWN_DIFFERENCES.md exists");
    let mut known = BTreeMap::new();
    for line in text.lines() {
        let Some(entry) = line.strip_prefix("- ") else {
            continue;
        };
        let (name, reason) = entry.split_once(':').unwrap_or((entry, ""));
        let name = name.trim().trim_matches('`').to_string();
        assert!(
            name.ends_with(".py") && !reason.trim().is_empty(),
            "{KNOWN}: an entry is `- name.py: reason`, not {line:?}"
        );
        assert!(
            known
                .insert(name.clone(), reason.trim().to_string())
                .is_none(),
            "{KNOWN}: {name} is listed twice"
        );
    }
    known
}

/// The text with what fluidc changes on purpose undone (see the module
/// documentation).
fn normalize(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let absolute = format!("{}/{SNIPPETS}/", repo().display());
    let text = text.replace(&absolute, &format!("{SNIPPETS}/"));
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches('\n');
        let trimmed = body.trim();
        if !trimmed.is_empty() && trimmed.chars().all(|c| c == '^' || c == '~') {
            continue;
        }
        match (body.starts_with("Ran "), body.rfind(" in ")) {
            (true, Some(at)) if body.ends_with('s') => {
                out.push_str(&body[..at]);
                out.push_str(" in X.XXXs");
                out.push_str(&line[body.len()..]);
            }
            _ => out.push_str(line),
        }
    }
    out
}

fn status_text(status: ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return format!("killed by signal {signal}");
        }
    }
    format!("exit code {}", status.code().unwrap_or(-1))
}

/// Runs `cmd` from the repository with the test's environment.
fn run(mut cmd: Command, what: &str) -> Run {
    cmd.current_dir(repo())
        .env("COLUMNS", "80")
        .env("TZ", "UTC")
        .env("FLUIDC_SNIPPET", "from-the-test")
        .env_remove("FLUIDC_PYTHON_DIR")
        .env_remove("PYTHONPATH")
        .env_remove("PYTHONWARNINGS")
        .env("PYTHONUTF8", "1")
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .env("RUST_BACKTRACE", "0")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap_or_else(|e| panic!("{what} starts: {e}"));
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let out = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let err = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for the child") {
            break status_text(status);
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            break format!("hung (killed after {}s)", TIMEOUT.as_secs());
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Run {
        stdout: normalize(&out.join().expect("stdout reader")),
        stderr: normalize(&err.join().expect("stderr reader")),
        status,
    }
}

fn fluidc_run(script: &str) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_fluidc"));
    cmd.args(["run", script]);
    run(cmd, "fluidc")
}

fn cpython_run(python: &Path, script: &str) -> Run {
    let mut cmd = Command::new(python);
    cmd.arg(script);
    run(cmd, "python")
}

/// The first lines where two texts differ, for a failure message.
fn first_difference(theirs: &str, ours: &str) -> String {
    let (a, b): (Vec<&str>, Vec<&str>) = (theirs.lines().collect(), ours.lines().collect());
    let at = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let show = |lines: &[&str]| {
        let shown: Vec<String> = lines
            .iter()
            .skip(at)
            .take(8)
            .map(|l| format!("      {l}"))
            .collect();
        if shown.is_empty() {
            "      <end>".to_string()
        } else {
            shown.join("\n")
        }
    };
    format!(
        "    from line {}\n    CPython:\n{}\n    fluidc:\n{}",
        at + 1,
        show(&a),
        show(&b)
    )
}

fn describe(name: &str, theirs: &Run, ours: &Run) -> String {
    let mut text = format!("  {name}:\n");
    if theirs.stdout != ours.stdout {
        text.push_str(&format!(
            "   stdout differs\n{}\n",
            first_difference(&theirs.stdout, &ours.stdout)
        ));
    }
    if theirs.stderr != ours.stderr {
        text.push_str(&format!(
            "   stderr differs\n{}\n",
            first_difference(&theirs.stderr, &ours.stderr)
        ));
    }
    if theirs.status != ours.status {
        text.push_str(&format!(
            "   CPython: {}, fluidc: {}\n",
            theirs.status, ours.status
        ));
    }
    text
}

#[test]
fn python_snippets_print_what_cpython_prints() {
    let names = snippets();
    let known = known_differences();
    let python: PathBuf = common::paddle_python();
    assert!(
        names.len() >= MIN_SNIPPETS,
        "{} snippets; the suite needs at least {MIN_SNIPPETS}",
        names.len()
    );
    for name in known.keys() {
        assert!(
            names.contains(name),
            "{KNOWN} lists {name}, which is not a snippet"
        );
    }

    // Each run costs a process start (30-100 ms for a debug fluidc), so
    // the snippets run a few at a time.
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(String, Run, Run)>> = Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(2, 4);
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(name) = names.get(i) else { break };
                let script = format!("{SNIPPETS}/{name}");
                let ours = fluidc_run(&script);
                let theirs = cpython_run(&python, &script);
                results.lock().unwrap().push((name.clone(), theirs, ours));
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by(|a, b| a.0.cmp(&b.0));

    let agreeing = results.iter().filter(|(_, t, o)| t == o).count();
    let rate = agreeing as f64 / results.len() as f64;
    let mut unexpected = String::new();
    let mut stale = Vec::new();
    for (name, theirs, ours) in &results {
        match (theirs == ours, known.contains_key(name)) {
            (false, false) => unexpected.push_str(&describe(name, theirs, ours)),
            (true, true) => stale.push(name.as_str()),
            _ => {}
        }
    }
    println!(
        "{agreeing} of {} snippets print what CPython prints ({:.1}%); {} known differences",
        results.len(),
        rate * 100.0,
        known.len()
    );
    let mut problems = Vec::new();
    if !unexpected.is_empty() {
        problems.push(format!(
            "snippets that differ from CPython but are not in {KNOWN}:\n{unexpected}"
        ));
    }
    if !stale.is_empty() {
        problems.push(format!(
            "snippets listed in {KNOWN} that now agree with CPython (remove them from the list): {}",
            stale.join(", ")
        ));
    }
    if rate < MIN_AGREEMENT {
        problems.push(format!(
            "only {agreeing} of {} snippets agree ({:.1}%); at least {:.0}% must",
            results.len(),
            rate * 100.0,
            MIN_AGREEMENT * 100.0
        ));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
