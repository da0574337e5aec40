//! fluidc: compiles PaddlePaddle Fluid Python programs to Paddle's
//! `ProgramDesc`, optimizes, prints and runs them.
//!
//! This crate is the command line and the front end; the program model and
//! passes are in `fluidc-transpiler`, the executor in `fluidc-runtime`.
pub mod check;
pub mod diag;
pub mod distribute;
pub mod driver;
pub mod export;
pub mod float_format;
pub mod fuzzing;
pub mod graphviz;
pub mod host;
pub mod imaging;
pub mod input;
pub mod native;
pub mod numpy;
pub mod params;
pub mod py_math;
pub mod py_random;
pub mod run;
pub mod script;
pub mod train;
pub mod vm;
pub mod zlib;
