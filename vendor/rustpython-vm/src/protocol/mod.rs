mod buffer;
mod callable;
mod iter;
mod mapping;
mod number;
mod object;
mod sequence;

pub use buffer::{BufferDescriptor, BufferMethods, BufferResizeGuard, PyBuffer, VecBuffer};
pub use callable::PyCallable;
pub use iter::{PyIter, PyIterIter, PyIterReturn};
pub use mapping::{PyMapping, PyMappingMethods};
pub use number::{
    PyNumber, PyNumberBinaryFunc, PyNumberBinaryOp, PyNumberMethods, PyNumberSlots,
    PyNumberTernaryOp, PyNumberUnaryFunc,
};
pub use sequence::{PySequence, PySequenceMethods};
