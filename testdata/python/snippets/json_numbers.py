# json number handling: ints vs floats, large ints, float repr round trip, exponent forms, parse_int/parse_constant hooks.
import json
from decimal import Decimal

nums = json.loads("[1, 1.0, 1e2, -0, -0.0, 12345678901234567890, 0.1, 1E-7, 2.5e+10]")
print(nums, [type(n).__name__ for n in nums])
print(json.dumps([0.1, 1 / 3, 1e-7, 1e22, 1e16, 123456789.123, 5e-324, 1.7976931348623157e308]))
print(json.loads("[1.10]", parse_float=Decimal), json.loads("[7]", parse_int=float), json.loads("[Infinity]", parse_constant=lambda c: c))
print(json.dumps({"lr": 1e-3, "decay": 0.0001, "steps": 10 ** 6, "ratio": 2 / 3}, sort_keys=True))
print(json.dumps(True), json.dumps(None), json.dumps(3), json.loads("true"), json.loads(" -5 "))
