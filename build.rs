//! Rebuilds the crate when the Python package changes: `py_freeze!`
//! (src/vm/mod.rs) compiles `src/python/` into the binary, and a proc
//! macro's file reads are not tracked by cargo.
fn main() {
    println!("cargo:rerun-if-changed=src/python");
}
