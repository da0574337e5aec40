//! A guard for the runtime's layering (issue 41; ARCHITECTURE.md,
//! "Invariants"): the kernel layer (tensors, errors, values, scopes and
//! frames, `exec`, the kernel interface `kernel.rs`, the kernels `ops/*`)
//! never imports the driver layer (the program loader `load.rs`, `fuse.rs`,
//! goroutines, the interpreter and scheduler, sessions), and no runtime
//! module imports itself back through others.
//!
//! Read from `runtime/src`: every `crate::` path (in `use` trees too), every
//! `super::` path, and the crate root's and `ops/mod.rs`'s use of their
//! child modules (`array::register_all`), with each `ops/*` file a module of
//! its own. The crate root's `mod` and `pub use` lines are its public
//! surface, not imports. There is no allow-list.
mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use common::source::{rust_files, without_comments_and_literals};

/// The kernel layer; `ops` stands for `ops/mod.rs` and every `ops/*` file.
const KERNEL: [&str; 13] = [
    "channel",
    "collective",
    "error",
    "exec",
    "feed",
    "host",
    "kernel",
    "layout",
    "ops",
    "random",
    "scope",
    "tensor",
    "value",
];

/// The driver layer; `crate` is `lib.rs` (`run`, `RunOptions`).
const DRIVER: [&str; 11] = [
    "crate",
    "constant",
    "fuse",
    "goroutine",
    "interp",
    "load",
    "profile",
    "recurrent",
    "scheduler",
    "session",
    "steps",
];

/// Module -> the modules it imports, each with where (`file:line: path`).
type Graph = BTreeMap<String, BTreeMap<String, String>>;

/// The module graph of `files` (path relative to `src`, source).
fn module_graph(files: &[(String, String)]) -> Graph {
    let top: BTreeSet<String> = files
        .iter()
        .filter_map(|(p, _)| {
            let first = p.split('/').next()?;
            (first != "lib.rs").then(|| first.trim_end_matches(".rs").to_string())
        })
        .collect();
    let ops: BTreeSet<String> = files
        .iter()
        .filter_map(|(p, _)| p.strip_prefix("ops/")?.strip_suffix(".rs"))
        .filter(|m| *m != "mod")
        .map(str::to_string)
        .collect();
    // The module a path names (`["ops", "lod", "uses_lod"]` -> `ops::lod`).
    let node = |abs: &[String]| -> String {
        match abs {
            [] => "crate".into(),
            [first, ..] if !top.contains(first) => "crate".into(),
            [first, second, ..] if first == "ops" && ops.contains(second) => {
                format!("ops::{second}")
            }
            [first, ..] => first.clone(),
        }
    };
    let mut graph = Graph::new();
    for (path, src) in files {
        let code: Vec<char> = without_comments_and_literals(src).chars().collect();
        let module: Vec<String> = path
            .trim_end_matches(".rs")
            .split('/')
            .filter(|s| *s != "mod" && *s != "lib")
            .map(str::to_string)
            .collect();
        let from = node(&module);
        let inline = inline_modules(&code);
        let children: BTreeSet<String> = match module.as_slice() {
            [] => top.clone(),
            [m] if m == "ops" => ops.clone(),
            _ => BTreeSet::new(),
        };
        let surface = if module.is_empty() {
            reexports(&code)
        } else {
            Vec::new()
        };
        let mut i = 0;
        while i < code.len() {
            if !word_start(&code, i) {
                i += 1;
                continue;
            }
            let word: String = code[i..]
                .iter()
                .take_while(|c| c.is_alphanumeric() || **c == '_')
                .collect();
            let after = i + word.len();
            let at = skip_ws(&code, after);
            let is_path = code.get(at) == Some(&':') && code.get(at + 1) == Some(&':');
            let starts_path = !(i >= 2 && code[i - 1] == ':' && code[i - 2] == ':');
            let base: Option<Vec<String>> = if !is_path || !starts_path {
                None
            } else if word == "crate" {
                Some(Vec::new())
            } else if word == "super" {
                // `super` of an inline module (`mod tests`) is the file's module.
                let mut base = module.clone();
                base.extend(
                    inline
                        .iter()
                        .filter(|m| m.1 < i && i < m.2)
                        .map(|m| m.0.clone()),
                );
                base.pop();
                Some(base)
            } else if children.contains(&word) && !surface.iter().any(|r| r.0 < i && i < r.1) {
                Some(module.clone())
            } else {
                None
            };
            let Some(base) = base else {
                i = after.max(i + 1);
                continue;
            };
            let rest = if word == "crate" || word == "super" {
                skip_ws(&code, at + 2)
            } else {
                i
            };
            let (leaves, end) = use_tree(&code, rest);
            let line = code[..i].iter().filter(|&&c| c == '\n').count() + 1;
            let text: String = code[i..end].iter().filter(|c| !c.is_whitespace()).collect();
            for leaf in leaves {
                let mut abs = base.clone();
                for seg in leaf {
                    if seg == "super" {
                        abs.pop();
                    } else if seg != "self" {
                        abs.push(seg);
                    }
                }
                let to = node(&abs);
                if to != from {
                    graph
                        .entry(from.clone())
                        .or_default()
                        .entry(to)
                        .or_insert_with(|| format!("{path}:{line}: {text}"));
                }
            }
            i = end.max(i + 1);
        }
        graph.entry(from).or_default();
    }
    graph
}

