"""1.x's RNN builders, `StaticRNN` and `DynamicRNN` (1.x kept them in
`layers/control_flow.py`, which re-exports them), both built on a `While`
loop.

StaticRNN: Paddle 1.x built it as one `recurrent` op, which Paddle 3.3.1 no
longer has, so fluidc lowers it onto ops both run (the shim in
`tests/interop/fluid2018` builds the same ops in the same order, so the two
are compared op for op and loss for loss):

- `step()` puts a counter `i` (int64, 0) and the loop's condition
  (`static_rnn_cond_N`) in the enclosing block and opens the loop's block;
- the first `step_input(x)` adds the step count `x.shape[0]` and the first
  `less_than` to the enclosing block; each `step_input` reads
  `reshape2(gather(x, i))` in the loop;
- `memory(...)` writes its boot value (`init`, or a
  `fill_constant_batch_size_like` of the batch of `batch_ref`, of the whole
  sequence when `batch_ref` is a step input, as in 1.x) at 0 of a tensor
  array in the enclosing block and reads element `i` in the loop;
- `step_output(o)` writes `o` at `i` of a tensor array made in the
  enclosing block;
- leaving the block increments `i`, writes each updated memory at the new
  `i`, updates the condition and appends the `while`; each output is then
  read back step by step, concatenated and reshaped to
  `[steps, ...o.shape]`, which `rnn()` returns.

DynamicRNN is built as 1.x built it: a `While` over the steps of LoD
sequences, with a `lod_rank_table` of the first step input (longest
sequence first), `lod_tensor_to_array` for each input, `shrink_rnn_memory`
for the memories and `array_to_lod_tensor` for the outputs. Paddle 3.3.1
dropped those LoD ops, so such a program runs in fluidc only.

Gradients of both go through `while_grad` like any loop's.
"""
import contextlib

from .. import core
from .. import framework
from .. import unique_name
from ..framework import Variable
from ..layer_helper import LayerHelper
from . import tensor as _tensor
from . import control_flow as _cf

VarType = core.VarDesc.VarType

__all__ = ["StaticRNN", "DynamicRNN"]


class _InBlock(object):
    """Makes block `idx` of `program` current for a while (a builder adds
    ops to the block around its loop from inside the loop)."""

    def __init__(self, program, idx):
        self.program = program
        self.idx = idx

    def __enter__(self):
        self.saved = self.program.current_block_idx
        self.program.current_block_idx = self.idx

    def __exit__(self, *exc):
        self.program.current_block_idx = self.saved
        return False


def _reshape2(x, shape):
    """`reshape2(x, shape)` as 1.x's `reshape` layer appends it."""
    helper = LayerHelper("reshape2")
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    x_shape = helper.create_variable_for_type_inference(dtype=x.dtype)
    helper.append_op(type="reshape2", inputs={"X": [x]},
                     outputs={"Out": [out], "XShape": [x_shape]},
                     attrs={"shape": [int(d) for d in shape]})
    return out


