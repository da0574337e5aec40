//! What fluidc knows of the API, for users (SPEC §8.5): `fluidc api` lists
//! every module and builtin from the builtin table itself, so the list
//! cannot drift from what the front end accepts; unknown names get a "did
//! you mean" from the same table, and names fluidc knows it lacks say
//! whether it plans them.
use std::collections::BTreeMap;
use std::ops::Range;

use super::builtin::call_form;
use super::{registry, Builtin, MODULES};
use crate::front::diag::{closest, Diagnostic};

/// The hint every unknown-API message ends with.
pub const SEE_API: &str = "`fluidc api` lists every module, layer and function fluidc knows";

/// Whether fluidc means to support a name it lacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plan {
    Planned,
    NotPlanned,
}

/// Names (or whole modules, as a prefix ending in `.`) fluidc knows it does
/// not support, canonical (`fluid.io.` for `paddle.fluid.io.*`), with the
/// plan and what to do meanwhile.
const UNSUPPORTED: &[(&str, Plan, &str)] = &[
    (
        "fluid.io.",
        Plan::Planned,
        "fluid.io's in-program readers (PyReader, DataLoader); meanwhile read with paddle.batch and paddle.reader and feed what a fluid.DataFeeder gives (fluid.io's save/load calls work)",
    ),
    (
        "fluid.save",
        Plan::Planned,
        "saving and loading models (issue 16)",
    ),
    (
        "fluid.load",
        Plan::Planned,
        "saving and loading models (issue 16)",
    ),
    (
        "paddle.dataset.",
        Plan::Planned,
        "fluidc reads paddle.dataset.uci_housing and paddle.dataset.mnist from Paddle's cache; the other datasets come as scripts need them",
    ),
    (
        "fluid.layers.dynamic_lstmp",
        Plan::Planned,
        "of the sequence RNNs, fluidc has dynamic_lstm and dynamic_gru (and DynamicRNN); the others come as scripts need them",
    ),
    (
        "fluid.layers.sequence_",
        Plan::Planned,
        "of the LoD sequence layers, fluidc has sequence_pool, sequence_first_step, sequence_last_step, sequence_softmax, sequence_conv and sequence_expand; the others come as scripts need them",
    ),
    (
        "fluid.layers.py_reader",
        Plan::NotPlanned,
        "in-program readers are not modelled; feed numpy arrays to exe.run",
    ),
    (
        "fluid.layers.open_files",
        Plan::NotPlanned,
        "in-program readers are not modelled; feed numpy arrays to exe.run",
    ),
    (
        "fluid.layers.read_file",
        Plan::NotPlanned,
        "in-program readers are not modelled; feed numpy arrays to exe.run",
    ),
    (
        "fluid.ParallelExecutor",
        Plan::NotPlanned,
        "fluidc runs on one CPU; use fluid.Executor",
    ),
    (
        "fluid.CUDAPlace",
        Plan::NotPlanned,
        "fluidc runs on the CPU; use fluid.CPUPlace()",
    ),
    (
        "fluid.dygraph",
        Plan::NotPlanned,
        "fluidc builds static programs; dygraph runs eagerly in Python",
    ),
];

/// What fluidc says about a known-but-unsupported name, if it is one.
pub fn plan_of(path: &str) -> Option<(Plan, &'static str)> {
    let path =
        path.strip_prefix("paddle.").map_or(
            path,
            |p| {
                if p.starts_with("fluid") {
                    p
                } else {
                    path
                }
            },
        );
    UNSUPPORTED.iter().find_map(|(name, plan, note)| {
        let hit = if name.ends_with('.') || name.ends_with('_') {
            path.starts_with(name) || Some(path) == name.strip_suffix('.')
        } else {
            path == *name || path.starts_with(&format!("{name}."))
        };
        hit.then_some((*plan, *note))
    })
}

