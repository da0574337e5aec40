"""The numpy end of fluidc's host-array tests (tests/host_numpy.rs).

Reads one JSON case per line on stdin and writes one JSON line per case on
stdout, all in one process: what the real numpy in the interop venv prints or
computes for the case. fluidc's answers are never consulted here.

Arrays travel as {"dtype", "shape", "data"}; float data are the IEEE bit
patterns (uint32 for float32, uint64 for float64) so every value, NaN payloads
and negative zeros included, is exact both ways. A Python scalar operand is
{"py": "bool"|"int"|"float", "value": ...} (a float value as its bit pattern).

Case kinds (field "kind"):
  print      {"a"}                        -> {"str", "repr"} and, for 0-d,
                                             {"scalar_str", "scalar_repr"}
  binary     {"op", "a", "b"}             -> result
  unary      {"op", "a"}                  -> result
  reduce     {"op", "a", "axis", "keepdims"} -> result
  astype     {"a", "dtype"}               -> result
  reshape    {"a", "shape"}               -> result
  transpose  {"a", "axes"}                -> result
  index      {"a", "index"}               -> result
  concatenate/stack {"arrays", "axis"}    -> result
  where      {"cond", "x", "y"}           -> result
  isclose    {"a", "b"}                   -> result
  allclose/array_equal {"a", "b"}         -> {"bool"}
  nested     {"value", "dtype"}           -> result (np.array(value, dtype))
  arange     {"start", "stop", "step", "dtype"} (Python scalar operands) -> result
  linspace   {"start", "stop" (float bits), "num", "endpoint", "dtype"} -> result
  eye        {"n", "m", "k", "dtype"}     -> result
  tolist     {"a"}                        -> {"repr"}: repr(a.tolist())
  list_repr  {"items": [{"array": a} | {"scalar": a (0-d)}]} -> {"repr"}:
                                             repr of the Python list
  convert    {"a"}                        -> {"float", "int", "bool"} each a
                                             value (a float as its bits) or
                                             an error; one-element arrays
                                             convert as 0-d ones
A result is an array (with "repr", numpy's repr of it) or
{"error": [exception type, message]}.
"""

import json
import sys
import warnings

import numpy as np

warnings.simplefilter("ignore")

FLOAT_BITS = {"float16": np.uint16, "float32": np.uint32, "float64": np.uint64}


def decode(a):
    dtype = a["dtype"]
    if dtype in FLOAT_BITS:
        arr = np.array(a["data"], dtype=FLOAT_BITS[dtype]).view(dtype)
    else:
        arr = np.array(a["data"], dtype=dtype)
    return arr.reshape(a["shape"])


def encode(r):
    r = np.asarray(r)
    dtype = r.dtype.name
    if dtype in FLOAT_BITS:
        data = r.reshape(-1).view(FLOAT_BITS[dtype]).tolist()
    else:
        data = r.reshape(-1).tolist()
    return {"dtype": dtype, "shape": list(r.shape), "data": data, "repr": repr(r)}


def operand(o):
    if "py" not in o:
        return decode(o)
    if o["py"] == "float":
        return float(np.array([o["value"]], dtype=np.uint64).view(np.float64)[0])
    if o["py"] == "bool":
        return bool(o["value"])
    return int(o["value"])


def nested(v):
    if isinstance(v, list):
        return [nested(x) for x in v]
    if isinstance(v, dict):
        if "float" in v:
            return float(np.array([v["float"]], dtype=np.uint64).view(np.float64)[0])
        return decode(v)
    return v


def index_item(i):
    if "int" in i:
        return i["int"]
    if "slice" in i:
        return slice(*i["slice"])
    if "none" in i:
        return None
    if "ellipsis" in i:
        return Ellipsis
    return decode(i["array"])


