//! `collections.namedtuple`: a class whose instances are tuples with named
//! fields. An instance is an [`Instance`] of a class rooted in
//! [`Root::NamedTuple`], holding each field as an attribute; wherever a
//! tuple is expected (iteration, unpacking, `len`, indexing, `==`, hashing,
//! printing) it acts as the tuple of its fields ([`Instance::tuple_items`]).
use std::ops::Range;
use std::rc::Rc;

use super::Eval;
use crate::front::diag::{Diagnostic, Result};
use crate::front::value::{Class, Dict, Instance, Root, Value};

impl Eval<'_> {
    /// `namedtuple(typename, field_names, defaults=None)`; `field_names` is
    /// a list of names or one string of names apart by spaces or commas.
    pub(super) fn namedtuple(
        &mut self,
        args: &[Value],
        kwargs: &[(String, Value, Range<usize>)],
        sp: Range<usize>,
    ) -> Result<Value> {
        let kw = |name: &str| {
            kwargs
                .iter()
                .find(|(k, _, _)| k == name)
                .map(|(_, v, _)| v.clone())
        };
        let typename = args.first().cloned().or_else(|| kw("typename"));
        let fields = args.get(1).cloned().or_else(|| kw("field_names"));
        let (Some(Value::Str(typename)), Some(fields)) = (typename, fields) else {
            return Err(Diagnostic::new(
                sp,
                "TypeError: namedtuple() takes a type name and its field names",
            ));
        };
        let names: Vec<String> = match &fields {
            Value::Str(s) => s
                .replace(',', " ")
                .split_whitespace()
                .map(str::to_string)
                .collect(),
            other => match other.items() {
                Some(items) => items
                    .iter()
                    .map(|v| match v {
                        Value::Str(s) => Ok(s.to_string()),
                        _ => Err(Diagnostic::new(
                            sp.clone(),
                            "TypeError: Type names and field names must be strings",
                        )),
                    })
                    .collect::<Result<_>>()?,
                None => {
                    return Err(Diagnostic::new(
                        sp,
                        "TypeError: field_names must be a string or a list of strings",
                    ))
                }
            },
        };
        for (i, n) in names.iter().enumerate() {
            let ok = n.chars().next().is_some_and(|c| c.is_alphabetic())
                && n.chars().all(|c| c.is_alphanumeric() || c == '_');
            if !ok || names[..i].contains(n) {
                let why = if ok {
                    format!("Encountered duplicate field name: '{n}'")
                } else {
                    format!("Type names and field names must be valid identifiers: '{n}'")
                };
                return Err(Diagnostic::new(sp, format!("ValueError: {why}")));
            }
        }
        let defaults = match kw("defaults") {
            None | Some(Value::None) => Vec::new(),
            Some(d) => d.items().unwrap_or_default(),
        };
        if defaults.len() > names.len() {
            return Err(Diagnostic::new(
                sp,
                "TypeError: Got more default values than field names",
            ));
        }
        let module = match self.st.globals.borrow().names.get("__name__") {
            Some(Value::Str(m)) => m.to_string(),
            _ => "__main__".to_string(),
        };
        let class = Class::new(&typename, &module, None, Root::NamedTuple);
        {
            let mut attrs = class.attrs.borrow_mut();
            let fields = names.iter().map(|n| Value::str(n)).collect();
            attrs.insert("_fields".into(), Value::tuple(fields));
            let first_default = names.len() - defaults.len();
            let mut field_defaults = Dict::default();
            for (n, d) in names[first_default..].iter().zip(defaults) {
                // A string key is always hashable.
                let _ = field_defaults.insert(Value::str(n), d);
            }
            attrs.insert(
                "_field_defaults".into(),
                Value::Dict(Rc::new(std::cell::RefCell::new(field_defaults))),
            );
        }
        Ok(Value::Class(class))
    }

    /// `Point(1, y=2)`: the fields from the arguments, then the defaults.
    pub(super) fn new_namedtuple(
        &mut self,
        c: &Rc<Class>,
        args: &[Value],
        kwargs: &[(String, Value, Range<usize>)],
        sp: Range<usize>,
    ) -> Result<Value> {
        let names = c.namedtuple_fields();
        let defaults = c.lookup("_field_defaults").map(|(v, _)| v);
        let new = format!("{}.__new__()", c.name);
        if args.len() > names.len() {
            return Err(Diagnostic::new(
                sp,
                format!(
                    "TypeError: {new} takes {} positional arguments but {} were given",
                    names.len() + 1,
                    args.len() + 1
                ),
            ));
        }
        let mut values: Vec<Option<Value>> = vec![None; names.len()];
        for (slot, a) in values.iter_mut().zip(args) {
            *slot = Some(a.clone());
        }
        for (k, v, ksp) in kwargs {
            let Some(i) = names.iter().position(|n| n == k) else {
                return Err(Diagnostic::new(
                    ksp.clone(),
                    format!("TypeError: {new} got an unexpected keyword argument '{k}'"),
                ));
            };
            if values[i].replace(v.clone()).is_some() {
                return Err(Diagnostic::new(
                    ksp.clone(),
                    format!("TypeError: {new} got multiple values for argument '{k}'"),
                ));
            }
        }
        let inst = Instance::new(c.clone());
        let mut missing = Vec::new();
        for (n, v) in names.iter().zip(values) {
            let v = v.or_else(|| match &defaults {
                Some(Value::Dict(d)) => d.borrow().get(&Value::str(n)).ok().flatten().cloned(),
                _ => None,
            });
            match v {
                Some(v) => {
                    inst.attrs.borrow_mut().insert(n.clone(), v);
                }
                None => missing.push(format!("'{n}'")),
            }
        }
        if !missing.is_empty() {
            let list = match missing.as_slice() {
                [one] => one.clone(),
                [init @ .., last] => format!("{} and {last}", init.join(", ")),
                [] => String::new(),
            };
            return Err(Diagnostic::new(
                sp,
                format!(
                    "TypeError: {new} missing {} required positional argument{}: {list}",
                    missing.len(),
                    if missing.len() == 1 { "" } else { "s" }
                ),
            ));
        }
        Ok(Value::Instance(inst))
    }

    /// `p._replace(x=3)` and `p._asdict()`.
    pub(super) fn namedtuple_method(
        &mut self,
        name: &str,
        recv: Option<Value>,
        kwargs: &[(String, Value, Range<usize>)],
        sp: Range<usize>,
    ) -> Result<Value> {
        let Some(Value::Instance(i)) = recv else {
            return Err(Diagnostic::new(
                sp,
                format!("TypeError: {name} needs an instance"),
            ));
        };
        let names = i.class.namedtuple_fields();
        match name {
            "namedtuple._asdict" => {
                let mut d = Dict::default();
                for n in &names {
                    let v = i.attrs.borrow().get(n).cloned().unwrap_or(Value::None);
                    let _ = d.insert(Value::str(n), v);
                }
                Ok(Value::Dict(Rc::new(std::cell::RefCell::new(d))))
            }
            _ => {
                let new = Instance::new(i.class.clone());
                *new.attrs.borrow_mut() = i.attrs.borrow().clone();
                for (k, v, ksp) in kwargs {
                    if !names.contains(k) {
                        return Err(Diagnostic::new(
                            ksp.clone(),
                            format!("ValueError: Got unexpected field names: ['{k}']"),
                        ));
                    }
                    new.attrs.borrow_mut().insert(k.clone(), v.clone());
                }
                Ok(Value::Instance(new))
            }
        }
    }
}
