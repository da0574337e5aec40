//! The data-flow view of one block, on petgraph, for passes that need it.
//!
//! Derived from the model with [`BlockGraph::from_block`] and written back with
//! [`BlockGraph::into_block`]; nobody keeps the two in sync by hand. Nodes are
//! ops, variables and the sub-blocks ops run; edges go variable -> op for a
//! read, op -> variable for a write and op -> sub-block for a `BLOCK`
//! attribute. A `StableGraph` keeps node indices valid while a pass removes
//! nodes. Ops are written back in the order of their `seq` key: `from_block`
//! numbers them 0, 2, 4, ... so a pass can put a new op between two others.
use std::collections::HashMap;

use petgraph::stable_graph::{NodeIndex, StableDiGraph};
use petgraph::visit::EdgeRef;
use petgraph::Direction;

use crate::model::{Block, Op, Var};

/// Op nodes carry the whole op; the graph is built per pass, not kept.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    Op {
        seq: u64,
        op: Op,
    },
    /// A variable the block declares (`decl`), or one of an enclosing block
    /// it uses (`decl` is `None`).
    Var {
        name: String,
        decl: Option<Var>,
    },
    /// A block that an op runs.
    SubBlock(i32),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Edge {
    /// Variable -> op, through the op's input slot `parameter`.
    Read { parameter: String },
    /// Op -> variable, through the op's output slot `parameter`.
    Write { parameter: String },
    /// Op -> sub-block, through attribute `attr`.
    Runs { attr: String },
}

#[derive(Debug, Clone)]
pub struct BlockGraph {
    pub idx: i32,
    pub parent_idx: i32,
    pub forward_block_idx: Option<i32>,
    pub graph: StableDiGraph<Node, Edge>,
    vars: HashMap<String, NodeIndex>,
}

impl BlockGraph {
    pub fn from_block(block: &Block) -> Self {
        let mut g = BlockGraph {
            idx: block.idx,
            parent_idx: block.parent_idx,
            forward_block_idx: block.forward_block_idx,
            graph: StableDiGraph::new(),
            vars: HashMap::new(),
        };
        for v in &block.vars {
            let node = g.graph.add_node(Node::Var {
                name: v.name.clone(),
                decl: Some(v.clone()),
            });
            g.vars.insert(v.name.clone(), node);
        }
        for (i, op) in block.ops.iter().enumerate() {
            g.add_op(2 * i as u64, op.clone());
        }
        g
    }

    /// Adds an op with its edges; `seq` places it among the others.
    pub fn add_op(&mut self, seq: u64, op: Op) -> NodeIndex {
        let reads: Vec<(String, String)> = op
            .inputs
            .iter()
            .flat_map(|s| s.arguments.iter().map(|a| (s.parameter.clone(), a.clone())))
            .collect();
        let writes: Vec<(String, String)> = op
            .outputs
            .iter()
            .flat_map(|s| s.arguments.iter().map(|a| (s.parameter.clone(), a.clone())))
            .collect();
        let subs: Vec<(String, i32)> = op.sub_blocks().map(|(a, b)| (a.to_string(), b)).collect();
        let node = self.graph.add_node(Node::Op { seq, op });
        for (parameter, name) in reads {
            let v = self.var_node(&name);
            self.graph.add_edge(v, node, Edge::Read { parameter });
        }
        for (parameter, name) in writes {
            let v = self.var_node(&name);
            self.graph.add_edge(node, v, Edge::Write { parameter });
        }
        for (attr, b) in subs {
            let s = self.graph.add_node(Node::SubBlock(b));
            self.graph.add_edge(node, s, Edge::Runs { attr });
        }
        node
    }

    /// Removes an op and the sub-block nodes only it referred to.
    pub fn remove_op(&mut self, node: NodeIndex) -> Option<Op> {
        let subs: Vec<NodeIndex> = self
            .graph
            .edges_directed(node, Direction::Outgoing)
            .filter(|e| matches!(e.weight(), Edge::Runs { .. }))
            .map(|e| e.target())
            .collect();
        for s in subs {
            self.graph.remove_node(s);
        }
        match self.graph.remove_node(node) {
            Some(Node::Op { op, .. }) => Some(op),
            _ => None,
        }
    }

    /// The node of variable `name`, added (as not declared here) if new.
    pub fn var_node(&mut self, name: &str) -> NodeIndex {
        if let Some(n) = self.vars.get(name) {
            return *n;
        }
        let n = self.graph.add_node(Node::Var {
            name: name.to_string(),
            decl: None,
        });
        self.vars.insert(name.to_string(), n);
        n
    }

    /// The ops in execution order.
    pub fn ops(&self) -> Vec<NodeIndex> {
        let mut ops: Vec<(u64, NodeIndex)> = self
            .graph
            .node_indices()
            .filter_map(|n| match &self.graph[n] {
                Node::Op { seq, .. } => Some((*seq, n)),
                _ => None,
            })
            .collect();
        ops.sort();
        ops.into_iter().map(|(_, n)| n).collect()
    }

    /// Writes the view back: ops by `seq`, declared variables in their
    /// original order (a removed variable node drops its declaration).
    pub fn into_block(self) -> Block {
        let ops = self
            .ops()
            .into_iter()
            .filter_map(|n| match &self.graph[n] {
                Node::Op { op, .. } => Some(op.clone()),
                _ => None,
            })
            .collect();
        let vars = self
            .graph
            .node_indices()
            .filter_map(|n| match &self.graph[n] {
                Node::Var { decl: Some(v), .. } => Some(v.clone()),
                _ => None,
            })
            .collect();
        Block {
            idx: self.idx,
            parent_idx: self.parent_idx,
            vars,
            ops,
            forward_block_idx: self.forward_block_idx,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{AttrValue, VarKind};

    fn block() -> Block {
        let mut b = Block::new(0, -1);
        b.vars.push(Var::dense("x", VarKind::Int64, vec![1]));
        b.vars.push(Var::dense("y", VarKind::Int64, vec![1]));
        b.ops.push(
            Op::new("fill_constant")
                .output("Out", &["x"])
                .attr("value", AttrValue::Float(1.0)),
        );
        b.ops
            .push(Op::new("assign").input("X", &["x"]).output("Out", &["y"]));
        b.ops.push(
            Op::new("while")
                .input("X", &["y", "outer"])
                .attr("sub_block", AttrValue::Block(1)),
        );
        b
    }

    #[test]
    fn round_trips_and_records_edges() {
        let g = BlockGraph::from_block(&block());
        let assign = g.ops()[1];
        let reads: Vec<_> = g
            .graph
            .edges_directed(assign, Direction::Incoming)
            .collect();
        assert_eq!(reads.len(), 1);
        assert_eq!(g.graph.edge_count(), 6); // 1 write, 1 read+1 write, 2 reads + 1 runs
        assert_eq!(g.into_block(), block());
    }

    #[test]
    fn removing_an_op_and_inserting_between_keeps_order() {
        let mut g = BlockGraph::from_block(&block());
        let first = g.ops()[0];
        assert_eq!(
            g.remove_op(first).map(|o| o.ty),
            Some("fill_constant".to_string())
        );
        g.add_op(
            3,
            Op::new("increment")
                .input("X", &["y"])
                .output("Out", &["y"]),
        );
        let b = g.into_block();
        let types: Vec<&str> = b.ops.iter().map(|o| o.ty.as_str()).collect();
        assert_eq!(types, ["assign", "increment", "while"]);
        assert_eq!(
            b.vars.len(),
            2,
            "undeclared `outer` is not added as a declaration"
        );
    }
}