BINARY = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "truediv": lambda a, b: a / b,
    "floordiv": lambda a, b: a // b,
    "mod": lambda a, b: a % b,
    "pow": lambda a, b: a**b,
    "maximum": np.maximum,
    "minimum": np.minimum,
    "eq": lambda a, b: a == b,
    "ne": lambda a, b: a != b,
    "lt": lambda a, b: a < b,
    "le": lambda a, b: a <= b,
    "gt": lambda a, b: a > b,
    "ge": lambda a, b: a >= b,
}

UNARY = {
    "neg": lambda a: -a,
    "abs": np.abs,
    "exp": np.exp,
    "log": np.log,
    "sqrt": np.sqrt,
    "tanh": np.tanh,
}


def run(case):
    kind = case["kind"]
    if kind == "print":
        a = decode(case["a"])
        out = {"str": str(a), "repr": repr(a)}
        if a.ndim == 0:
            out["scalar_str"] = str(a[()])
            out["scalar_repr"] = repr(a[()])
        return out
    if kind == "tolist":
        return {"repr": repr(decode(case["a"]).tolist())}
    if kind == "list_repr":
        items = [decode(i["array"]) if "array" in i else decode(i["scalar"])[()] for i in case["items"]]
        return {"repr": repr(items)}
    if kind == "convert":
        a = decode(case["a"])
        out = {}
        for name, f in (("float", float), ("int", int), ("bool", bool)):
            try:
                v = f(a.reshape(()) if a.size == 1 else a)
                out[name] = v if name != "float" else int(np.float64(v).view(np.uint64))
            except Exception as e:
                out[name] = {"error": [type(e).__name__, str(e)]}
        return out
    try:
        if kind == "binary":
            r = BINARY[case["op"]](operand(case["a"]), operand(case["b"]))
        elif kind == "unary":
            r = UNARY[case["op"]](decode(case["a"]))
        elif kind == "reduce":
            a = decode(case["a"])
            op = case["op"]
            axis, keepdims = case["axis"], case["keepdims"]
            r = getattr(np, op)(a, axis=axis, keepdims=keepdims)
        elif kind == "astype":
            r = decode(case["a"]).astype(case["dtype"])
        elif kind == "reshape":
            r = decode(case["a"]).reshape(case["shape"])
        elif kind == "transpose":
            axes = case["axes"]
            r = decode(case["a"]).transpose(*([axes] if axes is not None else []))
        elif kind == "index":
            a = decode(case["a"])
            r = a[tuple(index_item(i) for i in case["index"])]
        elif kind in ("concatenate", "stack"):
            r = getattr(np, kind)([decode(x) for x in case["arrays"]], axis=case["axis"])
        elif kind == "where":
            r = np.where(decode(case["cond"]), operand(case["x"]), operand(case["y"]))
        elif kind == "isclose":
            r = np.isclose(operand(case["a"]), operand(case["b"]))
        elif kind in ("allclose", "array_equal"):
            return {"bool": bool(getattr(np, kind)(decode(case["a"]), decode(case["b"])))}
        elif kind == "arange":
            r = np.arange(operand(case["start"]), operand(case["stop"]), operand(case["step"]), dtype=case["dtype"])
        elif kind == "linspace":
            start, stop = (float(np.array([case[k]], dtype=np.uint64).view(np.float64)[0]) for k in ("start", "stop"))
            r = np.linspace(start, stop, case["num"], endpoint=case["endpoint"], dtype=case["dtype"])
        elif kind == "eye":
            r = np.eye(case["n"], case["m"], case["k"], dtype=case["dtype"])
        elif kind == "nested":
            r = np.array(nested(case["value"]), dtype=case["dtype"])
        else:
            raise SystemExit(f"unknown case kind {kind}")
    except SystemExit:
        raise
    except Exception as e:
        return {"error": [type(e).__name__, str(e)]}
    return encode(r)


def main():
    for line in sys.stdin:
        if line.strip():
            print(json.dumps(run(json.loads(line))))


if __name__ == "__main__":
    main()
