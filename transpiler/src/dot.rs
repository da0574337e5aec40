//! Graphviz dot of the data-flow view ([`crate::graph`]): ops as boxes,
//! variables as ellipses, each block a cluster nested in its parent's.
use std::fmt::Write as _;

use petgraph::visit::EdgeRef;

use crate::graph::{BlockGraph, Edge, Node};
use crate::model::Program;

/// Graphviz cannot lay out clusters nested deeper than a few hundred
/// levels, so fluidc draws at most this many.
pub const MAX_DEPTH: usize = 200;

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
    let mut out =
        String::from("digraph program {\n  compound=true;\n  node [fontname=\"monospace\"];\n");
    let mut edges = String::new();
    let roots: Vec<usize> = match only {
        Some(b) => vec![b],
        None => (0..program.blocks.len())
            .filter(|&b| b == 0 || !is_child(program, b))
            .collect(),
    };
    let mut done = vec![false; program.blocks.len()];
    for b in roots {
        cluster(program, b, 1, &mut done, &mut out, &mut edges);
    }
    if only.is_none() {
        // Blocks that no op runs still show, at the top level.
        for b in 0..program.blocks.len() {
            cluster(program, b, 1, &mut done, &mut out, &mut edges);
        }
    }
    out.push_str(&edges);
    out.push_str("}\n");
    Ok(out)
}

/// Whether block `b` is nested in a block (its parent exists and is not itself).
fn is_child(p: &Program, b: usize) -> bool {
    usize::try_from(p.blocks[b].parent_idx)
        .is_ok_and(|parent| parent < p.blocks.len() && parent != b)
}

fn quote(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The node id of variable `name` used in block `b`: the block that declares it.
fn var_id(p: &Program, b: usize, name: &str) -> String {
    let owner = p
        .scope_chain(b)
        .into_iter()
        .find(|&i| p.blocks[i].var(name).is_some());
    match owner {
        Some(o) => quote(&format!("v{o}:{name}")),
        None => quote(&format!("v?:{name}")),
    }
}

fn cluster(
    p: &Program,
    b: usize,
    depth: usize,
    done: &mut [bool],
    out: &mut String,
    edges: &mut String,
) {
    if b >= p.blocks.len() || std::mem::replace(&mut done[b], true) {
        return;
    }
    let pad = "  ".repeat(depth);
    let g = BlockGraph::from_block(&p.blocks[b]);
    let _ = writeln!(
        out,
        "{pad}subgraph cluster_b{b} {{\n{pad}  label=\"block {b}\";"
    );
    let _ = writeln!(
        out,
        "{pad}  {} [shape=point, style=invis];",
        quote(&format!("b{b}"))
    );
    for n in g.graph.node_indices() {
        match &g.graph[n] {
            Node::Var {
                name,
                decl: Some(_),
            } => {
                let _ = writeln!(
                    out,
                    "{pad}  {} [shape=ellipse, label={}];",
                    quote(&format!("v{b}:{name}")),
                    quote(name)
                );
            }
            Node::Var { name, decl: None } if p.find_var(b, name).is_none() => {
                let _ = writeln!(
                    out,
                    "{pad}  {} [shape=ellipse, style=dashed, label={}];",
                    var_id(p, b, name),
                    quote(name)
                );
            }
            _ => {}
        }
    }
    for (i, n) in g.ops().into_iter().enumerate() {
        let Node::Op { op, .. } = &g.graph[n] else {
            continue;
        };
        let id = quote(&format!("b{b}:op{i}"));
        let _ = writeln!(out, "{pad}  {id} [shape=box, label={}];", quote(&op.ty));
        for e in g.graph.edges_directed(n, petgraph::Direction::Incoming) {
            if let (Edge::Read { parameter }, Node::Var { name, .. }) =
                (e.weight(), &g.graph[e.source()])
            {
                let _ = writeln!(
                    edges,
                    "  {} -> {id} [label={}];",
                    var_id(p, b, name),
                    quote(parameter)
                );
            }
        }
        for e in g.graph.edges_directed(n, petgraph::Direction::Outgoing) {
            match (e.weight(), &g.graph[e.target()]) {
                (Edge::Write { parameter }, Node::Var { name, .. }) => {
                    let _ = writeln!(
                        edges,
                        "  {id} -> {} [label={}];",
                        var_id(p, b, name),
                        quote(parameter)
                    );
                }
                (Edge::Runs { attr }, Node::SubBlock(sub)) => {
                    let _ = writeln!(
                        edges,
                        "  {id} -> {} [lhead=cluster_b{sub}, style=dashed, label={}];",
                        quote(&format!("b{sub}")),
                        quote(attr)
                    );
                    if let Ok(sub) = usize::try_from(*sub) {
                        cluster(p, sub, depth + 1, done, out, edges);
                    }
                }
                _ => {}
            }
        }
    }
    let _ = writeln!(out, "{pad}}}");
}
