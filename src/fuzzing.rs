//! The fuzz harness: the properties each fuzz target checks, as plain
//! functions of the input bytes (FUZZING.md).
//!
//! The cargo-fuzz targets in `fuzz/` call these on nightly, and
//! `tests/fuzz_replay.rs` calls them on every saved input on stable, so an
//! input that once broke a property stays fixed. Each returns the outcome a
//! user would see: [`Outcome::Ok`], or [`Outcome::Rejected`] for a user
//! error (exit 1 or 3 from the command line). A broken property (a pass
//! that leaves an unverifiable program, a re-encoding that differs, -O2
//! computing another fetch than -O0, an internal error) panics, which is
//! what a fuzzer reports.
//!
//! Every target is bounded: inputs are capped at [`MAX_INPUT`] bytes, runs
//! at [`MAX_OPS`] ops, [`MAX_TENSOR_BYTES`] per tensor and [`RUN_TIMEOUT`].
use std::time::Duration;

use fluidc_runtime::{RuntimeError, Session, SessionOptions, Tensor};
use fluidc_transpiler::codec::{decode_desc, decode_program, encode_program};
use fluidc_transpiler::passes::{self, EvaluatorRef, Pipeline};
use fluidc_transpiler::text::{self, Message};
use fluidc_transpiler::{dot, pretty, Program, Verified};

/// Inputs longer than this are cut (the fuzz targets run with a smaller
/// `-max_len`; replayed files may be longer).
pub const MAX_INPUT: usize = 1 << 20;
/// The op budget of every run (`SessionOptions::max_ops`, `--max-steps`).
pub const MAX_OPS: u64 = 20_000;
/// The most bytes one tensor may take in a run (`--max-memory`).
pub const MAX_TENSOR_BYTES: u64 = 1 << 20;
/// How long one run may take (`--timeout`), a backstop for the op budget.
pub const RUN_TIMEOUT: Duration = Duration::from_secs(5);

/// What a harness saw, as the user would: success or a user error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Ok,
    /// A clear error for the user (bad source, bad `.pb`, a runtime error);
    /// the message, for the replay test to show.
    Rejected(String),
}

impl Outcome {
    fn rejected(e: impl ToString) -> Outcome {
        Outcome::Rejected(e.to_string())
    }
}

/// How long a fuzzed script may run on the VM, and how much memory the
/// process may hold while it does.
pub const SCRIPT_LIMITS: crate::vm::Limits = crate::vm::Limits {
    time: Some(Duration::from_secs(5)),
    memory: Some(2 << 30),
};

/// Builds a script on the VM (build mode): the merged program, or the
/// user error it raised. An exception that escaped fluidc's own package
/// unintended (`vm::ErrorKind::Internal`) is the bug a target looks for.
///
/// One script builds at a time: the memory limit watches the whole
/// process, so two VMs on parallel test threads would count each other's
/// memory.
fn build_script(source: &str) -> Result<Program, Outcome> {
    static ONE_AT_A_TIME: parking_lot::Mutex<()> = parking_lot::Mutex::new(());
    let _turn = ONE_AT_A_TIME.lock();
    let script = crate::vm::Script {
        path: "fuzz.py".into(),
        source: source.to_string(),
        args: Vec::new(),
        limits: SCRIPT_LIMITS,
    };
    match crate::script::build_source(script, None) {
        Ok(crate::script::BuildResult::Built(b)) => b.merged().map_err(Outcome::rejected),
        Ok(crate::script::BuildResult::Tests(t)) => Err(Outcome::rejected(format!(
            "a unittest file with {} tests",
            t.len()
        ))),
        Err(e) if e.code == 101 => panic!("{}", e.message),
        Err(e) => Err(Outcome::rejected(e.message)),
    }
}

fn cap(bytes: &[u8]) -> &[u8] {
    &bytes[..bytes.len().min(MAX_INPUT)]
}

/// Target `front`: Python source to a program (build mode: nothing runs).
/// The compile gives a program or diagnostics, never an internal error; a
/// program that verifies goes through the `-O2` pipeline (verified after
/// every pass) and re-encodes.
pub fn front(bytes: &[u8]) -> Outcome {
    let Ok(source) = std::str::from_utf8(cap(bytes)) else {
        return Outcome::rejected("the script is not UTF-8");
    };
    let program = match build_script(source) {
        Ok(p) => p,
        Err(o) => return o,
    };
    let program = match Verified::new(program) {
        Ok(p) => p,
        Err(e) => return Outcome::rejected(e),
    };
    if let Err(e) = pipeline(2).run(program.clone()) {
        panic!("-O2 failed on a program the front end built: {e}");
    }
    check_encoding(&program);
    Outcome::Ok
}

