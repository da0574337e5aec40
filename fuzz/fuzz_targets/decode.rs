//! Fuzz target `decode`: .pb bytes: decode, verify, print, re-encode.
//! The property is `fluidc::fuzzing::decode` (FUZZING.md); a panic is a finding.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = fluidc::fuzzing::decode(data);
});
