//! The verifier, and the proof it returns.
//!
//! [`Verified`] can only be made by [`Verified::new`], which checks the
//! program; the `.pb` writer ([`crate::codec::encode_program`]) and the runtime
//! loader take a `&Verified`, so "unverified program written or run" does not
//! compile. The checks:
//! - there is a block 0, every block's `idx` is its position, block 0's parent
//!   is -1 and every other block's parent chain reaches block 0;
//! - every `BLOCK`/`BLOCKS` attribute names an existing block other than 0
//!   whose parent is the op's block;
//! - every input is declared in the op's block or an ancestor;
//! - no variable is declared twice in one block;
//! - attributes fluidc has a schema for have an accepted type ([`crate::schema`]).
use std::collections::HashSet;
use std::fmt;
use std::ops::Deref;

use crate::model::{AttrType, Program};
use crate::schema;

/// A program that passed [`Verified::new`].
#[derive(Debug, Clone, PartialEq)]
pub struct Verified(Program);

impl Verified {
    /// Checks `program`; on failure every problem found is reported.
    pub fn new(program: Program) -> Result<Verified, VerifyError> {
        let mut problems = check(&program);
        for problem in &mut problems {
            problem.source = problem
                .op
                .as_ref()
                .and_then(|(i, _)| source_line(&program, problem.block, *i));
        }
        if problems.is_empty() {
            Ok(Verified(program))
        } else {
            Err(VerifyError { problems })
        }
    }

    pub fn into_inner(self) -> Program {
        self.0
    }
}

impl Deref for Verified {
    type Target = Program;
    fn deref(&self) -> &Program {
        &self.0
    }
}

/// One problem, located by block and (if it concerns an op) op index and type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub block: usize,
    pub op: Option<(usize, String)>,
    pub message: String,
    /// The Python line that built the op (from `op_callstack`), if recorded.
    pub source: Option<String>,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.op {
            Some((i, ty)) => write!(
                f,
                "block {}, op {} ({}): {}",
                self.block, i, ty, self.message
            )?,
            None => write!(f, "block {}: {}", self.block, self.message)?,
        }
        match &self.source {
            Some(at) => write!(f, " (built at {at})"),
            None => Ok(()),
        }
    }
}

