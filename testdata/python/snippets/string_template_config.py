# string.Template for config files, custom delimiters via subclass, identifiers, and str.format-based templating for command lines.
import string


class PercentTemplate(string.Template):
    delimiter = "%"


tpl = string.Template("python train.py --lr $lr --epochs ${epochs}x --name $$literal")
print(tpl.substitute(lr=0.1, epochs=5), tpl.substitute({"lr": 1, "epochs": 2}))
print(PercentTemplate("cost %cost at %step").substitute(cost=0.5, step=10))
try:
    string.Template("$a $b").substitute(a=1)
except KeyError as e:
    print("KeyError", e)
try:
    string.Template("bad $").substitute()
except ValueError as e:
    print("ValueError:", e)
print(string.Template("$who likes $what").safe_substitute(who="tim"), string.Template("$x").template)
cmd = "{python} {script} --batch_size={bs:d} --lr={lr:.0e}"
print(cmd.format(python="python3", script="run.py", bs=64, lr=0.0001))
