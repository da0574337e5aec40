# eval/exec/compile: expressions, globals/locals dicts, exec defining functions, compile modes.
print(eval("1 + 2 * 3"), eval("x * 2", {"x": 21}), eval("[i for i in range(3)]"))
ns = {}
exec("def f(a):\n    return a + 1\nresult = f(41)", ns)
print(ns["result"], ns["f"](1), sorted(k for k in ns if k != "__builtins__"))
code = compile("y = 5\nz = y * 2", "<cfg>", "exec")
scope = {}
exec(code, scope)
print(scope["z"], code.co_filename)
expr = compile("a + b", "<expr>", "eval")
print(eval(expr, {"a": 1, "b": 2}))
loc = {"v": 3}
exec("w = v + 1", {}, loc)
print(loc)
print(eval("__name__"), eval("len('abc')"), eval("'%s-%s' % (1, 2)"))
try:
    eval("1 +")
except SyntaxError as e:
    print("SyntaxError")
print(globals()["__name__"], "__builtins__" in globals(), type(locals()).__name__)
