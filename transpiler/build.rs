//! Generates the Rust types for `proto/framework.proto` with prost, compiling
//! the schema with protox so that no system `protoc` is needed, and writes the
//! encoded descriptor set next to them for the descriptor-driven text printer.
use prost::Message;

fn main() {
    println!("cargo:rerun-if-changed=proto/framework.proto");
    let fds =
        protox::compile(["framework.proto"], ["proto"]).expect("proto/framework.proto compiles");
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("framework_descriptor.bin"), fds.encode_to_vec())
        .expect("write descriptor set");
    prost_build::Config::new()
        .compile_fds(fds)
        .expect("prost-build generates framework.proto types");
}