class StaticRNN(object):
    """A recurrence over the first (time) dimension of its step inputs, a
    fixed number of steps::

        rnn = layers.StaticRNN()
        with rnn.step():
            word = rnn.step_input(x_emb)          # x_emb: [steps, batch, ...]
            prev = rnn.memory(shape=[-1, hidden], batch_ref=word)
            hidden = layers.fc(input=[word, prev], size=hidden, act='relu')
            rnn.update_memory(prev, hidden)
            rnn.step_output(hidden)
        result = rnn()                            # [steps, batch, hidden]
    """

    BEFORE_RNN_BLOCK = 0
    IN_RNN_BLOCK = 1
    AFTER_RNN_BLOCK = 2

    def __init__(self, name=None, main_program=None):
        _cf._check_type(name, "name", (str, type(None)), "fluid.layers.StaticRNN")
        # 0.x's `main_program=`: the step block is built in that program,
        # with it the default main program inside `with rnn.step():`.
        if main_program is not None and not isinstance(main_program, framework.Program):
            raise TypeError("main_program must be a fluid.Program, not %s"
                            % type(main_program).__name__)
        self._main_program = main_program
        self.helper = LayerHelper("static_rnn", name=name)
        self.status = StaticRNN.BEFORE_RNN_BLOCK
        self.seq_len = None
        self._parent = None
        self._counter = None
        self._cond = None
        self._limit = None
        # Each step input's variable in the loop, to the sequence it reads.
        self._inputs = {}
        # [what the step reads, the array, the update] of each memory.
        self._memories = []
        # (array, variable written into it) of each output.
        self._outputs = []
        self._results = None
        # 1.6's `layers.rnn` steps over inputs whose length is known only
        # when the program runs (1.x's recurrent op took any): it sets
        # this, and the loop then runs `shape(x)[0]` steps of its first
        # step input and stacks the outputs with tensor_array_to_tensor.
        self._unknown_steps = False

    def step(self):
        """The `with` block of one step."""
        if self.status != StaticRNN.BEFORE_RNN_BLOCK:
            raise ValueError("this StaticRNN already has its step block; make a new "
                             "fluid.layers.StaticRNN() for another recurrence")
        if self._main_program is not None:
            return self._step_in(self._main_program)
        return self._step()

    @contextlib.contextmanager
    def _step_in(self, program):
        with framework.program_guard(program):
            with self._step():
                yield

    @contextlib.contextmanager
    def _step(self):
        program = self.helper.main_program
        self._parent = program.current_block()
        self._counter = _tensor.fill_constant(shape=[1], dtype="int64", value=0)
        self._cond = self._parent.create_var(name=unique_name.generate("static_rnn_cond"),
                                             dtype="bool", shape=[1])
        self._cond.stop_gradient = True
        loop = _cf.While(cond=self._cond)
        self.status = StaticRNN.IN_RNN_BLOCK
        try:
            with loop.block():
                yield
                self._finish_step()
        finally:
            self.status = StaticRNN.AFTER_RNN_BLOCK
        self._collect_outputs()

    def _in_parent(self):
        return _InBlock(self.helper.main_program, self._parent.idx)

    def _assert_in_rnn_block_(self, method):
        if self.status != StaticRNN.IN_RNN_BLOCK:
            raise ValueError("You must invoke {0} in rnn block".format(method))

    def step_input(self, x):
        """Step `i` of the sequence `x` (`[steps, ...]`)."""
        self._assert_in_rnn_block_("step_input")
        _cf._check_type(x, "x", Variable, "fluid.layers.StaticRNN.step_input")
        shape = list(x.shape)
        # As in 1.x, a later input may leave its steps unknown (-1) until
        # it runs (1.6's `rnn` steps over a sequence_mask so).
        if self.seq_len is not None and shape and shape[0] == -1:
            shape[0] = self.seq_len
        if not shape or (shape[0] <= 0 and not self._unknown_steps):
            raise ValueError(
                "a step input needs a known first (time) dimension; `%s` has dims %s: "
                "StaticRNN steps over dim 0, so give the sequence as [steps, batch, ...] "
                "with a fixed number of steps" % (x.name, shape))
        steps = shape[0]
        if self.seq_len is None:
            self.seq_len = steps
            with self._in_parent():
                if steps > 0:
                    self._limit = _tensor.fill_constant(shape=[1], dtype="int64", value=steps)
                else:
                    from .manipulation import shape as _shape
                    self._limit = _tensor.cast(_shape(x)[0], "int64")
                _cf.less_than(x=self._counter, y=self._limit, cond=self._cond)
        elif self.seq_len != steps and self.seq_len > 0:
            raise ValueError("Static RNN only take fix seq_len input")
        helper = LayerHelper("gather")
        row = helper.create_variable_for_type_inference(dtype=x.dtype)
        helper.append_op(type="gather", inputs={"X": [x], "Index": [self._counter]},
                         outputs={"Out": [row]}, attrs={"axis": 0})
        step = _reshape2(row, shape[1:])
        self._inputs[step.name] = x
        return step

    def memory(self, init=None, shape=None, batch_ref=None, init_value=0.0,
               init_batch_dim_idx=0, ref_batch_dim_idx=1):
        """The state carried from step to step: `init` at step 0, or
        `init_value` in `shape` with the batch size of `batch_ref`."""
        self._assert_in_rnn_block_("memory")
        _cf._check_type(init, "init", (Variable, type(None)), "fluid.layers.StaticRNN.memory")
        _cf._check_type(shape, "shape", (list, tuple, type(None)),
                        "fluid.layers.StaticRNN.memory")
        _cf._check_type(batch_ref, "batch_ref", (Variable, type(None)),
                        "fluid.layers.StaticRNN.memory")
        with self._in_parent():
            if init is None:
                if shape is None or batch_ref is None:
                    raise ValueError("if init is None, memory at least need shape and batch_ref")
                ref = self._inputs.get(batch_ref.name, batch_ref)
                boot = _tensor.fill_constant_batch_size_like(
                    input=ref, shape=shape, dtype=ref.dtype, value=init_value,
                    input_dim_idx=ref_batch_dim_idx, output_dim_idx=init_batch_dim_idx)
            else:
                boot = init
            array = _cf.array_write(boot, self._counter)
            # Gradients flow through the memory from step to step even when
            # the boot value stops them.
            array.stop_gradient = False
        mem = _cf.array_read(array, self._counter)
        self._memories.append([mem, array, None])
        return mem

    def update_memory(self, mem, var):
        """`var` is the memory `mem` at the next step."""
        self._assert_in_rnn_block_("update_memory")
        _cf._check_type(mem, "mem", Variable, "fluid.layers.StaticRNN.update_memory")
        _cf._check_type(var, "var", Variable, "fluid.layers.StaticRNN.update_memory")
        for entry in self._memories:
            if entry[0].name == mem.name:
                entry[2] = var
                return
        raise KeyError("`%s` is not a memory of this StaticRNN: pass what rnn.memory(...) "
                       "returned" % mem.name)

    def step_output(self, o):
        """Collect `o` of each step; `rnn()` returns them stacked."""
        self._assert_in_rnn_block_("step_output")
        _cf._check_type(o, "o", Variable, "fluid.layers.StaticRNN.step_output")
        with self._in_parent():
            array = _cf.create_array(o.dtype)
        _cf.array_write(o, self._counter, array=array)
        self._outputs.append((array, o))

    def output(self, *outputs):
        for each in outputs:
            self.step_output(each)

    def _finish_step(self):
        """The end of the step block, while it is still current: the
        counter moves on, each memory is written at the new step and the
        condition updated."""
        if self._limit is None:
            raise ValueError("a StaticRNN needs a step input: call rnn.step_input(x) inside "
                             "`with rnn.step():`")
        for mem, _, update in self._memories:
            assert update is not None, "%s should be updated in every step." % mem.name
        _cf.increment(x=self._counter, value=1.0, in_place=True)
        for _, array, update in self._memories:
            _cf.array_write(update, self._counter, array=array)
        _cf.less_than(x=self._counter, y=self._limit, cond=self._cond)

    def _collect_outputs(self):
        """After the `while`: each output read back step by step,
        concatenated and reshaped to `[steps, ...]`."""
        results = []
        for array, like in self._outputs:
            if self.seq_len <= 0:
                results.append(_tensor.tensor_array_to_tensor(array, axis=0,
                                                              use_stack=True)[0])
                continue
            reads = []
            for t in range(self.seq_len):
                k = _tensor.fill_constant(shape=[1], dtype="int64", value=t)
                reads.append(_cf.array_read(array, k))
            joined = _tensor.concat(reads, axis=0)
            results.append(_reshape2(joined, [self.seq_len] + list(like.shape)))
        self._results = results

    def __call__(self, *args, **kwargs):
        if self.status != StaticRNN.AFTER_RNN_BLOCK:
            raise ValueError("RNN output can only be retrieved after rnn block")
        if not self._results:
            raise ValueError("RNN has no output")
        if len(self._results) == 1:
            return self._results[0]
        return self._results