/// The help line for a name fluidc lacks: its plan, or a close name it
/// knows among `candidates`, or where to look.
pub fn help_for(path: &str, name: &str, candidates: &[&str]) -> String {
    if let Some((plan, note)) = plan_of(path) {
        return match plan {
            Plan::Planned => format!("fluidc does not support `{path}` yet but plans to: {note}"),
            Plan::NotPlanned => format!("fluidc does not plan to support `{path}`: {note}"),
        };
    }
    match closest(candidates.iter().copied(), name) {
        Some(c) => format!("did you mean `{c}`? ({SEE_API})"),
        None => SEE_API.to_string(),
    }
}

/// The names directly in `module` (builtins, submodules).
fn names_in(module: &str) -> Vec<&'static str> {
    let prefix = format!("{module}.");
    let mut out: Vec<&'static str> = Vec::new();
    if let Ok(reg) = registry() {
        out.extend(reg.keys().filter_map(|p| {
            p.strip_prefix(prefix.as_str())
                .filter(|rest| !rest.contains('.'))
        }));
    }
    out.extend(MODULES.iter().filter_map(|m| {
        m.strip_prefix(prefix.as_str())
            .filter(|rest| !rest.contains('.'))
    }));
    out.sort_unstable();
    out.dedup();
    out
}

/// `module.name` that fluidc does not know: the error, with a plan, a
/// "did you mean" or a pointer to `fluidc api`.
pub fn no_such_attr(module: &str, name: &str, sp: Range<usize>) -> Diagnostic {
    let path = format!("{module}.{name}");
    Diagnostic::new(
        sp,
        format!("module `{module}` has no `{name}` that fluidc knows"),
    )
    .help(help_for(&path, name, &names_in(module)))
}

/// `obj.name` on a value of type `ty` that has no such method.
pub fn no_such_method(ty: &str, name: &str, sp: Range<usize>) -> Diagnostic {
    let methods = names_in(ty);
    let d = Diagnostic::new(
        sp,
        format!("{ty} has no attribute `{name}` that fluidc knows"),
    );
    match closest(methods.iter().copied(), name) {
        Some(c) => d.help(format!("did you mean `{c}`?")),
        None if methods.is_empty() => d,
        None => d.help(format!("{ty} has {}", methods.join(", "))),
    }
}

/// `import m` of a module fluidc does not know (for the evaluator).
pub fn unknown_module(module: &str, sp: Range<usize>) -> Diagnostic {
    let top: Vec<&str> = MODULES.to_vec();
    let last = module.rsplit('.').next().unwrap_or(module);
    let d = Diagnostic::new(sp, format!("module `{module}` is not supported"));
    if let Some((plan, note)) = plan_of(module) {
        return d.help(match plan {
            Plan::Planned => format!("fluidc does not support `{module}` yet but plans to: {note}"),
            Plan::NotPlanned => format!("fluidc does not plan to support `{module}`: {note}"),
        });
    }
    let close = closest(
        top.iter().copied(),
        module.strip_prefix("paddle.").unwrap_or(module),
    )
    .or_else(|| closest(top.iter().filter_map(|m| m.rsplit('.').next()), last));
    match close {
        Some(c) => d.help(format!("did you mean `{c}`? ({SEE_API})")),
        // A plain name may be a helper module the user forgot to put
        // beside the script (the evaluator imports `NAME.py` from there).
        None if !module.contains('.') => d.help(format!(
            "there is no `{module}.py` beside the script either; {SEE_API}"
        )),
        None => d.help(SEE_API),
    }
}

/// The help for a name that is not defined, when the name says more than
/// "assign it first": Python 2's builtins (for the evaluator).
pub fn undefined_name_help(name: &str) -> Option<&'static str> {
    Some(match name {
        "xrange" => "`xrange` is Python 2's; use `range`",
        "unicode" => "`unicode` is Python 2's; use `str`",
        "basestring" => "`basestring` is Python 2's; use `str`",
        "long" => "`long` is Python 2's; use `int`",
        "raw_input" => "`raw_input` is Python 2's; fluidc scripts read no input",
        "reduce" => "`reduce` is in `functools` since Python 3",
        _ => return None,
    })
}

