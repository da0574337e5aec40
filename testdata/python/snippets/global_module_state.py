# Module-level state: globals() writes, global counters in functions, constants, a module-level registry filled by a decorator.
REGISTRY = {}
STEP = 0


def register(name):
    def deco(fn):
        REGISTRY[name] = fn
        return fn
    return deco


@register("relu")
def relu(x):
    return max(0.0, x)


@register("identity")
def identity(x):
    return x


def tick():
    global STEP
    STEP += 1
    return STEP


for _ in range(3):
    tick()
globals()["DYNAMIC"] = "set via globals()"
print(sorted(REGISTRY), REGISTRY["relu"](-1.5), STEP, DYNAMIC, "tick" in globals())


def shadowing():
    STEP = "local"
    return STEP


print(shadowing(), STEP)
