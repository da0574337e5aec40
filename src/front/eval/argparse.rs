//! `argparse` as CPython 3.11 has it, for the scripts of the Paddle book and
//! models (`parser.add_argument('--num_epochs', type=int, default=100)`,
//! `args = parser.parse_args()`), which read `sys.argv`: the words after
//! `--` on `fluidc run script.py -- ARGS`.
//!
//! The parser, its usage and help text and its errors follow CPython's
//! `argparse.py`: `usage: ...` and `prog: error: ...` on stderr with exit
//! status 2, `-h` prints the help and exits 0. The help is wrapped at
//! `$COLUMNS - 2` columns (78 without `COLUMNS`, as CPython when its output
//! is not a terminal). fluidc's parser reads the words left to right and
//! gives options their values greedily, then hands the other words to the
//! positional arguments in order; CPython matches patterns, which differs
//! only for unusual mixes of `nargs` (documented in the README).
use std::cell::RefCell;
use std::ops::Range;
use std::rc::Rc;

use indexmap::IndexMap;

use super::Eval;
use crate::front::diag::{Diagnostic, Result};
use crate::front::value::{builtin_class, Class, Instance, Object, Root, Show, Value};

mod help;

/// An `argparse.ArgumentParser`.
#[derive(Debug)]
pub struct Parser {
    prog: String,
    usage: Option<String>,
    description: Option<String>,
    epilog: Option<String>,
    formatter: Formatter,
    actions: Vec<Action>,
    /// Section titles and descriptions: positional arguments, options, then
    /// the script's `add_argument_group`s.
    groups: Vec<(Option<String>, Option<String>)>,
    /// `set_defaults(**kwargs)`.
    defaults: Vec<(String, Value)>,
}

/// `formatter_class=`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Formatter {
    Help,
    ArgumentDefaults,
    RawDescription,
    RawText,
}

