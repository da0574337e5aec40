//! Fuzz target `passes`: a generated Fluid script through -O0/-O1/-O2, verified after each pass, same fetches.
//! The property is `fluidc::fuzzing::passes` (FUZZING.md); a panic is a finding.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = fluidc::fuzzing::passes(data);
});
