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
//! - every op fluidc defines ([`crate::ops`]) is checked against its
//!   definition: its slots are known, required inputs and outputs are
//!   there (one variable where the slot takes one), attributes have the
//!   declared type and required ones are set, and its inputs' dtypes and
//!   shapes are consistent with each other and with its outputs'
//!   declarations (the definition's inference). Ops fluidc does not know
//!   get the structural checks only.
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use std::fmt;
use std::ops::Deref;

use crate::model::{dtype_name, AttrType, AttrValue, Op, Program, Var, VarKind};
use crate::ops::{self, InferCtx, OpDef, SlotDef, TensorType};

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

    /// `program` as it came out of [`Verified::into_inner`], with no change
    /// since: for the pass driver only, when no pass changed anything.
    pub(crate) fn assume_unchanged(program: Program) -> Verified {
        Verified(program)
    }
}

impl Deref for Verified {
    type Target = Program;
    fn deref(&self) -> &Program {
        &self.0
    }
}

/// What kind of rule a problem breaks, for callers and tests to match on
/// (the message says it for people).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProblemKind {
    /// The block tree: no blocks, an `idx` or `parent_idx` out of place, a
    /// bad `forward_block_idx`, a block block 0 does not reach.
    BlockTree,
    /// A variable declared twice in one block.
    DuplicateVariable,
    /// A sub-block attribute naming no block, block 0, another block's
    /// child, or a block another op already runs.
    SubBlock,
    /// A feed or fetch `col` outside the program's columns.
    Column,
    /// An input no visible block declares.
    Undeclared,
    /// A slot the op's definition lacks, a required one missing, or
    /// several variables in a slot that takes one.
    Slot,
    /// An attribute of the wrong type, or a required one missing.
    Attribute,
    /// The op's shape inference fails, or a declared output's dtype or
    /// dims contradict it.
    Type,
}