/// Target `decode`: `.pb` bytes. Decoding and verifying give a program or an
/// error; a verified program prints (text, json, pretty, dot) and
/// re-encodes: decode(encode(p)) == p, encoding is stable, and the text
/// format parses back to the same program.
pub fn decode(bytes: &[u8]) -> Outcome {
    let program = match load_pb(cap(bytes)) {
        Ok(p) => p,
        Err(o) => return o,
    };
    let encoded = check_encoding(&program);
    let text = text::to_text(Message::Program, &encoded)
        .unwrap_or_else(|e| panic!("text of an encoded program: {e}"));
    text::to_json(Message::Program, &encoded)
        .unwrap_or_else(|e| panic!("json of an encoded program: {e}"));
    // The text format is protoc's: a field or enum value the schema lacks
    // prints by number (`1: 121`), which protoc's text parser (and
    // fluidc's) refuses, so only a program without such data parses back.
    if !has_unknown_fields(&text) {
        let reparsed = text::from_text(&text)
            .unwrap_or_else(|e| panic!("the text format does not parse back: {e}\n{text}"));
        let back = decode_program(&reparsed).expect("from_text writes a ProgramDesc");
        assert_same(&program, &back, "text format round trip");
    }
    for (b, block) in program.blocks.iter().enumerate() {
        let bytes = text::encode_block(block);
        text::to_text(Message::Block, &bytes).unwrap_or_else(|e| panic!("text of block {b}: {e}"));
    }
    let _ = pretty::to_pretty(&program, None);
    let _ = dot::to_dot(&program, None);
    Outcome::Ok
}

/// Whether protoc-style text holds a field printed by number (unknown to
/// the schema, or an enum value it does not name).
fn has_unknown_fields(text: &str) -> bool {
    text.lines().any(|l| {
        let l = l.trim_start();
        let digits = l.bytes().take_while(u8::is_ascii_digit).count();
        digits > 0 && matches!(l.as_bytes().get(digits), Some(b':' | b' ' | b'{'))
    })
}

/// Target `passes`: a Fluid script generated from the bytes
/// ([`generate_script`]) compiled by the front end, then [`check_passes`].
pub fn passes(bytes: &[u8]) -> Outcome {
    let script = generate_script(cap(bytes));
    passes_script(&script)
}

/// [`passes`] on a script (the replay test runs saved scripts this way).
pub fn passes_script(script: &str) -> Outcome {
    let program = match build_script(script) {
        Ok(p) => p,
        Err(o) => return o,
    };
    match Verified::new(program) {
        Ok(p) => check_passes(&p),
        Err(e) => Outcome::rejected(e),
    }
}

/// Target `runtime`: `.pb` bytes decoded, verified and run (`-O0`: select
/// lowered) within the op budget; feed ops get ones of their variable's
/// dtype and shape. The run ends with fetches or a runtime error, within
/// the budget.
pub fn runtime(bytes: &[u8]) -> Outcome {
    let program = match load_pb(cap(bytes)) {
        Ok(p) => p,
        Err(o) => return o,
    };
    let lowered = match pipeline(0).run(program) {
        Ok(p) => p,
        Err(e) => panic!("-O0 failed on a verified program: {e}"),
    };
    match run(&lowered) {
        Ok(_) => Outcome::Ok,
        Err(e) => Outcome::rejected(e),
    }
}

