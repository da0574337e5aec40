mod core;
mod ext;
mod payload;
mod traverse;
mod traverse_object;

pub use self::core::*;
pub use self::ext::*;
pub use self::payload::*;
pub use traverse::{MaybeTraverse, Traverse, TraverseFn};