/// One problem, located by block and (if it concerns an op) op index and type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub kind: ProblemKind,
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
    let mut problem =
        |kind: ProblemKind, block: usize, op: Option<(usize, &str)>, message: String| {
            problems.push(Problem {
                kind,
                block,
                op: op.map(|(i, t)| (i, t.to_string())),
                source: None,
                message,
            })
        };
    if p.blocks.is_empty() {
        problem(
            ProblemKind::BlockTree,
            0,
            None,
            "the program has no blocks; block 0 is required".into(),
        );
        return problems;
    }
    let n = p.blocks.len();
    // The block tree: children by parent, block 0 the root.
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, b) in p.blocks.iter().enumerate() {
        if b.idx != i as i32 {
            problem(
                ProblemKind::BlockTree,
                i,
                None,
                format!("idx is {} but the block is at position {i}", b.idx),
            );
        }
        if i == 0 {
            if b.parent_idx != -1 {
                problem(
                    ProblemKind::BlockTree,
                    0,
                    None,
                    format!("block 0 must have parent_idx -1, not {}", b.parent_idx),
                );
            }
        } else if b.parent_idx < 0 || b.parent_idx as usize >= n {
            problem(
                ProblemKind::BlockTree,
                i,
                None,
                format!(
                    "parent_idx {} is out of range (the program has {n} blocks)",
                    b.parent_idx
                ),
            );
        } else {
            children[b.parent_idx as usize].push(i);
        }
        // A grad block sees the variables of the block it differentiates
        // (its forward block): one level, never itself.
        if let Some(f) = b.forward_block_idx.filter(|&f| f >= 0) {
            let fwd = usize::try_from(f).ok().and_then(|f| p.blocks.get(f));
            let problem_with = match fwd {
                None => Some(format!(
                    "forward_block_idx {f} is out of range (the program has {n} blocks)"
                )),
                Some(_) if f as usize == i => {
                    Some(format!("forward_block_idx {f} is the block itself"))
                }
                Some(fb) if fb.forward_block_idx.is_some_and(|g| g >= 0) => Some(format!(
                    "forward_block_idx {f} names a grad block (block {f} has forward block {})",
                    fb.forward_block_idx.unwrap_or(-1)
                )),
                Some(_) => None,
            };
            if let Some(message) = problem_with {
                problem(ProblemKind::BlockTree, i, None, message);
            }
        }
        let mut declared = HashSet::new();
        for v in &b.vars {
            if !declared.insert(v.name.as_str()) {
                problem(
                    ProblemKind::DuplicateVariable,
                    i,
                    None,
                    format!("variable `{}` is declared twice", v.name),
                );
            }
        }
    }
    // Sub-block references, over every op of every block (linear): each
    // names an existing block other than 0, whose parent is the op's block,
    // and no other op runs it (Paddle gives every sub-block one owner, and
    // passes such as lower_select rely on it).
    let mut owner: Vec<Option<(usize, usize)>> = vec![None; n];
    for (i, b) in p.blocks.iter().enumerate() {
        for (j, op) in b.ops.iter().enumerate() {
            let at = Some((j, op.ty.as_str()));
            for (attr, sub) in op.sub_blocks() {
                match usize::try_from(sub)
                    .ok()
                    .and_then(|s| p.blocks.get(s).map(|blk| (s, blk)))
                {
                    None => problem(
                        ProblemKind::SubBlock,
                        i,
                        at,
                        format!("{attr} = {sub} does not exist (the program has {n} blocks)"),
                    ),
                    Some((0, _)) => {
                        problem(ProblemKind::SubBlock, i, at, format!("{attr} = 0: block 0 cannot be a sub-block"))
                    }
                    Some((s, blk)) if blk.parent_idx != i as i32 => problem(
                        ProblemKind::SubBlock,
                        i,
                        at,
                        format!(
                            "{attr} = {s}, but block {s}'s parent is {}, not this block",
                            blk.parent_idx
                        ),
                    ),
                    Some((s, _)) => match owner[s] {
                        Some((ob, oj)) if (ob, oj) != (i, j) => problem(
                            ProblemKind::SubBlock,
                            i,
                            at,
                            format!(
                                "{attr} = {s}, but block {s} is already run by op {oj} ({}) of block {ob}; \
                                 every sub-block belongs to one op: give this op a block of its own",
                                p.blocks[ob].ops[oj].ty
                            ),
                        ),
                        _ => owner[s] = Some((i, j)),
                    },
                }
            }
        }
    }
    // A feed or fetch column indexes the holder's list: it must be one of
    // the program's columns (a huge `col` would make the runtime allocate
    // that many entries).
    let count = |ty: &str| {
        p.blocks
            .iter()
            .flat_map(|b| &b.ops)
            .filter(|op| op.ty == ty)
            .count()
    };
    let columns = [("feed", count("feed")), ("fetch", count("fetch"))];
    for (i, b) in p.blocks.iter().enumerate() {
        for (j, op) in b.ops.iter().enumerate() {
            let Some(&(ty, n)) = columns.iter().find(|(ty, _)| *ty == op.ty) else {
                continue;
            };
            let col = match op.get_attr("col") {
                Some(AttrValue::Int(c)) => Some(i64::from(*c)),
                Some(AttrValue::Long(c)) => Some(*c),
                _ => None,
            };
            if let Some(col) = col {
                if col < 0 || col >= n as i64 {
                    problem(
                        ProblemKind::Column,
                        i,
                        Some((j, op.ty.as_str())),
                        format!("col {col} is out of range: the program has {n} {ty} op(s), columns 0 to {}", n.saturating_sub(1)),
                    );
                }
            }
        }
    }
    // Variables resolve through the block tree: one depth-first walk keeps
    // the declarations visible from the current block, so checking is
    // linear in the program's size however deep blocks nest.
    let channels = channel_elements(p);
    let varying = rewritten(p);
    let reached = walk(p, &children, |i, scope| {
        for (j, op) in p.blocks[i].ops.iter().enumerate() {
            let at = Some((j, op.ty.as_str()));
            // A `while_grad`'s `Out@GRAD` lists every gradient its grad
            // block reads from outside, as Paddle's maker computes them
            // before the gradients are declared: one nothing produces (the
            // gradient of an integer step input of a nested RNN) stays
            // undeclared in Paddle's own programs, and its kernel skips it.
            let checked = op
                .inputs
                .iter()
                .filter(|s| !(op.ty == "while_grad" && s.parameter == "Out@GRAD"))
                .flat_map(|s| &s.arguments)
                .map(String::as_str);
            for name in checked.filter(|n| !is_placeholder(n)) {
                if scope.get(name).is_none() {
                    problem(
                        ProblemKind::Undeclared,
                        i,
                        at,
                        format!("input `{name}` is not declared in block {i} or its ancestors"),
                    );
                }
            }
            let Some(def) = ops::get(&op.ty) else {
                // An op fluidc does not know (Paddle has hundreds): only
                // the structure above is checked; the runtime refuses it
                // at load time if it is run.
                continue;
            };
            let types = |name: &str| value_type(scope.get(name)?, &channels);
            // Paddle 1.x gave a variable's desc the dims of its last
            // writer's InferShape and checked shapes at run time: where
            // the op reads or writes a variable several ops write (a
            // decoder cache grown in a While block), the declared dims
            // may be another writer's, and only dtypes are compared.
            let stale = op
                .inputs
                .iter()
                .chain(&op.outputs)
                .flat_map(|s| &s.arguments)
                .any(|n| varying.contains(n.as_str()));
            for (kind, message) in check_op(op, def, types, stale) {
                problem(kind, i, at, message);
            }
        }
    });
    for (i, b) in p.blocks.iter().enumerate().skip(1) {
        let in_range = usize::try_from(b.parent_idx).is_ok_and(|x| x < n);
        if in_range && !reached[i] {
            let chain: Vec<usize> = p.scope_chain(i).into_iter().take(8).collect();
            problem(
                ProblemKind::BlockTree,
                i,
                None,
                format!("its parent chain {chain:?} does not reach block 0"),
            );
        }
    }
    problems
}