fn word_start(code: &[char], i: usize) -> bool {
    let c = code[i];
    (c.is_alphabetic() || c == '_')
        && !(i > 0 && (code[i - 1].is_alphanumeric() || code[i - 1] == '_'))
}

fn skip_ws(code: &[char], mut i: usize) -> usize {
    while code.get(i).is_some_and(|c| c.is_whitespace()) {
        i += 1;
    }
    i
}

fn ident_at(code: &[char], i: usize) -> String {
    code[i.min(code.len())..]
        .iter()
        .take_while(|c| c.is_alphanumeric() || **c == '_')
        .collect()
}

/// The paths of the use tree (or expression path) at `i`: `a::b::{c, d::e}`
/// gives `[a, b, c]` and `[a, b, d, e]`; a glob ends its path. Also where
/// the tree ends.
fn use_tree(code: &[char], i: usize) -> (Vec<Vec<String>>, usize) {
    let mut prefix = Vec::new();
    let mut i = skip_ws(code, i);
    let mut end = i;
    loop {
        if code.get(i) == Some(&'{') {
            let mut leaves = Vec::new();
            i += 1;
            loop {
                i = skip_ws(code, i);
                match code.get(i) {
                    None => return (leaves, i),
                    Some('}') => return (leaves, i + 1),
                    Some(',') => i += 1,
                    _ => {
                        let (sub, end) = use_tree(code, i);
                        for s in sub {
                            leaves.push(prefix.iter().cloned().chain(s).collect());
                        }
                        i = end.max(i + 1);
                    }
                }
            }
        }
        let seg = ident_at(code, i);
        if seg.is_empty() {
            // A glob, or a path followed by generic arguments (`f::<T>`).
            return match code.get(i) {
                Some('*') => (vec![prefix], i + 1),
                _ => (vec![prefix], end),
            };
        }
        prefix.push(seg.clone());
        i += seg.len();
        end = i;
        let at = skip_ws(code, i);
        if code.get(at) == Some(&':') && code.get(at + 1) == Some(&':') {
            i = skip_ws(code, at + 2);
        } else {
            return (vec![prefix], i);
        }
    }
}

/// The inline modules of a file (`mod tests { ... }`): name and the span
/// of their braces.
fn inline_modules(code: &[char]) -> Vec<(String, usize, usize)> {
    let mut found = Vec::new();
    for i in 0..code.len() {
        if !word_start(code, i) || ident_at(code, i) != "mod" {
            continue;
        }
        let at = skip_ws(code, i + 3);
        let name = ident_at(code, at);
        let open = skip_ws(code, at + name.len());
        if name.is_empty() || code.get(open) != Some(&'{') {
            continue;
        }
        let mut depth = 0;
        for (j, c) in code.iter().enumerate().skip(open) {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ => {}
            }
            if depth == 0 {
                found.push((name, open, j));
                break;
            }
        }
    }
    found
}

/// The spans of the crate root's re-exports (`pub use ...;`).
fn reexports(code: &[char]) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    for i in 0..code.len() {
        if !word_start(code, i) || ident_at(code, i) != "pub" {
            continue;
        }
        let mut at = skip_ws(code, i + 3);
        if code.get(at) == Some(&'(') {
            at = code[at..]
                .iter()
                .position(|&c| c == ')')
                .map_or(at, |k| at + k + 1);
            at = skip_ws(code, at);
        }
        if ident_at(code, at) == "use" {
            let end = code[at..]
                .iter()
                .position(|&c| c == ';')
                .map_or(code.len(), |k| at + k);
            spans.push((i, end));
        }
    }
    spans
}

/// Kernel-layer modules importing driver-layer ones, and modules in no layer.
fn layer_problems(graph: &Graph) -> Vec<String> {
    let layer = |m: &str| {
        let top = m.split("::").next().unwrap_or(m);
        if KERNEL.contains(&top) {
            Some("kernel")
        } else if DRIVER.contains(&top) {
            Some("driver")
        } else {
            None
        }
    };
    let mut problems = Vec::new();
    for (from, imports) in graph {
        if layer(from).is_none() {
            problems.push(format!(
                "`{from}` is in no layer: add it to KERNEL or DRIVER in runtime/tests/layers.rs"
            ));
        }
        for (to, at) in imports {
            if layer(from) == Some("kernel") && layer(to) == Some("driver") {
                problems.push(format!("kernel `{from}` imports driver `{to}` ({at})"));
            }
        }
    }
    problems
}

