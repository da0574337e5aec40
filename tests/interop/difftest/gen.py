"""Random Paddle 1.x training programs for the differential tester (issue 38).

    gen.py SEED [SEED...] [-o FILE]

writes one script (to stdout, or FILE) holding one training program per
SEED, in the style of 2018-19 Fluid scripts: `import paddle.fluid as fluid`,
`layers.data` inputs fed from numpy with a fixed RandomState, a small net
of randomly chosen layers, a loss reduced with `mean`, a randomly chosen
optimizer (with optional regularization, gradient clipping and learning-rate
schedule), the startup program run, a few training steps printing the loss,
an evaluation of `main.clone(for_test=True)`, then the parameters.

Every program is deterministic: the startup program's `random_seed` is set,
so the default (Xavier / Normal) initializers and those with seed 0 draw
from a fixed stream, and the feeds come from `np.random.RandomState`. Each
program lives in its own `fluid.Program()` pair, `unique_name.guard()` and
`fluid.Scope()`, so a program prints the same whichever other programs
share its script. A program's output lines sit between `== begin seed N`
and `== end seed N`; an exception is caught and printed as
`== raised seed N <type>` (its traceback goes to stderr).

The generator is plain Python 3 (stdlib only) and draws from its own
splitmix64 stream, not from `random`, so a seed gives the same program on
every Python version. The programs are pinned by this file alone: any
change to what gen.py draws or emits may change the program of any seed,
and the CI seed set in tests/difftest.rs must then be checked again
(README.md says how).

What is not generated, and why (README.md has the measurements):
- Where 1.x, 3.3.1 and numpy differ, so that the peer would report a
  correct fluidc (issue 38): reduce_max/min's gradient with ties (1.x gives
  every tied element the gradient, 3.3.1 splits it), elementwise_max/min
  with a broadcast y (3.3.1's gradient is wrong), layer_norm/batch_norm of
  a constant row (3.3.1's mean rounds), sigmoid_cross_entropy_with_logits
  at a logit of exactly 0 (3.3.1's gradient is off by one). A tensor that
  may hold exact ties or zeros (after relu, clip, floor, padding, x minus
  its pooled sequence, ...) is marked `ties`, the mark follows it, and
  those ops are not applied to it. Also abs on a sequence (1.x keeps its
  LoD, 3.3.1 drops it), and pool2d avg with exclusive=False and ceil_mode
  (1.x divides by the whole window, 3.3.1 by its part inside the input).
- What Paddle 3.3.1 cannot run: prelu and matmul with alpha when an input
  has no gradient (a crash, an error), elementwise_pow with an axis (its
  shape inference ignores it), dropout of a 1-D tensor, is_sparse
  embeddings with RMSProp or Momentum (3.3.1 loses rows of unsorted
  ids), with Adamax
  or Adadelta (1.x refused them too) or with gradient clipping (3.3.1
  skips the sparse gradient when clipping by norm and crashes otherwise).
- Gradients that are 0 but for rounding, which an optimizer that divides
  a gradient by its own size (Adam, Adagrad, RMSProp, Adamax) turns into
  a full step whichever way the rounding went: with such an optimizer no
  constant weight matrices (equal columns), no batch_norm without an
  activation or on a freshly biased tensor, no layer_norm over axes >= 2
  of one, and an explicit epsilon of 1e-4 or 1e-3. Always: one
  batch_norm at most, layer_norm over more than 2 values, batch_norm over
  at least 4 rows, l2_normalize and cos_sim over at least 2 values, no bias
  on an attention score (sequence_softmax takes out the shift), and a
  plain loss over a softmax or a normalization is the mean of its square.
"""

import argparse
import sys

MASK = (1 << 64) - 1


class Rng:
    """splitmix64: a fixed stream for a seed on every Python."""

    def __init__(self, seed):
        # the seed goes through the output mix, so nearby seeds start far
        # apart (seed and seed+1 would otherwise share a shifted stream)
        self.state = self.mix((seed + 0x2018) & MASK)

    @staticmethod
    def mix(z):
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        return self.mix(self.state)

    def below(self, n):
        return self.next() % n

    def int(self, lo, hi):
        """lo..hi inclusive."""
        return lo + self.below(hi - lo + 1)

    def unit(self):
        return (self.next() >> 11) / float(1 << 53)

    def uniform(self, lo, hi, digits=3):
        return round(lo + (hi - lo) * self.unit(), digits)

    def chance(self, p):
        return self.unit() < p

    def choice(self, seq):
        return seq[self.below(len(seq))]

    def weighted(self, pairs):
        total = sum(w for _, w in pairs)
        r = self.unit() * total
        for item, w in pairs:
            r -= w
            if r < 0:
                return item
        return pairs[-1][0]

    def shuffled(self, seq):
        seq = list(seq)
        for i in range(len(seq) - 1, 0, -1):
            j = self.below(i + 1)
            seq[i], seq[j] = seq[j], seq[i]
        return seq


def prod(dims):
    out = 1
    for d in dims:
        out *= d
    return out


class T:
    """A float tensor of the program being built: its Python name, its
    runtime shape, which dims are -1 at build time (`dyn`), whether it is a
    LoD sequence, whether it may hold exact ties (`ties`), and whether it
    has a gradient (`grad`: it depends on a trainable parameter; None until
    `Program.out` takes it from the op's input)."""

    def __init__(self, name, shape, dyn, lod=False, ties=False, grad=None):
        self.name, self.shape, self.dyn = name, list(shape), list(dyn)
        self.lod, self.ties, self.grad = lod, ties, grad
        # the last op added a trainable per-channel shift (a bias): through
        # batch_norm its gradient is 0 but for rounding
        self.biased = False
        # sums to a constant along an axis (softmax, a normalization): the
        # mean of it has a gradient of 0 but for rounding
        self.flat = False
        assert len(self.shape) == len(self.dyn)

    @property
    def rank(self):
        return len(self.shape)

    def static(self):
        return [-1 if d else s for s, d in zip(self.shape, self.dyn)]

    def known(self, start=0, end=None):
        """The dims start:end are all known at build time."""
        return not any(self.dyn[start:end])

    def like(self, name, **kw):
        t = T(name, self.shape, self.dyn, self.lod, self.ties, self.grad)
        for k, v in kw.items():
            setattr(t, k, v)
        return t


# Unary activations: (layer, attrs drawn by a function of the Rng, may make
# exact ties). Keyword arguments are 1.x's.
def _no_attrs(r):
    return {}


ACTIVATIONS = [
    ("relu", _no_attrs, True),
    ("tanh", _no_attrs, False),
    ("sigmoid", _no_attrs, False),
    ("softplus", _no_attrs, False),
    ("softsign", _no_attrs, False),
    ("elu", lambda r: {"alpha": r.choice([0.5, 1.0, 1.5])}, False),
    ("relu6", _no_attrs, True),
    ("leaky_relu", lambda r: {"alpha": r.choice([0.02, 0.1, 0.3])}, False),
    ("swish", _no_attrs, False),
    ("hard_sigmoid", lambda r: {"slope": r.choice([0.2, 0.3]), "offset": 0.5}, True),
    ("brelu", lambda r: {"t_min": r.choice([-1.0, 0.0]), "t_max": r.choice([0.5, 1.0, 2.0])}, True),
    ("stanh", lambda r: {"scale_a": r.choice([0.67, 1.0]), "scale_b": r.choice([1.7159, 1.0])}, False),
    ("logsigmoid", _no_attrs, False),
    ("sin", _no_attrs, False),
    ("cos", _no_attrs, False),
    ("atan", _no_attrs, False),
    ("tanh_shrink", _no_attrs, False),
    ("softshrink", lambda r: {"alpha": r.choice([0.1, 0.3])}, True),
    ("hard_shrink", lambda r: {"threshold": r.choice([0.1, 0.3])}, True),
    ("thresholded_relu", lambda r: {"threshold": r.choice([0.1, 0.5])}, True),
    ("selu", _no_attrs, False),
    ("square", _no_attrs, False),
    ("abs", _no_attrs, True),
    ("pow", lambda r: {"factor": r.choice([2.0, 3.0])}, False),
    ("floor", _no_attrs, True),
    ("ceil", _no_attrs, True),
    ("round", _no_attrs, True),
    ("sign", _no_attrs, True),
]
# Activations with a gradient of 0 (they stop training upstream): rarer.
RARE_ACTIVATIONS = {"floor", "ceil", "round", "sign"}
# fc's and conv2d's act=: 1.x's LayerHelper.append_activation appends the op
# of that name with its default attributes.
FC_ACTS = [None, None, "relu", "tanh", "sigmoid", "softplus", "elu", "relu6", "leaky_relu",
           "swish", "softsign", "softmax", "hard_sigmoid", "brelu", "stanh"]
