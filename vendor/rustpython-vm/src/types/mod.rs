mod slot;
mod structseq;
mod zoo;

pub use slot::*;
pub use structseq::PyStructSequence;
pub(crate) use zoo::TypeZoo;
