# ast: parsing expressions and statements, walking nodes, node types, NodeVisitor counting names, unparse round trip.
import ast

tree = ast.parse("loss = cross_entropy(predict, label)\navg = mean(loss)")
print([type(n).__name__ for n in tree.body], [n.id for n in ast.walk(tree) if isinstance(n, ast.Name)])
print(type(ast.parse("x + 1", mode="eval").body.op).__name__)


class CallCounter(ast.NodeVisitor):
    def __init__(self):
        self.calls = []

    def visit_Call(self, node):
        self.calls.append(node.func.id)
        self.generic_visit(node)


cc = CallCounter()
cc.visit(tree)
print(cc.calls, ast.unparse(tree.body[0]), ast.literal_eval("[1, 2]"))
fn = ast.parse("def f(a, b=2):\n    return a * b").body[0]
print(fn.name, [a.arg for a in fn.args.args], len(fn.args.defaults), type(fn.body[0]).__name__, fn.lineno)