/// The variables more than one op of the program writes (by name, over
/// every block; an in-place op such as `increment` counts once).
fn rewritten(p: &Program) -> HashSet<&str> {
    let mut seen = HashSet::new();
    let mut twice = HashSet::new();
    for op in p.blocks.iter().flat_map(|b| &b.ops) {
        let mut mine = HashSet::new();
        for name in op.outputs.iter().flat_map(|s| &s.arguments) {
            let name = name.as_str();
            if !is_placeholder(name) && mine.insert(name) && !seen.insert(name) {
                twice.insert(name);
            }
        }
    }
    twice
}

/// The declarations visible from a block: innermost last, per name.
#[derive(Debug, Default)]
struct Visible<'a> {
    vars: HashMap<&'a str, Vec<&'a Var>>,
}

impl<'a> Visible<'a> {
    /// The declaration `name` resolves to.
    fn get(&self, name: &str) -> Option<&'a Var> {
        self.vars.get(name)?.last().copied()
    }
}

/// Visits the blocks reachable from block 0 through `children`, depth
/// first, each with the variables visible from it; returns which blocks
/// were reached.
fn walk<'a>(
    p: &'a Program,
    children: &[Vec<usize>],
    mut visit: impl FnMut(usize, &Visible<'a>),
) -> Vec<bool> {
    enum Step {
        Enter(usize),
        Leave(usize),
    }
    let mut reached = vec![false; p.blocks.len()];
    let mut visible = Visible::default();
    let mut stack = vec![Step::Enter(0)];
    while let Some(step) = stack.pop() {
        match step {
            Step::Enter(b) => {
                if std::mem::replace(&mut reached[b], true) {
                    continue;
                }
                for v in declarations(p, b) {
                    visible.vars.entry(v.name.as_str()).or_default().push(v);
                }
                visit(b, &visible);
                stack.push(Step::Leave(b));
                stack.extend(children[b].iter().rev().map(|&c| Step::Enter(c)));
            }
            Step::Leave(b) => {
                for v in declarations(p, b) {
                    if let Some(decls) = visible.vars.get_mut(v.name.as_str()) {
                        decls.pop();
                    }
                }
            }
        }
    }
    reached
}

