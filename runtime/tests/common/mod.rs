//! Builds programs through the model API, as the front end will, with small
//! helpers named after the ops they append; and runs them.
#![allow(dead_code)]
pub mod programs;
pub mod source;

use fluidc_runtime::{run, RunOptions, RuntimeError, Tensor};
use fluidc_transpiler::{AttrValue, Block, Op, Program, Var, VarKind, Verified};

pub const I64: VarKind = VarKind::Int64;
pub const I32: VarKind = VarKind::Int32;
pub const F32: VarKind = VarKind::Fp32;
pub const BOOL: VarKind = VarKind::Bool;

/// A program under construction. Variables are declared on first use in
/// the block given; names are unique across the program.
#[derive(Debug)]
pub struct Builder {
    pub program: Program,
    counter: usize,
}

/// Case kinds of the lowered select (docs/programs.md).
#[derive(Debug, Clone, Copy)]
pub enum Case<'a> {
    Default,
    Send(&'a str, &'a str),
    Recv(&'a str, &'a str),
}

impl Default for Builder {
    fn default() -> Self {
        Self::new()
    }
}

impl Builder {
    pub fn new() -> Self {
        Builder {
            program: Program {
                blocks: vec![Block::new(0, -1)],
                ..Default::default()
            },
            counter: 0,
        }
    }

    pub fn fresh(&mut self, prefix: &str) -> String {
        self.counter += 1;
        format!("{prefix}_{}", self.counter)
    }

    /// A new block whose parent is `parent`.
    pub fn block(&mut self, parent: usize) -> usize {
        let idx = self.program.blocks.len();
        self.program
            .blocks
            .push(Block::new(idx as i32, parent as i32));
        idx
    }

    fn declared(&self, b: usize, name: &str) -> bool {
        self.program.find_var(b, name).is_some()
    }

    /// Declares a dense variable `[1]` of `dtype` in block `b` unless visible there.
    pub fn var(&mut self, b: usize, name: &str, dtype: VarKind) -> String {
        if !self.declared(b, name) {
            self.program.blocks[b]
                .vars
                .push(Var::dense(name, dtype, vec![1]));
        }
        name.to_string()
    }

    /// Declares a channel variable (persistable, as `make_channel` does) in block `b`.
    pub fn chan_var(&mut self, b: usize, name: &str) -> String {
        if !self.declared(b, name) {
            let mut v = Var::plain(name, VarKind::Channel);
            if b == 0 {
                v.persistable = Some(true);
            }
            self.program.blocks[b].vars.push(v);
        }
        name.to_string()
    }

    pub fn push(&mut self, b: usize, op: Op) -> usize {
        self.program.blocks[b].ops.push(op);
        self.program.blocks[b].ops.len() - 1
    }

    pub fn fill(&mut self, b: usize, out: &str, dtype: VarKind, value: f64) {
        self.var(b, out, dtype);
        self.push(b, fill(out, dtype, value));
    }

    pub fn make_channel(&mut self, b: usize, name: &str, dtype: VarKind, capacity: i32) {
        self.chan_var(b, name);
        self.push(
            b,
            Op::new("channel_create")
                .output("Out", &[name])
                .attr("data_type", AttrValue::Int(dtype as i32))
                .attr("capacity", AttrValue::Int(capacity)),
        );
    }

    pub fn send(&mut self, b: usize, ch: &str, x: &str) -> usize {
        self.push(
            b,
            Op::new("channel_send")
                .input("Channel", &[ch])
                .input("X", &[x]),
        )
    }

    /// `out, status = channel_recv(ch)`; `out` is declared with `dtype`.
    pub fn recv(&mut self, b: usize, ch: &str, out: &str, dtype: VarKind) -> String {
        self.var(b, out, dtype);
        let status = self.fresh("status");
        self.var(b, &status, BOOL);
        self.push(
            b,
            Op::new("channel_recv")
                .input("Channel", &[ch])
                .output("Out", &[out])
                .output("Status", &[&status]),
        );
        status
    }

