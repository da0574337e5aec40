//! Tensor arrays and bare tensors as Paddle 1.x's `layers/control_flow.py`
//! and `layers/tensor.py` built them: `create_array` (a `array_N.out`
//! variable, no op), `array_write` (`write_to_array`), `array_read`
//! (`read_from_array`), `array_length` (`lod_array_length`) and
//! `create_tensor` (a variable, no op).
use fluidc_transpiler::proto::var_type::{DenseTensorArrayDesc, TensorDesc};
use fluidc_transpiler::{Op, Var, VarKind};

use super::builtin::{builtin, Args, Builtin, Rest, D};
use super::layer::{dims, dtype_of};
use crate::front::diag::Result;
use crate::front::host::Host;
use crate::front::value::{Value, VarRef};

use D::*;

pub const BUILTINS: &[Builtin] = &[
    builtin!(
        ["fluid.layers.create_array"],
        [("dtype", Req)],
        Rest::No,
        |i, a| {
            let dtype = a.dtype("dtype")?;
            Ok(Value::Var(create_array(i, dtype)))
        }
    ),
    builtin!(
        ["fluid.layers.array_write"],
        [("x", Req), ("i", Req), ("array", Nil)],
        Rest::No,
        array_write
    ),
    builtin!(
        ["fluid.layers.array_read"],
        [("array", Req), ("i", Req)],
        Rest::No,
        array_read
    ),
    builtin!(
        ["fluid.layers.array_length"],
        [("array", Req)],
        Rest::No,
        |i, a| {
            let array = array_arg(i, a, "array")?;
            let helper = i.b.helper_name("array_length");
            let out = i.b.tmp_var(&helper, VarKind::Int64, vec![1]);
            i.b.var_mut(&out).stop_gradient = Some(true);
            i.b.append(
                Op::new("lod_array_length")
                    .input("X", &[&array.name])
                    .output("Out", &[&out.name]),
            );
            Ok(Value::Var(out))
        }
    ),
    builtin!(
        ["fluid.layers.create_tensor"],
        [("dtype", Req), ("name", Nil), ("persistable", Bool(false))],
        Rest::No,
        |i, a| {
            let dtype = a.dtype("dtype")?;
            let name = match a.opt_string("name")? {
                Some(n) => n,
                None => i.b.helper_name("create_tensor"),
            };
            let mut var = Var::dense(name, dtype, Vec::new());
            var.persistable = Some(a.bool("persistable")?);
            Ok(Value::Var(i.b.declare(var)))
        }
    ),
];

/// A `LOD_TENSOR_ARRAY` variable `name` of `dtype` (elements of `dims`)
/// in the current block.
pub fn declare_array(i: &mut Host, name: String, dtype: VarKind, dims: Vec<i64>) -> VarRef {
    let mut var = Var::plain(name, VarKind::DenseTensorArray);
    var.ty.tensor_array = Some(DenseTensorArrayDesc {
        tensor: TensorDesc {
            data_type: dtype as i32,
            dims,
        },
        legacy_lod_level: Some(0),
    });
    i.b.declare(var)
}

/// The argument `name`, checked to be a tensor array.
fn array_arg(i: &Host, a: &Args, name: &str) -> Result<VarRef> {
    let v = a.var(name)?;
    if i.b.var(&v).kind() != Some(VarKind::DenseTensorArray) {
        return Err(a
            .err(
                name,
                format!(
                    "{}() needs a tensor array, but `{}` is not one",
                    a.short_name(),
                    v.name
                ),
            )
            .help(
                "make one with fluid.layers.create_array(dtype) or fluid.layers.array_write(x, i)",
            ));
    }
    Ok(v)
}

/// `array_write(x, i, array=None)`: `array[i] = x`, making the array
/// (`array_write_N.out`, of x's dtype) when none is given.
fn array_write(i: &mut Host, a: &mut Args) -> Result<Value> {
    let x = a.var("x")?;
    let index = a.var("i")?;
    let array = match a.is_none("array") {
        true => None,
        false => Some(array_arg(i, a, "array")?),
    };
    Ok(Value::Var(write_array(i, &x, &index, array)))
}

/// The `array_write` layer in the current block (also StaticRNN's).
pub fn write_array(i: &mut Host, x: &VarRef, index: &VarRef, array: Option<VarRef>) -> VarRef {
    let helper = i.b.helper_name("array_write");
    let array = array.unwrap_or_else(|| {
        let dtype = dtype_of(i, x);
        declare_array(i, format!("{helper}.out"), dtype, Vec::new())
    });
    i.b.append(
        Op::new("write_to_array")
            .input("X", &[&x.name])
            .input("I", &[&index.name])
            .output("Out", &[&array.name]),
    );
    // Paddle's InferShape gives the array the shape of what was written
    // last (an `array_read` then declares that shape).
    let x_dims = dims(i, x);
    if let Some(desc) = i.b.var_mut(&array).ty.tensor_array.as_mut() {
        desc.tensor.dims = x_dims;
    }
    array
}

/// `array_read(array, i)`: `array[i]` into `array_read_N.tmp_0`.
fn array_read(i: &mut Host, a: &mut Args) -> Result<Value> {
    let array = array_arg(i, a, "array")?;
    let index = a.var("i")?;
    Ok(Value::Var(read_array(i, &array, &index)))
}

/// The `array_read` layer in the current block (also StaticRNN's).
pub fn read_array(i: &mut Host, array: &VarRef, index: &VarRef) -> VarRef {
    let dtype = dtype_of(i, array);
    let helper = i.b.helper_name("array_read");
    let out = i.b.tmp_var(&helper, dtype, dims(i, array));
    i.b.append(
        Op::new("read_from_array")
            .input("X", &[&array.name])
            .input("I", &[&index.name])
            .output("Out", &[&out.name]),
    );
    out
}

/// The `create_array` layer: `array_N.out`, no op.
pub fn create_array(i: &mut Host, dtype: VarKind) -> VarRef {
    let helper = i.b.helper_name("array");
    declare_array(i, format!("{helper}.out"), dtype, Vec::new())
}
