//! Python values to the program model and back: attributes, name lists
//! and shapes, as Paddle's pybind layer converted them.
use fluidc_transpiler::model::AttrType;
use fluidc_transpiler::proto::Scalar;
use fluidc_transpiler::AttrValue;
use rustpython_vm::builtins::{PyDict, PyFloat, PyInt, PyList, PyStr, PyTuple};
use rustpython_vm::{AsObject, PyObject, PyObjectRef, PyResult, TryFromObject, VirtualMachine};

use super::BlockAttr;

/// The elements of a list or tuple; `None` for anything else.
pub fn sequence(obj: &PyObject) -> Option<Vec<PyObjectRef>> {
    if let Some(l) = obj.downcast_ref::<PyList>() {
        return Some(l.borrow_vec().to_vec());
    }
    obj.downcast_ref::<PyTuple>().map(|t| t.as_slice().to_vec())
}

/// An `int` (not a `bool`) as i64, or `None` (a value too large for i64
/// is a Python `OverflowError`).
fn int_of(obj: &PyObject, vm: &VirtualMachine) -> PyResult<Option<i64>> {
    if obj.class().is(vm.ctx.types.bool_type) {
        return Ok(None);
    }
    match obj.downcast_ref::<PyInt>() {
        Some(i) => Ok(Some(i.try_to_primitive::<i64>(vm)?)),
        None => Ok(None),
    }
}

fn is_bool(obj: &PyObject, vm: &VirtualMachine) -> bool {
    obj.class().is(vm.ctx.types.bool_type)
}

fn float_of(obj: &PyObject, vm: &VirtualMachine) -> PyResult<Option<f64>> {
    if let Some(f) = obj.downcast_ref::<PyFloat>() {
        return Ok(Some(f.to_f64()));
    }
    Ok(int_of(obj, vm)?.map(|i| i as f64))
}

fn i32_of(v: i64, name: &str, vm: &VirtualMachine) -> PyResult<i32> {
    i32::try_from(v).map_err(|_| {
        vm.new_overflow_error(format!(
            "attribute `{name}`: {v} does not fit an INT attribute (32 bits)"
        ))
    })
}

