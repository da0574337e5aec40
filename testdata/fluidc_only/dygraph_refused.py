# Paddle 1.5-1.6's dygraph (imperative) scripts import fluid.dygraph and
# define their models at import time; fluidc runs static programs only, so
# those imports and class definitions work, and every use of dygraph raises
# NotImplementedError saying so. The names are 1.6's fluid.dygraph (with
# 1.5's enabled, save/load_persistables and gperf profiler).
import paddle.fluid as fluid
import paddle.fluid.dygraph as dygraph
from paddle.fluid.dygraph.base import to_variable
from paddle.fluid.dygraph.nn import Conv2D, Pool2D, FC, BatchNorm, Embedding
from paddle.fluid.dygraph import Layer
from paddle.fluid.dygraph.learning_rate_scheduler import LearningRateDecay

assert dygraph is fluid.dygraph
assert fluid.in_dygraph_mode() is False and dygraph.enabled() is False
assert dygraph.base.enabled is dygraph.enabled
# 1.6's fluid also exported the dygraph layers and checkpoint functions.
assert fluid.Layer is Layer and fluid.FC is FC and fluid.Conv2D is Conv2D
assert fluid.save_dygraph is dygraph.save_dygraph and fluid.load_dygraph is dygraph.load_dygraph

names_1_6 = ['no_grad', 'guard', 'to_variable', 'Layer', 'Conv2D', 'Conv3D', 'Pool2D', 'FC',
             'BatchNorm', 'Embedding', 'GRUUnit', 'LayerNorm', 'NCE', 'PRelu',
             'BilinearTensorProduct', 'Conv2DTranspose', 'Conv3DTranspose', 'GroupNorm',
             'SpectralNorm', 'TreeConv', 'Tracer', 'prepare_context', 'save_dygraph',
             'load_dygraph', 'NoamDecay', 'PiecewiseDecay', 'NaturalExpDecay',
             'ExponentialDecay', 'InverseTimeDecay', 'PolynomialDecay', 'CosineDecay',
             'BackwardStrategy']
names_1_5 = ['enabled', 'save_persistables', 'load_persistables', 'start_gperf_profiler',
             'stop_gperf_profiler']
assert sorted(dygraph.__all__) == sorted(names_1_6 + names_1_5), sorted(dygraph.__all__)
# Names later versions added are not there.
for later in ('Linear', 'Sequential', 'LayerList', 'ParameterList', 'TracedLayer'):
    assert not hasattr(dygraph, later), later


class MNIST(fluid.dygraph.Layer):
    def __init__(self, name_scope):
        super(MNIST, self).__init__(name_scope)
        self._conv = Conv2D(self.full_name(), num_filters=20, filter_size=5, act='relu')
        self._fc = FC(self.full_name(), 10, act='softmax')

    def forward(self, inputs):
        return self._fc(self._conv(inputs))


class MyConv(Conv2D):
    pass


class Schedule(LearningRateDecay):
    def step(self):
        return 0.1


@dygraph.no_grad
def static_helper(x):
    """1.x ran a no_grad function as it is outside dygraph mode."""
    return x * 2


assert static_helper(21) == 42 and static_helper.__name__ == 'static_helper'
assert issubclass(MNIST, Layer) and issubclass(dygraph.nn.FC, Layer)
assert issubclass(dygraph.parallel.DataParallel, Layer)

uses = [
    ("guard", lambda: dygraph.guard()),
    ("guard", lambda: fluid.dygraph.guard(fluid.CPUPlace())),
    ("to_variable", lambda: to_variable([1.0])),
    ("Layer", lambda: MNIST("mnist")),
    ("Layer", lambda: Layer("layer")),
    ("Conv2D", lambda: MyConv("conv", 2, 3)),
    ("Pool2D", lambda: Pool2D("pool", pool_size=2)),
    ("BatchNorm", lambda: BatchNorm("bn", 3)),
    ("Embedding", lambda: Embedding("emb", size=[10, 4])),
    ("LearningRateDecay", lambda: Schedule()),
    ("PiecewiseDecay", lambda: dygraph.PiecewiseDecay([10], [0.1, 0.01], 0)),
    ("NoamDecay", lambda: dygraph.NoamDecay(512, 4000)),
    ("BackwardStrategy", lambda: dygraph.BackwardStrategy()),
    ("Tracer", lambda: dygraph.Tracer()),
    ("prepare_context", lambda: dygraph.prepare_context()),
    ("DataParallel", lambda: dygraph.parallel.DataParallel(None, None)),
    ("save_dygraph", lambda: fluid.save_dygraph({}, "model")),
    ("load_dygraph", lambda: fluid.dygraph.load_dygraph("model")),
    ("save_persistables", lambda: dygraph.save_persistables({}, "model")),
    ("load_persistables", lambda: dygraph.load_persistables("model")),
    ("start_gperf_profiler", lambda: dygraph.start_gperf_profiler()),
]
for name, use in uses:
    try:
        use()
    except NotImplementedError as e:
        assert str(e) == ("fluid.dygraph.%s: fluidc runs static Fluid programs (fluid.Program "
                          "and fluid.Executor) only, not dygraph (imperative) programs" % name), str(e)
    else:
        raise AssertionError("fluid.dygraph.%s was accepted" % name)

# A static program still builds and runs after all this.
import numpy as np
x = fluid.layers.data(name='x', shape=[2])
y = fluid.layers.reduce_sum(x)
exe = fluid.Executor(fluid.CPUPlace())
out, = exe.run(feed={'x': np.ones((3, 2), 'float32')}, fetch_list=[y])
assert float(np.array(out).reshape(-1)[0]) == 6.0, out
print("refused")