class DynamicRNN(object):
    """A recurrence over LoD sequences of different lengths: step `i`
    sees the sequences longer than `i`, longest first::

        drnn = layers.DynamicRNN()
        with drnn.block():
            word = drnn.step_input(sentence)
            prev = drnn.memory(shape=[200])
            hidden = layers.fc(input=[word, prev], size=200, act='relu')
            drnn.update_memory(prev, hidden)
            drnn.output(hidden)
        result = drnn()
    """

    BEFORE_RNN = 0
    IN_RNN = 1
    AFTER_RNN = 2

    def __init__(self, name=None):
        self.helper = LayerHelper("dynamic_rnn", name=name)
        self.status = DynamicRNN.BEFORE_RNN
        self.lod_rank_table = None
        self.max_seq_len = None
        self.step_idx = None
        self.zero_idx = None
        self.mem_dict = dict()
        self.output_array = []
        self.outputs = []
        self.cond = self.helper.create_variable_for_type_inference(dtype="bool")
        self.cond.stop_gradient = False
        self.while_op = _cf.While(self.cond)
        self.input_array = []
        self.mem_link = []

    def step_input(self, x, level=0):
        """Step `i` of the sequences of `x` (at LoD level `level`)."""
        self._assert_in_rnn_block_("step_input")
        if not isinstance(x, Variable):
            raise TypeError("step_input() can only take a Variable as its input.")
        parent_block = self._parent_block_()
        if self.lod_rank_table is None:
            self.lod_rank_table = parent_block.create_var(
                name=unique_name.generate("lod_rank_table"), type=VarType.LOD_RANK_TABLE)
            self.lod_rank_table.stop_gradient = True
            parent_block.append_op(type="lod_rank_table", inputs={"X": x},
                                   outputs={"Out": self.lod_rank_table},
                                   attrs={"level": level})
            self.max_seq_len = parent_block.create_var(
                name=unique_name.generate("dynamic_rnn_max_seq_len"), dtype="int64")
            self.max_seq_len.stop_gradient = False
            parent_block.append_op(type="max_sequence_len",
                                   inputs={"RankTable": self.lod_rank_table},
                                   outputs={"Out": self.max_seq_len})
            self.cond.stop_gradient = True
            parent_block.append_op(type="less_than",
                                   inputs={"X": self.step_idx, "Y": self.max_seq_len},
                                   outputs={"Out": self.cond},
                                   attrs={"axis": -1, "force_cpu": True})
        input_array = parent_block.create_var(
            name=unique_name.generate("dynamic_rnn_input_array"),
            type=VarType.LOD_TENSOR_ARRAY, dtype=x.dtype)
        self.input_array.append((input_array, x.dtype))
        parent_block.append_op(type="lod_tensor_to_array",
                               inputs={"X": x, "RankTable": self.lod_rank_table},
                               outputs={"Out": input_array})
        _cf._shaped_like(input_array, x)
        step = _cf.array_read(array=input_array, i=self.step_idx)
        # 1.x's lod_tensor_to_array declared its items one LoD level below
        # X's (a step of sentences of words holds words), and array_read
        # kept it: 1.x's test_dyn_rnn asserts it of a nested DynamicRNN.
        step.lod_level = max(x.lod_level - 1, 0)
        return step

    def static_input(self, x):
        """`x` whole at each step, its sequences in the order of the step
        inputs' and shrunk to those still running."""
        self._assert_in_rnn_block_("static_input")
        if not isinstance(x, Variable):
            raise TypeError("static_input() can only take a Variable as its input")
        if self.lod_rank_table is None:
            raise RuntimeError("static_input() must be called after step_input().")
        parent_block = self._parent_block_()
        x_reordered = parent_block.create_var(
            name=unique_name.generate("dynamic_rnn_static_input_reordered"),
            type=VarType.LOD_TENSOR, dtype=x.dtype)
        parent_block.append_op(type="reorder_lod_tensor_by_rank",
                               inputs={"X": [x], "RankTable": [self.lod_rank_table]},
                               outputs={"Out": [x_reordered]})
        _cf._shaped_like(x_reordered, x)
        return _cf.shrink_memory(x_reordered, self.step_idx, self.lod_rank_table)

    @contextlib.contextmanager
    def block(self):
        """The `with` block of one step."""
        if self.status != DynamicRNN.BEFORE_RNN:
            raise ValueError("rnn.block() can only be invoke once")
        self.step_idx = _tensor.fill_constant(shape=[1], dtype="int64", value=0, force_cpu=True)
        self.step_idx.stop_gradient = False
        self.status = DynamicRNN.IN_RNN
        try:
            with self.while_op.block():
                yield
                if self.max_seq_len is None:
                    raise ValueError("a DynamicRNN needs a step input: call "
                                     "rnn.step_input(x) inside `with rnn.block():`")
                _cf.increment(x=self.step_idx, value=1.0, in_place=True)
                for new_mem, mem_array in self.mem_link:
                    _cf.array_write(x=new_mem, i=self.step_idx, array=mem_array)
                _cf.less_than(x=self.step_idx, y=self.max_seq_len, force_cpu=True,
                              cond=self.cond)
        finally:
            self.status = DynamicRNN.AFTER_RNN
        for each_array in self.output_array:
            self.outputs.append(_cf.array_to_lod_tensor(x=each_array, table=self.lod_rank_table))

    def __call__(self, *args, **kwargs):
        if self.status != DynamicRNN.AFTER_RNN:
            raise ValueError("Output of the dynamic RNN can only be visited "
                             "outside the rnn block.")
        if len(self.outputs) == 1:
            return self.outputs[0]
        return self.outputs

    def memory(self, init=None, shape=None, value=0.0, need_reorder=False, dtype="float32"):
        """The state carried from step to step, shrunk with the sequences:
        `init` (put in the rank table's order when `need_reorder`), or
        `value` in `[batch] + shape`."""
        self._assert_in_rnn_block_("memory")
        _cf._check_type(init, "init", (Variable, type(None)), "fluid.layers.DynamicRNN.memory")
        _cf._check_type(shape, "shape", (list, tuple, type(None)),
                        "fluid.layers.DynamicRNN.memory")
        _cf._check_type(need_reorder, "need_reorder", bool, "fluid.layers.DynamicRNN.memory")
        self._init_zero_idx_()
        parent_block = self._parent_block_()
        if init is not None:
            if not isinstance(init, Variable):
                raise TypeError("The input arg `init` of memory() must be a Variable")
            init_tensor = init
            if need_reorder:
                if self.lod_rank_table is None:
                    raise ValueError(
                        "If set need_reorder to True, make sure step_input be invoked before "
                        "memory(init=init, need_reordered=True, ...).")
                init_reordered = parent_block.create_var(
                    name=unique_name.generate("dynamic_rnn_mem_init_reordered"),
                    type=VarType.LOD_TENSOR, dtype=init.dtype)
                parent_block.append_op(type="reorder_lod_tensor_by_rank",
                                       inputs={"X": [init_tensor],
                                               "RankTable": [self.lod_rank_table]},
                                       outputs={"Out": [init_reordered]})
                _cf._shaped_like(init_reordered, init)
                init_tensor = init_reordered
            if self.lod_rank_table is None:
                raise ValueError("step_input should be invoked before memory(): the memory "
                                 "shrinks with the sequences it steps through")
            mem_array = parent_block.create_var(
                name=unique_name.generate("dynamic_rnn_mem_array"),
                type=VarType.LOD_TENSOR_ARRAY, dtype=init.dtype)
            parent_block.append_op(type="write_to_array",
                                   inputs={"X": init_tensor, "I": self.zero_idx},
                                   outputs={"Out": mem_array})
            mem_array.shape = init_tensor.shape
            # Gradients reach the boot value through the array.
            mem_array.stop_gradient = False
            retv = _cf.array_read(array=mem_array, i=self.step_idx)
            retv = _cf.shrink_memory(x=retv, i=self.step_idx, table=self.lod_rank_table)
            self.mem_dict[retv.name] = mem_array
            return retv
        if len(self.input_array) == 0:
            raise ValueError("step_input should be invoked before memory(shape=..., value=...)")
        if shape is None:
            raise ValueError("memory() needs `init`, or `shape` (and `value`)")
        init = parent_block.create_var(name=unique_name.generate("mem_init"), dtype=dtype)
        arr, in_dtype = self.input_array[0]
        in0 = parent_block.create_var(name=unique_name.generate("in0"), dtype=in_dtype)
        parent_block.append_op(type="read_from_array", inputs={"X": [arr], "I": [self.zero_idx]},
                               outputs={"Out": [in0]})
        _cf._shaped_like(in0, arr)
        parent_block.append_op(type="fill_constant_batch_size_like", inputs={"Input": [in0]},
                               outputs={"Out": [init]},
                               attrs={"shape": [-1] + [int(d) for d in shape],
                                      "dtype": init.dtype, "value": float(value),
                                      "input_dim_idx": 0, "output_dim_idx": 0})
        init.stop_gradient = True
        return self.memory(init=init)

    def update_memory(self, ex_mem, new_mem):
        """`new_mem` is the memory `ex_mem` at the next step."""
        self._assert_in_rnn_block_("update_memory")
        if not isinstance(ex_mem, Variable):
            raise TypeError("The input arg `ex_mem` of update_memory() must be a Variable")
        if not isinstance(new_mem, Variable):
            raise TypeError("The input arg `new_mem` of update_memory() must be a Variable")
        mem_array = self.mem_dict.get(ex_mem.name, None)
        if mem_array is None:
            raise ValueError("Please invoke memory before update_memory")
        if self.lod_rank_table is None:
            raise ValueError("Please invoke step_input before update_memory")
        self.mem_link.append((new_mem, mem_array))

    def output(self, *outputs):
        """Collect each of `outputs` at each step; `rnn()` returns them as
        LoD tensors."""
        self._assert_in_rnn_block_("output")
        parent_block = self._parent_block_()
        for each in outputs:
            _cf._check_type(each, "outputs", Variable, "fluid.layers.DynamicRNN.output")
            outside_array = parent_block.create_var(
                name=unique_name.generate_with_ignorable_key(
                    "_".join([self.helper.name, "output_array", each.name])),
                type=VarType.LOD_TENSOR_ARRAY, dtype=each.dtype)
            outside_array.shape = each.shape
            _cf.array_write(x=each, i=self.step_idx, array=outside_array)
            self.output_array.append(outside_array)

    def _init_zero_idx_(self):
        if self.zero_idx is None:
            parent_block = self._parent_block_()
            self.zero_idx = parent_block.create_var(name=unique_name.generate("zero_idx"),
                                                    dtype="int64")
            parent_block.append_op(type="fill_constant", inputs={},
                                   outputs={"Out": [self.zero_idx]},
                                   attrs={"shape": [1], "dtype": self.zero_idx.dtype,
                                          "value": float(0), "str_value": "0",
                                          "force_cpu": True})

    def _parent_block_(self):
        prog = self.helper.main_program
        parent_idx = prog.current_block().parent_idx
        assert parent_idx >= 0
        return prog.block(parent_idx)

    def _assert_in_rnn_block_(self, method):
        if self.status != DynamicRNN.IN_RNN:
            raise ValueError("{0} can only be invoked inside rnn block.".format(method))
