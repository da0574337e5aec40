# os.environ as a mapping: copy() gives a dict, values are str, int()/float() conversions with defaults, environ in subprocess-free checks.
import os

env = os.environ.copy()
print(type(env).__name__, env.get("FLUIDC_SNIPPET"), all(isinstance(v, str) for v in list(env.values())[:20]))
os.environ["FLUIDC_NUM_THREADS"] = "4"
os.environ["FLUIDC_RATE"] = "0.25"
print(int(os.environ.get("FLUIDC_NUM_THREADS", "1")) * 2, float(os.getenv("FLUIDC_RATE", "1")) * 4)
print(int(os.environ.get("FLUIDC_UNSET_COUNT", 8)), os.environ.get("FLUIDC_UNSET_FLAG", "false").lower() in ("1", "true"))
os.environ.update({"FLUIDC_A": "1", "FLUIDC_B": "2"})
print(sorted(k for k in os.environ if k.startswith("FLUIDC_") and k != "FLUIDC_SNIPPET"))
print(os.environ.pop("FLUIDC_A"), "FLUIDC_A" in os.environ, os.environ.pop("FLUIDC_A", "gone"))
