//! Python's `copy` module: `copy.copy` makes a new container holding the
//! same items; `copy.deepcopy` copies lists, dicts, tuples, numpy arrays
//! and instances all the way down, keeping shared parts shared and cycles
//! closed as Python's memo does. Program variables, fluid objects,
//! functions and classes are not copied (as Python copies neither
//! functions nor classes).
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use crate::front::value::{Instance, Value};

/// `copy.copy(v)`.
pub fn shallow(v: &Value) -> Value {
    match v {
        Value::List(l) => Value::list(l.borrow().clone()),
        Value::Dict(d) => Value::Dict(Rc::new(RefCell::new(d.borrow().clone()))),
        Value::Array(x) => Value::Array(Rc::new((**x).clone())),
        Value::Instance(i) => {
            let new = Instance::new(i.class.clone());
            *new.attrs.borrow_mut() = i.attrs.borrow().clone();
            Value::Instance(new)
        }
        other => other.clone(),
    }
}

/// `copy.deepcopy(v)`; `memo` maps the address of each container copied
/// so far to its copy.
pub fn deep(v: &Value, memo: &mut HashMap<usize, Value>) -> Value {
    let key = match v {
        Value::List(l) => Rc::as_ptr(l) as *const () as usize,
        Value::Dict(d) => Rc::as_ptr(d) as *const () as usize,
        Value::Instance(i) => Rc::as_ptr(i) as *const () as usize,
        Value::Tuple(t) => {
            return Value::tuple(t.iter().map(|x| deep(x, memo)).collect());
        }
        Value::Array(x) => return Value::Array(Rc::new((**x).clone())),
        other => return other.clone(),
    };
    if let Some(done) = memo.get(&key) {
        return done.clone();
    }
    match v {
        Value::List(l) => {
            let new = Rc::new(RefCell::new(Vec::new()));
            memo.insert(key, Value::List(new.clone()));
            let items: Vec<Value> = l.borrow().iter().map(|x| deep(x, memo)).collect();
            *new.borrow_mut() = items;
            Value::List(new)
        }
        Value::Dict(d) => {
            let new = Rc::new(RefCell::new(d.borrow().clone()));
            memo.insert(key, Value::Dict(new.clone()));
            let pairs: Vec<(Value, Value)> = d
                .borrow()
                .iter()
                .map(|(k, x)| (k.clone(), x.clone()))
                .collect();
            for (k, x) in pairs {
                let x = deep(&x, memo);
                // The key was hashable in the original.
                let _ = new.borrow_mut().insert(k, x);
            }
            Value::Dict(new)
        }
        Value::Instance(i) => {
            let new = Instance::new(i.class.clone());
            memo.insert(key, Value::Instance(new.clone()));
            let attrs: Vec<(String, Value)> = i
                .attrs
                .borrow()
                .iter()
                .map(|(n, x)| (n.clone(), x.clone()))
                .collect();
            for (n, x) in attrs {
                let x = deep(&x, memo);
                new.attrs.borrow_mut().insert(n, x);
            }
            Value::Instance(new)
        }
        other => other.clone(),
    }
}
