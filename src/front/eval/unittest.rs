//! `unittest`: `TestCase`'s assert methods and `unittest.main()`, which
//! runs the test methods as CPython's default loader and text runner do
//! (classes and methods sorted by name; a dot, `F` or `E` per test on
//! standard error, then the failures, `Ran N tests in X.XXXs` and `OK` or
//! `FAILED (...)`), and exits 1 when one failed.
//!
//! In build mode (`compile`, `dump`, `graph`, `check`), `unittest.main()`
//! builds the one test that `--test NAME` picks, and records the tests it
//! found otherwise, so the command can list them.
use std::ops::Range;
use std::rc::Rc;

use rustpython_parser::ast::CmpOp;

use super::classes::{absolute, repr};

mod difflib;
mod messages;
use super::{Eval, Exc};
use crate::front::diag::{Diagnostic, Result};
use crate::front::value::{builtin_class, Class, Native, Root, Show, Value};

const LINE1: &str = "======================================================================";
const LINE2: &str = "----------------------------------------------------------------------";

/// A test that did not pass: its kind (`FAIL`/`ERROR`), its name line and
/// the exception.
struct Problem {
    title: String,
    exc: Exc,
    /// Frames of the traceback before the test method's own.
    skip: usize,
}

impl Eval<'_> {
    /// An assertion failed: `default`, with the user's `msg` after ` : `.
    fn assert_fail(
        &mut self,
        default: String,
        msg: Option<Value>,
        sp: Range<usize>,
    ) -> Result<Value> {
        let text = match msg {
            None | Some(Value::None) => default,
            Some(m) => format!("{default} : {}", Show(&m, false)),
        };
        let d = Diagnostic::new(sp, format!("AssertionError: {text}"));
        self.fail("AssertionError", &text, d);
        Ok(Value::None)
    }

    /// What `assertEqual(a, b)` (or `assertListEqual`, ...) says when they
    /// differ: CPython picks the message by the two types (lists, tuples,
    /// dicts and strings get a diff), with reprs shortened past 80
    /// characters. `None` when `assertSequenceEqual` lets it pass.
    fn not_equal_message(
        &mut self,
        asked: &str,
        recv: &Value,
        a: &Value,
        b: &Value,
        sp: &Range<usize>,
    ) -> Result<Option<String>> {
        let (ra, rb) = messages::common_shorten_repr(a, b);
        let max_diff = match self.get_attr_ext(recv, "maxDiff", sp.clone()) {
            Some(Ok(Value::None)) => None,
            Some(Ok(Value::Int(n))) => Some(n.max(0) as usize),
            _ => Some(messages::MAX_DIFF),
        };
        let kind = match (asked, a, b) {
            ("assertSequenceEqual", _, _) => Some("sequence"),
            (_, Value::List(_), Value::List(_)) => Some("list"),
            (_, Value::Tuple(_), Value::Tuple(_)) => Some("tuple"),
            _ => None,
        };
        let (Some(kind), Some(xs), Some(ys)) = (kind, a.items(), b.items()) else {
            let base = format!("{ra} != {rb}");
            return Ok(Some(match (a, b) {
                (Value::Dict(_), Value::Dict(_)) => {
                    messages::with_diff(base, messages::pformat_diff(a, b), max_diff)
                }
                // Strings longer than unittest's _diffThreshold get no diff.
                (Value::Str(x), Value::Str(y)) if x.len().max(y.len()) <= 1 << 16 => {
                    messages::with_diff(base, messages::string_diff(x, y), max_diff)
                }
                _ => base,
            }));
        };
        let mut text = format!(
            "{}{}s differ: {ra} != {rb}\n",
            kind[..1].to_uppercase(),
            &kind[1..]
        );
        let mut differing = None;
        for (i, (x, y)) in xs.iter().zip(&ys).enumerate() {
            if !self.py_equal(x, y, sp)? {
                differing = Some(i);
                break;
            }
        }
        match differing {
            Some(i) => {
                let (rx, ry) = messages::common_shorten_repr(&xs[i], &ys[i]);
                text.push_str(&format!("\nFirst differing element {i}:\n{rx}\n{ry}\n"));
            }
            None if xs.len() == ys.len() => {
                // assertSequenceEqual of a list and a tuple with equal items.
                return Ok(None);
            }
            None => {}
        }
        let (longer, which, extra) = if xs.len() > ys.len() {
            (&xs, "First", ys.len())
        } else {
            (&ys, "Second", xs.len())
        };
        if xs.len() != ys.len() {
            text.push_str(&format!(
                "\n{which} {kind} contains {} additional elements.\nFirst extra element {extra}:\n{}\n",
                longer.len() - extra,
                repr(&longer[extra])
            ));
        }
        Ok(Some(messages::with_diff(
            text,
            messages::pformat_diff(a, b),
            max_diff,
        )))
    }

    /// `a == b` as Python's `==` gives it, and whether it is true.
    fn py_equal(&mut self, a: &Value, b: &Value, sp: &Range<usize>) -> Result<bool> {
        let v = self.compare(CmpOp::Eq, a, b, sp.clone())?;
        match v.truthy() {
            Some(t) => Ok(t),
            None if matches!(v, Value::Poison) => Ok(true),
            None => Err(Diagnostic::new(
                sp.clone(),
                "ValueError: The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()",
            )
            .help("compare arrays with numpy.allclose(a, b) or numpy.array_equal(a, b)")),
        }
    }

    fn is_true(&mut self, v: &Value, sp: &Range<usize>) -> Result<bool> {
        match v.truthy() {
            Some(t) => Ok(t),
            None if matches!(v, Value::Poison) => Ok(true),
            None => Err(Diagnostic::new(
                sp.clone(),
                format!(
                    "ValueError: the truth of a {} is not known here",
                    v.type_name()
                ),
            )),
        }
    }

    pub(super) fn test_case_method(
        &mut self,
        name: &str,
        recv: Value,
        args: &[Value],
        arg_spans: &[Range<usize>],
        kwargs: &[(String, Value, Range<usize>)],
        sp: Range<usize>,
    ) -> Result<Value> {
        const PARAMS: &[(&str, &[&str])] = &[
            (
                "assertAlmostEqual",
                &["first", "second", "places", "msg", "delta"],
            ),
            (
                "assertNotAlmostEqual",
                &["first", "second", "places", "msg", "delta"],
            ),
            ("assertTrue", &["expr", "msg"]),
            ("assertFalse", &["expr", "msg"]),
            ("assertIsNone", &["obj", "msg"]),
            ("assertIsNotNone", &["obj", "msg"]),
            ("assertIn", &["member", "container", "msg"]),
            ("assertNotIn", &["member", "container", "msg"]),
            ("assertIsInstance", &["obj", "cls", "msg"]),
            ("fail", &["msg"]),
            ("skipTest", &["reason"]),
        ];
        let asked = name;
        let name = match name {
            "assertEquals"
            | "assertListEqual"
            | "assertTupleEqual"
            | "assertDictEqual"
            | "assertSequenceEqual" => "assertEqual",
            "assert_" => "assertTrue",
            "assertAlmostEquals" => "assertAlmostEqual",
            n => n,
        };
        let params: &[&str] = PARAMS
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(&["first", "second", "msg"], |(_, p)| p);
        let mut bound: Vec<Option<Value>> = vec![None; params.len()];
        if !matches!(
            name,
            "assertRaises" | "setUp" | "tearDown" | "setUpClass" | "tearDownClass"
        ) {
            for (i, a) in args.iter().enumerate() {
                match bound.get_mut(i) {
                    Some(slot) => *slot = Some(a.clone()),
                    None => {
                        return Err(Diagnostic::new(
                            sp,
                            format!(
                                "TypeError: {name}() takes at most {} arguments",
                                params.len()
                            ),
                        ))
                    }
                }
            }
            for (k, v, ksp) in kwargs {
                match params.iter().position(|p| p == k) {
                    Some(i) => bound[i] = Some(v.clone()),
                    None => {
                        return Err(Diagnostic::new(
                            ksp.clone(),
                            format!("TypeError: {name}() got an unexpected keyword argument '{k}'"),
                        ))
                    }
                }
            }
        }
        let get = |p: &str| -> Option<Value> {
            params
                .iter()
                .position(|x| *x == p)
                .and_then(|i| bound[i].clone())
        };
        let req = |p: &str| -> Result<Value> {
            get(p).ok_or_else(|| {
                Diagnostic::new(
                    sp.clone(),
                    format!("TypeError: {name}() missing 1 required positional argument: '{p}'"),
                )
            })
        };
        if args
            .iter()
            .chain(kwargs.iter().map(|k| &k.1))
            .any(|v| matches!(v, Value::Poison))
        {
            return Ok(Value::None);
        }
        let msg = get("msg");
        match name {
            "setUp" | "tearDown" | "setUpClass" | "tearDownClass" => Ok(Value::None),
            "assertEqual" | "assertNotEqual" => {
                let (a, b) = (req("first")?, req("second")?);
                let eq = self.py_equal(&a, &b, &sp)?;
                match (name, eq) {
                    ("assertEqual", false) => {
                        match self.not_equal_message(asked, &recv, &a, &b, &sp)? {
                            Some(text) => self.assert_fail(text, msg, sp),
                            None => Ok(Value::None),
                        }
                    }
                    ("assertNotEqual", true) => {
                        self.assert_fail(format!("{} == {}", repr(&a), repr(&b)), msg, sp)
                    }
                    _ => Ok(Value::None),
                }
            }
            "assertTrue" | "assertFalse" => {
                let x = req("expr")?;
                let t = self.is_true(&x, &sp)?;
                match (name, t) {
                    ("assertTrue", false) => {
                        self.assert_fail(format!("{} is not true", repr(&x)), msg, sp)
                    }
                    ("assertFalse", true) => {
                        self.assert_fail(format!("{} is not false", repr(&x)), msg, sp)
                    }
                    _ => Ok(Value::None),
                }
            }
            "assertAlmostEqual" | "assertNotAlmostEqual" => {
                let (a, b) = (req("first")?, req("second")?);
                let places = get("places").filter(|v| !matches!(v, Value::None));
                let delta = get("delta").filter(|v| !matches!(v, Value::None));
                if places.is_some() && delta.is_some() {
                    return Err(Diagnostic::new(
                        sp,
                        "TypeError: specify delta or places not both",
                    ));
                }
                let same = self.py_equal(&a, &b, &sp)?;
                // `abs(first - second)`, a numpy scalar when numpy makes one.
                let mut diff_value = None;
                let diff = {
                    let d = self.binop(
                        rustpython_parser::ast::Operator::Sub,
                        a.clone(),
                        b.clone(),
                        sp.clone(),
                    );
                    if let Value::NpScalar(x) = &d {
                        diff_value = x
                            .unary(crate::host::UnaryOp::Abs)
                            .ok()
                            .map(|y| Value::NpScalar(Rc::new(y)));
                    }
                    let f = match &d {
                        Value::Int(i) => Some((*i as f64).abs()),
                        Value::Float(f) => Some(f.abs()),
                        Value::NpScalar(x) | Value::Array(x) if x.size() == 1 => {
                            x.to_float().ok().map(f64::abs)
                        }
                        _ => None,
                    };
                    match f {
                        Some(f) => f,
                        None if same => 0.0,
                        None => {
                            return Err(Diagnostic::new(
                                sp,
                                format!(
                                    "TypeError: unsupported operand type(s) for -: '{}' and '{}'",
                                    a.type_name(),
                                    b.type_name()
                                ),
                            ))
                        }
                    }
                };
                let diff_repr = match &diff_value {
                    Some(v) => repr(v),
                    None => crate::front::value::py_float(diff),
                };
                let (close, how) = match (&delta, &places) {
                    (Some(d), _) => {
                        let dv = match d {
                            Value::Int(i) => *i as f64,
                            Value::Float(f) => *f,
                            _ => 0.0,
                        };
                        (same || diff <= dv, format!("{} delta", repr(d)))
                    }
                    (None, p) => {
                        let places = match p {
                            Some(Value::Int(n)) => *n,
                            _ => 7,
                        };
                        let rounded: f64 = format!("{:.*}", places.clamp(0, 300) as usize, diff)
                            .parse()
                            .unwrap_or(diff);
                        (same || rounded == 0.0, format!("{places} places"))
                    }
                };
                if name == "assertAlmostEqual" && !close {
                    let m = format!(
                        "{} != {} within {how} ({diff_repr} difference)",
                        repr(&a),
                        repr(&b)
                    );
                    return self.assert_fail(m, msg, sp);
                }
                if name == "assertNotAlmostEqual" && close {
                    let m = match &delta {
                        Some(_) => format!(
                            "{} == {} within {how} ({diff_repr} difference)",
                            repr(&a),
                            repr(&b)
                        ),
                        None => format!("{} == {} within {how}", repr(&a), repr(&b)),
                    };
                    return self.assert_fail(m, msg, sp);
                }
                Ok(Value::None)
            }
            "assertIn" | "assertNotIn" => {
                let (m, c) = (req("member")?, req("container")?);
                let found = self.compare(CmpOp::In, &m, &c, sp.clone())?;
                match (name, found.truthy()) {
                    ("assertIn", Some(false)) => {
                        self.assert_fail(format!("{} not found in {}", repr(&m), repr(&c)), msg, sp)
                    }
                    ("assertNotIn", Some(true)) => self.assert_fail(
                        format!("{} unexpectedly found in {}", repr(&m), repr(&c)),
                        msg,
                        sp,
                    ),
                    _ => Ok(Value::None),
                }
            }
            "assertIs" | "assertIsNot" => {
                let (a, b) = (req("first")?, req("second")?);
                let is = self.compare(CmpOp::Is, &a, &b, sp.clone())?;
                match (name, is.truthy()) {
                    ("assertIs", Some(false)) => {
                        self.assert_fail(format!("{} is not {}", repr(&a), repr(&b)), msg, sp)
                    }
                    ("assertIsNot", Some(true)) => {
                        self.assert_fail(format!("unexpectedly identical: {}", repr(&a)), msg, sp)
                    }
                    _ => Ok(Value::None),
                }
            }
            "assertIsNone" => match req("obj")? {
                Value::None => Ok(Value::None),
                x => self.assert_fail(format!("{} is not None", repr(&x)), msg, sp),
            },
            "assertIsNotNone" => match req("obj")? {
                Value::None => self.assert_fail("unexpectedly None".into(), msg, sp),
                _ => Ok(Value::None),
            },
            "assertIsInstance" => {
                let (o, c) = (req("obj")?, req("cls")?);
                let f = super::classes::builtin_name("isinstance").unwrap_or(Value::Poison);
                let r = self.call(
                    f,
                    vec![o.clone(), c.clone()],
                    arg_spans.to_vec(),
                    Vec::new(),
                    sp.clone(),
                )?;
                if matches!(r, Value::Bool(false)) {
                    return self.assert_fail(
                        format!("{} is not an instance of {}", repr(&o), repr(&c)),
                        msg,
                        sp,
                    );
                }
                Ok(Value::None)
            }
            "assertGreater" | "assertGreaterEqual" | "assertLess" | "assertLessEqual" => {
                let (a, b) = (req("first")?, req("second")?);
                let (op, words) = match name {
                    "assertGreater" => (CmpOp::Gt, "greater than"),
                    "assertGreaterEqual" => (CmpOp::GtE, "greater than or equal to"),
                    "assertLess" => (CmpOp::Lt, "less than"),
                    _ => (CmpOp::LtE, "less than or equal to"),
                };
                let r = self.compare(op, &a, &b, sp.clone())?;
                if !self.is_true(&r, &sp)? {
                    return self.assert_fail(
                        format!("{} not {words} {}", repr(&a), repr(&b)),
                        msg,
                        sp,
                    );
                }
                Ok(Value::None)
            }
            "skipTest" => {
                let reason = Show(&req("reason")?, false).to_string();
                let d = Diagnostic::new(sp, format!("SkipTest: {reason}"));
                self.fail("SkipTest", &reason, d);
                Ok(Value::None)
            }
            "fail" => {
                let text = match msg {
                    None | Some(Value::None) => String::new(),
                    Some(m) => Show(&m, false).to_string(),
                };
                let d = Diagnostic::new(sp, format!("AssertionError: {text}"));
                self.fail("AssertionError", &text, d);
                Ok(Value::None)
            }
            "assertRaises" => {
                let Some(first) = args.first() else {
                    return Err(Diagnostic::new(
                        sp,
                        "TypeError: assertRaises() takes an exception class",
                    ));
                };
                let kinds = match first {
                    Value::Tuple(t) => t.to_vec(),
                    other => vec![other.clone()],
                };
                let mut classes = Vec::new();
                for k in kinds {
                    match k {
                        Value::Class(c) if c.root == Root::Exception => classes.push(c),
                        other => {
                            return Err(Diagnostic::new(
                                sp,
                                format!(
                                    "TypeError: assertRaises() takes exception classes, not {}",
                                    other.type_name()
                                ),
                            ))
                        }
                    }
                }
                if args.len() == 1 {
                    return Ok(Value::Native(Rc::new(Native::AssertRaises(classes)), None));
                }
                // assertRaises(E, f, *args, **kwargs)
                self.st.try_depth += 1;
                let r = self.call(
                    args[1].clone(),
                    args[2..].to_vec(),
                    arg_spans.get(2..).map_or_else(Vec::new, <[_]>::to_vec),
                    kwargs.to_vec(),
                    sp.clone(),
                );
                self.st.try_depth -= 1;
                if let Err(d) = r {
                    self.report(d);
                    self.st.try_depth += 1;
                    self.st.try_depth -= 1;
                }
                match self.st.raised.take() {
                    Some(exc) if classes.iter().any(|c| exc.value.class.is_subclass(c)) => {
                        Ok(Value::None)
                    }
                    Some(exc) => {
                        self.st.raised = Some(exc);
                        Ok(Value::Poison)
                    }
                    None => {
                        let names: Vec<&str> = classes.iter().map(|c| c.name.as_str()).collect();
                        self.assert_fail(format!("{} not raised", names.join(", ")), None, sp)
                    }
                }
            }
            other => Err(Diagnostic::new(
                sp,
                format!("{other}() is not supported by fluidc"),
            )),
        }
    }

    /// The TestCase classes of the script (sorted by name, as `dir()`
    /// gives them) and each one's test methods (sorted by name).
    fn test_classes(&self) -> Vec<(String, Rc<Class>, Vec<String>)> {
        let testcase = builtin_class("TestCase");
        let mut out = Vec::new();
        let globals = self.st.globals.borrow();
        let mut names: Vec<&String> = globals.names.keys().collect();
        names.sort();
        for name in names {
            let Some(Value::Class(c)) = globals.names.get(name) else {
                continue;
            };
            if c.root != Root::TestCase || testcase.as_ref().is_some_and(|t| Rc::ptr_eq(c, t)) {
                continue;
            }
            let mut tests: Vec<String> = Vec::new();
            for k in c.mro() {
                for (m, v) in k.attrs.borrow().iter() {
                    if m.starts_with("test")
                        && matches!(v, Value::Function(_))
                        && !tests.contains(m)
                    {
                        tests.push(m.clone());
                    }
                }
            }
            tests.sort();
            out.push((name.clone(), c.clone(), tests));
        }
        out
    }

    /// Runs a method of a test (or the class, for `setUpClass`) as
    /// unittest does: an exception in it is the test's outcome.
    fn run_test_part(
        &mut self,
        obj: &Value,
        method: &str,
        sp: &Range<usize>,
    ) -> Option<(Exc, usize)> {
        let f = match self.get_attr_ext(obj, method, sp.clone()) {
            Some(Ok(f)) => f,
            _ => return None,
        };
        let depth = self.st.calls.len();
        self.st.try_depth += 1;
        let r = self.call(f, Vec::new(), Vec::new(), Vec::new(), sp.clone());
        if let Err(d) = r {
            self.report(d);
        }
        self.st.try_depth -= 1;
        self.st.raised.take().map(|e| (e, depth + 1))
    }

    /// `unittest.main()`.
    pub(super) fn unittest_main(&mut self, exit: Option<Value>, sp: Range<usize>) -> Result<Value> {
        let classes = self.test_classes();
        let all: Vec<String> = classes
            .iter()
            .flat_map(|(c, _, tests)| tests.iter().map(move |t| format!("{c}.{t}")))
            .collect();
        if self.b.run.is_none() {
            return self.build_one_test(&classes, all, sp);
        }
        let start = std::time::Instant::now();
        let (mut run, mut errors, mut failures) = (0usize, Vec::new(), Vec::new());
        let mut skipped = 0usize;
        let assertion = builtin_class("AssertionError");
        let skip_test = builtin_class("SkipTest");
        for (cname, class, tests) in &classes {
            if tests.is_empty() {
                continue;
            }
            let cls = Value::Class(class.clone());
            // A skipped class: its tests count as run and skipped, and
            // setUpClass does not run.
            if skip_key(&cls).is_some_and(|k| self.st.skipped.contains_key(&k)) {
                run += tests.len();
                skipped += tests.len();
                eprint!("{}", "s".repeat(tests.len()));
                continue;
            }
            if let Some((exc, skip)) = self.run_test_part(&cls, "setUpClass", &sp) {
                let title = format!("ERROR: setUpClass (__main__.{cname})");
                eprint!("E");
                errors.push(Problem { title, exc, skip });
                continue;
            }
            for t in tests {
                run += 1;
                let method = class.lookup(t).map(|(m, _)| m);
                if method
                    .and_then(|m| skip_key(&m))
                    .is_some_and(|k| self.st.skipped.contains_key(&k))
                {
                    skipped += 1;
                    eprint!("s");
                    continue;
                }
                let obj =
                    match self.call(cls.clone(), Vec::new(), Vec::new(), Vec::new(), sp.clone()) {
                        Ok(o) => o,
                        Err(d) => {
                            self.report(d);
                            continue;
                        }
                    };
                let mut outcome = self.run_test_part(&obj, "setUp", &sp);
                if outcome.is_none() {
                    outcome = self.run_test_part(&obj, t, &sp);
                    if let Some(e) = self.run_test_part(&obj, "tearDown", &sp) {
                        outcome.get_or_insert(e);
                    }
                }
                match outcome {
                    None => eprint!("."),
                    Some((exc, _))
                        if skip_test
                            .as_ref()
                            .is_some_and(|k| exc.value.class.is_subclass(k)) =>
                    {
                        skipped += 1;
                        eprint!("s");
                    }
                    Some((exc, skip)) => {
                        let fail = assertion
                            .as_ref()
                            .is_some_and(|a| exc.value.class.is_subclass(a));
                        let (kind, mark, list) = if fail {
                            ("FAIL", "F", &mut failures)
                        } else {
                            ("ERROR", "E", &mut errors)
                        };
                        eprint!("{mark}");
                        list.push(Problem {
                            // CPython adds the first line of the test's docstring.
                            title: match class.lookup(t).and_then(|(m, _)| doc_first_line(&m)) {
                                Some(doc) => format!("{kind}: {t} (__main__.{cname}.{t})\n{doc}"),
                                None => format!("{kind}: {t} (__main__.{cname}.{t})"),
                            },
                            exc,
                            skip,
                        });
                    }
                }
            }
            if let Some((exc, skip)) = self.run_test_part(&cls, "tearDownClass", &sp) {
                eprint!("E");
                errors.push(Problem {
                    title: format!("ERROR: tearDownClass (__main__.{cname})"),
                    exc,
                    skip,
                });
            }
        }
        let mut text = String::from("\n");
        for p in errors.iter().chain(&failures) {
            text.push_str(&format!("{LINE1}\n{}\n{LINE2}\n", p.title));
            text.push_str(&self.traceback(&p.exc, p.skip));
            text.push('\n');
        }
        let secs = start.elapsed().as_secs_f64();
        text.push_str(&format!(
            "{LINE2}\nRan {run} test{} in {secs:.3}s\n\n",
            if run == 1 { "" } else { "s" }
        ));
        let ok = errors.is_empty() && failures.is_empty();
        let mut parts = Vec::new();
        if !failures.is_empty() {
            parts.push(format!("failures={}", failures.len()));
        }
        if !errors.is_empty() {
            parts.push(format!("errors={}", errors.len()));
        }
        if skipped > 0 {
            parts.push(format!("skipped={skipped}"));
        }
        let verdict = if ok { "OK" } else { "FAILED" };
        if parts.is_empty() {
            text.push_str(&format!("{verdict}\n"));
        } else {
            text.push_str(&format!("{verdict} ({})\n", parts.join(", ")));
        }
        eprint!("{text}");
        if matches!(exit, Some(Value::Bool(false))) {
            return Ok(Value::None);
        }
        let d = Diagnostic::new(sp, "SystemExit");
        let class = builtin_class("SystemExit").expect("SystemExit is built in");
        let e = self.exc_of(class, vec![Value::Int(i64::from(!ok))], d);
        self.st.raised = Some(e);
        Ok(Value::None)
    }

    /// CPython's traceback of an exception, from the test method's frame.
    fn traceback(&self, exc: &Exc, skip: usize) -> String {
        let mut s = String::from("Traceback (most recent call last):\n");
        for (at, func) in exc.trace.iter().skip(skip) {
            let (path, line, code) = self.location(*at);
            let path = absolute(path);
            s.push_str(&format!("  File \"{path}\", line {line}, in {func}\n"));
            s.push_str(&format!("    {}\n", code.trim()));
        }
        let class = &exc.value.class;
        let name = if class.module == "builtins" || class.module == "__main__" {
            class.name.clone()
        } else {
            format!("{}.{}", class.module, class.name)
        };
        let text = Show(&Value::Instance(exc.value.clone()), false).to_string();
        if text.is_empty() {
            s.push_str(&format!("{name}\n"));
        } else {
            s.push_str(&format!("{name}: {text}\n"));
        }
        s
    }

    /// Build mode: builds the test `--test` names, or records the tests
    /// for the command to list.
    fn build_one_test(
        &mut self,
        classes: &[(String, Rc<Class>, Vec<String>)],
        all: Vec<String>,
        sp: Range<usize>,
    ) -> Result<Value> {
        let Some(want) = self.st.test_select.clone() else {
            self.st.tests_found = Some((all, sp));
            self.b.stopped = true;
            return Ok(Value::None);
        };
        let matches: Vec<(&Rc<Class>, &String)> = classes
            .iter()
            .flat_map(|(c, class, tests)| tests.iter().map(move |t| (c, class, t)))
            .filter(|(c, _, t)| **t == want || format!("{c}.{t}") == want)
            .map(|(_, class, t)| (class, t))
            .collect();
        let (class, test) = match matches.as_slice() {
            [one] => *one,
            [] => {
                return Err(Diagnostic::new(
                    sp,
                    format!("--test {want}: the file has no such test"),
                )
                .help(format!("the tests are: {}", all.join(", "))))
            }
            more => {
                let names: Vec<String> = classes
                    .iter()
                    .flat_map(|(c, _, tests)| {
                        tests
                            .iter()
                            .filter(|t| **t == want)
                            .map(move |t| format!("{c}.{t}"))
                    })
                    .collect();
                let _ = more;
                return Err(Diagnostic::new(
                    sp,
                    format!("--test {want}: more than one class has this test"),
                )
                .help(format!("name one as Class.method: {}", names.join(", "))));
            }
        };
        let cls = Value::Class(class.clone());
        // Errors in the test are diagnostics here (the test is not run but built).
        for (obj, part) in [(cls.clone(), "setUpClass")] {
            self.call_part(&obj, part, &sp);
        }
        let obj = self.call(cls, Vec::new(), Vec::new(), Vec::new(), sp.clone())?;
        self.call_part(&obj, "setUp", &sp);
        self.call_part(&obj, test, &sp);
        self.tests_found_selected(sp);
        Ok(Value::None)
    }

    fn call_part(&mut self, obj: &Value, method: &str, sp: &Range<usize>) {
        if self.b.stopped || self.st.raised.is_some() {
            return;
        }
        if let Some(Ok(f)) = self.get_attr_ext(obj, method, sp.clone()) {
            if let Err(d) = self.call(f, Vec::new(), Vec::new(), Vec::new(), sp.clone()) {
                self.report(d);
            }
        }
    }

    /// The selected test built no run: its default program is the result;
    /// the rest of the script is not evaluated.
    fn tests_found_selected(&mut self, _sp: Range<usize>) {
        self.b.stopped = true;
    }
}

/// The identity `unittest.skip` marks a test function or class by.
pub(super) fn skip_key(v: &Value) -> Option<usize> {
    match v {
        Value::Function(f) => Some(Rc::as_ptr(f) as *const () as usize),
        Value::Class(c) => Some(Rc::as_ptr(c) as *const () as usize),
        _ => None,
    }
}

/// `TestCase.shortDescription()`: the first line of a test method's docstring.
fn doc_first_line(f: &Value) -> Option<String> {
    let Value::Function(f) = f else {
        return None;
    };
    let crate::front::value::FnBody::Def(body) = &f.body else {
        return None;
    };
    let rustpython_parser::ast::Stmt::Expr(e) = body.first()? else {
        return None;
    };
    let rustpython_parser::ast::Expr::Constant(c) = e.value.as_ref() else {
        return None;
    };
    let rustpython_parser::ast::Constant::Str(doc) = &c.value else {
        return None;
    };
    let line = doc.trim().split('\n').next()?.trim().to_string();
    (!line.is_empty()).then_some(line)
}
