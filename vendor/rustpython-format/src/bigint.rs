#[cfg(feature = "malachite-bigint")]
pub use malachite_bigint::{BigInt, Sign};
#[cfg(feature = "num-bigint")]
pub use num_bigint::{BigInt, Sign};