/// Every problem the verifier found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyError {
    pub problems: Vec<Problem>,
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid program ({} problem{}):",
            self.problems.len(),
            if self.problems.len() == 1 { "" } else { "s" }
        )?;
        for p in &self.problems {
            write!(f, "\n  {p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for VerifyError {}

/// The innermost `File "...", line N` entry of an op's `op_callstack`.
fn source_line(p: &Program, block: usize, op: usize) -> Option<String> {
    let op = p.blocks.get(block)?.ops.get(op)?;
    match op.get_attr("op_callstack") {
        Some(crate::model::AttrValue::Strings(lines)) => lines
            .iter()
            .rev()
            .find(|l| l.trim_start().starts_with("File "))
            .map(|l| l.trim().to_string()),
        _ => None,
    }
}

/// Names that stand for "no variable" in Paddle programs (grad ops use them).
fn is_placeholder(name: &str) -> bool {
    name.is_empty() || name == "@EMPTY@"
}

fn check(p: &Program) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut problem = |block: usize, op: Option<(usize, &str)>, message: String| {
        problems.push(Problem {
            block,
            op: op.map(|(i, t)| (i, t.to_string())),
            source: None,
            message,
        })
    };
    if p.blocks.is_empty() {
        problem(
            0,
            None,
            "the program has no blocks; block 0 is required".into(),
        );
        return problems;
    }
    let n = p.blocks.len();
    for (i, b) in p.blocks.iter().enumerate() {
        if b.idx != i as i32 {
            problem(
                i,
                None,
                format!("idx is {} but the block is at position {i}", b.idx),
            );
        }
        if i == 0 {
            if b.parent_idx != -1 {
                problem(
                    0,
                    None,
                    format!("block 0 must have parent_idx -1, not {}", b.parent_idx),
                );
            }
        } else if b.parent_idx < 0 || b.parent_idx as usize >= n {
            problem(
                i,
                None,
                format!(
                    "parent_idx {} is out of range (the program has {n} blocks)",
                    b.parent_idx
                ),
            );
        } else if *p.scope_chain(i).last().unwrap_or(&i) != 0 {
            problem(
                i,
                None,
                format!(
                    "its parent chain {:?} does not reach block 0",
                    p.scope_chain(i)
                ),
            );
        }
        let mut declared = HashSet::new();
        for v in &b.vars {
            if !declared.insert(v.name.as_str()) {
                problem(i, None, format!("variable `{}` is declared twice", v.name));
            }
        }
    }
    // Declared names per block, so checking inputs stays linear.
    let declared: Vec<HashSet<&str>> = p
        .blocks
        .iter()
        .map(|b| b.vars.iter().map(|v| v.name.as_str()).collect())
        .collect();
    let chains: Vec<Vec<usize>> = (0..n).map(|i| p.scope_chain(i)).collect();
    for (i, b) in p.blocks.iter().enumerate() {
        for (j, op) in b.ops.iter().enumerate() {
            let at = Some((j, op.ty.as_str()));
            for (attr, sub) in op.sub_blocks() {
                match usize::try_from(sub)
                    .ok()
                    .and_then(|s| p.blocks.get(s).map(|blk| (s, blk)))
                {
                    None => problem(
                        i,
                        at,
                        format!("{attr} = {sub} does not exist (the program has {n} blocks)"),
                    ),
                    Some((0, _)) => {
                        problem(i, at, format!("{attr} = 0: block 0 cannot be a sub-block"))
                    }
                    Some((s, blk)) if blk.parent_idx != i as i32 => problem(
                        i,
                        at,
                        format!(
                            "{attr} = {s}, but block {s}'s parent is {}, not this block",
                            blk.parent_idx
                        ),
                    ),
                    Some(_) => {}
                }
            }
            for name in op.input_names().filter(|n| !is_placeholder(n)) {
                if !chains[i].iter().any(|&b| declared[b].contains(name)) {
                    problem(
                        i,
                        at,
                        format!("input `{name}` is not declared in block {i} or its ancestors"),
                    );
                }
            }
            for a in &op.attrs {
                let Some(types) = schema::attr_types(&op.ty, &a.name) else {
                    continue;
                };
                let actual = a.value.type_number();
                if !types.iter().any(|t| *t as i32 == actual) {
                    let actual_name =
                        AttrType::try_from(actual).map(|t| t.as_str_name().to_string());
                    let expected: Vec<&str> = types.iter().map(|t| t.as_str_name()).collect();
                    problem(
                        i,
                        at,
                        format!(
                            "attribute `{}` has type {}, expected {}",
                            a.name,
                            actual_name.unwrap_or_else(|_| actual.to_string()),
                            expected.join(" or ")
                        ),
                    );
                }
            }
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{AttrValue, Block, Op, Var, VarKind};

    fn two_blocks() -> Program {
        let mut p = Program::default();
        let mut b0 = Block::new(0, -1);
        b0.vars.push(Var::dense("c", VarKind::Bool, vec![1]));
        b0.ops.push(
            Op::new("conditional_block")
                .input("Cond", &["c"])
                .attr("sub_block", AttrValue::Block(1)),
        );
        p.blocks.push(b0);
        p.blocks.push(Block::new(1, 0));
        p
    }

    #[test]
    fn accepts_a_well_formed_program() {
        assert!(Verified::new(two_blocks()).is_ok());
    }

    #[test]
    fn reports_each_structural_problem_with_block_and_op() {
        let mut p = two_blocks();
        p.blocks[0].ops[0].set_attr("sub_block", AttrValue::Block(7));
        p.blocks[0]
            .ops
            .push(Op::new("assign").input("X", &["nowhere"]));
        p.blocks[0]
            .ops
            .push(Op::new("while").attr("sub_block", AttrValue::Int(1)));
        p.blocks[1].idx = 3;
        p.blocks[0]
            .vars
            .push(Var::dense("c", VarKind::Bool, vec![1]));
        let err = Verified::new(p).unwrap_err().to_string();
        for needle in [
            "block 0, op 0 (conditional_block): sub_block = 7 does not exist",
            "block 0, op 1 (assign): input `nowhere` is not declared",
            "block 0, op 2 (while): attribute `sub_block` has type INT, expected BLOCK",
            "block 1: idx is 3 but the block is at position 1",
            "block 0: variable `c` is declared twice",
        ] {
            assert!(err.contains(needle), "missing {needle:?} in:\n{err}");
        }
    }

    #[test]
    fn reports_parent_out_of_range_and_cycles() {
        let mut p = two_blocks();
        p.blocks[1].parent_idx = 9;
        assert!(Verified::new(p)
            .unwrap_err()
            .to_string()
            .contains("parent_idx 9 is out of range"));
        let mut p = two_blocks();
        p.blocks.push(Block::new(2, 3));
        p.blocks.push(Block::new(3, 2));
        assert!(Verified::new(p)
            .unwrap_err()
            .to_string()
            .contains("does not reach block 0"));
    }
}