/// The variables block `b` adds to what its ops see: its forward block's
/// (for a grad block, checked above to be a plain block), then its own.
fn declarations(p: &Program, b: usize) -> impl Iterator<Item = &Var> {
    let fwd = p.blocks[b]
        .forward_block_idx
        .and_then(|f| usize::try_from(f).ok())
        .filter(|&f| f != b)
        .and_then(|f| p.blocks.get(f));
    fwd.into_iter()
        .flat_map(|f| &f.vars)
        .chain(&p.blocks[b].vars)
}

/// The problems of one op against its definition.
fn check_op(
    op: &Op,
    def: &OpDef,
    types: impl Fn(&str) -> Option<TensorType>,
    dtypes_only: bool,
) -> Vec<(ProblemKind, String)> {
    let mut problems = Vec::new();
    check_slots(op, def, true, &mut problems);
    check_slots(op, def, false, &mut problems);
    for a in &op.attrs {
        let Some(declared) = def.attr(a.name) else {
            continue; // Paddle accepts extra attributes (use_mkldnn, ...).
        };
        let actual = a.value.type_number();
        if !ops::attr_type_accepts(declared.ty, actual) {
            let actual = AttrType::try_from(actual)
                .map_or(actual.to_string(), |t| t.as_str_name().to_string());
            problems.push((
                ProblemKind::Attribute,
                format!(
                    "attribute `{}` has type {actual}, expected {}",
                    a.name,
                    declared.ty.as_str_name()
                ),
            ));
        }
    }
    for a in def.attrs.iter().filter(|a| a.default.is_none() && !a.extra) {
        if op.get_attr(&a.name).is_none() {
            problems.push((
                ProblemKind::Attribute,
                format!(
                    "required attribute `{}` ({}) is missing",
                    a.name,
                    a.ty.as_str_name()
                ),
            ));
        }
    }
    if !problems.is_empty() {
        return problems; // inference needs well-formed slots and attributes
    }
    let Some(infer) = def.behaviour.infer else {
        return problems;
    };
    let ctx = InferCtx::new(op, def, &types);
    match infer(&ctx) {
        Err(e) => problems.push((ProblemKind::Type, e)),
        Ok(outs) => {
            for (slot, name, inferred) in ops::typed_outputs(op, outs) {
                let Some(declared) = types(name) else {
                    continue;
                };
                if def.behaviour.dtype_unchecked.contains(&slot) {
                    continue;
                }
                if let Some(e) = mismatch(&declared, &inferred, dtypes_only) {
                    problems.push((ProblemKind::Type, format!("output {slot} `{name}` {e}")));
                }
            }
        }
    }
    problems
}

/// Unknown, missing and over-full slots of one side of an op.
fn check_slots(op: &Op, def: &OpDef, input: bool, problems: &mut Vec<(ProblemKind, String)>) {
    let (kind, used, defined) = if input {
        ("input", &op.inputs, &def.inputs)
    } else {
        ("output", &op.outputs, &def.outputs)
    };
    let find = |name: &str| defined.iter().find(|s| s.name == def.canonical_slot(name));
    for slot in used {
        match find(&slot.parameter) {
            // 1.x's Python `Operator` wrote every slot of the op's proto,
            // the ones a layer left unused as empty: 1.1-1.5's conv2d has
            // `Bias: []` and `ResidualData: []`, which Paddle 3 dropped. An
            // empty slot carries nothing.
            None if slot.arguments.is_empty() => {}
            None => {
                let names: Vec<&str> = defined.iter().map(|s| s.name.as_str()).collect();
                problems.push((
                    ProblemKind::Slot,
                    format!(
                        "unknown {kind} slot `{}`; {} has {}",
                        slot.parameter,
                        op.ty,
                        if names.is_empty() {
                            format!("no {kind}s")
                        } else {
                            names.join(", ")
                        }
                    ),
                ));
            }
            Some(SlotDef {
                duplicable: false, ..
            }) if slot.arguments.iter().filter(|a| !is_placeholder(a)).count() > 1 => {
                problems.push((
                    ProblemKind::Slot,
                    format!(
                        "{kind} slot `{}` takes one variable, it names {}",
                        slot.parameter,
                        slot.arguments.len()
                    ),
                ));
            }
            Some(_) => {}
        }
    }
    // A slot Paddle added after 1.0 (see `slots_after_1_0`) is absent from
    // the programs 1.x saved.
    let after_1_0 = def.behaviour.slots_after_1_0;
    for s in defined
        .iter()
        .filter(|s| !s.dispensable && !s.extra && !after_1_0.contains(&s.name.as_str()))
    {
        let given = used
            .iter()
            .find(|u| def.canonical_slot(&u.parameter) == s.name);
        let present = match given {
            None => false,
            // A duplicable slot may be listed empty (a `while` with no inputs).
            Some(u) => s.duplicable || u.arguments.iter().any(|a| !is_placeholder(a)),
        };
        if !present {
            problems.push((
                ProblemKind::Slot,
                format!("required {kind} `{}` is missing", s.name),
            ));
        }
    }
}