    pub fn close(&mut self, b: usize, ch: &str) -> usize {
        self.push(b, Op::new("channel_close").input("Channel", &[ch]))
    }

    /// `go` in block `b`; returns the goroutine's block.
    pub fn go(&mut self, b: usize, reads: &[&str]) -> usize {
        let body = self.block(b);
        self.push(
            b,
            Op::new("go")
                .input("X", reads)
                .attr("sub_block", AttrValue::Block(body as i32)),
        );
        body
    }

    /// `while cond` in block `b`; returns the body block.
    pub fn while_(&mut self, b: usize, cond: &str) -> usize {
        let body = self.block(b);
        let scopes = self.fresh("_generated_var");
        self.program.blocks[b]
            .vars
            .push(Var::plain(&scopes, VarKind::StepScopes));
        self.push(
            b,
            Op::new("while")
                .input("X", &[])
                .input("Condition", &[cond])
                .output("Out", &[])
                .output("StepScopes", &[&scopes])
                .attr("sub_block", AttrValue::Block(body as i32))
                .attr("is_test", AttrValue::Bool(false)),
        );
        body
    }

    /// `for _ in range(n)` as a while loop counting `i`; returns the body
    /// block, whose ops run before the counter update that `end_loop` adds.
    pub fn counted_loop(&mut self, b: usize, n: i64) -> (usize, LoopEnd) {
        let i = self.fresh("i");
        let limit = self.fresh("n");
        let cond = self.fresh("cond");
        self.fill(b, &i, I64, 0.0);
        self.fill(b, &limit, I64, n as f64);
        self.var(b, &cond, BOOL);
        self.push(b, binary("less_than", &i, &limit, &cond));
        let body = self.while_(b, &cond);
        (body, LoopEnd { i, limit, cond })
    }

    /// Ends a counted loop's body: `i += 1; cond = i < n`.
    pub fn end_loop(&mut self, body: usize, end: &LoopEnd) {
        self.push(
            body,
            Op::new("increment")
                .input("X", &[&end.i])
                .output("Out", &[&end.i])
                .attr("step", AttrValue::Float(1.0)),
        );
        self.push(body, binary("less_than", &end.i, &end.limit, &end.cond));
    }

    /// `conditional_block` on the one bool `cond`; returns the body block.
    pub fn cond_block(&mut self, b: usize, cond: &str) -> usize {
        let body = self.block(b);
        let scope = self.fresh("_generated_var");
        self.program.blocks[b]
            .vars
            .push(Var::plain(&scope, VarKind::StepScopes));
        self.push(
            b,
            Op::new("conditional_block")
                .input("Cond", &[cond])
                .input("Input", &[])
                .output("Out", &[])
                .output("Scope", &[&scope])
                .attr("sub_block", AttrValue::Block(body as i32))
                .attr("is_scalar_condition", AttrValue::Bool(true)),
        );
        body
    }

    /// A lowered select (docs/programs.md) in block `b`; returns each case's body block.
    /// Receive values are declared in `b` with `recv_dtype`.
    pub fn select(&mut self, b: usize, cases: &[Case], recv_dtype: VarKind) -> Vec<usize> {
        let cte = self.fresh("case_to_execute");
        self.fill(b, &cte, I32, -1.0);
        let cases_block = self.block(b);
        let mut strings = Vec::new();
        let mut reads = vec![cte.clone()];
        for (i, case) in cases.iter().enumerate() {
            strings.push(match *case {
                Case::Default => format!("{i},0,,"),
                Case::Send(ch, v) => {
                    reads.extend([ch.to_string(), v.to_string()]);
                    format!("{i},1,{ch},{v}")
                }
                Case::Recv(ch, v) => {
                    self.var(b, v, recv_dtype);
                    reads.push(ch.to_string());
                    format!("{i},2,{ch},{v}")
                }
            });
        }
        let reads: Vec<&str> = reads.iter().map(String::as_str).collect();
        self.push(
            b,
            Op::new("select")
                .input("X", &reads)
                .input("case_to_execute", &[&cte])
                .output("Out", &[])
                .attr("sub_block", AttrValue::Block(cases_block as i32))
                .attr("cases", AttrValue::Strings(strings)),
        );
        let mut bodies = Vec::new();
        for i in 0..cases.len() {
            let index = self.fresh("case_index");
            self.fill(cases_block, &index, I32, i as f64);
            let eq = self.fresh("equal");
            self.var(cases_block, &eq, BOOL);
            self.push(cases_block, binary("equal", &index, &cte, &eq));
            bodies.push(self.cond_block(cases_block, &eq));
        }
        bodies
    }

