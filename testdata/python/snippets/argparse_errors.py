# argparse errors: the usage and error message go to stderr and SystemExit(2) is raised; caught here to show several.
import argparse

p = argparse.ArgumentParser(prog="infer")
p.add_argument("--model_dir", required=True)
p.add_argument("--batch", type=int)
p.add_argument("--mode", choices=["a", "b"])
p.add_argument("image")
for argv in [[], ["--model_dir", "m"], ["x", "--model_dir", "m", "--batch", "ten"], ["x", "--model_dir=m", "--mode", "c"],
             ["x", "--model_dir", "m", "--bogus"], ["x", "--model_dir"]]:
    try:
        print(p.parse_args(argv))
    except SystemExit as e:
        print("exit", e.code, argv)