/// The element type of each channel variable: the `data_type` of the
/// `channel_create` that makes it when that is a tensor dtype. A 2018
/// `LOD_TENSOR` channel carries any tensor, and `channel_recv` replaces its
/// output with the tensor sent whatever the output was declared (Paddle's
/// own 2018 test_routine_op sends float64 into an int64 placeholder), so it
/// has no element type to check. A name made with two element types is
/// left out.
fn channel_elements(p: &Program) -> HashMap<&str, Option<VarKind>> {
    let mut out: HashMap<&str, Option<VarKind>> = HashMap::new();
    for op in p
        .blocks
        .iter()
        .flat_map(|b| &b.ops)
        .filter(|op| op.ty == "channel_create")
    {
        let dtype = match op.get_attr("data_type") {
            Some(AttrValue::Int(d)) => VarKind::try_from(*d)
                .ok()
                .filter(|k| crate::model::is_tensor_dtype(*k)),
            _ => None,
        };
        for name in op.outputs_of("Out") {
            let seen = out.entry(name.as_str()).or_insert(dtype);
            if *seen != dtype {
                *seen = None;
            }
        }
    }
    out
}

/// The type of the value a variable holds: a tensor's dtype and dims, or a
/// channel's element type (with unknown rank).
fn value_type(v: &Var, channels: &HashMap<&str, Option<VarKind>>) -> Option<TensorType> {
    if v.kind() == Some(VarKind::Channel) {
        let dtype = (*channels.get(v.name.as_str())?)?;
        return Some(TensorType::new(dtype, Vec::new()));
    }
    let t = v.tensor_desc()?;
    Some(TensorType::new(
        VarKind::try_from(t.data_type).ok()?,
        t.dims.clone(),
    ))
}

