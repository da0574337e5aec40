//! Run mode (SPEC §8.1): `fluidc run script.py` executes the whole script.
//! Each `exe.run(program, feed=..., fetch_list=...)` runs that program at
//! that moment in a runtime [`Session`] (the executor's scope, so
//! parameters and other persistable variables keep their values from run to
//! run), and returns the fetched values as host arrays. What the script
//! prints goes to [`RunMode::stdout`].
//!
//! Each run's program is the one the script built, with Paddle's feed and
//! fetch ops added for that run, verified and taken through the pass
//! pipeline of the command line (`-O`), as `fluidc compile` would write it.
use fluidc_runtime::tensor::Lod;
use fluidc_runtime::{RuntimeError, Session, SessionOptions, Tensor};
use fluidc_transpiler::passes::{Pass, Pipeline};
use fluidc_transpiler::{passes, Program, Verified};

use std::rc::Rc;

use crate::front::value::HostTensor;
use crate::host::{DType, HostArray};

/// What run mode keeps while the script runs.
#[derive(Debug)]
pub struct RunMode {
    /// One session per scope: the global scope's first, then each
    /// `fluid.Scope()` the script made, created at its first run.
    sessions: Vec<Session>,
    /// What the script printed.
    pub stdout: String,
    /// The last run's fetches, with their variable names.
    pub last: Vec<(String, Tensor)>,
    /// Extra names to fetch from every run (`--fetch`); shown after the
    /// last run's own fetches.
    pub extra_fetch: Vec<String>,
    /// `--feed NAME=VALUE`: values that replace what the script feeds.
    pub cli_feeds: Vec<(String, String)>,
    passes: Vec<&'static Pass>,
    /// The runtime error that stopped the script (the CLI exits 3).
    pub error: Option<RuntimeError>,
    /// How many programs the script ran.
    pub runs: usize,
    /// The `--feed` names some run fed, the `--fetch` names some run's
    /// program declared, and every global variable of the programs run: a
    /// command-line name never used is reported, not ignored.
    pub used_names: std::collections::HashSet<String>,
    pub seen_vars: std::collections::BTreeSet<String>,
}

impl RunMode {
    pub fn new(options: SessionOptions, passes: Vec<&'static Pass>) -> RunMode {
        RunMode {
            sessions: vec![Session::new(options)],
            stdout: String::new(),
            last: Vec::new(),
            extra_fetch: Vec::new(),
            cli_feeds: Vec::new(),
            passes,
            error: None,
            runs: 0,
            used_names: Default::default(),
            seen_vars: Default::default(),
        }
    }

