# Builtins that CPython's site module adds: quit/exit (Quitter objects with a hint repr), help, copyright/credits/license objects.
import builtins

print(type(exit).__name__, repr(exit), repr(quit), type(help).__name__)
print(all(hasattr(builtins, n) for n in ["quit", "exit", "help", "copyright", "credits", "license"]))
try:
    exit(0)
except SystemExit as e:
    print("exit() raised SystemExit", e.code)
try:
    quit("bye")
except SystemExit as e:
    print("quit() raised SystemExit", e.code)