TIE_ACTS = {"relu", "relu6", "hard_sigmoid", "brelu", "softshrink", "hard_shrink",
            "thresholded_relu", "abs", "floor", "ceil", "round", "sign"}


# Ops after which a tensor that sums to a constant along an axis (`flat`)
# may still do so: linear in each row.
FLAT_KEEPING = ("layers.reshape", "layers.transpose", "layers.sequence_pool",
                "layers.sequence_first_step", "layers.sequence_last_step", "layers.reduce_sum",
                "layers.reduce_mean", "layers.dropout", "layers.scale", "layers.unsqueeze",
                "layers.squeeze", "layers.concat", "layers.stack", "layers.expand")


def fmt(v):
    return repr(v)


class Program:
    """Builds one program's source from a seed."""

    def __init__(self, seed):
        self.seed = seed
        self.r = Rng(seed)
        self.lines = []          # build code, inside program_guard
        self.feed_lines = []     # feed construction, after the build
        self.n = 0
        self.static_batch = self.r.chance(0.2)
        self.B = self.r.int(2, 6)
        self.pool = []           # float tensors built so far
        self.frozen = False
        self.batch_norms = 0
        # Drawn first: with an optimizer that scales each gradient by its own
        # size (Adam, Adagrad, ...) a gradient that is 0 but for rounding
        # becomes a full step, and fluidc's rounding is not Paddle's; the
        # graphs that make such gradients are not built for those (below).
        self.opt_name = self.r.choice(["SGD", "Momentum", "Adam", "Adagrad", "RMSProp",
                                       "Adamax", "Adadelta"])
        self.adaptive = self.opt_name not in ("SGD", "Momentum")
        # is_sparse=True embeddings (SelectedRows gradients) only where both
        # sides can run them as 1.x did: 1.x's Adamax and Adadelta refused
        # them, 3.3.1's RMSProp and Momentum lose rows of unsorted ids
        # (their binary search wants sorted rows), and 3.3.1's clipping by
        # norm skips them, or crashes (no clip with them, in optimizer())
        self.sparse_ok = self.opt_name in ("SGD", "Adam", "Adagrad")
        self.sparse = False

    # ------------------------------------------------------------ helpers
    def emit(self, line):
        self.lines.append(line)

    def new(self, prefix="h"):
        self.n += 1
        return "%s%d" % (prefix, self.n)

    def add(self, t):
        self.pool.append(t)
        return t

    def out(self, src, t, expr):
        """Emits `name = expr` for the tensor t made from src; returns t."""
        if t.grad is None:
            t.grad = src.grad
        if src.flat and expr.startswith(FLAT_KEEPING):
            t.flat = True
        self.emit("%s = %s" % (t.name, expr))
        return self.add(t)

    def init(self, kind=None):
        """A random initializer expression (seeded, or from random_seed).
        A constant weight matrix makes equal columns, whose gradients
        upstream cancel to rounding noise: not with an adaptive optimizer."""
        r = self.r
        kind = kind or r.weighted([("default", 5), ("constant", 1), ("uniform", 2),
                                   ("normal", 2), ("truncated", 1), ("xavier", 1),
                                   ("msra", 1)])
        if kind == "constant" and self.adaptive:
            kind = "default"
        if kind == "default":
            return None
        if kind == "constant":
            return "fluid.initializer.Constant(value=%s)" % fmt(r.uniform(-0.5, 0.5, 2))
        if kind == "uniform":
            lo = r.uniform(-1.0, -0.1, 2)
            return "fluid.initializer.Uniform(low=%s, high=%s, seed=%d)" % (
                fmt(lo), fmt(-lo), r.choice([0, r.int(1, 99)]))
        if kind == "normal":
            return "fluid.initializer.Normal(loc=0.0, scale=%s, seed=%d)" % (
                fmt(r.uniform(0.1, 0.6, 2)), r.choice([0, r.int(1, 99)]))
        if kind == "truncated":
            return "fluid.initializer.TruncatedNormal(loc=0.0, scale=%s, seed=%d)" % (
                fmt(r.uniform(0.1, 0.6, 2)), r.int(1, 99))
        if kind == "xavier":
            return "fluid.initializer.Xavier(uniform=%s)" % r.choice(["True", "False"])
        return "fluid.initializer.MSRA(uniform=%s)" % r.choice(["True", "False"])

    def param_attr(self, allow_frozen=True):
        """A param_attr= argument, or None for the default."""
        r = self.r
        self.frozen = False
        if r.chance(0.55):
            return None
        parts = []
        init = self.init()
        if init:
            parts.append("initializer=" + init)
        if r.chance(0.2):
            parts.append("learning_rate=%s" % fmt(r.choice([0.5, 2.0])))
        if r.chance(0.2):
            parts.append("regularizer=%s" % self.regularizer())
        if allow_frozen and r.chance(0.06):
            parts.append("trainable=False")
            self.frozen = True
        if not parts:
            return None
        return "fluid.ParamAttr(%s)" % ", ".join(parts)

    def regularizer(self):
        r = self.r
        kind = r.choice(["L1Decay", "L2Decay", "L2DecayRegularizer", "L1DecayRegularizer"])
        return "fluid.regularizer.%s(%s)" % (kind, fmt(r.choice([1e-4, 1e-3, 0.01, 0.05])))

    @staticmethod
    def kw(args):
        return ", ".join("%s=%s" % (k, v) for k, v in args if v is not None)

    # ------------------------------------------------------------ inputs
    def data(self, name, dims, dtype="float32", lod_level=0):
        if self.static_batch and not lod_level:
            self.emit("%s = layers.data(name=%r, shape=%r, dtype=%r, append_batch_size=False)"
                      % (name, name, list(dims), dtype))
        elif lod_level:
            self.emit("%s = layers.data(name=%r, shape=%r, dtype=%r, lod_level=%d)"
                      % (name, name, list(dims[1:]), dtype, lod_level))
        else:
            self.emit("%s = layers.data(name=%r, shape=%r, dtype=%r)"
                      % (name, name, list(dims[1:]), dtype))

    def batch_dyn(self, rank):
        return [not self.static_batch] + [False] * (rank - 1)

    def make_input(self):
        r = self.r
        kind = r.weighted([("dense", 6), ("image", 3), ("seq", 3), ("ids", 1)])
        self.input_kind = kind
        B = self.B
        if kind == "dense":
            D = r.int(2, 8)
            self.data("x", [B, D])
            self.feed_lines.append("feed['x'] = rng.uniform(-1, 1, size=(%d, %d)).astype('float32')"
                                   % (B, D))
            t = self.add(T("x", [B, D], self.batch_dyn(2), grad=False))
            if r.chance(0.3):
                D2 = r.choice([D, r.int(2, 6)])
                self.data("x2", [B, D2])
                self.feed_lines.append(
                    "feed['x2'] = rng.normal(0.0, 0.7, size=(%d, %d)).astype('float32')" % (B, D2))
                self.add(T("x2", [B, D2], self.batch_dyn(2), grad=False))
            return t
        if kind == "image":
            C, H, W = r.int(1, 3), r.int(3, 7), r.int(3, 7)
            self.data("img", [B, C, H, W])
            self.feed_lines.append(
                "feed['img'] = rng.uniform(-1, 1, size=(%d, %d, %d, %d)).astype('float32')"
                % (B, C, H, W))
            return self.add(T("img", [B, C, H, W], self.batch_dyn(4), grad=False))
        V, E = r.int(5, 20), r.int(2, 8)
        emb = "emb%d" % self.seed
        attr = self.param_attr(allow_frozen=False)
        if kind == "ids":
            self.data("ids", [B, 1], "int64")
            self.feed_lines.append("feed['ids'] = rng.randint(0, %d, size=(%d, 1)).astype('int64')"
                                   % (V, B))
            sparse = ", is_sparse=True" if self.sparse_ok and r.chance(0.3) else ""
            self.sparse = bool(sparse)
            self.emit("%s = layers.embedding(input=ids, size=[%d, %d]%s%s)"
                      % (emb, V, E, sparse, ", param_attr=" + attr if attr else ""))
            return self.add(T(emb, [B, E], self.batch_dyn(2), grad=True))
        # a LoD sequence of ids: B sequences of 1..4 words
        lens = [r.int(1, 4) for _ in range(B)]
        total = sum(lens)
        self.data("words", [total, 1], "int64", lod_level=1)
        self.feed_lines.append(
            "feed['words'] = fluid.create_lod_tensor(rng.randint(0, %d, size=(%d, 1)).astype('int64'), [%r], fluid.CPUPlace())"
            % (V, total, lens))
        pad = ""
        if r.chance(0.2):
            pad = ", padding_idx=%d" % r.int(0, V - 1)
        if self.sparse_ok and r.chance(0.3):
            pad += ", is_sparse=True"
            self.sparse = True
        self.emit("%s = layers.embedding(input=words, size=[%d, %d]%s%s)"
                  % (emb, V, E, pad, ", param_attr=" + attr if attr else ""))
        self.lens = lens
        return self.add(T(emb, [total, E], [True, False], lod=True, grad=True))

    # ------------------------------------------------------------ partners
    def same_shape_partner(self, t):
        """Another tensor with t's shape (and LoD): a pool tensor of that
        shape through an activation, or t itself through one."""
        r = self.r
        cands = [p for p in self.pool if p.shape == t.shape and p.dyn == t.dyn
                 and p.lod == t.lod and p is not t]
        src = r.choice(cands) if cands and r.chance(0.7) else t
        if t.rank == 2 and not t.lod and r.chance(0.3):
            others = [p for p in self.pool if p.rank == 2 and p.shape[0] == t.shape[0]
                      and p.dyn[0] == t.dyn[0] and not p.lod]
            if others and t.known(1):
                src = r.choice(others)
                name = self.new()
                attr = self.param_attr()
                self.emit("%s = layers.fc(input=%s, size=%d%s)" % (
                    name, src.name, t.shape[1], ", param_attr=" + attr if attr else ""))
                return self.add(T(name, t.shape, t.dyn, False, src.ties, True))
        act = r.choice(["tanh", "sigmoid", "softsign", "sin", "scale"])
        name = self.new()
        if act == "scale":
            self.emit("%s = layers.scale(%s, scale=%s, bias=%s)" % (
                name, src.name, fmt(r.uniform(-2, 2, 2)), fmt(r.uniform(-1, 1, 2))))
        else:
            self.emit("%s = layers.%s(%s)" % (name, act, src.name))
        return self.add(T(name, src.shape, src.dyn, src.lod, src.ties, src.grad))

    def positive(self, t):
        """t made positive and bounded away from 0 (>= 0.5)."""
        r = self.r
        name = self.new("pos")
        how = r.choice(["sigmoid", "exp_tanh", "square"])
        if how == "sigmoid":
            self.emit("%s = layers.scale(layers.sigmoid(%s), scale=%s, bias=0.5)"
                      % (name, t.name, fmt(r.uniform(0.5, 2.0, 2))))
        elif how == "exp_tanh":
            self.emit("%s = layers.exp(layers.tanh(%s))" % (name, t.name))
        else:
            self.emit("%s = layers.scale(layers.square(layers.tanh(%s)), bias=0.5)"
                      % (name, t.name))
        return T(name, t.shape, t.dyn, t.lod, t.ties, t.grad)

    def param_like(self, shape):
        """A create_parameter of `shape` with a seeded initializer."""
        name = self.new("p")
        kinds = ["uniform", "normal", "default"]
        if len(shape) == 1:
            kinds.append("constant")
        init = self.init(self.r.choice(kinds))
        self.emit("%s = layers.create_parameter(shape=%r, dtype='float32'%s)" % (
            name, list(shape), ", default_initializer=" + init if init else ""))
        return T(name, shape, [False] * len(shape), grad=True)

    # ------------------------------------------------------------ the ops
    def op_activation(self, t):
        r = self.r
        choices = [a for a in ACTIVATIONS if not (t.lod and a[0] == "abs")]
        name_, attrs_fn, ties = r.choice(choices)
        if name_ in RARE_ACTIVATIONS and r.chance(0.7):
            name_, attrs_fn, ties = ("tanh", _no_attrs, False)
        attrs = attrs_fn(r)
        args = "".join(", %s=%s" % (k, fmt(v)) for k, v in sorted(attrs.items()))
        name = self.new()
        return self.out(t, t.like(name, ties=t.ties or ties),
                        "layers.%s(%s%s)" % (name_, t.name, args))

    def op_positive_unary(self, t):
        """log, sqrt, rsqrt, reciprocal, exp, pow with a fractional factor
        on a positive input."""
        r = self.r
        p = self.positive(t)
        name = self.new()
        op = r.choice(["log", "sqrt", "rsqrt", "reciprocal", "exp", "pow"])
        if op == "pow":
            expr = "layers.pow(%s, factor=%s)" % (p.name, fmt(r.choice([0.5, 1.5, -1.0])))
        else:
            expr = "layers.%s(%s)" % (op, p.name)
        return self.out(t, t.like(name), expr)

    def op_fc(self, t):
        r = self.r
        if t.rank < 2:
            return None
        nfds = [k for k in range(1, t.rank) if t.known(k)]
        if t.lod:
            nfds = [1] if t.known(1) else []
        if not nfds:
            return None
        nfd = r.choice(nfds)
        size = r.int(1, 8)
        act = r.choice(FC_ACTS)
        if act == "softmax" and size == 1:
            act = None
        inputs = t.name
        others = [p for p in self.pool if p is not t and p.rank >= 2 and not p.lod and not t.lod
                  and p.shape[:nfd] == t.shape[:nfd] and p.dyn[:nfd] == t.dyn[:nfd]
                  and p.known(nfd) and p.rank > nfd]
        ties = t.ties
        if others and r.chance(0.2):
            o = r.choice(others)
            inputs = "[%s, %s]" % (t.name, o.name)
            ties = ties or o.ties
        args = [("input", inputs), ("size", str(size))]
        if nfd != 1:
            args.append(("num_flatten_dims", str(nfd)))
        args.append(("param_attr", self.param_attr()))
        grad = not self.frozen
        if r.chance(0.15):
            args.append(("bias_attr", "False"))
        else:
            grad = True
            if r.chance(0.2):
                args.append(("bias_attr",
                             "fluid.ParamAttr(initializer=fluid.initializer.Constant(%s))"
                             % fmt(r.uniform(-0.3, 0.3, 2))))
        if act:
            args.append(("act", repr(act)))
        name = self.new()
        out = T(name, t.shape[:nfd] + [size], t.dyn[:nfd] + [False], t.lod,
                ties or act in TIE_ACTS, grad or t.grad or inputs != t.name)
        out.biased = not act and ("bias_attr", "False") not in args
        out.flat = act == "softmax"
        return self.out(t, out, "layers.fc(%s)" % self.kw(args))

    def op_scale(self, t):
        r = self.r
        name = self.new()
        if r.chance(0.25) and not t.lod:
            # Variable operators (1.x math_op_patch): scale ops for scalars
            expr = r.choice(["%s * %s + %s", "%s / %s - %s"]) % (
                t.name, fmt(r.uniform(0.5, 2.0, 2)), fmt(r.uniform(-1, 1, 2)))
            return self.out(t, t.like(name, biased=t.biased, flat=t.flat), expr)
        args = [("scale", fmt(r.uniform(-2, 2, 2)))]
        if r.chance(0.6):
            args.append(("bias", fmt(r.uniform(-1, 1, 2))))
        if r.chance(0.3):
            args.append(("bias_after_scale", "False"))
        return self.out(t, t.like(name, biased=t.biased, flat=t.flat),
                        "layers.scale(%s, %s)" % (t.name, self.kw(args)))

    def op_elementwise(self, t):
        r = self.r
        op = r.weighted([("add", 4), ("sub", 2), ("mul", 3), ("div", 2), ("max", 1),
                         ("min", 1), ("pow", 1)])
        mode = r.weighted([("same", 3), ("param", 3), ("reduced", 2)])
        if op == "pow" and mode == "reduced":
            mode = "param"  # 3.3.1's elementwise_pow_grad refuses axis 0
        if op in ("max", "min"):
            if t.ties:
                return None
            mode = "same"  # 3.3.1's gradient of a broadcast y is wrong
        axis = -1
        if mode == "same":
            y = self.same_shape_partner(t)
        elif mode == "param":
            # y's dims are a run of x's non-batch dims: trailing (axis -1)
            # or starting at `axis`.
            if t.rank < 2 or not t.known(1):
                return None
            start = r.int(1, t.rank - 1)
            end = r.int(start + 1, t.rank) if t.known(start) else None
            if end is None or t.lod and start != 1:
                return None
            if end < t.rank:
                if op == "pow":
                    return None  # 3.3.1's elementwise_pow ignores axis
                axis = start
            y = self.param_like(t.shape[start:end])
        else:
            # y = a reduction of x over its trailing dims: broadcast on axis 0
            if t.rank < 2 or t.lod:
                return None
            k = r.int(1, t.rank - 1)
            dims = list(range(k, t.rank))
            yname = self.new()
            self.emit("%s = layers.reduce_mean(%s, dim=%r)" % (yname, t.name, dims))
            y = self.add(T(yname, t.shape[:k], t.dyn[:k], False, t.ties, t.grad))
            axis = 0
        x = t
        if op == "div":
            y = self.positive(y)
        if op == "pow":
            x = self.positive(t)
            yname = self.new()
            self.emit("%s = layers.scale(layers.tanh(%s), scale=0.5, bias=1.0)" % (yname, y.name))
            y = T(yname, y.shape, y.dyn, y.lod, y.ties, y.grad)
        name = self.new()
        args = "" if axis == -1 and r.chance(0.7) else ", axis=%d" % axis
        if op in ("add", "sub", "mul", "div") and axis == -1 and not args and r.chance(0.3) \
                and not t.lod:
            # Variable operators (1.x math_op_patch)
            sym = {"add": "+", "sub": "-", "mul": "*", "div": "/"}[op]
            return self.out(t, t.like(name, ties=t.ties or y.ties, grad=t.grad or y.grad,
                                      biased=mode == "param" and op in ("add", "sub")),
                            "%s %s %s" % (x.name, sym, y.name))
        act = ""
        if r.chance(0.15):
            a = r.choice(["relu", "tanh", "sigmoid"])
            act = ", act=%r" % a
        return self.out(t, t.like(name, ties=t.ties or y.ties or "relu" in act,
                                  grad=t.grad or y.grad,
                                  biased=mode == "param" and op in ("add", "sub") and not act),
                        "layers.elementwise_%s(%s, %s%s%s)" % (op, x.name, y.name, args, act))

    def op_sums(self, t):
        r = self.r
        k = r.int(1, 2)
        parts = [t] + [self.same_shape_partner(t) for _ in range(k)]
        parts = r.shuffled(parts) if r.chance(0.5) else parts
        if t.known() and not t.lod and r.chance(0.4):
            # a parameter of the whole shape, not first (issue 38: it was
            # never trained there)
            parts.insert(r.int(1, len(parts)), self.param_like(t.shape))
        fn = r.choice(["sums", "sum"])
        name = self.new()
        ties = any(p.ties for p in parts)
        return self.out(t, t.like(name, ties=ties, grad=any(p.grad for p in parts)),
                        "layers.%s([%s])" % (fn, ", ".join(p.name for p in parts)))

    def op_concat(self, t):
        r = self.r
        if t.rank < 1:
            return None
        axis = r.int(0, t.rank - 1)
        if t.lod and axis == 0:
            axis = 1 if t.rank > 1 else None
        if axis is None:
            return None
        if t.rank == 2 and axis == 1 and not t.lod and r.chance(0.5) and t.known(1):
            others = [p for p in self.pool if p.rank == 2 and p.shape[0] == t.shape[0]
                      and p.dyn == t.dyn and not p.lod and p is not t]
            if others:
                o = r.choice(others)
                name = self.new()
                parts = r.shuffled([t, o])
                return self.out(t, T(name, [t.shape[0], t.shape[1] + o.shape[1]], t.dyn, False,
                                     t.ties or o.ties, t.grad or o.grad),
                                "layers.concat([%s, %s], axis=1)" % (parts[0].name, parts[1].name))
        p = self.same_shape_partner(t)
        shape = list(t.shape)
        shape[axis] *= 2
        name = self.new()
        ax = axis if r.chance(0.7) else axis - t.rank
        if ax < 0 and t.lod:
            ax = axis
        return self.out(t, T(name, shape, t.dyn, t.lod, t.ties or p.ties, t.grad or p.grad),
                        "layers.concat([%s, %s], axis=%d)" % (t.name, p.name, ax))

    def op_stack(self, t):
        r = self.r
        if t.lod:
            return None
        axis = r.int(0 if not t.dyn[0] else 1, t.rank)
        k = r.int(1, 2)
        parts = [t] + [self.same_shape_partner(t) for _ in range(k)]
        shape = t.shape[:axis] + [k + 1] + t.shape[axis:]
        dyn = t.dyn[:axis] + [False] + t.dyn[axis:]
        name = self.new()
        return self.out(t, T(name, shape, dyn, False, any(p.ties for p in parts),
                             any(p.grad for p in parts)),
                        "layers.stack([%s], axis=%d)" % (", ".join(p.name for p in parts), axis))

    def factor(self, n):
        """A random split of n into 2 factors (or None)."""
        fs = [(a, n // a) for a in range(2, n) if n % a == 0]
        return self.r.choice(fs) if fs else None

    def op_reshape(self, t):
        r = self.r
        if t.lod or not t.known(1):
            return None
        rest = t.shape[1:]
        n = prod(rest)
        opts = []
        if t.rank > 2:
            opts.append([n])
        f = self.factor(n)
        if f:
            opts.append(list(f))
        if t.rank == 1:
            opts.append([1])
        if not opts:
            return None
        new_rest = r.choice(opts)
        first = r.choice(["-1", "0"]) if t.dyn[0] else r.choice([str(t.shape[0]), "-1", "0"])
        if t.rank == 1 and first == "0":
            first = "-1"
        target = "[%s]" % ", ".join([first] + [str(d) for d in new_rest])
        name = self.new()
        out = T(name, [t.shape[0]] + new_rest, [t.dyn[0]] + [False] * len(new_rest), False, t.ties)
        act = ""
        if r.chance(0.1):
            a = r.choice(["tanh", "relu"])
            act = ", act=%r" % a
            out.ties = out.ties or a == "relu"
        return self.out(t, out, "layers.reshape(%s, shape=%s%s)" % (t.name, target, act))

    def op_flatten_all(self, t):
        """reshape to [-1]: a rank-1 tensor."""
        if t.lod or t.rank < 2 or not t.known(1) or not self.r.chance(0.5):
            return None
        name = self.new()
        return self.out(t, T(name, [prod(t.shape)], [any(t.dyn)], False, t.ties),
                        "layers.reshape(%s, shape=[-1])" % t.name)

    def op_transpose(self, t):
        r = self.r
        if t.rank < 2 or t.lod:
            return None
        perm = r.shuffled(range(t.rank))
        if perm == list(range(t.rank)):
            perm = perm[1:] + perm[:1]
        name = self.new()
        return self.out(t, T(name, [t.shape[i] for i in perm], [t.dyn[i] for i in perm], False,
                             t.ties),
                        "layers.transpose(%s, perm=%r)" % (t.name, perm))

    def op_matmul(self, t):
        r = self.r
        if t.lod or t.rank < 2 or t.rank > 3:
            return None
        tx = r.chance(0.3)
        ty = r.chance(0.4)
        alpha = r.choice([None, None, 0.5, 2.0])
        if t.rank == 2:
            if not t.known(1):
                return None
            if tx:
                # x^T [K, B] @ y [B, N]: reduces over the batch
                M, K = t.shape[1], t.shape[0]
                ydyn = t.dyn[0]
                N = r.int(1, 5)
                if not ydyn and r.chance(0.5):
                    yshape = [N, K] if ty else [K, N]
                    y = self.param_like(yshape)
                else:
                    ty = False
                    src = [p for p in self.pool if p.rank == 2 and p.shape[0] == K
                           and p.dyn[0] == ydyn and not p.lod and p.known(1)]
                    if not src:
                        return None
                    src = r.choice(src)
                    name = self.new()
                    self.emit("%s = layers.fc(input=%s, size=%d)" % (name, src.name, N))
                    y = self.add(T(name, [K, N], [ydyn, False], False, src.ties, True))
                out_shape, out_dyn = [M, N], [False, False]
            else:
                if not t.known(1):
                    return None
                K = t.shape[1]
                N = r.int(1, 6)
                y = self.param_like([N, K] if ty else [K, N])
                out_shape, out_dyn = [t.shape[0], N], [t.dyn[0], False]
        else:
            Bt, M, K = t.shape
            if not t.known(1):
                return None
            if tx:
                M, K = K, M
            if r.chance(0.5):
                # batched y from t itself: (t or t^T) @ (t or t^T)
                y = self.same_shape_partner(t)
                # y's un-transposed shape is t's [B, M0, K0]
                M0, K0 = t.shape[1], t.shape[2]
                if ty:
                    ky, N = K0, M0
                else:
                    ky, N = M0, K0
                if ky != K:
                    ty = not ty
                    ky, N = (K0, M0) if ty else (M0, K0)
                    if ky != K:
                        return None
            else:
                N = r.int(1, 5)
                y = self.param_like([N, K] if ty else [K, N])
            out_shape, out_dyn = [Bt, M, N], [t.dyn[0], False, False]
        if not (t.grad and y.grad):
            alpha = None  # 3.3.1's matmul_grad with alpha fails on an input without grad
        name = self.new()
        args = [("transpose_x", "True" if tx else None), ("transpose_y", "True" if ty else None),
                ("alpha", fmt(alpha) if alpha else None)]
        extra = self.kw(args)
        return self.out(t, T(name, out_shape, out_dyn, False, t.ties or y.ties, t.grad or y.grad),
                        "layers.matmul(%s, %s%s)" % (t.name, y.name, ", " + extra if extra else ""))

    def op_reduce(self, t):
        r = self.r
        if t.lod or t.rank < 2:
            return None
        op = r.weighted([("sum", 3), ("mean", 3), ("max", 1), ("min", 1), ("prod", 0.5)])
        if op in ("max", "min", "prod") and t.ties:
            op = "mean"
        nonbatch = list(range(1, t.rank))
        k = r.int(1, len(nonbatch))
        dims = sorted(r.shuffled(nonbatch)[:k])
        keep = r.chance(0.4)
        if r.chance(0.2):
            dims = [d - t.rank for d in dims]
        dim = str(dims[0]) if len(dims) == 1 and r.chance(0.5) else repr(dims)
        rdims = [d % t.rank for d in dims]
        if keep:
            shape = [1 if i in rdims else s for i, s in enumerate(t.shape)]
            dyn = [False if i in rdims else d for i, d in enumerate(t.dyn)]
        else:
            shape = [s for i, s in enumerate(t.shape) if i not in rdims]
            dyn = [d for i, d in enumerate(t.dyn) if i not in rdims]
        name = self.new()
        args = ", dim=%s" % dim + (", keep_dim=True" if keep else "")
        x = t
        if op == "prod":
            x = T("layers.tanh(%s)" % t.name, t.shape, t.dyn)
        return self.out(t, T(name, shape, dyn, False, t.ties or op in ("max", "min")),
                        "layers.reduce_%s(%s%s)" % (op, x.name, args))

    def op_dropout(self, t):
        r = self.r
        if t.rank < 2:
            return None  # 3.3.1's dropout refuses a 1-D input at build time
        name = self.new()
        impl = ""
        if r.chance(0.4):
            impl = ", dropout_implementation=%r" % r.choice(["downgrade_in_infer",
                                                             "upscale_in_train"])
        return self.out(t, t.like(name, biased=t.biased, flat=t.flat),
                        "layers.dropout(%s, dropout_prob=%s, is_test=True%s)"
                        % (t.name, fmt(r.choice([0.1, 0.25, 0.5])), impl))

    def op_batch_norm(self, t):
        r = self.r
        if t.ties or t.lod or t.rank not in (2, 4) or not t.known(1, 2):
            return None
        if t.biased and self.adaptive:
            return None
        if self.batch_norms:
            # a batch_norm after another (even through an activation) nearly
            # takes out the first one's shift: its gradient is mostly
            # cancellation, which an adaptive step magnifies, and the second
            # one's moving mean is the rounding of a mean that is 0
            return None
        self.batch_norms += 1
        rows = prod(t.shape) // t.shape[1]
        if rows < 4:
            return None  # a channel of 2 or 3 values: its gradient is mostly rounding
        args = []
        act = r.choice([None, None, "relu", "tanh"])
        if self.adaptive and not act:
            # the linear ops after a batch_norm keep its shift at a
            # stationary point at the start: rounding decides the first step
            act = r.choice(["tanh", "sigmoid"])
        if act:
            args.append(("act", repr(act)))
        if r.chance(0.3):
            args.append(("momentum", fmt(r.choice([0.5, 0.8, 0.99]))))
        if r.chance(0.3):
            args.append(("epsilon", fmt(r.choice([1e-3, 1e-4]))))
        attr = self.param_attr(allow_frozen=False)
        if attr:
            args.append(("param_attr", attr))
        name = self.new()
        return self.out(t, t.like(name, ties=act == "relu", grad=True, biased=not act,
                                  flat=not act),
                        "layers.batch_norm(input=%s%s)" % (
            t.name, "".join(", %s=%s" % a for a in args)))

    def op_layer_norm(self, t):
        r = self.r
        if t.ties or t.rank < 2:
            return None
        # over 2 values the output is +-1 and its gradient rounding noise
        axes = [k for k in range(1, t.rank) if t.known(k) and prod(t.shape[k:]) > 2]
        if t.lod:
            axes = [1] if t.shape[1] > 2 else []
        if not axes:
            return None
        k = r.choice(axes)
        if k >= 2 and t.biased and self.adaptive:
            return None  # it takes out the per-channel shift before it
        args = []
        if k != 1:
            args.append(("begin_norm_axis", str(k)))
        grad = t.grad
        if r.chance(0.2):
            args.append(("scale", "False"))
        else:
            grad = True
        if r.chance(0.2):
            args.append(("shift", "False"))
        else:
            grad = True
        act = r.choice([None, None, None, "tanh", "relu"])
        if act:
            args.append(("act", repr(act)))
        if r.chance(0.2):
            args.append(("epsilon", fmt(1e-3)))
        name = self.new()
        biased = not act and ("shift", "False") not in args
        return self.out(t, t.like(name, ties=act == "relu", grad=grad, biased=biased,
                                  flat=not act),
                        "layers.layer_norm(%s%s)" % (
            t.name, "".join(", %s=%s" % a for a in args)))

    def op_conv2d(self, t):
        r = self.r
        if t.rank != 4 or t.lod or not t.known(1):
            return None
        Bt, C, H, W = t.shape
        for _ in range(10):
            F = r.int(1, 4)
            k = r.int(1, 3)
            s = r.choice([1, 1, 2])
            p = r.choice([0, 0, 1])
            d = r.choice([1, 1, 1, 2])
            groups = None
            if C > 1 and r.chance(0.25):
                g = r.choice([g for g in range(2, C + 1) if C % g == 0])
                F = g * r.int(1, 2)
                groups = g
            eff = d * (k - 1) + 1
            Ho, Wo = (H + 2 * p - eff) // s + 1, (W + 2 * p - eff) // s + 1
            if Ho >= 1 and Wo >= 1:
                break
        else:
            return None
        args = [("input", t.name), ("num_filters", str(F)), ("filter_size", str(k))]
        if s != 1:
            args.append(("stride", str(s)))
        if p:
            args.append(("padding", str(p)))
        if d != 1:
            args.append(("dilation", str(d)))
        if groups:
            args.append(("groups", str(groups)))
            if groups == C and r.chance(0.5):
                args.append(("use_cudnn", "False"))  # 1.x: depthwise_conv2d
        act = r.choice([None, None, "relu", "tanh", "sigmoid"])
        if act:
            args.append(("act", repr(act)))
        args.append(("param_attr", self.param_attr()))
        grad = t.grad or not self.frozen
        if r.chance(0.15):
            args.append(("bias_attr", "False"))
        else:
            grad = True
        name = self.new()
        # a padded border is the bias alone: equal values (ties)
        out = T(name, [Bt, F, Ho, Wo], [t.dyn[0], False, False, False], False,
                t.ties or act == "relu" or p > 0, grad)
        out.biased = not act and ("bias_attr", "False") not in args
        return self.out(t, out,
                        "layers.conv2d(%s)" % self.kw(args))

    def op_pool2d(self, t):
        r = self.r
        if t.rank != 4 or t.lod or not t.known(1):
            return None
        Bt, C, H, W = t.shape
        ptype = r.choice(["max", "avg"])
        if ptype == "max" and t.ties and r.chance(0.5):
            ptype = "avg"
        if r.chance(0.15):
            name = self.new()
            return self.out(t, T(name, [Bt, C, 1, 1], [t.dyn[0], False, False, False], False,
                                 t.ties),
                            "layers.pool2d(%s, pool_type=%r, global_pooling=True)" % (t.name, ptype))
        for _ in range(10):
            k = r.int(1, 3)
            s = r.choice([1, 2, 2])
            p = r.choice([0, 0, 1]) if k > 1 else 0
            ceil = r.chance(0.25)
            excl = r.chance(0.8)
            if ptype == "avg" and ceil and not excl:
                excl = True  # 1.x and 3.3.1 divide differently there
            if ceil:
                Ho = (H - k + 2 * p + s - 1) // s + 1
                Wo = (W - k + 2 * p + s - 1) // s + 1
            else:
                Ho = (H - k + 2 * p) // s + 1
                Wo = (W - k + 2 * p) // s + 1
            if Ho >= 1 and Wo >= 1:
                break
        else:
            return None
        args = [("pool_size", str(k)), ("pool_type", repr(ptype))]
        if s != 1:
            args.append(("pool_stride", str(s)))
        if p:
            args.append(("pool_padding", str(p)))
        if ceil:
            args.append(("ceil_mode", "True"))
        if not excl:
            args.append(("exclusive", "False"))
        name = self.new()
        return self.out(t, T(name, [Bt, C, Ho, Wo], [t.dyn[0], False, False, False], False,
                             t.ties or ptype == "max"),
                        "layers.pool2d(%s, %s)" % (t.name, self.kw(args)))

    def op_unsqueeze(self, t):
        r = self.r
        if t.lod or t.rank > 3:
            return None
        axis = r.int(1, t.rank)
        name = self.new()
        u = T(name, t.shape[:axis] + [1] + t.shape[axis:], t.dyn[:axis] + [False] + t.dyn[axis:],
              False, t.ties, t.grad)
        self.out(t, u, "layers.unsqueeze(%s, axes=[%d])" % (t.name, axis))
        if r.chance(0.6):
            # and back again, through another op
            v = self.op_activation(u)
            name = self.new()
            return self.out(t, T(name, t.shape, t.dyn, False, v.ties, v.grad),
                            "layers.squeeze(%s, axes=[%d])" % (v.name, axis))
        return u

    def op_expand(self, t):
        r = self.r
        if t.lod or t.rank < 2 or t.rank > 3:
            return None
        times = [1] + [r.choice([1, 2]) for _ in t.shape[1:]]
        if prod(times) == 1:
            times[-1] = 2
        name = self.new()
        shape = [s * k for s, k in zip(t.shape, times)]
        return self.out(t, T(name, shape, t.dyn, False, True),
                        "layers.expand(%s, expand_times=%r)" % (t.name, times))

    def op_split(self, t):
        r = self.r
        if t.lod or t.rank < 2:
            return None
        axes = [k for k in range(1, t.rank) if t.known(k) and t.shape[k] >= 2]
        if not axes:
            return None
        axis = r.choice(axes)
        n = t.shape[axis]
        if n % 2 == 0 and r.chance(0.5):
            sections, parts = "2", [n // 2, n // 2]
        else:
            a = r.int(1, n - 1)
            sections, parts = repr([a, n - a]), [a, n - a]
        pick = r.int(0, 1)
        name = self.new()
        shape = list(t.shape)
        shape[axis] = parts[pick]
        self.emit("%s = layers.split(%s, num_or_sections=%s, dim=%d)[%d]"
                  % (name, t.name, sections, axis, pick))
        return self.add(T(name, shape, t.dyn, False, t.ties, t.grad))

    def op_slice(self, t):
        r = self.r
        if t.lod or t.rank < 2:
            return None
        axes = [k for k in range(1, t.rank) if t.known(k) and t.shape[k] >= 2]
        if not axes:
            return None
        axis = r.choice(axes)
        n = t.shape[axis]
        start = r.int(0, n - 2)
        end = r.int(start + 1, n)
        shape = list(t.shape)
        shape[axis] = end - start
        name = self.new()
        return self.out(t, T(name, shape, t.dyn, False, t.ties),
                        "layers.slice(%s, axes=[%d], starts=[%d], ends=[%d])"
                        % (t.name, axis, start, end))

    def op_pad(self, t):
        r = self.r
        if t.lod or t.rank < 2 or t.rank > 4:
            return None
        pads = [0, 0]
        shape = [t.shape[0]]
        for s in t.shape[1:]:
            a, b = r.int(0, 1), r.int(0, 2)
            pads += [a, b]
            shape.append(s + a + b)
        name = self.new()
        value = r.choice([0.0, 0.5])
        return self.out(t, T(name, shape, t.dyn, False, True),
                        "layers.pad(%s, paddings=%r, pad_value=%s)" % (t.name, pads, fmt(value)))

    def op_clip(self, t):
        r = self.r
        lo = r.uniform(-1.0, -0.1, 2)
        name = self.new()
        return self.out(t, t.like(name, ties=True),
                        "layers.clip(%s, min=%s, max=%s)" % (t.name, fmt(lo), fmt(r.uniform(0.1, 1.0, 2))))

    def op_l2_normalize(self, t):
        r = self.r
        if t.ties or t.lod or t.rank < 2:
            return None
        axis = r.int(1, t.rank - 1)
        if r.chance(0.2):
            axis = -1
        if t.shape[axis] < 2:
            return None  # x / |x| of one value is +-1, its gradient rounding noise
        name = self.new()
        return self.out(t, t.like(name), "layers.l2_normalize(%s, axis=%d)" % (t.name, axis))

    def op_softmax(self, t):
        if t.rank < 2 or t.lod and self.r.chance(0.5) or t.shape[-1] < 2:
            return None
        name = self.new()
        return self.out(t, t.like(name, flat=True), "layers.softmax(%s)" % t.name)

    def op_prelu(self, t):
        r = self.r
        if t.lod or t.rank < 2 or not t.known(1) or not t.grad:
            return None  # 3.3.1's prelu_grad crashes when X needs no gradient
        modes = ["all", "element"] + (["channel"] if t.rank == 4 else [])
        mode = r.choice(modes)
        name = self.new()
        attr = ""
        if r.chance(0.5):
            attr = ", param_attr=fluid.ParamAttr(initializer=fluid.initializer.Constant(%s))" % (
                fmt(r.choice([0.1, 0.25])))
        return self.out(t, t.like(name, grad=True), "layers.prelu(%s, mode=%r%s)" % (t.name, mode, attr))

    def op_cos_sim(self, t):
        if t.ties or t.lod or t.rank != 2 or not t.known(1) or t.shape[1] < 2:
            return None  # the cosine of 1-element rows is +-1
        y = self.same_shape_partner(t)
        if y.ties:
            return None
        name = self.new()
        return self.out(t, T(name, [t.shape[0], 1], t.dyn, False, False, t.grad or y.grad),
                        "layers.cos_sim(%s, %s)" % (t.name, y.name))

    def op_sequence_conv(self, t):
        r = self.r
        if not t.known(1):
            return None
        F = r.int(1, 6)
        args = [("input", t.name), ("num_filters", str(F)),
                ("filter_size", str(r.choice([1, 2, 3, 3])))]
        act = r.choice([None, "tanh", "sigmoid", "relu"])
        if act:
            args.append(("act", repr(act)))
        args.append(("param_attr", self.param_attr(allow_frozen=False)))
        if r.chance(0.2):
            args.append(("bias_attr", "False"))
        name = self.new()
        return self.out(t, T(name, [t.shape[0], F], t.dyn, True, t.ties or act == "relu", True),
                        "layers.sequence_conv(%s)" % self.kw(args))

    def op_sequence_attention(self, t):
        """Attention pooling's first half, as 2018 scripts wrote it: a score
        per step, sequence_softmax over each sequence, the steps scaled."""
        r = self.r
        if t.ties or not t.known(1):
            return None
        score, weight, name = self.new("score"), self.new("weight"), self.new()
        # no bias: sequence_softmax takes out a shift shared by a sequence,
        # so a bias's gradient would be 0 but for rounding
        self.emit("%s = layers.fc(input=%s, size=1, bias_attr=False, act=%r)"
                  % (score, t.name, r.choice(["tanh", None])))
        self.emit("%s = layers.sequence_softmax(%s)" % (weight, score))
        return self.out(t, t.like(name, grad=True),
                        "layers.elementwise_mul(%s, %s, axis=0)" % (t.name, weight))

    def op_sequence_expand(self, t):
        """Each sequence's pooled vector expanded back over its steps and
        added (or subtracted)."""
        r = self.r
        ptype = r.choice(["average", "sum", "sqrt", "last"] + ([] if t.ties else ["max"]))
        pooled, expanded, name = self.new("pooled"), self.new("expanded"), self.new()
        self.emit("%s = layers.sequence_pool(input=%s, pool_type=%r)" % (pooled, t.name, ptype))
        self.emit("%s = layers.sequence_expand(x=%s, y=%s)" % (expanded, pooled, t.name))
        op = r.choice(["add", "sub", "mul"])
        # x minus its pooled sequence is exactly 0 on a 1-step sequence
        return self.out(t, t.like(name, ties=t.ties or ptype == "max" or op == "sub"),
                        "layers.elementwise_%s(%s, %s)" % (op, t.name, expanded))

    def op_sequence_pool(self, t):
        r = self.r
        ptype = r.choice(["sum", "average", "sqrt", "max", "last", "first"])
        if ptype == "max" and t.ties:
            ptype = "sum"
        name = self.new()
        if ptype in ("last", "first") and r.chance(0.5):
            expr = "layers.sequence_%s_step(%s)" % (ptype, t.name)
        else:
            expr = "layers.sequence_pool(input=%s, pool_type=%r)" % (t.name, ptype)
        return self.out(t, T(name, [len(self.lens)] + t.shape[1:], t.dyn, False,
                             t.ties or ptype == "max"), expr)

    # ------------------------------------------------------------ body
    def ops_for(self, t):
        if t.lod:
            return [(self.op_activation, 5), (self.op_fc, 4), (self.op_scale, 2),
                    (self.op_elementwise, 2), (self.op_sums, 1), (self.op_concat, 1),
                    (self.op_layer_norm, 1), (self.op_dropout, 1), (self.op_positive_unary, 1),
                    (self.op_sequence_conv, 1.5), (self.op_sequence_attention, 1),
                    (self.op_sequence_expand, 1), (self.op_sequence_pool, 4)]
        ops = [(self.op_activation, 5), (self.op_fc, 5), (self.op_scale, 2),
               (self.op_elementwise, 4), (self.op_sums, 1.5), (self.op_concat, 1.5),
               (self.op_stack, 1), (self.op_reshape, 2), (self.op_transpose, 1.5),
               (self.op_matmul, 2), (self.op_reduce, 2), (self.op_dropout, 1),
               (self.op_batch_norm, 1.5), (self.op_layer_norm, 1.5),
               (self.op_positive_unary, 1.5), (self.op_unsqueeze, 0.7), (self.op_expand, 0.7),
               (self.op_split, 0.7), (self.op_slice, 0.7), (self.op_pad, 0.5),
               (self.op_clip, 0.5), (self.op_l2_normalize, 0.5), (self.op_softmax, 0.7),
               (self.op_prelu, 0.5), (self.op_cos_sim, 0.4), (self.op_flatten_all, 0.3)]
        if t.rank == 4:
            ops += [(self.op_conv2d, 6), (self.op_pool2d, 4)]
        return ops

    def body(self, t):
        r = self.r
        steps = r.int(2, 6)
        done = 0
        tries = 0
        while done < steps and tries < 60:
            tries += 1
            if t.lod and done >= steps - 1:
                op = self.op_sequence_pool
            else:
                op = r.weighted(self.ops_for(t))
            if op == self.op_sequence_pool and done < 1 and r.chance(0.7):
                continue
            u = op(t)
            if u is None:
                continue
            if prod(u.shape) > 4096 or len(u.shape) > 5:
                return t  # too big: stop growing
            t = u
            done += 1
        if t.lod:
            t = self.op_sequence_pool(t)
        return t

    # ------------------------------------------------------------ head
    def label(self, name, rows, dims, dtype, expr):
        self.data(name, [rows] + dims, dtype)
        self.feed_lines.append("feed[%r] = %s" % (name, expr))

    def head(self, t):
        """The loss: a mean over a cost of t (and labels)."""
        r = self.r
        kinds = [("plain", 2)]
        rows_ok = t.rank >= 2 and t.known(1)
        if rows_ok:
            kinds += [("mse", 3), ("huber", 1), ("ce", 2), ("swce", 2), ("log_loss", 1)]
            if not t.ties:
                kinds.append(("sce", 2))
        kind = r.weighted(kinds)
        rows = t.shape[0]
        if kind == "plain":
            how = r.choice(["mean", "square", "reduce_mean", "reduce_sum"])
            if t.flat:
                how = "square"  # the mean of a softmax or a normalization is constant
            if how == "mean":
                return "layers.mean(%s)" % t.name
            if how == "square":
                return "layers.mean(layers.square(%s))" % t.name
            if how == "reduce_mean":
                return "layers.mean(layers.reduce_mean(%s))" % t.name
            return "layers.mean(layers.scale(layers.reduce_sum(%s), scale=%s))" % (
                t.name, fmt(1.0 / prod(t.shape)))
        fc_args = ""
        attr = self.param_attr(allow_frozen=False)
        if attr:
            fc_args = ", param_attr=" + attr
        if kind in ("mse", "huber"):
            K = 1 if kind == "huber" else r.int(1, 3)
            self.emit("pred = layers.fc(input=%s, size=%d%s)" % (t.name, K, fc_args))
            self.label("y", rows, [K], "float32",
                       "rng.normal(0.0, 1.0, size=(%d, %d)).astype('float32')" % (rows, K))
            if kind == "mse":
                return "layers.mean(layers.square_error_cost(input=pred, label=y))"
            return "layers.mean(layers.huber_loss(input=pred, label=y, delta=%s))" % fmt(
                r.choice([0.5, 1.0, 2.0]))
        if kind in ("ce", "swce"):
            C = r.int(2, 5)
            soft = r.chance(0.25)
            if soft:
                self.label("label", rows, [C], "float32",
                           "(lambda a: (a / a.sum(axis=1, keepdims=True)).astype('float32'))"
                           "(rng.uniform(0.1, 1.0, size=(%d, %d)))" % (rows, C))
            else:
                self.label("label", rows, [1], "int64",
                           "rng.randint(0, %d, size=(%d, 1)).astype('int64')" % (C, rows))
            sl = ", soft_label=True" if soft else ""
            if kind == "ce":
                self.emit("prob = layers.fc(input=%s, size=%d, act='softmax'%s)" % (t.name, C, fc_args))
                return "layers.mean(layers.cross_entropy(input=prob, label=label%s))" % sl
            self.emit("logits = layers.fc(input=%s, size=%d%s)" % (t.name, C, fc_args))
            return "layers.mean(layers.softmax_with_cross_entropy(logits=logits, label=label%s))" % sl
        if kind == "sce":
            K = r.int(1, 3)
            self.emit("logits = layers.fc(input=%s, size=%d%s)" % (t.name, K, fc_args))
            self.label("label", rows, [K], "float32",
                       "rng.randint(0, 2, size=(%d, %d)).astype('float32')" % (rows, K))
            return "layers.mean(layers.sigmoid_cross_entropy_with_logits(x=logits, label=label))"
        # log_loss
        self.emit("prob = layers.fc(input=%s, size=1, act='sigmoid'%s)" % (t.name, fc_args))
        self.label("label", rows, [1], "float32",
                   "rng.randint(0, 2, size=(%d, 1)).astype('float32')" % rows)
        return "layers.mean(layers.log_loss(input=prob, label=label))"

    # ------------------------------------------------------------ optimizer
    def optimizer(self):
        r = self.r
        name = self.opt_name
        base = {"SGD": 0.05, "Momentum": 0.03, "Adam": 0.01, "Adagrad": 0.05, "RMSProp": 0.005,
                "Adamax": 0.01, "Adadelta": 0.5}[name]
        lr = fmt(round(base * r.choice([0.5, 1.0, 2.0]), 6))
        self.lr_var = None
        sched = r.weighted([(None, 5), ("exponential_decay", 1), ("piecewise_decay", 1),
                            ("natural_exp_decay", 0.5), ("inverse_time_decay", 0.5),
                            ("polynomial_decay", 0.5)])
        if sched == "exponential_decay":
            self.emit("lr = layers.exponential_decay(learning_rate=%s, decay_steps=%d, "
                      "decay_rate=%s, staircase=%s)" % (lr, r.int(1, 3), fmt(r.choice([0.5, 0.9])),
                                                         r.choice(["True", "False"])))
        elif sched == "piecewise_decay":
            b = r.int(1, 3)
            self.emit("lr = layers.piecewise_decay(boundaries=[%d, %d], values=[%s, %s, %s])" % (
                b, b + 2, lr, fmt(float(lr) * 0.5), fmt(float(lr) * 0.1)))
        elif sched in ("natural_exp_decay", "inverse_time_decay"):
            self.emit("lr = layers.%s(learning_rate=%s, decay_steps=%d, decay_rate=%s, "
                      "staircase=%s)" % (sched, lr, r.int(1, 3), fmt(r.choice([0.5, 0.9])),
                                         r.choice(["True", "False"])))
        elif sched == "polynomial_decay":
            self.emit("lr = layers.polynomial_decay(learning_rate=%s, decay_steps=%d, "
                      "end_learning_rate=%s, power=%s, cycle=%s)" % (
                          lr, r.int(2, 4), fmt(float(lr) * 0.1), fmt(r.choice([1.0, 2.0])),
                          r.choice(["True", "False"])))
        if sched:
            self.lr_var = "lr"
            lr = "lr"
        args = [("learning_rate", lr)]
        if name == "Momentum":
            args.append(("momentum", fmt(r.choice([0.5, 0.9]))))
            if r.chance(0.4):
                args.append(("use_nesterov", "True"))
        elif name in ("Adam", "Adamax"):
            if r.chance(0.3):
                args.append(("beta1", fmt(r.choice([0.8, 0.5]))))
            if r.chance(0.3):
                args.append(("beta2", fmt(r.choice([0.99, 0.9]))))
        elif name == "RMSProp":
            if r.chance(0.4):
                args.append(("momentum", fmt(r.choice([0.1, 0.5]))))
            if r.chance(0.4):
                args.append(("centered", "True"))
            if r.chance(0.3):
                args.append(("rho", fmt(0.9)))
        elif name == "Adadelta":
            if r.chance(0.3):
                args.append(("rho", fmt(0.9)))
        if self.adaptive and name != "Adadelta":
            # An epsilon well above rounding noise: these optimizers divide
            # each gradient by its own size, so a gradient that is 0 but
            # for rounding (a symmetry of the net, a class whose predicted
            # share equals its share of the labels) would otherwise take a
            # full step in whichever direction the rounding went, and
            # fluidc's rounding is not Paddle's. (Adadelta's step is not
            # normalized that way.)
            args.append(("epsilon", fmt(r.choice([1e-4, 1e-3]))))
        if r.chance(0.3):
            args.append(("regularization", self.regularizer()))
        clip = r.weighted([(None, 6), ("value", 1), ("norm", 1), ("global", 1)])
        if self.sparse:
            # 3.3.1 does not clip a sparse gradient by norm (1.x's
            # clip_by_norm merged its rows and did); by value or by global
            # norm it crashes (and fluidc refuses the global norm)
            clip = None
        if clip == "value":
            hi = r.choice([0.05, 0.1, 0.5])
            self.emit("fluid.clip.set_gradient_clip(fluid.clip.GradientClipByValue(max=%s%s))"
                      % (fmt(hi), r.choice(["", ", min=%s" % fmt(-hi / 2)])))
        elif clip == "norm":
            self.emit("fluid.clip.set_gradient_clip(fluid.clip.GradientClipByNorm(clip_norm=%s))"
                      % fmt(r.choice([0.1, 0.5, 1.0])))
        elif clip == "global":
            self.emit("fluid.clip.set_gradient_clip("
                      "fluid.clip.GradientClipByGlobalNorm(clip_norm=%s))"
                      % fmt(r.choice([0.1, 0.5, 1.0])))
        self.emit("opt = fluid.optimizer.%s(%s)" % (name, self.kw(args)))
        self.emit("opt.minimize(loss)")

    # ------------------------------------------------------------ program
    def build(self):
        r = self.r
        t = self.make_input()
        t = self.body(t)
        loss = self.head(t)
        self.emit("loss = %s" % loss)
        self.emit("test_program = main.clone(for_test=True)")
        self.optimizer()
        steps = r.int(3, 6)
        s = self.seed
        tag = "seed %d" % s
        out = []
        out.append("def program_%d():" % s)
        out.append("    main, startup = fluid.Program(), fluid.Program()")
        out.append("    startup.random_seed = %d" % (s % 1000 + 1))
        out.append("    with fluid.program_guard(main, startup), fluid.unique_name.guard():")
        out += ["        " + line for line in self.lines]
        out.append("    rng = np.random.RandomState(%d)" % (s % 100000))
        out.append("    feed = {}")
        out += ["    " + line for line in self.feed_lines]
        out.append("    scope = fluid.Scope()")
        out.append("    with fluid.scope_guard(scope):")
        out.append("        exe.run(startup)")
        fetch = "[loss, %s]" % self.lr_var if self.lr_var else "[loss]"
        out.append("        for step in range(%d):" % steps)
        out.append("            got = exe.run(main, feed=feed, fetch_list=%s)" % fetch)
        out.append("            print(%r, 'step', step, 'loss', show(got[0])%s)"
                   % (tag, ", 'lr', show(got[1])" if self.lr_var else ""))
        out.append("        got = exe.run(test_program, feed=feed, fetch_list=[loss])")
        out.append("        print(%r, 'test loss', show(got[0]))" % tag)
        out.append("        report(%r, main, scope)" % tag)
        return "\n".join(out) + "\n"


HEADER = '''\
# Generated by tests/interop/difftest/gen.py (seeds %s): random Paddle 1.x
# training programs for the differential tester. Do not edit; regenerate.
from __future__ import print_function
import sys
import traceback
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers

exe = fluid.Executor(fluid.CPUPlace())


def show(values):
    return ' '.join('%%.6g' %% v for v in np.array(values).reshape(-1))


def report(tag, main, scope):
    """Each parameter's first values and the sum of its magnitudes."""
    for p in sorted(main.global_block().all_parameters(), key=lambda p: p.name):
        v = np.array(scope.find_var(p.name).get_tensor()).reshape(-1)
        print(tag, 'param', p.name, show(v[:3]), 'abs-sum', show([np.abs(v).sum()]))


'''

FOOTER = '''
for seed, run in PROGRAMS:
    print('== begin seed %d' % seed)
    sys.stdout.flush()
    try:
        run()
    except Exception as e:
        print('== raised seed %d %s' % (seed, type(e).__name__))
        sys.stdout.flush()
        sys.stderr.write('== seed %d\\n' % seed)
        traceback.print_exc()
    print('== end seed %d' % seed)
    sys.stdout.flush()
'''


def program(seed):
    """The source of one program's function, `program_<seed>()`."""
    return Program(seed).build()


def script(seeds):
    parts = [HEADER % ", ".join(str(s) for s in seeds)]
    for s in seeds:
        parts.append(program(s))
        parts.append("\n")
    parts.append("PROGRAMS = [%s]\n" % ", ".join("(%d, program_%d)" % (s, s) for s in seeds))
    parts.append(FOOTER)
    return "".join(parts)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("seeds", nargs="+", type=int)
    parser.add_argument("-o", "--output", help="write the script here (default stdout)")
    args = parser.parse_args()
    text = script(args.seeds)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