/// An import cycle, as the imports that make it, if there is one.
fn find_cycle(graph: &Graph) -> Option<Vec<String>> {
    // 0: not seen, 1: on the current path, 2: done.
    fn visit<'g>(
        graph: &'g Graph,
        m: &'g str,
        state: &mut BTreeMap<&'g str, u8>,
        path: &mut Vec<&'g str>,
    ) -> Option<Vec<String>> {
        state.insert(m, 1);
        path.push(m);
        for to in graph.get(m).into_iter().flat_map(|i| i.keys()) {
            match state.get(to.as_str()).copied().unwrap_or(0) {
                1 => {
                    let start = path.iter().position(|p| p == to).unwrap_or(0);
                    let mut ring: Vec<&str> = path[start..].to_vec();
                    ring.push(to);
                    return Some(
                        ring.windows(2)
                            .map(|w| format!("{} -> {} ({})", w[0], w[1], graph[w[0]][w[1]]))
                            .collect(),
                    );
                }
                0 => {
                    if let Some(c) = visit(graph, to, state, path) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        path.pop();
        state.insert(m, 2);
        None
    }
    let mut state = BTreeMap::new();
    for m in graph.keys() {
        if !state.contains_key(m.as_str()) {
            if let Some(c) = visit(graph, m, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

fn files(sources: &[(&str, &str)]) -> Vec<(String, String)> {
    sources
        .iter()
        .map(|(p, s)| (p.to_string(), s.to_string()))
        .collect()
}

/// The reader sees imports in every form the runtime writes them, and not
/// in comments, strings or a test module's `use super::*`.
#[test]
fn the_reader_finds_imports_and_cycles() {
    let graph = module_graph(&files(&[
        ("lib.rs", "mod load;\nmod ops;\npub use load::Runnable;\n"),
        (
            "ops/mod.rs",
            "mod a;\nmod b;\nfn build() { a::register_all(); }\n",
        ),
        (
            "ops/a.rs",
            "use crate::{exec::Exec, kernel::{self, Registry}};\n\
             // use crate::session::Session;\n\
             fn f() { let s = \"crate::interp::x\"; super::b::g::<u8>(); }\n\
             #[cfg(test)]\nmod tests {\n    use super::*;\n}\n",
        ),
        (
            "ops/b.rs",
            "fn g() { crate::ops::a::f(); crate::load::Runnable::load(); }\n",
        ),
        (
            "load.rs",
            "use crate::ops::registry;\nuse crate::{run, RunOptions};\n",
        ),
        ("exec.rs", ""),
        ("kernel.rs", ""),
        ("extra.rs", "use super::exec::Exec;\n"),
    ]));
    let edges: Vec<String> = graph
        .iter()
        .flat_map(|(from, to)| to.keys().map(move |t| format!("{from} -> {t}")))
        .collect();
    assert_eq!(
        edges,
        [
            "extra -> exec",
            "load -> crate",
            "load -> ops",
            "ops -> ops::a",
            "ops::a -> exec",
            "ops::a -> kernel",
            "ops::a -> ops::b",
            "ops::b -> load",
            "ops::b -> ops::a",
        ]
    );
    assert_eq!(
        layer_problems(&graph),
        [
            "`extra` is in no layer: add it to KERNEL or DRIVER in runtime/tests/layers.rs",
            "kernel `ops::b` imports driver `load` (ops/b.rs:1: crate::load::Runnable::load)",
        ]
    );
    let cycle = find_cycle(&graph).unwrap_or_default();
    assert_eq!(
        cycle,
        [
            "load -> ops (load.rs:1: crate::ops::registry)",
            "ops -> ops::a (ops/mod.rs:3: a::register_all)",
            "ops::a -> ops::b (ops/a.rs:3: super::b::g)",
            "ops::b -> load (ops/b.rs:1: crate::load::Runnable::load)",
        ]
    );
}

fn runtime_graph() -> Graph {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut paths = Vec::new();
    rust_files(&src, &mut paths);
    assert!(paths.len() > 40, "found only {} files", paths.len());
    let sources: Vec<(String, String)> = paths
        .iter()
        .map(|p| {
            let rel = p
                .strip_prefix(&src)
                .unwrap_or(p)
                .to_string_lossy()
                .into_owned();
            (rel, std::fs::read_to_string(p).expect("readable"))
        })
        .collect();
    module_graph(&sources)
}

#[test]
fn kernels_never_import_the_driver() {
    let graph = runtime_graph();
    assert!(graph.len() > 40, "found only {} modules", graph.len());
    let problems = layer_problems(&graph);
    assert!(
        problems.is_empty(),
        "the runtime's layers are mixed (see runtime/src/lib.rs):\n{}",
        problems.join("\n")
    );
}

#[test]
fn runtime_modules_import_in_no_cycle() {
    if let Some(cycle) = find_cycle(&runtime_graph()) {
        panic!(
            "runtime modules import each other in a cycle:\n{}",
            cycle.join("\n")
        );
    }
}
