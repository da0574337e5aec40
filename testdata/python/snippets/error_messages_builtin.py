# The messages of everyday mistakes, as a training script's try/except or
# its traceback shows them: operators on None, lists indexed wrongly,
# formats short of arguments, files that are not there.
def show(what, f):
    try:
        f()
    except Exception as e:
        print("%-28s %s: %s" % (what, type(e).__name__, e))


loss = None
batch = [1.0, 2.0]
show("None + float", lambda: loss + 0.5)
show("float * None", lambda: 0.5 * loss)
show("list - int", lambda: batch - 1)
show("augmented +=", lambda: exec("x = 1\nx += 'a'"))
show("str + int", lambda: "epoch " + 3)
show("list + tuple", lambda: batch + (1,))
show("tuple + list", lambda: (1,) + batch)
show("bytes + str", lambda: b"ab" + "c")
show("str * str", lambda: "ab" * "c")
show("list * float", lambda: batch * 2.0)
show("pow of three", lambda: pow(2, 3, "a"))
show("list index", lambda: batch[5])
show("list assignment", lambda: batch.__setitem__(7, 0))
show("tuple index", lambda: (1, 2)[2])
show("string index", lambda: "ab"[3])
show("list by float", lambda: batch[0.5])
pair, text, key, half = (1, 2), "ab", "a", 1.0
show("tuple by str", lambda: pair[key])
show("string by float", lambda: text[half])
def set_first(t):
    t[0] = 3


show("tuple item set", lambda: set_first(pair))
show("format %d of str", lambda: "%d" % "a")
show("format %x of float", lambda: "%x" % 1.5)
show("format short", lambda: "{} {}".format(1))
show("format index", lambda: "{0} {2}".format(1, 2))
show("join of ints", lambda: ",".join([1, 2]))
show("join second item", lambda: ",".join(["a", None]))
show("list.index", lambda: batch.index(3.0))
show("list.index str", lambda: ["a"].index("b"))
show("round of str", lambda: round("a"))
show("float of list", lambda: float([1]))
show("floor division", lambda: 1.0 // 0)
show("sorted mixed", lambda: sorted([1, "a"]))
show("open missing", lambda: open("/nonexistent/data/train.txt"))
show("map of nothing", lambda: map(len))
show("print sep", lambda: print(1, 2, sep=0))
show("print end", lambda: print(1, end=b"x"))
print(1, 2, sep=None, end=None)


def reader(path, batch_size, shuffle=True):
    return path


show("too many arguments", lambda: reader("a", 1, True, 4))
def one(a):
    return a


def none():
    return 0


def two(a, b):
    return a


show("one too many", lambda: one(1, 2))
show("none expected", lambda: none(1))
show("two expected", lambda: two(1, 2, 3))


class Net(object):
    def forward(self, x):
        return x


show("method arguments", lambda: Net().forward(1, 2))


class Only(object):
    def __init__(self, v):
        self.v = v

    def __lt__(self, other):
        return self.v < other.v


print([o.v for o in sorted([Only(3), Only(1), Only(2)])])
print([o.v for o in sorted([Only(3), Only(1), Only(2)], reverse=True)])
