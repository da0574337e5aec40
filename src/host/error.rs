//! The errors numpy raises, as the exception type plus numpy's message.
use std::fmt;

/// The Python exception a numpy call raises.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    TypeError,
    ValueError,
    IndexError,
    OverflowError,
    ZeroDivisionError,
    /// `numpy.exceptions.AxisError`, a subclass of both `ValueError` and
    /// `IndexError`.
    AxisError,
    /// What numpy does but fluidc's arrays do not (an int8 or float16
    /// result, an unsupported index form).
    Unsupported,
}

impl ErrorKind {
    /// The Python name of the exception (`NotImplementedError` for
    /// [`ErrorKind::Unsupported`]).
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::TypeError => "TypeError",
            ErrorKind::ValueError => "ValueError",
            ErrorKind::IndexError => "IndexError",
            ErrorKind::OverflowError => "OverflowError",
            ErrorKind::ZeroDivisionError => "ZeroDivisionError",
            ErrorKind::AxisError => "AxisError",
            ErrorKind::Unsupported => "NotImplementedError",
        }
    }
}

/// A numpy exception: its type and numpy's message, word for word where
/// numpy has one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostError {
    pub kind: ErrorKind,
    pub message: String,
}

impl HostError {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> HostError {
        HostError {
            kind,
            message: message.into(),
        }
    }

    pub fn type_error(message: impl Into<String>) -> HostError {
        HostError::new(ErrorKind::TypeError, message)
    }

    pub fn value_error(message: impl Into<String>) -> HostError {
        HostError::new(ErrorKind::ValueError, message)
    }

    pub fn index_error(message: impl Into<String>) -> HostError {
        HostError::new(ErrorKind::IndexError, message)
    }

    pub fn unsupported(message: impl Into<String>) -> HostError {
        HostError::new(ErrorKind::Unsupported, message)
    }

    /// numpy's `AxisError` for `axis` on an array of `ndim` dimensions.
    pub fn axis(axis: i64, ndim: usize) -> HostError {
        HostError::new(
            ErrorKind::AxisError,
            format!("axis {axis} is out of bounds for array of dimension {ndim}"),
        )
    }
}

impl fmt::Display for HostError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind.name(), self.message)
    }
}

impl std::error::Error for HostError {}

impl From<HostError> for String {
    fn from(e: HostError) -> String {
        e.to_string()
    }
}

pub type Result<T> = std::result::Result<T, HostError>;