/// How a declaration contradicts what the op makes: another dtype, or known
/// dims that differ (ranks that differ are not compared: Paddle 1.x declared
/// `[1]` where Paddle 3 infers a 0-D tensor); with `dtypes_only`, only the
/// dtype.
fn mismatch(declared: &TensorType, inferred: &TensorType, dtypes_only: bool) -> Option<String> {
    if declared.dtype != inferred.dtype {
        return Some(format!(
            "is declared {} but the op makes {}",
            dtype_name(declared.dtype),
            dtype_name(inferred.dtype)
        ));
    }
    let differs = !dtypes_only
        && declared.dims.len() == inferred.dims.len()
        && declared
            .dims
            .iter()
            .zip(&inferred.dims)
            .any(|(&d, &i)| d >= 0 && i >= 0 && d != i);
    differs.then(|| {
        format!(
            "is declared with dims {:?} but the op makes {:?}",
            declared.dims, inferred.dims
        )
    })
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
                .input("Input", &[])
                .output("Out", &[])
                .output("Scope", &["scope"])
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
        let err = Verified::new(p).unwrap_err();
        let found: Vec<(ProblemKind, usize, Option<usize>)> = err
            .problems
            .iter()
            .map(|p| (p.kind, p.block, p.op.as_ref().map(|(i, _)| *i)))
            .collect();
        // Each planted problem, by kind and place (the hand-made `assign`
        // and `while` also lack required slots: Slot problems besides).
        for want in [
            (ProblemKind::SubBlock, 0, Some(0)),
            (ProblemKind::Undeclared, 0, Some(1)),
            (ProblemKind::Attribute, 0, Some(2)),
            (ProblemKind::BlockTree, 1, None),
            (ProblemKind::DuplicateVariable, 0, None),
        ] {
            assert!(found.contains(&want), "{want:?} not in {found:?}");
        }
        let err = err.to_string();
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
    fn a_sub_block_belongs_to_one_op() {
        let mut p = two_blocks();
        p.blocks[0].ops.push(
            Op::new("go")
                .input("X", &[])
                .attr("sub_block", AttrValue::Block(1)),
        );
        let err = Verified::new(p).unwrap_err();
        assert_eq!(err.problems.len(), 1);
        assert_eq!(err.problems[0].kind, ProblemKind::SubBlock);
        let err = err.to_string();
        assert!(
            err.contains("block 0, op 1 (go): sub_block = 1, but block 1 is already run by op 0 (conditional_block) of block 0"),
            "{err}"
        );
    }

    #[test]
    fn deep_nesting_verifies_in_linear_time() {
        // 20,000 nested blocks, each reading a variable of block 0: the
        // scope walk is linear (a per-block scope chain was quadratic).
        let mut p = two_blocks();
        p.blocks.pop();
        let n = 20_000;
        for i in 1..=n {
            let mut b = Block::new(i, i - 1);
            if i < n {
                b.ops.push(
                    Op::new("conditional_block")
                        .input("Cond", &["c"])
                        .input("Input", &[])
                        .output("Out", &[])
                        .output("Scope", &["scope"])
                        .attr("sub_block", AttrValue::Block(i + 1)),
                );
            }
            p.blocks.push(b);
        }
        assert!(Verified::new(p).is_ok());
    }

    /// A grad block (here block 2, run by a conditional_block_grad) reads
    /// the variables of its forward block, and only a plain block other
    /// than itself can be one.
    #[test]
    fn a_grad_block_sees_its_forward_block() {
        let grad_program = |forward: i32| {
            let mut p = two_blocks();
            p.blocks[1]
                .vars
                .push(Var::dense("inner", VarKind::Fp32, vec![1]));
            p.blocks[0].ops.push(
                Op::new("conditional_block_grad")
                    .input("Cond", &["c"])
                    .input("Input", &[])
                    .input("Out", &[])
                    .input("Out@GRAD", &[])
                    .input("Scope", &["scope"])
                    .output("Input@GRAD", &[])
                    .attr("sub_block", AttrValue::Block(2)),
            );
            let mut g = Block::new(2, 0);
            g.forward_block_idx = Some(forward);
            g.vars
                .push(Var::dense("inner@GRAD", VarKind::Fp32, vec![1]));
            g.ops.push(
                Op::new("scale")
                    .input("X", &["inner"])
                    .output("Out", &["inner@GRAD"]),
            );
            p.blocks.push(g);
            p
        };
        let scope = Var::plain("scope", VarKind::StepScopes);
        let ok = |mut p: Program| {
            p.blocks[0].vars.push(scope.clone());
            Verified::new(p).map(|_| ()).map_err(|e| e.to_string())
        };
        assert_eq!(ok(grad_program(1)), Ok(()));
        let e = ok(grad_program(-1)).unwrap_err();
        assert!(
            e.contains("input `inner` is not declared in block 2"),
            "{e}"
        );
        let e = ok(grad_program(9)).unwrap_err();
        assert!(e.contains("forward_block_idx 9 is out of range"), "{e}");
        let e = ok(grad_program(2)).unwrap_err();
        assert!(e.contains("forward_block_idx 2 is the block itself"), "{e}");
        let mut p = grad_program(1);
        p.blocks[1].forward_block_idx = Some(2);
        let e = ok(p).unwrap_err();
        assert!(e.contains("forward_block_idx 2 names a grad block"), "{e}");
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

    /// One block of `vars` and `ops`.
    fn flat(vars: Vec<Var>, ops: Vec<Op>) -> Result<(), String> {
        let mut p = Program::default();
        let mut b = Block::new(0, -1);
        b.vars = vars;
        b.ops = ops;
        p.blocks.push(b);
        Verified::new(p).map(|_| ()).map_err(|e| e.to_string())
    }

    #[test]
    fn dims_of_a_variable_several_ops_write_are_not_checked() {
        let f32 = |name: &str, dims: Vec<i64>| Var::dense(name, VarKind::Fp32, dims);
        let assign = |x: &str, out: &str| Op::new("assign").input("X", &[x]).output("Out", &[out]);
        // `c` written as [2, 3] then [2, 5] (declared with the last), and
        // `e` computed from `c` when it still was [2, 3]: 1.x checked these
        // at run time.
        let vars = vec![
            f32("x", vec![2, 3]),
            f32("y", vec![2, 5]),
            f32("c", vec![2, 5]),
            f32("e", vec![2, 3]),
        ];
        let ops = vec![assign("x", "c"), assign("c", "e"), assign("y", "c")];
        assert_eq!(flat(vars.clone(), ops), Ok(()));
        // One writer: its dims are checked.
        let e = flat(vars.clone(), vec![assign("x", "y")]).unwrap_err();
        assert!(
            e.contains("is declared with dims [2, 5] but the op makes [2, 3]"),
            "{e}"
        );
        // Several writers: dtypes still are.
        let mut vars = vars;
        vars.push(Var::dense("i", VarKind::Int64, vec![2, 5]));
        let e = flat(vars, vec![assign("x", "c"), assign("i", "c")]).unwrap_err();
        assert!(
            e.contains("is declared float32 but the op makes int64"),
            "{e}"
        );
    }

    #[test]
    fn elementwise_dims_that_do_not_broadcast_give_x_dims_as_in_1x() {
        let f32 = |name: &str, dims: Vec<i64>| Var::dense(name, VarKind::Fp32, dims);
        let add = |x: &str, y: &str| {
            Op::new("elementwise_add")
                .input("X", &[x])
                .input("Y", &[y])
                .output("Out", &["out"])
                .attr("axis", AttrValue::Int(-1))
        };
        let vars = |out: Vec<i64>| {
            vec![
                f32("a", vec![-1, 2, 4, 4]),
                f32("b", vec![-1, 8, 4, 4]),
                f32("r", vec![8, 4, 4, 4, 4]),
                f32("out", out),
            ]
        };
        assert_eq!(flat(vars(vec![-1, 2, 4, 4]), vec![add("a", "b")]), Ok(()));
        let e = flat(vars(vec![-1, 8, 4, 4]), vec![add("a", "b")]).unwrap_err();
        assert!(
            e.contains("is declared with dims [-1, 8, 4, 4] but the op makes [-1, 2, 4, 4]"),
            "{e}"
        );
        // 1.x required rank(X) >= rank(Y); fluidc broadcasts a higher-rank Y
        // as 3.3.1 does, and refuses one that does not broadcast.
        let e = flat(vars(vec![8, 4, 4, 4, 4]), vec![add("a", "r")]).unwrap_err();
        assert!(e.contains("do not broadcast"), "{e}");
    }

    #[test]
    fn concat_joins_inputs_of_other_ranks_as_1x_flattened_them() {
        let f32 = |name: &str, dims: Vec<i64>| Var::dense(name, VarKind::Fp32, dims);
        let concat = |y: &str| {
            Op::new("concat")
                .input("X", &["noise", y])
                .output("Out", &["out"])
                .attr("axis", AttrValue::Int(1))
        };
        let vars = |out: Vec<i64>| {
            vec![
                f32("noise", vec![-1, 100]),
                f32("y", vec![-1, 1, 1, 1]),
                f32("wide", vec![-1, 1, 2, 1]),
                f32("out", out),
            ]
        };
        assert_eq!(flat(vars(vec![-1, 101]), vec![concat("y")]), Ok(()));
        let e = flat(vars(vec![-1, 100]), vec![concat("y")]).unwrap_err();
        assert!(
            e.contains("is declared with dims [-1, 100] but the op makes [-1, 101]"),
            "{e}"
        );
        // Two elements after the axis where the first has one per row.
        let e = flat(vars(vec![-1, 101]), vec![concat("wide")]).unwrap_err();
        assert!(e.contains("cannot be concatenated along axis 1"), "{e}");
    }
}
