# argparse help with argument groups, metavars, choices, required options and a RawDescriptionHelpFormatter description (COLUMNS=80).
import argparse

p = argparse.ArgumentParser(prog="infer.py", formatter_class=argparse.RawDescriptionHelpFormatter,
                            description="Run inference.\n\n  example:\n    infer.py --model_dir out --image cat.jpg")
req = p.add_argument_group("required arguments")
req.add_argument("--model_dir", required=True, metavar="DIR", help="directory of the saved model")
req.add_argument("--image", required=True, help="image to classify")
opt = p.add_argument_group("options")
opt.add_argument("--topk", type=int, default=5, choices=range(1, 11), metavar="K", help="how many classes to show (1-10)")
opt.add_argument("--device", choices=["cpu", "gpu"], default="cpu")
p.print_help()