/// A Python value as an attribute of declared type `declared` (the op's
/// proto), or of the type its Python type suggests when the op declares
/// none (an op fluidc does not define, a framework attribute).
pub fn attr_value(
    name: &str,
    obj: &PyObject,
    declared: Option<AttrType>,
    vm: &VirtualMachine,
) -> PyResult<AttrValue> {
    let bad = |what: &str| {
        vm.new_type_error(format!(
            "attribute `{name}` must be {what}, not {}",
            obj.class().name()
        ))
    };
    if let Some(b) = obj.downcast_ref::<BlockAttr>() {
        return Ok(AttrValue::Block(b.idx));
    }
    if let Some(plain) = plain_value(obj, vm)? {
        return attr_value(name, &plain, declared, vm);
    }
    use AttrType as T;
    match declared {
        Some(T::Int) => match int_of(obj, vm)? {
            Some(v) => Ok(AttrValue::Int(i32_of(v, name, vm)?)),
            None if is_bool(obj, vm) => Ok(AttrValue::Int(i32::from(obj.is(&vm.ctx.true_value)))),
            None => match float_of(obj, vm)? {
                // Paddle's pybind casts a float given for an INT attribute.
                Some(f) if f.is_finite() => Ok(AttrValue::Int(f as i32)),
                _ => Err(bad("an int")),
            },
        },
        Some(T::Long) => match int_of(obj, vm)? {
            Some(v) => Ok(AttrValue::Long(v)),
            None => Err(bad("an int")),
        },
        Some(T::Float) => match float_of(obj, vm)? {
            Some(f) => Ok(AttrValue::Float(f as f32)),
            None if is_bool(obj, vm) => Ok(AttrValue::Float(f32::from(u8::from(
                obj.is(&vm.ctx.true_value),
            )))),
            None => Err(bad("a float")),
        },
        Some(T::Float64) => match float_of(obj, vm)? {
            Some(f) => Ok(AttrValue::Float64(f)),
            None => Err(bad("a float")),
        },
        Some(T::String) => match obj.downcast_ref::<PyStr>() {
            Some(s) => Ok(AttrValue::String(s.as_str().to_string())),
            None => Err(bad("a str")),
        },
        Some(T::Boolean) => {
            if is_bool(obj, vm) {
                Ok(AttrValue::Bool(obj.is(&vm.ctx.true_value)))
            } else if let Some(v) = int_of(obj, vm)? {
                Ok(AttrValue::Bool(v != 0))
            } else {
                Err(bad("a bool"))
            }
        }
        Some(T::Ints) => {
            let items = list_of(obj, name, vm)?;
            let mut out = Vec::with_capacity(items.len());
            for it in &items {
                let v = int_of(it, vm)?
                    .or_else(|| is_bool(it, vm).then(|| i64::from(it.is(&vm.ctx.true_value))))
                    .ok_or_else(|| bad("a list of ints"))?;
                out.push(i32_of(v, name, vm)?);
            }
            Ok(AttrValue::Ints(out))
        }
        Some(T::Longs) => {
            let items = list_of(obj, name, vm)?;
            let mut out = Vec::with_capacity(items.len());
            for it in &items {
                out.push(int_of(it, vm)?.ok_or_else(|| bad("a list of ints"))?);
            }
            Ok(AttrValue::Longs(out))
        }
        Some(T::Floats) => {
            let items = list_of(obj, name, vm)?;
            let mut out = Vec::with_capacity(items.len());
            for it in &items {
                out.push(float_of(it, vm)?.ok_or_else(|| bad("a list of floats"))? as f32);
            }
            Ok(AttrValue::Floats(out))
        }
        Some(T::Float64s) => {
            let items = list_of(obj, name, vm)?;
            let mut out = Vec::with_capacity(items.len());
            for it in &items {
                out.push(float_of(it, vm)?.ok_or_else(|| bad("a list of floats"))?);
            }
            Ok(AttrValue::Float64s(out))
        }
        Some(T::Strings) => {
            let items = list_of(obj, name, vm)?;
            let mut out = Vec::with_capacity(items.len());
            for it in &items {
                let s = it
                    .downcast_ref::<PyStr>()
                    .ok_or_else(|| bad("a list of str"))?;
                out.push(s.as_str().to_string());
            }
            Ok(AttrValue::Strings(out))
        }
        Some(T::Booleans) => {
            let items = list_of(obj, name, vm)?;
            let mut out = Vec::with_capacity(items.len());
            for it in &items {
                out.push(it.clone().try_to_bool(vm)?);
            }
            Ok(AttrValue::Bools(out))
        }
        Some(T::Blocks) => {
            let items = list_of(obj, name, vm)?;
            let mut out = Vec::with_capacity(items.len());
            for it in &items {
                let b = it
                    .downcast_ref::<BlockAttr>()
                    .ok_or_else(|| bad("a list of blocks"))?;
                out.push(b.idx);
            }
            Ok(AttrValue::Blocks(out))
        }
        Some(T::Scalars) => {
            let items = list_of(obj, name, vm)?;
            let mut out = Vec::with_capacity(items.len());
            for it in &items {
                out.push(scalar(it, vm)?.ok_or_else(|| bad("a list of numbers"))?);
            }
            Ok(AttrValue::Scalars(out))
        }
        Some(T::Scalar) => Ok(AttrValue::Scalar(Box::new(
            scalar(obj, vm)?.ok_or_else(|| bad("a number"))?,
        ))),
        Some(T::Block) => Err(bad("a block")),
        _ => guess(name, obj, vm),
    }
}

/// A Python bool, int or float as a `Scalar` (BOOLEAN, LONG, FLOAT64).
fn scalar(obj: &PyObject, vm: &VirtualMachine) -> PyResult<Option<Scalar>> {
    use fluidc_transpiler::proto::scalar::Type;
    let mut s = Scalar::default();
    if is_bool(obj, vm) {
        s.r#type = Type::Boolean as i32;
        s.b = Some(obj.is(&vm.ctx.true_value));
    } else if let Some(i) = int_of(obj, vm)? {
        s.r#type = Type::Long as i32;
        s.i = Some(i);
    } else if let Some(f) = float_of(obj, vm)? {
        s.r#type = Type::Float64 as i32;
        s.r = Some(f);
    } else {
        return Ok(None);
    }
    Ok(Some(s))
}

