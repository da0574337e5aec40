//! Later API forms that run as what they wrap: `fluid.compiler.
//! CompiledProgram(program)` is its program (fluidc compiles every
//! program itself), and `with_data_parallel(...)` runs it on the one place
//! fluidc has.
use super::builtin::{builtin, Builtin, Rest, D};
use crate::front::value::{Object, Value};

use D::*;

pub const BUILTINS: &[Builtin] = &[
    builtin!(
        ["fluid.compiler.CompiledProgram", "fluid.CompiledProgram"],
        [("program_or_graph", Req), ("build_strategy", Nil)],
        Rest::No,
        |_, a| match a.get("program_or_graph") {
            p @ Value::Object(o) if matches!(o.as_ref(), Object::Program(_)) => Ok(p.clone()),
            other => Err(a.err(
                "program_or_graph",
                format!(
                    "CompiledProgram() takes a Program, not {}",
                    other.type_name()
                ),
            )),
        }
    ),
    builtin!(
        ["Program.with_data_parallel"],
        [
            ("loss_name", Nil),
            ("build_strategy", Nil),
            ("exec_strategy", Nil),
            ("share_vars_from", Nil),
            ("places", Nil)
        ],
        Rest::No,
        // Data parallelism splits each batch over devices and averages the
        // gradients: on fluidc's one CPU place that is the program itself.
        |_, a| Ok(a.recv.clone().unwrap_or(Value::None))
    ),
];