    pub fn add(&mut self, b: usize, x: &str, y: &str, out: &str, dtype: VarKind) {
        self.var(b, out, dtype);
        self.push(b, binary("elementwise_add", x, y, out));
    }

    pub fn assign(&mut self, b: usize, x: &str, out: &str, dtype: VarKind) {
        self.var(b, out, dtype);
        self.push(b, Op::new("assign").input("X", &[x]).output("Out", &[out]));
    }

    /// Like `assign`, for channel variables.
    pub fn assign_chan(&mut self, b: usize, x: &str, out: &str) {
        self.chan_var(b, out);
        self.push(b, Op::new("assign").input("X", &[x]).output("Out", &[out]));
    }

    pub fn verified(self) -> Verified {
        Verified::new(self.program).expect("the test program verifies")
    }
}

#[derive(Debug)]
pub struct LoopEnd {
    pub i: String,
    pub limit: String,
    pub cond: String,
}

pub fn fill(out: &str, dtype: VarKind, value: f64) -> Op {
    Op::new("fill_constant")
        .output("Out", &[out])
        .attr("dtype", AttrValue::Int(dtype as i32))
        .attr("shape", AttrValue::Longs(vec![1]))
        .attr("value", AttrValue::Float(value as f32))
        .attr("str_value", AttrValue::String(String::new()))
        .attr("force_cpu", AttrValue::Bool(false))
}

pub fn binary(ty: &str, x: &str, y: &str, out: &str) -> Op {
    Op::new(ty)
        .input("X", &[x])
        .input("Y", &[y])
        .output("Out", &[out])
        .attr("axis", AttrValue::Int(-1))
}

/// Gives an op the `op_callstack` Paddle writes, pointing at `model.py:line`.
pub fn at_line(op: &mut Op, line: u32) {
    op.set_attr(
        "op_callstack",
        AttrValue::Strings(vec![
            format!("  File \"model.py\", line {line}, in <module>"),
            "    fluid.channel_op(ch)".to_string(),
        ]),
    );
}

/// Runs with `workers` and `seed`, fetching `fetch`.
pub fn run_with(
    p: &Verified,
    fetch: &[&str],
    workers: usize,
    seed: u64,
) -> Result<Vec<(String, Tensor)>, RuntimeError> {
    run(
        p,
        RunOptions {
            feeds: Vec::new(),
            fetch: fetch.iter().map(|s| s.to_string()).collect(),
            seed: Some(seed),
            workers: Some(workers),
            max_memory: None,
        },
    )
}

/// The one int64 value of each fetch.
pub fn ints(fetched: &[(String, Tensor)]) -> Vec<i64> {
    fetched
        .iter()
        .map(|(name, t)| {
            let v = t
                .values::<i64>()
                .unwrap_or_else(|| panic!("{name} is not int64: {t:?}"));
            assert_eq!(v.len(), 1, "{name} has one element");
            v[0]
        })
        .collect()
}

/// Worker counts and seeds every concurrency test runs under.
pub const CONFIGS: [(usize, u64); 6] = [(1, 1), (1, 7), (1, 42), (2, 1), (2, 7), (2, 42)];