/// The pass property: `-O0`, `-O1` and `-O2`, each verified after every
/// pass, succeed on a verified program; when it has no channels and every
/// level runs within the budget, all give the same fetches; a level may
/// fail only where `-O0` fails too (prune may drop a failing op no fetch
/// needs) or on a limit.
pub fn check_passes(program: &Verified) -> Outcome {
    let mut results = Vec::new();
    for level in 0..=2u8 {
        let optimized = match pipeline(level).run(program.clone()) {
            Ok(p) => p,
            Err(e) => panic!("-O{level} failed on a verified program: {e}"),
        };
        check_encoding(&optimized);
        results.push(run(&optimized).map(|fetches| {
            fetches
                .iter()
                .map(|(n, t)| format!("{n} = {}", fingerprint(t)))
                .collect::<Vec<_>>()
        }));
    }
    if has_channels(program) {
        return Outcome::Ok;
    }
    let base = &results[0];
    for (level, r) in results.iter().enumerate().skip(1) {
        match (base, r) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "-O0 and -O{level} fetch different values"),
            (Ok(_), Err(e)) if !is_limit(e) => {
                panic!("-O0 runs, -O{level} fails: {e}")
            }
            _ => {}
        }
    }
    match base {
        Ok(_) => Outcome::Ok,
        Err(e) => Outcome::rejected(e),
    }
}

/// A tensor's dtype, shape and bits (NaNs compare equal, unlike `==`).
fn fingerprint(t: &Tensor) -> String {
    format!("{t:?}")
}

fn is_limit(e: &RuntimeError) -> bool {
    let m = e.to_string();
    m.contains("--max-steps") || m.contains("--timeout") || m.contains("--max-memory")
}

fn has_channels(p: &Program) -> bool {
    p.blocks.iter().any(|b| {
        b.ops.iter().any(|op| {
            op.ty.starts_with("channel_")
                || op.ty == "go"
                || op.ty == "select"
                || op.ty == fluidc_transpiler::SELECT_NODE
        })
    })
}

/// Decodes and verifies; either failure is a user error.
fn load_pb(bytes: &[u8]) -> Result<Verified, Outcome> {
    // The streamed decoder against prost's message of the whole program.
    let reference = decode_desc(bytes).map(Program::from);
    let streamed = decode_program(bytes);
    match (&streamed, &reference) {
        (Ok(a), Ok(b)) => assert_same(a, b, "the streamed decoding"),
        (Err(a), Err(b)) => assert_eq!(a, b, "the decoders' errors differ"),
        // Documented: a few more levels of nested unknown groups.
        (Ok(_), Err(e)) if e.message.contains("recursion limit") => {}
        _ => panic!("one decoder fails: streamed {streamed:?}, whole {reference:?}"),
    }
    let program = streamed.map_err(Outcome::rejected)?;
    Verified::new(program).map_err(Outcome::rejected)
}

/// The pipeline of an `-O` level, verified after every pass, with the
/// runtime's kernels folding constants (as the command line runs it).
fn pipeline(level: u8) -> Pipeline<'static> {
    Pipeline {
        passes: passes::level(level)
            .into_iter()
            .map(|n| passes::find(n).expect("the level's passes exist"))
            .collect(),
        options: passes::Options {
            fetch: Vec::new(),
            evaluator: Some(EvaluatorRef(std::sync::Arc::new(
                fluidc_runtime::KernelEvaluator,
            ))),
        },
        verify_each: true,
        max_steps: None,
        after_pass: None,
    }
}

/// Encodes a verified program and checks that it decodes to the same
/// program, which verifies and encodes to the same bytes.
fn check_encoding(program: &Verified) -> Vec<u8> {
    let encoded = encode_program(program);
    let back = decode_program(&encoded)
        .unwrap_or_else(|e| panic!("an encoded program does not decode: {e}"));
    assert_same(program, &back, "decode(encode(p))");
    let again =
        Verified::new(back).unwrap_or_else(|e| panic!("a re-decoded program fails to verify: {e}"));
    assert!(
        encode_program(&again) == encoded,
        "encoding a re-decoded program gives other bytes"
    );
    encoded
}

/// Equal programs, NaN attributes included (`==` says NaN differs from
/// itself; their `Debug` forms agree).
fn assert_same(a: &Program, b: &Program, what: &str) {
    if a != b && format!("{a:?}") != format!("{b:?}") {
        panic!(
            "{what} differs:\n{}\n---\n{}",
            pretty::to_pretty(a, None),
            pretty::to_pretty(b, None)
        );
    }
}

/// Runs block 0 once in a fresh session with the fuzzing limits.
fn run(program: &Verified) -> Result<Vec<(String, Tensor)>, RuntimeError> {
    let mut session = Session::new(SessionOptions {
        seed: Some(1),
        workers: Some(1),
        max_memory: Some(MAX_TENSOR_BYTES),
        max_ops: Some(MAX_OPS),
        timeout: Some(RUN_TIMEOUT),
        profile: false,
        select_ops: false,
        rank: None,
        no_fuse: false,
    });
    session.run_once(program, feeds(program), Vec::new())
}

