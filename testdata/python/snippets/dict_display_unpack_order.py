# A training script's config: defaults first, then the run's own values,
# in one dict display. Items are taken in the order written, so a later
# key overrides an earlier ** unpacking and the other way round.
defaults = {"lr": 0.1, "batch_size": 32, "epochs": 10}
run = {**defaults, "lr": 0.5}
print(run)
print({"lr": 0.01, **defaults})
print({"momentum": 0.9, **defaults, "epochs": 2, **{"lr": 1e-3}, "l2": 1e-4})
print({**{}, "only": 1})
print({**defaults})

order = []


def note(name, value):
    order.append(name)
    return value


d = {note("k1", "a"): note("v1", 1), **note("u", {"b": 2}), note("k2", "a"): note("v2", 3)}
print(d, order)


def kw(**options):
    return options


print(kw(**defaults, seed=7))
print(kw(seed=7, **defaults))
try:
    print({"a": 1, **[("b", 2)]})
except TypeError as e:
    print("TypeError:", e)
