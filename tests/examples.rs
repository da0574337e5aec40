//! `examples/scripts/` (issue 18): the newcomer's scripts run as the README
//! says. Each prints its golden `NAME.expected` (exit status, stdout and
//! stderr; `FLUIDC_BLESS=1` rewrites them), and the ones without channels
//! print what CPython + Paddle 3.3.1 print (through the fluid2018 shim).
//! Tracebacks name the script by its absolute path, as CPython does; the
//! goldens write the checkout's root as `<repo>` so they hold on any machine.
mod common;

use common::{fluidc, repo, run_with_paddle, stderr, stdout};

#[test]
fn example_scripts_print_their_golden_output_and_paddles() {
    let dir = repo().join("examples/scripts");
    let mut scripts: Vec<_> = std::fs::read_dir(&dir)
        .expect("examples/scripts")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "py"))
        .collect();
    scripts.sort();
    assert!(scripts.len() >= 6, "examples/scripts has too few scripts");
    for script in scripts {
        let rel = script.strip_prefix(repo()).expect("in repo");
        let rel_str = rel.to_str().expect("UTF-8 path");
        let out = fluidc(&["run", rel_str], b"");
        let root = format!("{}/", repo().display());
        let shown = format!(
            "exit {}\n--- stdout\n{}--- stderr\n{}",
            out.status.code().unwrap_or(-1),
            stdout(&out),
            stderr(&out)
        )
        .replace(&root, "<repo>/");
        let golden = script.with_extension("expected");
        if std::env::var_os("FLUIDC_BLESS").is_some() {
            std::fs::write(&golden, &shown).expect("write golden");
        }
        let expected = std::fs::read_to_string(&golden).unwrap_or_default();
        assert_eq!(
            shown,
            expected,
            "{rel_str} differs from {}",
            golden.display()
        );
        let source = std::fs::read_to_string(&script).expect("read");
        if !source.contains("make_channel") {
            let theirs = run_with_paddle(rel, &repo(), &[]);
            assert_eq!(
                stdout(&out),
                String::from_utf8_lossy(&theirs.stdout),
                "{rel_str}: Paddle printed otherwise ({})",
                String::from_utf8_lossy(&theirs.stderr)
            );
        }
    }
}
