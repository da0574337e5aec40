//! Graphviz dot of a program's data flow, drawn to be read:
//! - ops are boxes labelled with their type and the attributes that differ
//!   from the op's defaults;
//! - variables are ellipses labelled with their dtype and shape, one node
//!   per value: a variable written more than once is versioned SSA-style
//!   (`x#0` is its value before the drawing, `x#1`, `x#2` each write), so
//!   the picture is acyclic and reads left to right in program order;
//! - each block is a cluster nested in the cluster of the block that runs
//!   it, reached by a dashed edge from the op that runs it. Inside a
//!   sub-block, a variable of an outer block is read at the version the
//!   running op saw; what the sub-block writes is versioned in its cluster,
//!   and the running op's own outputs are the new versions outside it.
use std::collections::HashMap;
use std::fmt::Write as _;

use crate::model::{dtype_name, AttrValue, Op, Program};
use crate::VarKind;

/// Graphviz cannot lay out clusters nested deeper than a few hundred
/// levels, so fluidc draws at most this many.
pub const MAX_DEPTH: usize = 200;

/// Attributes every op carries that say nothing about what it computes.
const NOISE_ATTRS: &[&str] = &[
    "op_callstack",
    "op_role",
    "op_role_var",
    "op_namescope",
    "op_device",
    "with_quant_attr",
    "sub_block",
    "sub_blocks",
];

/// At most this many attributes show on an op, each at most this long.
const MAX_ATTRS: usize = 4;
const MAX_ATTR_CHARS: usize = 24;

/// Renders the program, or only block `only` and the blocks nested in it;
/// an error when more than [`MAX_DEPTH`] levels of blocks would be drawn.
pub fn to_dot(program: &Program, only: Option<usize>) -> Result<String, String> {
    let depths = program.depths();
    let top = only
        .and_then(|b| depths.get(b).copied().flatten())
        .unwrap_or(0);
    if let Some((b, d)) = depths
        .iter()
        .enumerate()
        .filter_map(|(b, d)| Some((b, (*d)?)))
        .find(|(_, d)| d.saturating_sub(top) > MAX_DEPTH)
    {
        return Err(format!(
            "block {b} is nested {d} levels deep; graph draws at most {MAX_DEPTH} levels: \
             draw part of the program with --block N"
        ));
    }
    let n = program.blocks.len();
    let mut d = Drawing {
        p: program,
        bodies: vec![String::new(); n],
        children: vec![Vec::new(); n],
        drawn: vec![false; n],
        edges: String::new(),
        versions: HashMap::new(),
        writes: HashMap::new(),
        initial: HashMap::new(),
        nodes: Vec::new(),
    };
    let roots: Vec<usize> = match only {
        Some(b) => vec![b],
        None => (0..n)
            .filter(|&b| b == 0 || !is_child(program, b))
            .collect(),
    };
    let mut tops = Vec::new();
    for b in roots {
        if d.walk(b, HashMap::new()) {
            tops.push(b);
        }
    }
    if only.is_none() {
        // Blocks that no op runs still show, at the top level.
        for b in 0..n {
            if d.walk(b, HashMap::new()) {
                tops.push(b);
            }
        }
    }
    let mut out = String::from(
        "digraph program {\n  compound=true;\n  rankdir=TB;\n  \
         node [fontname=\"monospace\", fontsize=10];\n  edge [fontname=\"monospace\", fontsize=8];\n",
    );
    for b in tops {
        d.nest(b, 1, &mut out);
    }
    out.push_str(&d.edges);
    // Labels last: a variable's versions are only counted once all are drawn.
    for node in &d.nodes {
        let label = match d.versions.get(&node.key).copied().unwrap_or(1) {
            1 => node.name.clone(),
            _ => format!("{}#{}", node.name, node.version),
        };
        let label = match &node.ty {
            Some(ty) => format!("{label}\n{ty}"),
            None => label,
        };
        let _ = writeln!(out, "  {} [label={}];", quote(&node.id), quote(&label));
    }
    out.push_str("}\n");
    Ok(out)
}

