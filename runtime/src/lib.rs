//! fluidc's embedded runtime (see issue 5): executes a verified program.
//!
//! Nothing is implemented here yet; the crate exists so that the workspace has
//! its final shape and the dependency direction (runtime -> transpiler, never
//! the front end) is fixed from the start.