impl Formatter {
    pub const CLASSES: &'static [&'static str] = &[
        "HelpFormatter",
        "ArgumentDefaultsHelpFormatter",
        "RawDescriptionHelpFormatter",
        "RawTextHelpFormatter",
    ];

    fn of(class: &str) -> Option<Formatter> {
        Some(match class {
            "HelpFormatter" => Formatter::Help,
            "ArgumentDefaultsHelpFormatter" => Formatter::ArgumentDefaults,
            "RawDescriptionHelpFormatter" => Formatter::RawDescription,
            "RawTextHelpFormatter" => Formatter::RawText,
            _ => return None,
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Store,
    StoreConst,
    StoreTrue,
    StoreFalse,
    Append,
    AppendConst,
    Count,
    Help,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Nargs {
    /// `nargs` not given: one word.
    One,
    Optional,
    ZeroOrMore,
    OneOrMore,
    Exactly(usize),
    /// Flags (`store_true`, `count`, ...).
    Zero,
}

#[derive(Debug)]
struct Action {
    /// Empty for a positional argument.
    options: Vec<String>,
    dest: String,
    kind: Kind,
    nargs: Nargs,
    konst: Value,
    default: Value,
    ty: Option<Value>,
    choices: Option<Vec<Value>>,
    required: bool,
    help: Option<String>,
    metavar: Option<String>,
    group: usize,
}

pub const SUPPRESS: &str = "==SUPPRESS==";

/// The methods of a parser (and of its argument groups, which are the
/// parser itself in fluidc: a group only decides the help section).
pub const METHODS: &[&str] = &[
    "add_argument",
    "add_argument_group",
    "set_defaults",
    "parse_args",
    "parse_known_args",
    "print_help",
    "format_help",
    "print_usage",
    "format_usage",
    "error",
];

/// A parser's argument group: the parser and the help section it adds to.
#[derive(Debug)]
pub struct Group {
    pub parser: Rc<Object>,
    pub section: usize,
}

impl Action {
    fn is_flag(&self) -> bool {
        self.nargs == Nargs::Zero
    }

    /// The word(s) a value shows as: `metavar`, `{a,b}` for choices, or the
    /// dest (upper-cased for an option).
    fn metavar(&self) -> String {
        if let Some(m) = &self.metavar {
            return m.clone();
        }
        if let Some(c) = &self.choices {
            let items: Vec<String> = c.iter().map(|v| Show(v, false).to_string()).collect();
            return format!("{{{}}}", items.join(","));
        }
        if self.options.is_empty() {
            self.dest.clone()
        } else {
            self.dest.to_uppercase()
        }
    }

    fn args_text(&self) -> String {
        let m = self.metavar();
        match self.nargs {
            Nargs::One => m,
            Nargs::Optional => format!("[{m}]"),
            Nargs::ZeroOrMore => format!("[{m} ...]"),
            Nargs::OneOrMore => format!("{m} [{m} ...]"),
            Nargs::Exactly(n) => vec![m; n].join(" "),
            Nargs::Zero => String::new(),
        }
    }

    fn usage_part(&self) -> String {
        if self.options.is_empty() {
            return self.args_text();
        }
        let part = if self.is_flag() {
            self.options[0].clone()
        } else {
            format!("{} {}", self.options[0], self.args_text())
        };
        if self.required {
            part
        } else {
            format!("[{part}]")
        }
    }

    /// How the help lists it: `-h, --help`, `--lr LR`, `file`.
    fn invocation(&self) -> String {
        if self.options.is_empty() {
            return self.metavar();
        }
        if self.is_flag() {
            return self.options.join(", ");
        }
        let args = self.args_text();
        self.options
            .iter()
            .map(|o| format!("{o} {args}"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The name errors use: `--lr/-l`, or the positional's metavar.
    fn name(&self) -> String {
        if self.options.is_empty() {
            self.metavar.clone().unwrap_or_else(|| self.dest.clone())
        } else {
            self.options.join("/")
        }
    }
}

/// A word that is an option, not a value: starts with `-`, is not `-`
/// alone, and is not a negative number (the parser has no option that
/// looks like one).
fn is_option(word: &str) -> bool {
    word.len() > 1 && word.starts_with('-') && word.parse::<f64>().is_err()
}

/// What stops the parse: an error for the user (usage, exit 2) or help
/// printed (exit 0).
enum Stop {
    Usage(String),
    Exit(String, i64),
    /// `type=` raised an exception argparse does not catch; it is in flight.
    Raised,
}

impl Eval<'_> {
    /// `argparse.ArgumentParser(...)`.
    pub(super) fn argument_parser(
        &mut self,
        args: &[Value],
        kwargs: &[(String, Value, Range<usize>)],
        sp: Range<usize>,
    ) -> Result<Value> {
        const PARAMS: &[&str] = &[
            "prog",
            "usage",
            "description",
            "epilog",
            "parents",
            "formatter_class",
            "prefix_chars",
            "fromfile_prefix_chars",
            "argument_default",
            "conflict_handler",
            "add_help",
            "allow_abbrev",
        ];
        let get = |name: &str| -> Option<Value> {
            let i = PARAMS.iter().position(|p| *p == name)?;
            args.get(i)
                .cloned()
                .or_else(|| {
                    kwargs
                        .iter()
                        .find(|(k, _, _)| k == name)
                        .map(|x| x.1.clone())
                })
                .filter(|v| !matches!(v, Value::None))
        };
        if args.len() > 4 {
            return Err(Diagnostic::new(
                sp,
                "ArgumentParser() takes prog, usage, description and epilog by position; give the others by keyword",
            ));
        }
        for (k, _, ksp) in kwargs {
            if !PARAMS.contains(&k.as_str()) {
                return Err(Diagnostic::new(
                    ksp.clone(),
                    format!("TypeError: ArgumentParser.__init__() got an unexpected keyword argument '{k}'"),
                ));
            }
            if matches!(
                k.as_str(),
                "parents"
                    | "prefix_chars"
                    | "fromfile_prefix_chars"
                    | "argument_default"
                    | "conflict_handler"
                    | "allow_abbrev"
            ) {
                return Err(Diagnostic::new(
                    ksp.clone(),
                    format!("ArgumentParser's `{k}=` is not supported by fluidc"),
                )
                .help("fluidc's argparse takes prog, usage, description, epilog, formatter_class and add_help"));
            }
        }
        let text = |name: &str| -> Result<Option<String>> {
            match get(name) {
                None => Ok(None),
                Some(Value::Str(s)) => Ok(Some(s.to_string())),
                Some(other) => Err(Diagnostic::new(
                    sp.clone(),
                    format!(
                        "ArgumentParser's `{name}` must be a string, not {}",
                        other.type_name()
                    ),
                )),
            }
        };
        let formatter = match get("formatter_class") {
            None => Formatter::Help,
            Some(Value::Class(c)) if c.module == "argparse" => {
                Formatter::of(&c.name).unwrap_or(Formatter::Help)
            }
            Some(_) => {
                return Err(Diagnostic::new(
                    sp,
                    "formatter_class must be one of argparse's HelpFormatter classes",
                ))
            }
        };
        let prog = match text("prog")? {
            Some(p) => p,
            None => {
                let argv0 = self.st.argv.first().cloned().unwrap_or_default();
                argv0.rsplit('/').next().unwrap_or(&argv0).to_string()
            }
        };
        let mut parser = Parser {
            prog,
            usage: text("usage")?,
            description: text("description")?,
            epilog: text("epilog")?,
            formatter,
            actions: Vec::new(),
            groups: vec![
                (Some("positional arguments".into()), None),
                (Some("options".into()), None),
            ],
            defaults: Vec::new(),
        };
        let add_help = get("add_help").is_none_or(|v| v.truthy().unwrap_or(true));
        if add_help {
            parser.actions.push(Action {
                options: vec!["-h".into(), "--help".into()],
                dest: "help".into(),
                kind: Kind::Help,
                nargs: Nargs::Zero,
                konst: Value::None,
                default: Value::str(SUPPRESS),
                ty: None,
                choices: None,
                required: false,
                help: Some("show this help message and exit".into()),
                metavar: None,
                group: 1,
            });
        }
        Ok(Value::object(Object::ArgParser(RefCell::new(parser))))
    }

    /// `parser.METHOD(...)` (`recv` is the parser or one of its groups).
    pub(super) fn parser_method(
        &mut self,
        name: &str,
        recv: &Value,
        args: &[Value],
        kwargs: &[(String, Value, Range<usize>)],
        sp: Range<usize>,
    ) -> Result<Value> {
        let (parser, section) = match recv {
            Value::Object(o) => match o.as_ref() {
                Object::ArgParser(_) => (o.clone(), None),
                Object::ArgGroup(g) => (g.parser.clone(), Some(g.section)),
                _ => return Err(Diagnostic::new(sp, "not an ArgumentParser")),
            },
            _ => return Err(Diagnostic::new(sp, "not an ArgumentParser")),
        };
        let Object::ArgParser(cell) = parser.as_ref() else {
            return Err(Diagnostic::new(sp, "not an ArgumentParser"));
        };
        let kw = |k: &str| kwargs.iter().find(|(n, _, _)| n == k).map(|x| x.1.clone());
        match name {
            "add_argument" => {
                let a = self.new_action(&cell.borrow(), args, kwargs, section, sp.clone())?;
                cell.borrow_mut().actions.push(a);
                Ok(Value::None)
            }
            "add_argument_group" => {
                let title = args.first().cloned().or_else(|| kw("title"));
                let description = args.get(1).cloned().or_else(|| kw("description"));
                let as_text = |v: Option<Value>| match v {
                    Some(Value::Str(s)) => Some(s.to_string()),
                    _ => None,
                };
                let mut p = cell.borrow_mut();
                p.groups.push((as_text(title), as_text(description)));
                let section = p.groups.len() - 1;
                Ok(Value::object(Object::ArgGroup(Group {
                    parser: parser.clone(),
                    section,
                })))
            }
            "set_defaults" => {
                let mut p = cell.borrow_mut();
                for (k, v, _) in kwargs {
                    let mut found = false;
                    for a in p.actions.iter_mut().filter(|a| &a.dest == k) {
                        a.default = v.clone();
                        found = true;
                    }
                    p.defaults.retain(|(d, _)| d != k);
                    if !found {
                        p.defaults.push((k.clone(), v.clone()));
                    }
                }
                Ok(Value::None)
            }
            "parse_args" | "parse_known_args" => {
                let words = match args.first().cloned().or_else(|| kw("args")) {
                    None | Some(Value::None) => self.st.argv.iter().skip(1).cloned().collect(),
                    Some(v) => match v.items() {
                        Some(items) => items
                            .iter()
                            .map(|w| match w {
                                Value::Str(s) => Ok(s.to_string()),
                                other => Err(Diagnostic::new(
                                    sp.clone(),
                                    format!(
                                        "parse_args() takes a list of strings, not one with {}",
                                        other.type_name()
                                    ),
                                )),
                            })
                            .collect::<Result<Vec<String>>>()?,
                        None => {
                            return Err(Diagnostic::new(
                                sp,
                                format!(
                                    "parse_args() takes a list of strings, not {}",
                                    v.type_name()
                                ),
                            ))
                        }
                    },
                };
                let known = name == "parse_known_args";
                match self.parse(cell, &words, sp.clone()) {
                    Ok((ns, extras)) if known => {
                        let extras = extras.iter().map(|w| Value::str(w)).collect();
                        Ok(Value::tuple(vec![ns, Value::list(extras)]))
                    }
                    Ok((_, extras)) if !extras.is_empty() => {
                        let message = format!("unrecognized arguments: {}", extras.join(" "));
                        self.usage_error(&cell.borrow(), &message, sp)
                    }
                    Ok((ns, _)) => Ok(ns),
                    Err(Stop::Usage(message)) => self.usage_error(&cell.borrow(), &message, sp),
                    Err(Stop::Exit(text, code)) => {
                        self.write_out(&text, false);
                        self.system_exit(code, sp)
                    }
                    Err(Stop::Raised) => Ok(Value::None),
                }
            }
            "print_help" | "print_usage" => {
                let p = cell.borrow();
                let text = if name == "print_help" {
                    p.help_text()
                } else {
                    p.usage_text()
                };
                let stderr = matches!(
                    kw("file").or_else(|| args.first().cloned()),
                    Some(Value::Module("sys.stderr"))
                );
                drop(p);
                self.write_out(&text, stderr);
                Ok(Value::None)
            }
            "format_help" => Ok(Value::str(&cell.borrow().help_text())),
            "format_usage" => Ok(Value::str(&cell.borrow().usage_text())),
            "error" => {
                let message = match args.first().cloned().or_else(|| kw("message")) {
                    Some(v) => Show(&v, false).to_string(),
                    None => String::new(),
                };
                self.usage_error(&cell.borrow(), &message, sp)
            }
            other => Err(Diagnostic::new(
                sp,
                format!("ArgumentParser.{other}() is not supported by fluidc"),
            )),
        }
    }

    fn new_action(
        &mut self,
        p: &Parser,
        args: &[Value],
        kwargs: &[(String, Value, Range<usize>)],
        section: Option<usize>,
        sp: Range<usize>,
    ) -> Result<Action> {
        const KEYWORDS: &[&str] = &[
            "action", "nargs", "const", "default", "type", "choices", "required", "help",
            "metavar", "dest",
        ];
        let mut names = Vec::new();
        for a in args {
            match a {
                Value::Str(s) => names.push(s.to_string()),
                other => {
                    return Err(Diagnostic::new(
                        sp,
                        format!(
                            "add_argument() takes option strings or a name, not {}",
                            other.type_name()
                        ),
                    ))
                }
            }
        }
        for (k, _, ksp) in kwargs {
            if !KEYWORDS.contains(&k.as_str()) {
                return Err(Diagnostic::new(
                    ksp.clone(),
                    format!("add_argument() got an unexpected keyword argument '{k}'"),
                )
                .help(format!(
                    "fluidc's add_argument takes {}",
                    KEYWORDS.join(", ")
                )));
            }
        }
        let kw = |k: &str| kwargs.iter().find(|(n, _, _)| n == k).map(|x| x.1.clone());
        let positional = names.first().is_some_and(|n| !n.starts_with('-'));
        if names.is_empty() || (positional && names.len() > 1) {
            return Err(Diagnostic::new(
                sp,
                "ValueError: add_argument() takes one name for a positional argument, or option strings starting with '-'",
            ));
        }
        if !positional {
            if let Some(bad) = names.iter().find(|n| !n.starts_with('-')) {
                return Err(Diagnostic::new(
                    sp,
                    format!("ValueError: invalid option string '{bad}': must start with a character '-'"),
                ));
            }
            for n in &names {
                if p.actions.iter().any(|a| a.options.contains(n)) {
                    return Err(Diagnostic::new(
                        sp,
                        format!(
                            "argparse.ArgumentError: argument {}: conflicting option string: {n}",
                            names.join("/")
                        ),
                    ));
                }
            }
        }
        let dest = match kw("dest") {
            Some(Value::Str(d)) => d.to_string(),
            _ if positional => names[0].clone(),
            _ => {
                let long = names
                    .iter()
                    .find(|n| n.starts_with("--"))
                    .unwrap_or(&names[0]);
                long.trim_start_matches('-').replace('-', "_")
            }
        };
        let kind = match kw("action") {
            None => Kind::Store,
            Some(Value::Str(s)) => match &*s {
                "store" => Kind::Store,
                "store_const" => Kind::StoreConst,
                "store_true" => Kind::StoreTrue,
                "store_false" => Kind::StoreFalse,
                "append" => Kind::Append,
                "append_const" => Kind::AppendConst,
                "count" => Kind::Count,
                "help" => Kind::Help,
                other => {
                    return Err(Diagnostic::new(sp, format!("ValueError: unknown action \"{other}\""))
                        .help("fluidc's argparse has the actions store, store_const, store_true, store_false, append, append_const, count and help"))
                }
            },
            Some(_) => {
                return Err(Diagnostic::new(
                    sp,
                    "add_argument()'s action must be a string such as 'store_true' (action classes are not supported by fluidc)",
                ))
            }
        };
        let flag = !matches!(kind, Kind::Store | Kind::Append);
        let nargs = match kw("nargs") {
            None | Some(Value::None) if flag => Nargs::Zero,
            None | Some(Value::None) => Nargs::One,
            Some(_) if flag => {
                return Err(Diagnostic::new(
                    sp,
                    "TypeError: this action takes no nargs (it stores without a value)",
                ))
            }
            Some(Value::Str(s)) if &*s == "?" => Nargs::Optional,
            Some(Value::Str(s)) if &*s == "*" => Nargs::ZeroOrMore,
            Some(Value::Str(s)) if &*s == "+" => Nargs::OneOrMore,
            Some(Value::Int(n)) if n > 0 => Nargs::Exactly(n as usize),
            Some(other) => {
                return Err(Diagnostic::new(
                    sp,
                    format!(
                        "ValueError: nargs must be '?', '*', '+' or a positive int, not {}",
                        Show(&other, true)
                    ),
                ))
            }
        };
        let text = |k: &str| match kw(k) {
            Some(Value::Str(s)) => Some(s.to_string()),
            _ => None,
        };
        // A parser-level default (`set_defaults` before this argument)
        // is the argument's default, as in CPython.
        let parser_default = p
            .defaults
            .iter()
            .find(|(d, _)| *d == dest)
            .map(|x| x.1.clone());
        let default = match (kw("default").or(parser_default), kind) {
            (Some(v), _) => v,
            (None, Kind::StoreTrue) => Value::Bool(false),
            (None, Kind::StoreFalse) => Value::Bool(true),
            (None, Kind::Help) => Value::str(SUPPRESS),
            (None, _) => Value::None,
        };
        let konst = match (kw("const"), kind) {
            (Some(v), _) => v,
            (None, Kind::StoreTrue) => Value::Bool(true),
            (None, Kind::StoreFalse) => Value::Bool(false),
            (None, _) => Value::None,
        };
        let choices = match kw("choices") {
            None | Some(Value::None) => None,
            Some(v) => Some(v.items().ok_or_else(|| {
                Diagnostic::new(
                    sp.clone(),
                    "add_argument()'s choices must be a list or tuple",
                )
            })?),
        };
        let required = match kw("required") {
            Some(v) if !positional => v.truthy().unwrap_or(false),
            Some(_) => {
                return Err(Diagnostic::new(
                    sp,
                    "TypeError: 'required' is an invalid argument for positionals",
                ))
            }
            None => {
                positional && matches!(nargs, Nargs::One | Nargs::OneOrMore | Nargs::Exactly(_))
            }
        };
        Ok(Action {
            options: if positional { Vec::new() } else { names },
            dest,
            kind,
            nargs,
            konst,
            default,
            ty: kw("type").filter(|t| !matches!(t, Value::None)),
            choices,
            required,
            help: text("help"),
            metavar: text("metavar"),
            group: section.unwrap_or(if positional { 0 } else { 1 }),
        })
    }

    /// Parses `words`: the namespace and the words no argument took.
    fn parse(
        &mut self,
        cell: &RefCell<Parser>,
        words: &[String],
        sp: Range<usize>,
    ) -> std::result::Result<(Value, Vec<String>), Stop> {
        let p = cell.borrow();
        let mut values: IndexMap<String, Value> = IndexMap::new();
        for a in &p.actions {
            if matches!(&a.default, Value::Str(s) if &**s == SUPPRESS) {
                continue;
            }
            values
                .entry(a.dest.clone())
                .or_insert_with(|| a.default.clone());
        }
        for (k, v) in &p.defaults {
            values.entry(k.clone()).or_insert_with(|| v.clone());
        }
        let mut seen = vec![false; p.actions.len()];
        let mut extras = Vec::new();
        let mut loose: Vec<String> = Vec::new();
        let mut i = 0;
        // `-vv`: flags combined behind one dash, taken one by one.
        let mut combined: Option<String> = None;
        while i < words.len() || combined.is_some() {
            let word = match combined.take() {
                Some(w) => w,
                None => {
                    i += 1;
                    words[i - 1].clone()
                }
            };
            let word = &word;
            if word == "--" {
                loose.extend(words[i..].iter().cloned());
                break;
            }
            if !is_option(word) {
                loose.push(word.clone());
                continue;
            }
            let Some((index, explicit)) = find_option(&p, word)? else {
                extras.push(word.clone());
                continue;
            };
            let a = &p.actions[index];
            seen[index] = true;
            let mut taken: Vec<String> = Vec::new();
            let following = |i: usize| {
                words[i..]
                    .iter()
                    .take_while(|w| !is_option(w) && *w != "--")
                    .count()
            };
            match (a.nargs, explicit) {
                (Nargs::Zero, Some(x)) if !word.starts_with("--") => {
                    combined = Some(format!("-{x}"));
                }
                (Nargs::Zero, Some(x)) => {
                    return Err(Stop::Usage(format!(
                        "argument {}: ignored explicit argument '{x}'",
                        a.name()
                    )))
                }
                (Nargs::Zero, None) => {}
                (_, Some(x)) => taken.push(x),
                (nargs, None) => {
                    let n = following(i);
                    let want = match nargs {
                        Nargs::One => 1,
                        Nargs::Optional => n.min(1),
                        Nargs::ZeroOrMore | Nargs::OneOrMore => n,
                        Nargs::Exactly(k) => k,
                        Nargs::Zero => 0,
                    };
                    if n < want || (nargs == Nargs::OneOrMore && n == 0) {
                        return Err(Stop::Usage(format!(
                            "argument {}: {}",
                            a.name(),
                            expected(nargs)
                        )));
                    }
                    taken.extend(words[i..i + want].iter().cloned());
                    i += want;
                }
            }
            if let Nargs::Exactly(k) = a.nargs {
                if taken.len() != k {
                    return Err(Stop::Usage(format!(
                        "argument {}: {}",
                        a.name(),
                        expected(a.nargs)
                    )));
                }
            }
            let value = self.action_value(&p, a, &taken, sp.clone())?;
            apply(a, value, &mut values);
        }
        // The positionals take the loose words in order, each leaving
        // enough for the ones after it.
        let positionals: Vec<usize> = (0..p.actions.len())
            .filter(|&k| p.actions[k].options.is_empty())
            .collect();
        let min = |k: usize| match p.actions[k].nargs {
            Nargs::One | Nargs::OneOrMore => 1,
            Nargs::Exactly(n) => n,
            _ => 0,
        };
        let mut at = 0;
        for (n, &k) in positionals.iter().enumerate() {
            let a = &p.actions[k];
            let rest_min: usize = positionals[n + 1..].iter().map(|&j| min(j)).sum();
            let avail = loose.len().saturating_sub(at).saturating_sub(rest_min);
            let want = match a.nargs {
                Nargs::One => 1,
                Nargs::Optional => avail.min(1),
                Nargs::ZeroOrMore | Nargs::OneOrMore => avail,
                Nargs::Exactly(k) => k,
                Nargs::Zero => 0,
            };
            if avail < want || (a.nargs == Nargs::OneOrMore && avail == 0) {
                continue;
            }
            let taken: Vec<String> = loose[at..at + want].to_vec();
            at += want;
            seen[k] = true;
            // CPython: an empty `*` positional without a default is `[]`.
            let value = if taken.is_empty()
                && a.nargs == Nargs::ZeroOrMore
                && matches!(a.default, Value::None)
            {
                Value::list(Vec::new())
            } else if taken.is_empty() {
                match &a.default {
                    // A `?` positional's string default goes through `type=`.
                    Value::Str(d) if a.nargs == Nargs::Optional && &**d != SUPPRESS => {
                        self.convert(a, &d.clone(), sp.clone())?
                    }
                    other => other.clone(),
                }
            } else {
                self.action_value(&p, a, &taken, sp.clone())?
            };
            apply(a, value, &mut values);
        }
        extras.extend(loose[at..].iter().cloned());
        let missing: Vec<String> = p
            .actions
            .iter()
            .zip(&seen)
            .filter(|(a, s)| a.required && !**s)
            .map(|(a, _)| a.name())
            .collect();
        if !missing.is_empty() {
            return Err(Stop::Usage(format!(
                "the following arguments are required: {}",
                missing.join(", ")
            )));
        }
        // A string default goes through `type=` as a given word would.
        for (a, s) in p.actions.iter().zip(&seen) {
            if *s || a.ty.is_none() || a.is_flag() {
                continue;
            }
            if let Value::Str(d) = &a.default {
                if &**d != SUPPRESS {
                    let v = self.convert(a, d, sp.clone())?;
                    values.insert(a.dest.clone(), v);
                }
            }
        }
        let class = namespace_class();
        let ns = Instance {
            class,
            attrs: RefCell::new(values),
        };
        Ok((Value::Instance(Rc::new(ns)), extras))
    }

    /// The value an action stores for the words it took.
    fn action_value(
        &mut self,
        p: &Parser,
        a: &Action,
        taken: &[String],
        sp: Range<usize>,
    ) -> std::result::Result<Value, Stop> {
        if a.kind == Kind::Help {
            return Err(Stop::Exit(p.help_text(), 0));
        }
        let mut out = Vec::new();
        for w in taken {
            let v = self.convert(a, w, sp.clone())?;
            if let Some(choices) = &a.choices {
                if !choices.iter().any(|c| crate::front::api::equal(c, &v)) {
                    let items: Vec<String> =
                        choices.iter().map(|c| Show(c, true).to_string()).collect();
                    return Err(Stop::Usage(format!(
                        "argument {}: invalid choice: {} (choose from {})",
                        a.name(),
                        Show(&v, true),
                        items.join(", ")
                    )));
                }
            }
            out.push(v);
        }
        Ok(match a.nargs {
            Nargs::Zero => a.konst.clone(),
            Nargs::One => out.pop().unwrap_or(Value::None),
            // CPython passes a string const through `type=` too.
            Nargs::Optional if out.is_empty() => match &a.konst {
                Value::Str(c) => self.convert(a, &c.clone(), sp)?,
                other => other.clone(),
            },
            Nargs::Optional => out.pop().unwrap_or(Value::None),
            _ => Value::list(out),
        })
    }

    /// A word through `type=`; a failed conversion is argparse's error.
    fn convert(
        &mut self,
        a: &Action,
        word: &str,
        sp: Range<usize>,
    ) -> std::result::Result<Value, Stop> {
        let Some(ty) = a.ty.clone() else {
            return Ok(Value::str(word));
        };
        let invalid = |ty: &Value| {
            let name = match ty {
                Value::Builtin(b, _) => b.name.rsplit('.').next().unwrap_or(b.name).to_string(),
                Value::Function(f) => f.name.clone(),
                Value::Native(..) => "strtobool".to_string(),
                Value::Class(c) => c.name.clone(),
                other => other.type_name().to_string(),
            };
            Stop::Usage(format!(
                "argument {}: invalid {name} value: {}",
                a.name(),
                Show(&Value::str(word), true)
            ))
        };
        let saved_try = self.st.try_depth;
        // Inside the conversion a ValueError is argparse's to catch.
        self.st.try_depth += 1;
        let r = self.call(
            ty.clone(),
            vec![Value::str(word)],
            vec![sp.clone()],
            Vec::new(),
            sp,
        );
        self.st.try_depth = saved_try;
        let raised = self.st.raised.take();
        match (r, raised) {
            (Ok(_), Some(e))
                if !matches!(e.value.class.name.as_str(), "ValueError" | "TypeError") =>
            {
                self.st.raised = Some(e);
                Err(Stop::Raised)
            }
            (Ok(_), Some(_)) | (Err(_), _) => Err(invalid(&ty)),
            (Ok(Value::Poison), None) => Err(invalid(&ty)),
            (Ok(v), None) => Ok(v),
        }
    }

    /// `usage: ...` and `prog: error: message` on stderr, then `SystemExit(2)`.
    fn usage_error(&mut self, p: &Parser, message: &str, sp: Range<usize>) -> Result<Value> {
        let text = format!("{}{}: error: {message}\n", p.usage_text(), p.prog);
        self.write_out(&text, true);
        self.system_exit(2, sp)
    }

    fn system_exit(&mut self, code: i64, sp: Range<usize>) -> Result<Value> {
        let class = builtin_class("SystemExit").expect("SystemExit is built in");
        let e = self.exc_of(
            class,
            vec![Value::Int(code)],
            Diagnostic::new(sp, "SystemExit"),
        );
        self.st.raised = Some(e);
        Ok(Value::None)
    }

    /// Text on the script's stdout (kept in order with its prints) or stderr.
    pub(super) fn write_out(&mut self, text: &str, stderr: bool) {
        match self.b.run.as_mut() {
            Some(run) if !stderr => run.stdout.push_str(text),
            _ => eprint!("{text}"),
        }
    }
}

/// Stores an action's value in the namespace being built.
fn apply(a: &Action, value: Value, values: &mut IndexMap<String, Value>) {
    let old = values.get(&a.dest).cloned().unwrap_or(Value::None);
    let new = match a.kind {
        Kind::Store | Kind::StoreConst | Kind::StoreTrue | Kind::StoreFalse => value,
        Kind::Append | Kind::AppendConst => {
            let mut items = match &old {
                Value::List(l) => l.borrow().clone(),
                _ => Vec::new(),
            };
            items.push(value);
            Value::list(items)
        }
        Kind::Count => match old {
            Value::Int(n) => Value::Int(n + 1),
            _ => Value::Int(1),
        },
        Kind::Help => return,
    };
    values.insert(a.dest.clone(), new);
}

/// "expected one argument" and its kin.
fn expected(nargs: Nargs) -> String {
    match nargs {
        Nargs::Optional => "expected at most one argument".into(),
        Nargs::OneOrMore => "expected at least one argument".into(),
        Nargs::Exactly(1) | Nargs::One => "expected one argument".into(),
        Nargs::Exactly(n) => format!("expected {n} arguments"),
        _ => "expected one argument".into(),
    }
}

/// The action an option word names, and a value attached to it
/// (`--lr=0.1`, `-l0.1`); `None` for an option the parser lacks. A unique
/// prefix of a long option names it, as with CPython's `allow_abbrev`.
fn find_option(
    p: &Parser,
    word: &str,
) -> std::result::Result<Option<(usize, Option<String>)>, Stop> {
    let find = |o: &str| {
        p.actions
            .iter()
            .position(|a| a.options.iter().any(|x| x == o))
    };
    if let Some(k) = find(word) {
        return Ok(Some((k, None)));
    }
    // `--lr=0.1`, `-lr=0.1`, `-l=0.1`: an option string and its value.
    let (head, value) = match word.split_once('=') {
        Some((h, v)) => (h, Some(v.to_string())),
        None => (word, None),
    };
    if let Some(k) = find(head) {
        return Ok(Some((k, value)));
    }
    if word.starts_with("--") {
        let matches: Vec<(usize, &String)> = p
            .actions
            .iter()
            .enumerate()
            .flat_map(|(k, a)| a.options.iter().map(move |o| (k, o)))
            .filter(|(_, o)| o.starts_with("--") && o.starts_with(head))
            .collect();
        return match matches.as_slice() {
            [] => Ok(None),
            [(k, _)] => Ok(Some((*k, value))),
            many => {
                let names: Vec<&str> = many.iter().map(|(_, o)| o.as_str()).collect();
                Err(Stop::Usage(format!(
                    "ambiguous option: {head} could match {}",
                    names.join(", ")
                )))
            }
        };
    }
    // `-l0.1`: a short option with its value attached.
    // `-vv`: a flag and more flags after it (the parse takes them in turn).
    if word.len() > 2 && word.is_char_boundary(2) {
        if let Some(k) = find(&word[..2]) {
            return Ok(Some((k, Some(word[2..].to_string()))));
        }
    }
    Ok(None)
}

/// `argparse.Namespace`: what `parse_args` returns.
pub fn namespace_class() -> Rc<Class> {
    thread_local! {
        static NAMESPACE: Rc<Class> =
            Class::new("Namespace", "argparse", builtin_class("object"), Root::Object);
    }
    NAMESPACE.with(Rc::clone)
}

/// `Namespace(a=1, b='x')`, as CPython prints a namespace.
pub fn namespace_repr(i: &Instance) -> Option<String> {
    if i.class.module != "argparse" || i.class.name != "Namespace" {
        return None;
    }
    let items: Vec<String> = i
        .attrs
        .borrow()
        .iter()
        .map(|(k, v)| format!("{k}={}", Show(v, true)))
        .collect();
    Some(format!("Namespace({})", items.join(", ")))
}

/// `distutils.util.strtobool`: 1 for y, yes, t, true, on, 1; 0 for n, no,
/// f, false, off, 0 (any case); otherwise a ValueError.
pub fn strtobool(s: &str) -> std::result::Result<i64, String> {
    match s.to_lowercase().as_str() {
        "y" | "yes" | "t" | "true" | "on" | "1" => Ok(1),
        "n" | "no" | "f" | "false" | "off" | "0" => Ok(0),
        _ => Err(format!(
            "ValueError: invalid truth value {}",
            Show(&Value::str(s), true)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negative_numbers_are_values_not_options() {
        assert!(is_option("--lr"));
        assert!(is_option("-h"));
        assert!(!is_option("-1"));
        assert!(!is_option("-0.5"));
        assert!(!is_option("-"));
    }

    #[test]
    fn strtobool_knows_distutils_words() {
        assert_eq!(strtobool("Yes"), Ok(1));
        assert_eq!(strtobool("off"), Ok(0));
        assert!(strtobool("maybe").is_err());
    }
}