/// The text `fluidc api` prints: every module, and every builtin under each
/// of its paths with its parameters, then methods by type, then the names
/// fluidc knows it lacks.
pub fn listing() -> String {
    let mut by_module: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut methods: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut builtins: Vec<String> = Vec::new();
    if let Ok(reg) = registry() {
        let mut paths: Vec<(&&str, &&Builtin)> = reg.iter().collect();
        paths.sort_by_key(|(p, _)| **p);
        for (path, b) in paths {
            let (owner, _) = path.rsplit_once('.').unwrap_or(("", path));
            if let Some(name) = path.strip_prefix("builtins.") {
                builtins.push(call_form(b, name));
            } else if !MODULES.contains(&owner) && !owner.contains('.') {
                methods
                    .entry(owner.to_string())
                    .or_default()
                    .push(format!("  .{}", call_form(b, &path[owner.len() + 1..])));
            } else {
                by_module
                    .entry(owner.to_string())
                    .or_default()
                    .push(format!("  {}", call_form(b, path)));
            }
        }
    }
    let mut out = String::from(
        "The Python API fluidc knows (from its builtin table). `paddle.fluid.X` is written `fluid.X`.\n\n",
    );
    out.push_str("Modules:\n");
    for m in MODULES {
        out.push_str(&format!("  {m}\n"));
    }
    for (m, lines) in &by_module {
        out.push_str(&format!("\n{m}:\n"));
        for l in lines {
            out.push_str(l);
            out.push('\n');
        }
    }
    for (ty, lines) in &methods {
        out.push_str(&format!("\nmethods of {ty}:\n"));
        for l in lines {
            out.push_str(l);
            out.push('\n');
        }
    }
    out.push_str("\nPython builtins:\n");
    for b in &builtins {
        out.push_str(&format!("  {b}\n"));
    }
    out.push_str("\nKnown but not supported (a trailing `.` or `_` means every name it starts):\n");
    for (name, plan, note) in UNSUPPORTED {
        let plan = match plan {
            Plan::Planned => "planned",
            Plan::NotPlanned => "not planned",
        };
        out.push_str(&format!("  {name}  {plan}: {note}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misspelt_layers_get_the_close_name() {
        let d = no_such_attr("fluid.layers", "elementwize_add", 0..1);
        assert_eq!(
            d.help.as_deref(),
            Some(format!("did you mean `elementwise_add`? ({SEE_API})").as_str())
        );
    }

    #[test]
    fn known_gaps_say_whether_they_are_planned() {
        let d = no_such_attr("fluid.io", "PyReader", 0..1);
        assert!(d.help.unwrap_or_default().contains("plans to"));
        let d = no_such_attr("fluid", "ParallelExecutor", 0..1);
        assert!(d.help.unwrap_or_default().contains("does not plan"));
        assert_eq!(
            plan_of("fluid.layers.sequence_reshape").map(|p| p.0),
            Some(Plan::Planned)
        );
        assert_eq!(
            plan_of("paddle.fluid.io.PyReader").map(|p| p.0),
            Some(Plan::Planned)
        );
        // Readers are supported, so they are not in the table.
        assert_eq!(plan_of("paddle.batch"), None);
        assert_eq!(plan_of("paddle.reader.shuffle"), None);
        assert_eq!(
            plan_of("paddle.dataset.cifar").map(|p| p.0),
            Some(Plan::Planned)
        );
        assert_eq!(plan_of("fluid.layers.fc"), None);
    }

    #[test]
    fn the_listing_has_every_path_of_the_table() {
        let text = listing();
        for m in MODULES {
            assert!(text.contains(&format!("  {m}\n")), "{m}");
        }
        assert!(text.contains("  fluid.layers.fill_constant("), "{text}");
        assert!(text.contains("methods of Executor:\n"), "{text}");
        assert!(text.contains("  .run("), "{text}");
        assert!(text.contains("  len("), "{text}");
    }

    #[test]
    fn python2_names_get_python3_advice() {
        assert!(undefined_name_help("xrange").is_some_and(|h| h.contains("range")));
        assert_eq!(undefined_name_help("layers"), None);
    }
}
