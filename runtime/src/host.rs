//! The host's callbacks: what a program asks of whoever runs it beyond its
//! own ops. Paddle's `py_func` runs a Python function the script that built
//! the program registered (1.x kept them in a list indexed by the op's
//! `forward_callable_id`); the runtime knows nothing of Python, so the
//! front end gives a session a [`Host`] ([`crate::Session::set_host`]) and
//! the `py_func` kernel calls it through this module.
//!
//! The host is the session's for the length of a run, on the thread that
//! runs it ([`use_host`]): a program that calls its host runs on that
//! thread alone (its goroutines too), because the host may only be entered
//! from the thread it lives on (the script's interpreter).
use std::cell::RefCell;
use std::fmt;
use std::sync::Arc;

use crate::error::KernelError;
use crate::tensor::Tensor;

/// What calls back into a program's host. See the module docs.
pub trait Host: Send + Sync + fmt::Debug {
    /// Calls the host's function `id` with `inputs` (`None` for a variable
    /// that holds no value) and returns what it returned, one entry per
    /// value (`None` for a value that is no tensor's, such as Python's
    /// None). An error is the host's report of what went wrong (a
    /// [`KernelError::Invalid`] carrying the function's exception).
    fn call(
        &self,
        id: i64,
        inputs: Vec<Option<Tensor>>,
    ) -> Result<Vec<Option<Tensor>>, KernelError>;
}

thread_local! {
    static HOST: RefCell<Option<Arc<dyn Host>>> = const { RefCell::new(None) };
}

/// The host of the session running on this thread, if it has one.
pub(crate) fn current() -> Option<Arc<dyn Host>> {
    HOST.with(|h| h.borrow().clone())
}

/// Makes `host` this thread's until the guard drops (the session sets it
/// for a run).
pub(crate) fn use_host(host: Option<Arc<dyn Host>>) -> HostGuard {
    HostGuard(HOST.with(|h| h.replace(host)))
}

/// Restores the previous host when dropped (see [`use_host`]).
pub(crate) struct HostGuard(Option<Arc<dyn Host>>);

impl Drop for HostGuard {
    fn drop(&mut self) {
        let previous = self.0.take();
        HOST.with(|h| *h.borrow_mut() = previous);
    }
}
