//! Fuzz target `front`: Python source to a program (build mode).
//! The property is `fluidc::fuzzing::front` (FUZZING.md); a panic is a finding.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = fluidc::fuzzing::front(data);
});