/// One drawn value of a variable.
struct VarNode {
    id: String,
    /// The variable: its declaring block and name.
    key: (usize, String),
    name: String,
    version: usize,
    /// `float32 [-1, 13]`.
    ty: Option<String>,
}

struct Drawing<'p> {
    p: &'p Program,
    /// Each block's node statements, and the blocks drawn inside it.
    bodies: Vec<String>,
    children: Vec<Vec<usize>>,
    drawn: Vec<bool>,
    edges: String,
    /// Values drawn per variable (more than one: label them with versions).
    versions: HashMap<(usize, String), usize>,
    /// Writes drawn per variable: the last version number.
    writes: HashMap<(usize, String), usize>,
    /// The node of each variable's value before the drawing, once read.
    initial: HashMap<(usize, String), String>,
    nodes: Vec<VarNode>,
}

/// The current node of each variable (by key) where the walk is.
type Current = HashMap<(usize, String), String>;

impl Drawing<'_> {
    /// Draws block `b`'s ops in order, starting from the values `cur`;
    /// false when it was drawn already.
    fn walk(&mut self, b: usize, mut cur: Current) -> bool {
        if b >= self.p.blocks.len() || std::mem::replace(&mut self.drawn[b], true) {
            return false;
        }
        let _ = writeln!(
            self.bodies[b],
            "{} [shape=point, style=invis];",
            quote(&format!("b{b}"))
        );
        for (i, op) in self.p.blocks[b].ops.iter().enumerate() {
            let id = quote(&format!("b{b}:op{i}"));
            let _ = writeln!(
                self.bodies[b],
                "{id} [shape=box, style=rounded, label={}];",
                quote(&op_label(op))
            );
            for slot in &op.inputs {
                for name in &slot.arguments {
                    let key = self.key(b, name);
                    let var = match cur.get(&key) {
                        Some(v) => v.clone(),
                        None => self.initial_node(b, &key),
                    };
                    let _ = writeln!(
                        self.edges,
                        "  {} -> {id} [label={}];",
                        quote(&var),
                        quote(&slot.parameter)
                    );
                }
            }
            for a in &op.attrs {
                let subs: Vec<i32> = match &a.value {
                    AttrValue::Block(s) => vec![*s],
                    AttrValue::Blocks(v) => v.clone(),
                    _ => continue,
                };
                for sub in subs.into_iter().filter_map(|s| usize::try_from(s).ok()) {
                    if self.walk(sub, cur.clone()) {
                        self.children[b].push(sub);
                        let _ = writeln!(
                            self.edges,
                            "  {id} -> {} [lhead=cluster_b{sub}, style=dashed, label={}];",
                            quote(&format!("b{sub}")),
                            quote(a.name)
                        );
                    }
                }
            }
            for slot in &op.outputs {
                for name in &slot.arguments {
                    let key = self.key(b, name);
                    let var = self.new_version(b, &key);
                    let _ = writeln!(
                        self.edges,
                        "  {id} -> {} [label={}];",
                        quote(&var),
                        quote(&slot.parameter)
                    );
                    cur.insert(key, var);
                }
            }
        }
        true
    }

    /// The variable `name` as block `b` sees it: the block declaring it in
    /// `b`'s scope chain (`b` when none does).
    fn key(&self, b: usize, name: &str) -> (usize, String) {
        let owner = self
            .p
            .scope_chain(b)
            .into_iter()
            .find(|&i| self.p.blocks[i].var(name).is_some())
            .unwrap_or(b);
        (owner, name.to_string())
    }

    /// The node of a variable's value before the drawing, drawn in its
    /// declaring block (or `b` for an undeclared one) the first time.
    fn initial_node(&mut self, b: usize, key: &(usize, String)) -> String {
        if let Some(id) = self.initial.get(key) {
            return id.clone();
        }
        let id = format!("v{}:{}#0", key.0, key.1);
        let owner = if self.p.blocks[key.0].var(&key.1).is_some() {
            key.0
        } else {
            b
        };
        self.add_node(owner, key, id.clone(), 0);
        self.initial.insert(key.clone(), id.clone());
        id
    }

    /// A new value of a variable, written in block `b`.
    fn new_version(&mut self, b: usize, key: &(usize, String)) -> String {
        let version = {
            let w = self.writes.entry(key.clone()).or_default();
            *w += 1;
            *w
        };
        let id = format!("v{}:{}#{version}", key.0, key.1);
        self.add_node(b, key, id.clone(), version);
        id
    }

    fn add_node(&mut self, b: usize, key: &(usize, String), id: String, version: usize) {
        *self.versions.entry(key.clone()).or_default() += 1;
        let var = self.p.blocks[key.0].var(&key.1);
        let style = match var {
            Some(v) if v.is_persistable() => "bold",
            Some(_) => "solid",
            None => "dashed",
        };
        let _ = writeln!(
            self.bodies[b],
            "{} [shape=ellipse, style={style}];",
            quote(&id)
        );
        let ty = var.and_then(|v| {
            let t = v.tensor_desc()?;
            let dtype = VarKind::try_from(t.data_type).map_or("?", dtype_name);
            let dims: Vec<String> = t.dims.iter().map(i64::to_string).collect();
            Some(format!("{dtype} [{}]", dims.join(", ")))
        });
        self.nodes.push(VarNode {
            id,
            key: key.clone(),
            name: key.1.clone(),
            version,
            ty,
        });
    }

    /// Writes block `b`'s cluster with its nested blocks' clusters inside.
    fn nest(&self, b: usize, depth: usize, out: &mut String) {
        let pad = "  ".repeat(depth);
        let _ = writeln!(
            out,
            "{pad}subgraph cluster_b{b} {{\n{pad}  label=\"block {b}\";\n{pad}  style=rounded;"
        );
        for line in self.bodies[b].lines() {
            let _ = writeln!(out, "{pad}  {line}");
        }
        for &c in &self.children[b] {
            self.nest(c, depth + 1, out);
        }
        let _ = writeln!(out, "{pad}}}");
    }
}