    /// Runs `program` with `feeds` (script values, converted to each
    /// variable's declared dtype as Paddle converts them) and returns the
    /// fetch targets' values in order. `Err` is a message for the script's
    /// diagnostic; a runtime error is also kept in [`RunMode::error`].
    pub fn run(
        &mut self,
        mut program: Program,
        feeds: Vec<(String, HostArray, Lod)>,
        fetch: &[String],
        scope: usize,
    ) -> Result<Vec<(HostArray, Lod)>, String> {
        self.runs += 1;
        let feed_names: Vec<String> = feeds.iter().map(|(n, ..)| n.clone()).collect();
        super::add_feed_fetch(&mut program, &feed_names, fetch);
        let verified = Verified::new(program).map_err(|e| e.to_string())?;
        let pipeline = Pipeline {
            passes: self.passes.clone(),
            options: passes::Options {
                fetch: self.extra_fetch.clone(),
                evaluator: Some(passes::EvaluatorRef(std::sync::Arc::new(
                    fluidc_runtime::KernelEvaluator,
                ))),
            },
            ..Pipeline::default()
        };
        let program = pipeline.run(verified).map_err(|e| e.to_string())?;
        // Names for the "did you mean" of unused --feed/--fetch names: kept
        // only when there are some (a training loop runs this every step).
        if !self.cli_feeds.is_empty() || !self.extra_fetch.is_empty() {
            self.seen_vars
                .extend(program.blocks[0].vars.iter().map(|v| v.name.clone()));
        }
        let mut tensors = Vec::with_capacity(feeds.len());
        for (name, value, lod) in feeds {
            let t = match self.cli_feeds.iter().find(|(n, _)| *n == name) {
                Some((_, text)) => {
                    self.used_names.insert(format!("--feed {name}"));
                    fluidc_runtime::parse_feed(&program, &name, text)
                        .map_err(|e| format!("--feed {name}: {e}"))?
                }
                None => {
                    let t = feed_tensor(&program, &name, &value)?;
                    let rows = t.shape().first().copied().unwrap_or(1).max(0) as usize;
                    Tensor::check_lod(&lod, rows)
                        .map_err(|e| format!("cannot feed `{name}`: {e}"))?;
                    t.with_lod(lod)
                }
            };
            tensors.push((name, t));
        }
        // `--fetch` names this program declares (a startup program may not).
        let extra: Vec<String> = self
            .extra_fetch
            .iter()
            .filter(|n| program.blocks[0].var(n).is_some())
            .cloned()
            .collect();
        for n in &extra {
            self.used_names.insert(format!("--fetch {n}"));
        }
        let fetched = match self.session(scope).run(&program, tensors, extra) {
            Ok(f) => f,
            Err(e) => {
                let message = e.to_string();
                self.error = Some(e);
                return Err(message);
            }
        };
        let arrays = fetched
            .iter()
            .take(fetch.len())
            .map(|(_, t)| {
                let a = HostArray::from_tensor(t).map_err(String::from)?;
                Ok::<_, String>((a, t.lod().to_vec()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        self.last = fetched;
        Ok(arrays)
    }

    /// Scope `scope`'s tensor `name` as a DenseTensor that is that
    /// variable (`scope.find_var(name).get_tensor()`, a view: see
    /// `front::api::program::scope_view`); `None` if the scope holds none.
    pub fn view(&self, scope: usize, name: &str) -> Option<HostTensor> {
        let t = self.tensor(scope, name)?;
        Some(HostTensor {
            array: Some(Rc::new(HostArray::from_tensor(&t).ok()?)),
            lod: t.lod().to_vec(),
            view: Some((scope, name.to_string())),
        })
    }

    /// Writes a view's value (its `set`) into the scope variable it is.
    pub fn write_view(&mut self, t: &HostTensor) -> Result<(), String> {
        let (Some((scope, name)), Some(array)) = (&t.view, &t.array) else {
            return Ok(());
        };
        let rows = array.shape().first().copied().unwrap_or(1);
        Tensor::check_lod(&t.lod, rows).map_err(|e| format!("cannot set `{name}`: {e}"))?;
        let tensor = array
            .to_tensor()
            .map_err(String::from)?
            .with_lod(t.lod.clone());
        self.session(*scope).set_tensor(name, tensor);
        Ok(())
    }

    /// The session of scope `scope`, made when first used.
    /// Time per op type of every run the script made (`--profile`).
    pub fn profile(&self) -> Vec<fluidc_runtime::OpProfile> {
        self.sessions[0].profile()
    }

    pub fn session(&mut self, scope: usize) -> &mut Session {
        while self.sessions.len() <= scope {
            let sibling = self.sessions[0].sibling();
            self.sessions.push(sibling);
        }
        &mut self.sessions[scope]
    }

    /// The runtime tensor scope `scope` holds for `name`.
    pub fn tensor(&self, scope: usize, name: &str) -> Option<Tensor> {
        self.sessions.get(scope)?.tensor(name)
    }

    /// Warnings for `--feed`/`--fetch` names no run used (a `--feed` the
    /// script never feeds, a `--fetch` no program declares), with the
    /// closest variable name.
    pub fn unused_cli_names(&self) -> Vec<String> {
        let feeds = self.cli_feeds.iter().map(|(n, _)| ("--feed", n));
        let fetches = self.extra_fetch.iter().map(|n| ("--fetch", n));
        feeds
            .chain(fetches)
            .filter(|(flag, n)| !self.used_names.contains(&format!("{flag} {n}")))
            .map(|(flag, n)| {
                let what = if flag == "--feed" {
                    "the script never feeds it"
                } else {
                    "no program the script ran declares it"
                };
                let hint = super::diag::closest(self.seen_vars.iter().map(String::as_str), n)
                    .map_or(String::new(), |c| format!("; did you mean `{c}`?"));
                format!("warning: {flag} {n}: ignored, {what}{hint}")
            })
            .collect()
    }

    /// The tensor scope `scope` holds for `name`
    /// (`global_scope().find_var(name).get_tensor()`); a scope no run has
    /// used yet holds nothing.
    /// Whether scope `scope` holds a variable `name`.
    pub fn scope_holds(&self, scope: usize, name: &str) -> bool {
        self.sessions.get(scope).is_some_and(|s| s.holds(name))
    }

    pub fn scope_tensor(&self, scope: usize, name: &str) -> Option<HostArray> {
        HostArray::from_tensor(&self.sessions.get(scope)?.tensor(name)?).ok()
    }
}

/// A fed value as the variable's declared dtype: Paddle converts a numpy
/// array to the variable's dtype, and refuses a shape that does not fit
/// a variable declared with need_check_feed (`fluid.data`).
fn feed_tensor(program: &Verified, name: &str, value: &HostArray) -> Result<Tensor, String> {
    let Some(var) = program.blocks[0].var(name) else {
        return Err(format!(
            "cannot feed `{name}`: it is not a variable of the program's global block"
        ));
    };
    let value = match var.dtype().and_then(dtype_of) {
        Some(d) if d != value.dtype() => value.astype(d),
        _ => value.clone(),
    };
    let mut value = value;
    if let Some(dims) = var.tensor_desc().map(|t| &t.dims) {
        if value.size() == 1
            && value.ndim() != dims.len()
            && dims.iter().all(|d| *d == 1 || *d == -1)
        {
            // One value for a one-element variable (`[1]`, a scalar).
            value = value.reshape(&vec![1; dims.len()]).map_err(String::from)?;
        }
        let shape = value.shape();
        // Paddle checks a fed shape only for variables that ask for it
        // (`fluid.data`'s need_check_feed); `layers.data` takes any shape.
        let checked = var.need_check_feed.unwrap_or(false);
        let fits = !checked
            || dims.len() == shape.len()
                && dims
                    .iter()
                    .zip(shape)
                    .all(|(&d, &s)| d < 0 || d as usize == s);
        if !fits {
            return Err(format!(
                "cannot feed `{name}`: the value has shape {shape:?} but `{name}` is declared {dims:?} \
                 (-1 is any size); reshape the value"
            ));
        }
    }
    value.to_tensor().map_err(String::from)
}

/// The host dtype of a program dtype.
fn dtype_of(kind: fluidc_transpiler::VarKind) -> Option<DType> {
    DType::from_name(fluidc_transpiler::model::dtype_name(kind))
}

/// Paddle 3.3.1's text of a DenseTensor (`print(t)` of a value fetched
/// with `return_numpy=False`): its LoD if any, shape, layout, place,
/// dtype, then the elements flat as C++'s `operator<<` writes them.
pub fn dense_tensor_text(t: &crate::front::value::HostTensor) -> String {
    let lod = if t.lod.is_empty() {
        String::new()
    } else {
        let levels: Vec<String> = t
            .lod
            .iter()
            .map(|l| {
                let v: Vec<String> = l.iter().map(usize::to_string).collect();
                format!("{{{}}}", v.join(", "))
            })
            .collect();
        format!("  - lod: {{{}}}\n", levels.join(", "))
    };
    let Some(a) = &t.array else {
        return format!("{lod}  - shape: []\n  - layout: NCHW\n  - place: Place(cpu)");
    };
    let shape: Vec<String> = a.shape().iter().map(|d| d.to_string()).collect();
    let data: Vec<String> = (0..a.size())
        .map(|k| match a.item_at(k as i64) {
            Ok(crate::host::Scalar::Float(x)) => cpp_float(x),
            Ok(crate::host::Scalar::Int(n)) => n.to_string(),
            Ok(crate::host::Scalar::Bool(b)) => u8::from(b).to_string(),
            Err(_) => String::from("?"),
        })
        .collect();
    format!(
        "{lod}  - shape: [{}]\n  - layout: NCHW\n  - place: Place(cpu)\n  - dtype: {}\n  - data: [{}]",
        shape.join(", "),
        a.dtype().name(),
        data.join(" ")
    )
}

/// C++'s default `ostream << double`: `%g` with 6 significant digits.
pub fn cpp_float(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.into();
    }
    if x == 0.0 {
        return if x.is_sign_negative() { "-0" } else { "0" }.into();
    }
    // Round to 6 significant digits first; the exponent decides the form.
    let sci = format!("{x:.5e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let trim = |s: &str| -> String {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s.to_string()
        }
    };
    if !(-4..6).contains(&exp) {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{}e{sign}{:02}", trim(mantissa), exp.abs())
    } else {
        let decimals = (5 - exp).max(0) as usize;
        trim(&format!("{x:.decimals$}"))
    }
}