/// The plain value of an object the fluid package passes as an attribute:
/// a `Block` (its `_block_attr`), a `VarType` or numpy integer (its
/// `__index__`), a numpy float (its `__float__`). `None` for Python's own
/// values, which need no conversion.
fn plain_value(obj: &PyObject, vm: &VirtualMachine) -> PyResult<Option<PyObjectRef>> {
    let class = obj.class();
    let t = &vm.ctx.types;
    let builtin = [
        t.int_type,
        t.bool_type,
        t.float_type,
        t.str_type,
        t.list_type,
        t.tuple_type,
        t.none_type,
    ];
    if builtin.iter().any(|b| class.is(*b)) {
        return Ok(None);
    }
    if let Ok(b) = obj.get_attr("_block_attr", vm) {
        if b.downcast_ref::<BlockAttr>().is_some() {
            return Ok(Some(b));
        }
    }
    // A numpy array of one dim or more: its items, as 1.x's pybind list
    // caster took any sequence (1.2's op tests give shapes as int32 arrays).
    if let Ok(ndim) = obj.get_attr("ndim", vm) {
        let ndim = ndim
            .try_index(vm)
            .and_then(|n| n.try_to_primitive::<i64>(vm));
        if ndim.is_ok_and(|n| n > 0) {
            if let Ok(tolist) = obj.get_attr("tolist", vm) {
                return Ok(Some(tolist.call((), vm)?));
            }
        }
    }
    let has_float = obj.get_attr("__float__", vm).is_ok();
    match obj.try_index_opt(vm) {
        Some(Ok(i)) => return Ok(Some(i.into())),
        // A float numpy scalar or 0-d array refuses `__index__`.
        Some(Err(e)) if !has_float => return Err(e),
        _ => {}
    }
    if has_float {
        let f = obj.try_float(vm)?;
        return Ok(Some(f.into()));
    }
    Ok(None)
}

/// A list or tuple attribute's items, each as its plain value.
fn list_of(obj: &PyObject, name: &str, vm: &VirtualMachine) -> PyResult<Vec<PyObjectRef>> {
    let items = sequence(obj).ok_or_else(|| {
        vm.new_type_error(format!(
            "attribute `{name}` must be a list, not {}",
            obj.class().name()
        ))
    })?;
    items
        .into_iter()
        .map(|it| Ok(plain_value(&it, vm)?.unwrap_or(it)))
        .collect()
}

/// The attribute type a Python value suggests (Paddle's `_set_attr` on an
/// attribute the proto does not declare).
fn guess(name: &str, obj: &PyObject, vm: &VirtualMachine) -> PyResult<AttrValue> {
    if is_bool(obj, vm) {
        return Ok(AttrValue::Bool(obj.is(&vm.ctx.true_value)));
    }
    if let Some(v) = int_of(obj, vm)? {
        return Ok(match i32::try_from(v) {
            Ok(i) => AttrValue::Int(i),
            Err(_) => AttrValue::Long(v),
        });
    }
    if let Some(f) = obj.downcast_ref::<PyFloat>() {
        return Ok(AttrValue::Float(f.to_f64() as f32));
    }
    if let Some(s) = obj.downcast_ref::<PyStr>() {
        return Ok(AttrValue::String(s.as_str().to_string()));
    }
    if sequence(obj).is_some() {
        let items = list_of(obj, name, vm)?;
        let first = items.first();
        let declared = match first {
            None => AttrType::Ints,
            Some(f) if is_bool(f, vm) => AttrType::Booleans,
            Some(f) if f.downcast_ref::<PyStr>().is_some() => AttrType::Strings,
            Some(f) if f.downcast_ref::<BlockAttr>().is_some() => AttrType::Blocks,
            Some(_) => {
                let any_float = items.iter().any(|i| i.downcast_ref::<PyFloat>().is_some());
                if any_float {
                    AttrType::Floats
                } else {
                    let mut longs = false;
                    for it in &items {
                        if let Some(v) = int_of(it, vm)? {
                            longs |= i32::try_from(v).is_err();
                        }
                    }
                    if longs {
                        AttrType::Longs
                    } else {
                        AttrType::Ints
                    }
                }
            }
        };
        return attr_value(name, obj, Some(declared), vm);
    }
    Err(vm.new_type_error(format!(
        "attribute `{name}`: a {} is not an attribute value (int, float, str, bool, a list of them, or a Block)",
        obj.class().name()
    )))
}

