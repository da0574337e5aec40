mod bigint;
pub mod cformat;
mod format;

pub use crate::format::*;
