# os.environ: get with defaults, a variable the test sets, membership, setting and deleting variables, os.getenv.
import os

print(os.environ.get("FLUIDC_SNIPPET"), os.environ.get("FLUIDC_NOT_SET_ANYWHERE"), os.environ.get("FLUIDC_NOT_SET_ANYWHERE", "default"))
print(os.getenv("FLUIDC_SNIPPET", "x"), os.getenv("FLUIDC_NOT_SET_ANYWHERE"), "FLUIDC_SNIPPET" in os.environ)
use_gpu = os.environ.get("CUDA_VISIBLE_DEVICES_FLUIDC_TEST", "") != ""
trainers = int(os.environ.get("PADDLE_TRAINERS_FLUIDC_TEST", "1"))
print(use_gpu, trainers)
os.environ["FLUIDC_SET_HERE"] = "42"
print(os.environ["FLUIDC_SET_HERE"], os.getenv("FLUIDC_SET_HERE"), type(os.environ).__name__)
del os.environ["FLUIDC_SET_HERE"]
print(os.environ.get("FLUIDC_SET_HERE"))
try:
    os.environ["FLUIDC_NOT_SET_ANYWHERE"]
except KeyError as e:
    print("KeyError", e)
try:
    os.environ["X"] = 1
except TypeError:
    print("TypeError")
print(os.environ.setdefault("FLUIDC_DEFAULTED", "yes"), os.environ["FLUIDC_DEFAULTED"])
print(isinstance(dict(os.environ), dict), os.environ.get("TZ"))
