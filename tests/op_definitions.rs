//! One definition per op (ARCHITECTURE.md): every op fluidc writes has a
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

/// Every forward op has shape inference (issue 38: `matmul` once declared
/// its output `()` and every later layer that needed the shape was
/// refused): appending an op declares its outputs from its definition's
/// inference. The exceptions write no tensor whose dims are known when the
/// program is built, each for the reason given.
#[test]
fn every_forward_op_has_shape_inference() {
    let exempt: &[(&str, &str)] = &[
        ("feed", "the fed tensor's dims are the feed's"),
        ("fetch", "writes the fetch holder, not a tensor"),
        ("save", "writes a file"),
        ("load", "the dims are the file's"),
        ("save_combine", "writes a file"),
        ("load_combine", "the dims are the file's"),
        ("write_to_array", "writes one element of a tensor array"),
        (
            "read_from_array",
            "the element's dims are known when it runs",
        ),
        (
            "tensor_array_to_tensor",
            "the array's elements, joined: their dims are known when it runs",
        ),
        (
            "lod_rank_table",
            "a rank table, from the LoD of a fed tensor",
        ),
        (
            "lod_tensor_to_array",
            "a tensor array, from the LoD of a fed tensor",
        ),
        ("channel_create", "a channel"),
        ("channel_close", "writes only the status"),
        ("go", "runs a block as a goroutine; writes nothing"),
        (
            "select",
            "runs one case's block; its outputs are the blocks'",
        ),
        ("fluidc_select", "select before lowering"),
    ];
    let registry = fluidc_transpiler::ops::registry();
    let mut missing = Vec::new();
    let mut checked = 0;
    for ty in registry.types() {
        let def = registry.get(ty).expect("listed");
        if ty.ends_with("_grad")
            || def.effect() == fluidc_transpiler::ops::Effect::Blocks
            || exempt.iter().any(|(e, _)| *e == ty)
        {
            continue;
        }
        checked += 1;
        if def.behaviour.infer.is_none() {
            missing.push(ty);
        }
    }
    assert!(
        missing.is_empty(),
        "forward ops without shape inference: {missing:?}"
    );
    assert!(checked > 100, "only {checked} ops checked");
}
