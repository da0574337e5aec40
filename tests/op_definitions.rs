//! One definition per op (SPEC §9.1): every op fluidc writes has a
//! definition in `fluidc_transpiler::ops`, so the verifier checks it and the
//! runtime has a kernel for it (the runtime's own test checks kernels
//! against definitions).
mod common;
use common::*;

use std::collections::BTreeSet;

/// Every `.py` under `dir`, recursively.
fn scripts_under(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable dir") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            scripts_under(&path, out);
        } else if path.extension().is_some_and(|e| e == "py") {
            out.push(path);
        }
    }
}

#[test]
fn every_op_fluidc_writes_has_a_definition() {
    let mut scripts = Vec::new();
    scripts_under(&repo().join("testdata/front/ok"), &mut scripts);
    scripts_under(&repo().join("testdata/passes"), &mut scripts);
    scripts_under(&repo().join("testdata/programs"), &mut scripts);
    scripts_under(
        &repo().join("tests/interop/fluid2018/scripts"),
        &mut scripts,
    );
    assert!(scripts.len() > 25, "found only {} scripts", scripts.len());
    let mut undefined = BTreeSet::new();
    let mut seen = BTreeSet::new();
    for py in &scripts {
        for stage in ["parsed", "optimized"] {
            let out = fluidc(
                &["dump", path_str(py), "--format", "json", "--stage", stage],
                b"",
            );
            assert!(out.status.success(), "{}: {}", py.display(), stderr(&out));
            let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
            for block in json["blocks"].as_array().expect("blocks") {
                for op in block["ops"].as_array().into_iter().flatten() {
                    let ty = op["type"].as_str().expect("op type").to_string();
                    if fluidc_transpiler::ops::get(&ty).is_none() {
                        undefined.insert(ty.clone());
                    }
                    seen.insert(ty);
                }
            }
        }
    }
    assert!(
        undefined.is_empty(),
        "ops without a definition: {undefined:?}"
    );
    assert!(seen.len() > 20, "the scripts write only {seen:?}");
}