/// Ones for every variable a `feed` op of block 0 writes, of its declared
/// dtype and shape (-1 as 1); none where that cannot be built small.
fn feeds(p: &Program) -> Vec<(String, Tensor)> {
    let Some(global) = p.blocks.first() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for op in global.ops.iter().filter(|op| op.ty == "feed") {
        let Some(name) = op.outputs_of("Out").first() else {
            continue;
        };
        let Some(var) = global.var(name) else {
            continue;
        };
        let (Some(dtype), Some(desc)) = (var.dtype(), var.tensor_desc()) else {
            continue;
        };
        let shape: Vec<i64> = desc
            .dims
            .iter()
            .map(|&d| if d < 0 { 1 } else { d })
            .collect();
        let numel = shape
            .iter()
            .try_fold(1i64, |n, &d| n.checked_mul(d))
            .unwrap_or(i64::MAX);
        if !(0..=4096).contains(&numel) {
            continue;
        }
        if let Ok(t) = Tensor::full(dtype, &shape, 1.0) {
            out.push((name.clone(), t));
        }
    }
    out
}

/// Reads choices from the fuzzer's bytes; past the end every choice is 0.
#[derive(Debug)]
struct Choices<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Choices<'_> {
    fn byte(&mut self) -> u8 {
        let b = self.bytes.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }

    fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        self.byte() as usize % n
    }

    fn pick<'t, T>(&mut self, items: &'t [T]) -> &'t T {
        &items[self.below(items.len())]
    }

    fn done(&self) -> bool {
        self.at >= self.bytes.len()
    }
}

/// A Fluid variable the generator can use: Python name, dtype, shape.
#[derive(Debug, Clone)]
struct GenVar {
    name: String,
    dtype: &'static str,
    shape: &'static str,
}

const SHAPES: &[&str] = &["[1]", "[3]", "[2, 3]"];
const NUMERIC: &[&str] = &["float32", "float64", "int32", "int64"];
const VALUES: &[&str] = &[
    "0", "1", "-1", "2", "3", "-7", "0.5", "2.5", "-0.1", "1e20", "1e-3", "100", "255",
];
const BINARY: &[&str] = &[
    "elementwise_add",
    "elementwise_sub",
    "elementwise_mul",
    "elementwise_div",
    "elementwise_max",
    "elementwise_min",
    "elementwise_pow",
    "elementwise_mod",
    "elementwise_floordiv",
];
const UNARY: &[&str] = &[
    "abs", "exp", "log", "relu", "sigmoid", "sqrt", "square", "tanh",
];
const COMPARE: &[&str] = &[
    "less_than",
    "less_equal",
    "greater_than",
    "greater_equal",
    "equal",
    "not_equal",
];
const LOGIC: &[&str] = &["logical_and", "logical_or", "logical_xor"];
const REDUCE: &[&str] = &["reduce_sum", "reduce_mean", "reduce_max", "reduce_min"];
const PY_BINOPS: &[&str] = &["+", "-", "*", "/"];

/// Writes a script statement by statement; `scopes` are the variables each
/// enclosing fluid block can see (a variable made in a sub-block is not
/// visible after it).
#[derive(Debug)]
struct Gen<'a> {
    c: Choices<'a>,
    out: String,
    scopes: Vec<Vec<GenVar>>,
    next: usize,
    functions: usize,
    channels: usize,
    stmts: usize,
}

const MAX_STMTS: usize = 60;
const MAX_NESTING: usize = 4;

