"""paddle.fluid: the 1.x static-graph API, as Python over fluidc's native
core (`_fluidc`), as Paddle 1.x was Python over its C++ core."""
from . import core
from . import framework
from . import unique_name
from . import initializer
from . import regularizer
from . import clip
from . import param_attr
from . import layers
from . import backward
from . import optimizer
from . import executor
from . import io
from . import compiler
from . import input
from . import nets
from . import metrics
from . import evaluator
from .framework import (Program, Variable, Parameter, Operator, Block, program_guard,
                        default_main_program, default_startup_program, name_scope,
                        in_dygraph_mode, cpu_places, cuda_places, cuda_pinned_places,
                        require_version)
from .core import CPUPlace, CUDAPlace, CUDAPinnedPlace, LoDTensor, LoDTensorArray, Scope, Tensor
from .executor import Executor, global_scope, scope_guard
from .io import save, load, load_program_state, set_program_state
from .compiler import CompiledProgram, BuildStrategy, ExecutionStrategy
from .param_attr import ParamAttr, WeightNormParamAttr
from .backward import append_backward, gradients
from .data import data
from .input import embedding, one_hot
from .layer_helper import LayerHelper
from . import data_feeder
from .data_feeder import DataFeeder
from . import lod_tensor
from .lod_tensor import create_lod_tensor, create_random_int_lodtensor
from . import layer_helper
from . import average
from . import transpiler
from .transpiler import (DistributeTranspiler, DistributeTranspilerConfig, memory_optimize,
                         release_memory)
from . import contrib
from . import trainer  # empty in 1.0-1.2: Trainer is in contrib.trainer
from . import inferencer  # likewise
from . import profiler
from . import parallel_executor
from .parallel_executor import ParallelExecutor

is_compiled_with_cuda = core.is_compiled_with_cuda
from . import concurrency
from .concurrency import Go, make_channel, channel_send, channel_recv, channel_close, Select
# 1.5-1.6: the dygraph names (fluidc refuses to run them: dygraph/base.py)
from . import dygraph
from .dygraph.nn import *
from .dygraph.layers import *
from .dygraph.checkpoint import save_dygraph, load_dygraph
from . import install_check
from . import dataset
from . import recordio_writer
from .dataset import DatasetFactory, InMemoryDataset, QueueDataset
from . import incubate
