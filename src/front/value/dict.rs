//! Python's `dict` at compile time: a hash map that keeps insertion order
//! (`indexmap`), keyed by [`Key`], which hashes a value as Python does so
//! that keys Python finds equal are one entry (`1`, `1.0` and `True`).
//! Lookups and assignments are O(1), so a script filling a dict in a loop
//! stays linear.
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};

use indexmap::map::Entry;
use indexmap::IndexMap;

use super::{range_len, Value};

/// A dict: each entry keeps the key as first inserted (as Python does:
/// `d[1] = a; d[1.0] = b` leaves `{1: b}`) and its value.
#[derive(Debug, Default, Clone)]
pub struct Dict {
    map: IndexMap<Key, (Value, Value)>,
    /// `collections.defaultdict(factory)`: what a missing key gets.
    pub default_factory: Option<Value>,
    /// `collections.OrderedDict()`: printed as CPython prints one,
    /// `OrderedDict([(k, v), ...])` (the order itself is every dict's).
    pub ordered: bool,
}

/// A value's identity as a dict key: Python's equality made hashable.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Key {
    None,
    /// An int, a bool, or a float with an integral value in i64's range.
    Int(i64),
    /// Any other float, by its bits (`-0.0` is `Int(0)`).
    Float(u64),
    /// A NaN equals nothing, itself included, so each is a key of its own.
    NaN(u64),
    Str(Rc<str>),
    Tuple(Box<[Key]>),
    /// `range`s are equal when they give the same items: (start, len, step),
    /// with step 0 for fewer than two items.
    Range(i64, i64, i64),
    DType(i32),
    Module(&'static str),
    Var(usize, usize, Rc<str>),
    /// Objects and functions: by identity.
    Identity(usize),
}

const TWO_63: f64 = 9_223_372_036_854_775_808.0;

/// The type name of a value that cannot be a key (Python's "unhashable type").
pub type Unhashable = &'static str;

impl Key {
    /// The key of a number; `None` if `v` is not a number.
    pub fn of_number(v: &Value) -> Option<Key> {
        static NANS: AtomicU64 = AtomicU64::new(0);
        Some(match v {
            Value::Int(i) => Key::Int(*i),
            Value::Bool(b) => Key::Int(i64::from(*b)),
            Value::Float(f) if f.is_nan() => Key::NaN(NANS.fetch_add(1, Ordering::Relaxed)),
            // An integral float in [-2^63, 2^63) equals the i64 of its value.
            Value::Float(f) if f.fract() == 0.0 && (-TWO_63..TWO_63).contains(f) => {
                Key::Int(*f as i64)
            }
            Value::Float(f) => Key::Float(f.to_bits()),
            _ => return None,
        })
    }

    /// The key of a hashable value.
    pub fn of(v: &Value) -> Result<Key, Unhashable> {
        if let Some(k) = Key::of_number(v) {
            return Ok(k);
        }
        Ok(match v {
            Value::None => Key::None,
            Value::Str(s) => Key::Str(s.clone()),
            Value::Tuple(items) => Key::Tuple(items.iter().map(Key::of).collect::<Result<_, _>>()?),
            Value::Range { start, stop, step } => match range_len(*start, *stop, *step) {
                0 => Key::Range(0, 0, 0),
                1 => Key::Range(*start, 1, 0),
                n => Key::Range(*start, n, *step),
            },
            Value::DType(k) => Key::DType(*k as i32),
            Value::Module(m) => Key::Module(m),
            Value::Var(r) => Key::Var(r.program, r.block, r.name.clone()),
            Value::Object(o) => Key::Identity(Rc::as_ptr(o) as *const () as usize),
            Value::Function(f) => Key::Identity(Rc::as_ptr(f) as *const () as usize),
            Value::Class(c) => Key::Identity(Rc::as_ptr(c) as *const () as usize),
            Value::UserModule(m) => Key::Identity(Rc::as_ptr(m) as *const () as usize),
            Value::Instance(i) => match i.tuple_items() {
                Some(items) => Key::Tuple(items.iter().map(Key::of).collect::<Result<_, _>>()?),
                None => Key::Identity(Rc::as_ptr(i) as *const () as usize),
            },
            Value::Builtin(b, None) => Key::Identity(*b as *const _ as *const () as usize),
            other => return Err(other.type_name()),
        })
    }
}

impl Dict {
    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// The entries in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = (&Value, &Value)> {
        self.map.values().map(|(k, v)| (k, v))
    }

    pub fn keys(&self) -> impl Iterator<Item = &Value> {
        self.map.values().map(|(k, _)| k)
    }

    pub fn get(&self, key: &Value) -> Result<Option<&Value>, Unhashable> {
        Ok(self.map.get(&Key::of(key)?).map(|(_, v)| v))
    }

    /// `d[key] = value`: a new key goes last; an existing one keeps its
    /// place and its first spelling.
    pub fn insert(&mut self, key: Value, value: Value) -> Result<(), Unhashable> {
        match self.map.entry(Key::of(&key)?) {
            Entry::Occupied(mut e) => e.get_mut().1 = value,
            Entry::Vacant(e) => {
                e.insert((key, value));
            }
        }
        Ok(())
    }

    /// `del d[key]`: the value, if the key was there; the others keep their order.
    pub fn remove(&mut self, key: &Value) -> Result<Option<Value>, Unhashable> {
        Ok(self.map.shift_remove(&Key::of(key)?).map(|(_, v)| v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::front::value::Show;

    fn key(v: Value) -> Key {
        Key::of(&v).expect("hashable")
    }

    #[test]
    fn numbers_python_finds_equal_are_one_key() {
        assert_eq!(key(Value::Int(1)), key(Value::Float(1.0)));
        assert_eq!(key(Value::Int(1)), key(Value::Bool(true)));
        assert_eq!(key(Value::Int(0)), key(Value::Float(-0.0)));
        assert_ne!(key(Value::Int(1)), key(Value::Float(1.5)));
        assert_ne!(key(Value::Int(i64::MAX)), key(Value::Float(TWO_63)));
        assert_eq!(key(Value::Int(i64::MIN)), key(Value::Float(-TWO_63)));
        assert_ne!(key(Value::Float(f64::NAN)), key(Value::Float(f64::NAN)));
        assert_eq!(
            key(Value::tuple(vec![Value::Int(1), Value::str("a")])),
            key(Value::tuple(vec![Value::Float(1.0), Value::str("a")]))
        );
        let empty = |start| Value::Range {
            start,
            stop: start,
            step: 1,
        };
        assert_eq!(key(empty(0)), key(empty(5)));
    }

    #[test]
    fn lists_and_dicts_are_unhashable() {
        assert_eq!(Key::of(&Value::list(vec![])), Err("list"));
        let inner = Value::tuple(vec![Value::Int(1), Value::list(vec![])]);
        assert_eq!(Key::of(&inner), Err("list"));
        assert_eq!(Key::of(&Value::Dict(Rc::default())), Err("dict"));
    }

    #[test]
    fn an_update_keeps_the_first_key_and_its_place() {
        let mut d = Dict::default();
        for (k, v) in [
            (Value::Int(1), 1),
            (Value::str("b"), 2),
            (Value::Float(1.0), 3),
        ] {
            d.insert(k, Value::Int(v)).expect("hashable");
        }
        let entries: Vec<String> = d
            .iter()
            .map(|(k, v)| format!("{}={}", Show(k, true), Show(v, true)))
            .collect();
        assert_eq!(entries, ["1=3", "'b'=2"]);
        assert!(d.remove(&Value::Bool(true)).expect("hashable").is_some());
        assert_eq!(d.len(), 1);
    }
}
