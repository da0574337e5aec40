//! Fuzz target `runtime`: .pb bytes run within the op budget.
//! The property is `fluidc::fuzzing::runtime` (FUZZING.md); a panic is a finding.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = fluidc::fuzzing::runtime(data);
});