impl Gen<'_> {
    fn fresh(&mut self, prefix: &str) -> String {
        self.next += 1;
        format!("{prefix}{}", self.next)
    }

    fn line(&mut self, indent: usize, text: &str) {
        for _ in 0..indent {
            self.out.push_str("    ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn visible(&self) -> Vec<GenVar> {
        self.scopes.iter().flatten().cloned().collect()
    }

    fn declare(&mut self, v: GenVar) {
        self.scopes.last_mut().expect("a scope").push(v);
    }

    /// A visible variable matching `want`, if any.
    fn find(&mut self, want: impl Fn(&GenVar) -> bool) -> Option<GenVar> {
        let vars: Vec<GenVar> = self.visible().into_iter().filter(|v| want(v)).collect();
        (!vars.is_empty()).then(|| self.pick_var(&vars))
    }

    fn pick_var(&mut self, vars: &[GenVar]) -> GenVar {
        self.c.pick(vars).clone()
    }

    fn constant(&mut self, indent: usize, dtype: &'static str, shape: &'static str) -> GenVar {
        let name = self.fresh("v");
        let value = match dtype {
            "bool" => (*self.c.pick(&["True", "False"])).to_string(),
            _ => (*self.c.pick(VALUES)).to_string(),
        };
        self.line(
            indent,
            &format!(
                "{name} = layers.fill_constant(shape={shape}, dtype='{dtype}', value={value})"
            ),
        );
        let v = GenVar { name, dtype, shape };
        self.declare(v.clone());
        v
    }

    fn numeric(&mut self, indent: usize) -> GenVar {
        match self.find(|v| v.dtype != "bool") {
            Some(v) if self.c.below(4) != 0 => v,
            _ => {
                let dtype = *self.c.pick(NUMERIC);
                let shape = *self.c.pick(SHAPES);
                self.constant(indent, dtype, shape)
            }
        }
    }

    /// A variable of `dtype` and `shape`, or of shape [1] (it broadcasts).
    fn like(&mut self, indent: usize, dtype: &'static str, shape: &'static str) -> GenVar {
        match self.find(|v| v.dtype == dtype && (v.shape == shape || v.shape == "[1]")) {
            Some(v) if self.c.below(3) != 0 => v,
            _ => self.constant(indent, dtype, shape),
        }
    }

    fn boolean(&mut self, indent: usize) -> GenVar {
        match self.find(|v| v.dtype == "bool") {
            Some(v) if self.c.below(3) != 0 => v,
            _ => self.compare(indent),
        }
    }

    fn compare(&mut self, indent: usize) -> GenVar {
        let a = self.numeric(indent);
        let b = self.like(indent, a.dtype, a.shape);
        let name = self.fresh("p");
        let op = *self.c.pick(COMPARE);
        self.line(
            indent,
            &format!("{name} = layers.{op}({}, {})", a.name, b.name),
        );
        let v = GenVar {
            name,
            dtype: "bool",
            shape: a.shape,
        };
        self.declare(v.clone());
        v
    }

    /// A one-element bool (a While or cond condition).
    fn scalar_condition(&mut self, indent: usize) -> GenVar {
        let dtype = *self.c.pick(NUMERIC);
        let a = self.like(indent, dtype, "[1]");
        let b = self.like(indent, dtype, "[1]");
        let (a, b) = if a.shape == "[1]" && b.shape == "[1]" {
            (a, b)
        } else {
            (
                self.constant(indent, dtype, "[1]"),
                self.constant(indent, dtype, "[1]"),
            )
        };
        let name = self.fresh("p");
        let op = *self.c.pick(COMPARE);
        self.line(
            indent,
            &format!("{name} = layers.{op}({}, {})", a.name, b.name),
        );
        let v = GenVar {
            name,
            dtype: "bool",
            shape: "[1]",
        };
        self.declare(v.clone());
        v
    }

    fn statements(&mut self, indent: usize, depth: usize, max: usize) {
        let n = 1 + self.c.below(max);
        for _ in 0..n {
            if self.c.done() || self.stmts >= MAX_STMTS {
                break;
            }
            self.statement(indent, depth);
        }
    }

    fn statement(&mut self, indent: usize, depth: usize) {
        self.stmts += 1;
        let nested = depth < MAX_NESTING;
        match self.c.below(20) {
            0 => {
                let dtype = *self
                    .c
                    .pick(&["float32", "float64", "int32", "int64", "bool"]);
                let shape = *self.c.pick(SHAPES);
                self.constant(indent, dtype, shape);
            }
            1 | 2 => {
                let a = self.numeric(indent);
                let b = self.like(indent, a.dtype, a.shape);
                let op = *self.c.pick(BINARY);
                let name = self.fresh("v");
                self.line(
                    indent,
                    &format!("{name} = layers.{op}({}, {})", a.name, b.name),
                );
                self.declare(GenVar { name, ..a });
            }
            3 => {
                let a = self.numeric(indent);
                let op = *self.c.pick(UNARY);
                let name = self.fresh("v");
                let x = if a.dtype.starts_with("float") {
                    a.name.clone()
                } else {
                    format!("layers.cast({}, 'float32')", a.name)
                };
                self.line(indent, &format!("{name} = layers.{op}({x})"));
                let dtype = if a.dtype.starts_with("float") {
                    a.dtype
                } else {
                    "float32"
                };
                self.declare(GenVar {
                    name,
                    dtype,
                    shape: a.shape,
                });
            }
            4 => {
                let a = self.numeric(indent);
                let name = self.fresh("v");
                let scale = *self.c.pick(VALUES);
                let bias = *self.c.pick(VALUES);
                self.line(
                    indent,
                    &format!(
                        "{name} = layers.scale({}, scale={scale}, bias={bias})",
                        a.name
                    ),
                );
                self.declare(GenVar { name, ..a });
            }
            5 => {
                let a = if self.c.below(4) == 0 {
                    self.boolean(indent)
                } else {
                    self.numeric(indent)
                };
                let to = *self
                    .c
                    .pick(&["float32", "float64", "int32", "int64", "bool"]);
                let name = self.fresh("v");
                self.line(indent, &format!("{name} = layers.cast({}, '{to}')", a.name));
                self.declare(GenVar {
                    name,
                    dtype: to,
                    shape: a.shape,
                });
            }
            6 => {
                self.compare(indent);
            }
            7 => {
                let a = self.boolean(indent);
                let name = self.fresh("p");
                if self.c.below(3) == 0 {
                    self.line(indent, &format!("{name} = layers.logical_not({})", a.name));
                } else {
                    let b = self.like(indent, "bool", a.shape);
                    let op = *self.c.pick(LOGIC);
                    self.line(
                        indent,
                        &format!("{name} = layers.{op}({}, {})", a.name, b.name),
                    );
                }
                self.declare(GenVar { name, ..a });
            }
            8 => {
                let a = self.numeric(indent);
                let op = *self.c.pick(REDUCE);
                let name = self.fresh("v");
                self.line(indent, &format!("{name} = layers.{op}({})", a.name));
                self.declare(GenVar {
                    name,
                    dtype: a.dtype,
                    shape: "[1]",
                });
            }
            9 => {
                // Write into a variable of an enclosing block (what loops carry).
                let a = self.numeric(indent);
                if let Some(b) = self.find(|v| v.dtype == a.dtype && v.shape == a.shape) {
                    self.line(
                        indent,
                        &format!("layers.assign({}, output={})", a.name, b.name),
                    );
                }
            }
            10 => {
                let a = self.numeric(indent);
                let op = *self.c.pick(PY_BINOPS);
                let other = if self.c.below(2) == 0 {
                    (*self.c.pick(VALUES)).to_string()
                } else {
                    self.like(indent, a.dtype, a.shape).name
                };
                let name = self.fresh("v");
                self.line(indent, &format!("{name} = {} {op} {other}", a.name));
                // A float literal makes an integer Variable float32 first.
                let dtype = if other.contains(['.', 'e']) && !a.dtype.starts_with("float") {
                    "float32"
                } else {
                    a.dtype
                };
                self.declare(GenVar {
                    name,
                    dtype,
                    shape: a.shape,
                });
            }
            11 => {
                if let Some(a) = self.find(|v| v.shape == "[1]" && v.dtype != "bool") {
                    let step = *self.c.pick(&["1", "-1", "2.0"]);
                    self.line(
                        indent,
                        &format!("layers.increment({}, value={step})", a.name),
                    );
                }
            }
            12 if nested => self.while_loop(indent, depth),
            13 if nested => self.cond(indent, depth),
            14 if nested => self.switch(indent, depth),
            15 if nested => {
                // A Python loop: unrolled at compile time.
                let k = 1 + self.c.below(3);
                self.line(indent, &format!("for _ in range({k}):"));
                let before = self.out.len();
                self.scopes.push(Vec::new());
                self.statements(indent + 1, depth + 1, 3);
                let made = self.scopes.pop().unwrap_or_default();
                if self.out.len() == before {
                    self.line(indent + 1, "pass");
                }
                // Names made in the loop stay bound after it, in the same block.
                self.declare_all(made);
            }
            16 if nested => self.function(indent, depth),
            17 if nested => self.channel(indent, depth),
            18 => {
                let a = self.numeric(indent);
                let b = self.like(indent, a.dtype, a.shape);
                let name = self.fresh("v");
                self.line(
                    indent,
                    &format!("{name} = layers.sums([{}, {}])", a.name, b.name),
                );
                self.declare(GenVar { name, ..a });
            }
            _ => {
                let a = self.numeric(indent);
                let name = self.fresh("v");
                self.line(indent, &format!("{name} = layers.assign({})", a.name));
                self.declare(GenVar { name, ..a });
            }
        }
    }

    fn declare_all(&mut self, vars: Vec<GenVar>) {
        for v in vars {
            self.declare(v);
        }
    }

    fn while_loop(&mut self, indent: usize, depth: usize) {
        let i = self.fresh("i");
        let n = self.fresh("n");
        let cond = self.fresh("c");
        let w = self.fresh("w");
        let trips = self.c.below(5);
        self.line(
            indent,
            &format!("{i} = layers.fill_constant(shape=[1], dtype='int64', value=0)"),
        );
        self.line(
            indent,
            &format!("{n} = layers.fill_constant(shape=[1], dtype='int64', value={trips})"),
        );
        self.line(indent, &format!("{cond} = layers.less_than({i}, {n})"));
        self.line(indent, &format!("{w} = layers.While(cond={cond})"));
        self.line(indent, &format!("with {w}.block():"));
        self.scopes.push(Vec::new());
        self.statements(indent + 1, depth + 1, 4);
        self.line(indent + 1, &format!("layers.increment({i})"));
        self.line(
            indent + 1,
            &format!("layers.less_than({i}, {n}, cond={cond})"),
        );
        self.scopes.pop();
        for (name, dtype) in [(i, "int64"), (n, "int64"), (cond, "bool")] {
            self.declare(GenVar {
                name,
                dtype,
                shape: "[1]",
            });
        }
    }

    fn cond(&mut self, indent: usize, depth: usize) {
        let pred = self.scalar_condition(indent);
        let dtype = *self.c.pick(NUMERIC);
        let shape = *self.c.pick(SHAPES);
        let mut fns = Vec::new();
        for _ in 0..2 {
            let f = self.fresh("branch");
            self.line(indent, &format!("def {f}():"));
            self.scopes.push(Vec::new());
            if self.c.below(2) == 0 {
                self.statements(indent + 1, depth + 1, 3);
            }
            let r = self.like(indent + 1, dtype, shape);
            let r = if r.shape == shape {
                r
            } else {
                self.constant(indent + 1, dtype, shape)
            };
            self.line(indent + 1, &format!("return layers.assign({})", r.name));
            self.scopes.pop();
            fns.push(f);
        }
        let name = self.fresh("v");
        self.line(
            indent,
            &format!(
                "{name} = layers.cond({}, {}, {})",
                pred.name, fns[0], fns[1]
            ),
        );
        self.declare(GenVar { name, dtype, shape });
    }

    fn switch(&mut self, indent: usize, depth: usize) {
        let target = self.numeric(indent);
        let sw = self.fresh("sw");
        self.line(indent, &format!("with layers.Switch() as {sw}:"));
        let cases = 1 + self.c.below(2);
        for k in 0..=cases {
            let default = k == cases;
            if default && self.c.below(2) == 0 {
                break;
            }
            if default {
                self.line(indent + 1, &format!("with {sw}.default():"));
            } else {
                // A case condition made outside the case blocks, as Paddle's
                // Switch tests them in order.
                let p = self.scalar_condition(indent + 1);
                self.line(indent + 1, &format!("with {sw}.case({}):", p.name));
            }
            self.scopes.push(Vec::new());
            if self.c.below(2) == 0 {
                self.statements(indent + 2, depth + 1, 2);
            }
            let v = self.like(indent + 2, target.dtype, target.shape);
            self.line(
                indent + 2,
                &format!("layers.assign({}, output={})", v.name, target.name),
            );
            self.scopes.pop();
        }
    }

    fn function(&mut self, indent: usize, depth: usize) {
        self.functions += 1;
        let f = format!("helper{}", self.functions);
        let a = self.numeric(indent);
        self.line(indent, &format!("def {f}(x):"));
        let op = *self.c.pick(BINARY);
        self.line(indent + 1, &format!("y = layers.{op}(x, x)"));
        if self.c.below(2) == 0 && depth + 1 < MAX_NESTING {
            self.line(indent + 1, &format!("return {f}_inner(y)"));
            // Defined after use: looked up when called, as Python does.
            self.line(indent, &format!("def {f}_inner(z):"));
            self.line(indent + 1, "return layers.scale(z, scale=0.5)");
        } else {
            self.line(indent + 1, "return y");
        }
        let name = self.fresh("v");
        self.line(indent, &format!("{name} = {f}({})", a.name));
        self.declare(GenVar { name, ..a });
    }

    /// Channels, a goroutine and select (the fetches of such programs are
    /// not compared across levels, but every level must verify and run).
    fn channel(&mut self, indent: usize, depth: usize) {
        self.channels += 1;
        let ch = format!("ch{}", self.channels);
        let v = self.like(indent, "int64", "[1]");
        let v = if v.shape == "[1]" {
            v
        } else {
            self.constant(indent, "int64", "[1]")
        };
        let capacity = self.c.below(3);
        self.line(
            indent,
            &format!("{ch} = fluid.make_channel(dtype='int64', capacity={capacity})"),
        );
        let got = self.constant(indent, "int64", "[1]");
        match self.c.below(3) {
            0 => {
                self.line(indent, "with fluid.Go():");
                self.scopes.push(Vec::new());
                if self.c.below(2) == 0 {
                    self.statements(indent + 1, depth + 1, 2);
                }
                self.line(indent + 1, &format!("fluid.channel_send({ch}, {})", v.name));
                self.scopes.pop();
                self.line(indent, &format!("fluid.channel_recv({ch}, {})", got.name));
            }
            1 => {
                self.line(indent, "with fluid.Select() as select:");
                self.line(
                    indent + 1,
                    &format!("with select.case(fluid.channel_send, {ch}, {}):", v.name),
                );
                self.scopes.push(Vec::new());
                self.statements(indent + 2, depth + 1, 2);
                self.scopes.pop();
                self.line(indent + 1, "with select.default():");
                self.line(indent + 2, &format!("layers.increment({})", got.name));
            }
            _ => {
                self.line(indent, "with fluid.Go():");
                self.line(indent + 1, &format!("fluid.channel_send({ch}, {})", v.name));
                self.line(indent, "with fluid.Select() as select:");
                self.line(
                    indent + 1,
                    &format!("with select.case(fluid.channel_recv, {ch}, {}):", got.name),
                );
                self.scopes.push(Vec::new());
                self.statements(indent + 2, depth + 1, 2);
                self.scopes.pop();
            }
        }
        if self.c.below(2) == 0 {
            self.line(indent, &format!("fluid.channel_close({ch})"));
        }
    }
}

/// A Fluid script built from the bytes by a small grammar: constants,
/// elementwise and unary layers, casts, comparisons, reductions, operator
/// overloading, `While` loops, `cond`, `Switch`, Python loops and
/// functions, channels, `Go` and `Select`, nested up to a few levels; it
/// fetches up to three variables of block 0. Most scripts it writes
/// compile; the rest give a diagnostic.
pub fn generate_script(bytes: &[u8]) -> String {
    let mut g = Gen {
        c: Choices { bytes, at: 0 },
        out: String::from("import paddle.fluid as fluid\nfrom paddle.fluid import layers\n\n"),
        scopes: vec![Vec::new()],
        next: 0,
        functions: 0,
        channels: 0,
        stmts: 0,
    };
    g.statements(0, 0, MAX_STMTS);
    let globals = g.scopes[0].clone();
    let mut fetch = Vec::new();
    for _ in 0..1 + g.c.below(3) {
        if globals.is_empty() {
            break;
        }
        let v = g.pick_var(&globals).name;
        if !fetch.contains(&v) {
            fetch.push(v);
        }
    }
    g.out.push_str("\nexe = fluid.Executor(fluid.CPUPlace())\n");
    g.out.push_str(&format!(
        "exe.run(fluid.default_main_program(), fetch_list=[{}])\n",
        fetch.join(", ")
    ));
    g.out
}

/// Whether a program is one the generator can describe: used by the replay
/// test to tell a saved script from saved bytes.
pub fn is_script(bytes: &[u8]) -> bool {
    bytes.starts_with(b"import ") || bytes.starts_with(b"#")
}