/// An attribute as a Python value (a block index as its number).
pub fn attr_to_py(value: &AttrValue, vm: &VirtualMachine) -> PyObjectRef {
    let ctx = &vm.ctx;
    let list = |items: Vec<PyObjectRef>| ctx.new_list(items).into();
    match value {
        AttrValue::Int(i) => ctx.new_int(*i).into(),
        AttrValue::Long(i) => ctx.new_int(*i).into(),
        AttrValue::Float(f) => ctx.new_float(f64::from(*f)).into(),
        AttrValue::Float64(f) => ctx.new_float(*f).into(),
        AttrValue::String(s) => ctx.new_str(s.as_str()).into(),
        AttrValue::Bool(b) => ctx.new_bool(*b).into(),
        AttrValue::Block(b) => ctx.new_int(*b).into(),
        AttrValue::Ints(v) => list(v.iter().map(|i| ctx.new_int(*i).into()).collect()),
        AttrValue::Longs(v) => list(v.iter().map(|i| ctx.new_int(*i).into()).collect()),
        AttrValue::Blocks(v) => list(v.iter().map(|i| ctx.new_int(*i).into()).collect()),
        AttrValue::Floats(v) => list(
            v.iter()
                .map(|f| ctx.new_float(f64::from(*f)).into())
                .collect(),
        ),
        AttrValue::Float64s(v) => list(v.iter().map(|f| ctx.new_float(*f).into()).collect()),
        AttrValue::Strings(v) | AttrValue::Vars(v) => {
            list(v.iter().map(|s| ctx.new_str(s.as_str()).into()).collect())
        }
        AttrValue::Bools(v) => list(v.iter().map(|b| ctx.new_bool(*b).into()).collect()),
        AttrValue::Var(s) => ctx.new_str(s.as_str()).into(),
        AttrValue::Scalar(_) | AttrValue::Scalars(_) | AttrValue::Raw(_) => ctx.none(),
    }
}

/// A list of variable names: each item a `str` or an object with a
/// `name` (a `Variable`).
pub fn names(obj: &PyObject, vm: &VirtualMachine) -> PyResult<Vec<String>> {
    let one = |o: &PyObject| -> PyResult<String> {
        if let Some(s) = o.downcast_ref::<PyStr>() {
            return Ok(s.as_str().to_string());
        }
        let n = o.get_attr("name", vm)?;
        Ok(n.downcast_ref::<PyStr>()
            .ok_or_else(|| vm.new_type_error("a variable's name must be a str".to_string()))?
            .as_str()
            .to_string())
    };
    match sequence(obj) {
        Some(items) => items.iter().map(|o| one(o)).collect(),
        None if vm.is_none(obj) => Ok(Vec::new()),
        None => Ok(vec![one(obj)?]),
    }
}

/// `{slot: [names]}` from a dict of slot names to variables or lists of
/// them (None values are left out, as Paddle skips them).
pub fn slots(obj: &PyObject, vm: &VirtualMachine) -> PyResult<Vec<(String, Vec<String>)>> {
    if vm.is_none(obj) {
        return Ok(Vec::new());
    }
    let dict = obj
        .downcast_ref::<PyDict>()
        .ok_or_else(|| vm.new_type_error("inputs and outputs must be dicts".to_string()))?;
    let mut out = Vec::new();
    for (k, v) in dict {
        let slot = k
            .downcast_ref::<PyStr>()
            .ok_or_else(|| vm.new_type_error("a slot name must be a str".to_string()))?;
        if vm.is_none(&v) {
            continue;
        }
        out.push((slot.as_str().to_string(), names(&v, vm)?));
    }
    Ok(out)
}

/// A shape as i64 dims.
pub fn dims(obj: &PyObject, vm: &VirtualMachine) -> PyResult<Vec<i64>> {
    let items = sequence(obj).ok_or_else(|| {
        vm.new_type_error(format!(
            "a shape must be a list or tuple, not {}",
            obj.class().name()
        ))
    })?;
    items
        .iter()
        .map(|d| {
            let i = d.try_index(vm)?;
            i.try_to_primitive::<i64>(vm)
        })
        .collect()
}

pub fn opt<T: TryFromObject>(obj: &PyObjectRef, vm: &VirtualMachine) -> PyResult<Option<T>> {
    if vm.is_none(obj) {
        Ok(None)
    } else {
        T::try_from_object(vm, obj.clone()).map(Some)
    }
}