/// An op's type and its attributes that differ from the op's defaults.
fn op_label(op: &Op) -> String {
    let def = crate::ops::get(&op.ty);
    let mut attrs: Vec<String> = op
        .attrs
        .iter()
        .filter(|a| !NOISE_ATTRS.contains(&a.name))
        .filter(|a| def.and_then(|d| d.default(a.name)) != Some(&a.value))
        .filter(|a| !matches!(a.value, AttrValue::Block(_) | AttrValue::Blocks(_)))
        .map(|a| {
            let v = match (a.name, &a.value) {
                // `dtype=5` says less than `dtype=float32`.
                ("dtype" | "in_dtype" | "out_dtype", AttrValue::Int(k)) => VarKind::try_from(*k)
                    .map_or_else(|_| k.to_string(), |k| dtype_name(k).to_string()),
                _ => crate::pretty::attr_text(&a.value),
            };
            let v = if v.chars().count() > MAX_ATTR_CHARS {
                let head: String = v.chars().take(MAX_ATTR_CHARS - 1).collect();
                format!("{head}…")
            } else {
                v
            };
            format!("{}={v}", a.name)
        })
        .collect();
    attrs.sort();
    let more = attrs.len().saturating_sub(MAX_ATTRS);
    attrs.truncate(MAX_ATTRS);
    if more > 0 {
        attrs.push(format!("(+{more} more)"));
    }
    std::iter::once(op.ty.clone())
        .chain(attrs)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Whether block `b` is nested in a block (its parent exists and is not itself).
fn is_child(p: &Program, b: usize) -> bool {
    usize::try_from(p.blocks[b].parent_idx)
        .is_ok_and(|parent| parent < p.blocks.len() && parent != b)
}

fn quote(s: &str) -> String {
    format!(
        "\"{}\"",
        s.replace('\\', "\\\\")
            .replace('"', "\\\"")
            .replace('\n', "\\n")
    )
}
