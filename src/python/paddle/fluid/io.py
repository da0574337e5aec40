"""paddle.fluid.io: parameters and inference models in Paddle's files
(docs/models.md).

- `save_vars`/`save_params`/`save_persistables` write each chosen
  variable's value in the executor's scope (the global scope, or the one
  `scope_guard` gives) to `dirname/NAME` (the `save` op's file), or all of
  them, sorted by name, to one `dirname/filename` (`save_combine`'s); the
  `load_*` twins read them back into the scope.
- `save_inference_model` writes what 1.4-1.6's wrote: it appends
  `scale(x, 1.0)` named `save_infer_model/scale_<i>` after each target to
  `main_program` (those are the saved fetch targets), then writes the
  program pruned to them with the fed variables as inputs, `is_test` set,
  feed and fetch ops added, as `__model__` (or `model_filename`), and its
  persistable variables as `save_persistables` saves them.
- `load_inference_model` reads such a model (or one Paddle wrote) and
  returns `[program, feed_names, fetch_targets]` for `exe.run`, the program
  with its feed and fetch ops, as 1.x's (the run leaves them out and adds
  its own).
- `save(program, model_path)` (1.6's `fluid.save`) pickles the parameters'
  values to `model_path.pdparams`, the optimizer's to `.pdopt`, and writes
  the program to `.pdmodel`; `load` reads them back (or, without
  `.pdparams`, what `save_vars` wrote).
- `batch` is `paddle.batch` (1.6 exposed it here).

A script being built (`fluidc compile`/`dump`) has not run, so these leave
the files alone, and a model the script would have saved itself is not
there to load: its build ends there.
"""
import os

import _fluidc
import numpy as np

from .. import _stack
from ..batch import batch  # noqa: F401  (1.6: fluid.io.batch is paddle.batch)
# 1.6: fluid.io also re-exported paddle.reader's decorators.
from ..reader import (cache, map_readers, buffered, compose, chain, shuffle,  # noqa: F401
                      ComposeNotAligned, firstn, xmap_readers, multiprocess_reader)
from . import core
from . import framework
from .compiler import CompiledProgram
from .executor import global_scope
from .framework import Parameter, Program, Variable
from . import reader
from .reader import PyReader, DataLoader  # noqa: F401  (1.5: fluid.io.PyReader; 1.6: DataLoader)

__all__ = [
    "save_vars", "save_params", "save_persistables", "load_vars", "load_params",
    "load_persistables", "save_inference_model", "load_inference_model",
    "is_parameter", "is_persistable", "save", "load", "PyReader", "DataLoader", "get_inference_program",
    "batch", "load_program_state", "set_program_state",
    "cache", "map_readers", "buffered", "compose", "chain", "shuffle", "ComposeNotAligned",
    "firstn", "xmap_readers", "multiprocess_reader",
]

_HOST = _fluidc.HOST
VarType = core.VarDesc.VarType
_NOT_SAVED = (int(VarType.FEED_MINIBATCH), int(VarType.FETCH_LIST), int(VarType.READER))


def is_parameter(var):
    """Whether `var` is a parameter (what `save_params` saves)."""
    return isinstance(var, Parameter)


def is_persistable(var):
    """Whether `var` keeps its value between runs (what
    `save_persistables` saves): feed and fetch holders and readers do not
    count."""
    if int(var.type) in _NOT_SAVED:
        return False
    return var.persistable


def is_belong_to_optimizer(var):
    """Whether `var` is optimizer state (persistable, neither a parameter
    nor fed data): what `save` puts in `.pdopt`."""
    if isinstance(var, Parameter) or var.block.program.desc.var_get(var.block.idx, var.name,
                                                              "need_check_feed"):
        return False
    return is_persistable(var)


def _program(program, what="main_program"):
    if program is None:
        return framework.default_main_program()
    if isinstance(program, CompiledProgram):
        import warnings  # on first use: importing it costs start-up
        warnings.warn("The input is a CompiledProgram, this is not recommended.",
                      stacklevel=_stack.user_stacklevel())
        program = program._program
    if not isinstance(program, Program):
        raise TypeError("%s should be as Program type or None, not %s"
                        % (what, type(program).__name__))
    return program


def _chosen(program, vars, predicate):
    """The names of `vars` (Variables or names), else of the program's
    variables `predicate` is true of (its persistables by default), each
    once, RAW variables left out as 1.x's save_vars leaves them."""
    if vars is None:
        if predicate is None:
            predicate = is_persistable
        vars = [v for v in program.list_vars() if predicate(v)]
    names, seen = [], set()
    for v in vars:
        if isinstance(v, Variable):
            if int(v.type) == int(VarType.RAW):
                continue
            name = v.name
        elif isinstance(v, str):
            name = v
        else:
            raise TypeError("vars should be a list of Variables, not one holding %s"
                            % type(v).__name__)
        if name not in seen:
            seen.add(name)
            names.append(name)
    return names


def save_vars(executor, dirname, main_program=None, vars=None, predicate=None, filename=None):
    """Saves `vars` (or the variables of `main_program` that `predicate`
    chooses) from the scope: one file each in `dirname`, or all in
    `dirname/filename`."""
    names = _chosen(_program(main_program), vars, predicate)
    if not names:
        import warnings  # on first use: importing it costs start-up
        warnings.warn("no variable in your model, please ensure there are any variables in "
                      "your model to save", stacklevel=_stack.user_stacklevel())
        return None
    if _HOST.build:
        return None
    _fluidc.save_tensors(global_scope()._session, names, os.path.normpath(dirname), filename)
    return None


def save_params(executor, dirname, main_program=None, filename=None):
    """Saves the program's parameters."""
    return save_vars(executor, dirname, main_program=main_program, predicate=is_parameter,
                     filename=filename)


def save_persistables(executor, dirname, main_program=None, filename=None):
    """Saves the program's persistable variables (parameters, optimizer
    state, global variables)."""
    return save_vars(executor, dirname, main_program=main_program, predicate=is_persistable,
                     filename=filename)


def load_vars(executor, dirname, main_program=None, vars=None, predicate=None, filename=None):
    """Loads what `save_vars` saved with the same arguments into the scope;
    a parameter must come back with its declared shape."""
    program = _program(main_program)
    names = _chosen(program, vars, predicate)
    if _HOST.build or not names:
        return None
    session = global_scope()._session
    _fluidc.load_tensors(session, names, os.path.normpath(dirname), filename)
    _check_shapes(program, session, names)
    return None


def _check_shapes(program, session, names):
    block = program.global_block()
    for name in names:
        var = block.vars.get(name)
        if not isinstance(var, Parameter):
            continue
        got = tuple(session.tensor(name)[0].shape)
        if got != tuple(var.shape):
            raise RuntimeError(
                "Shape not matching: the Program requires a parameter with a shape of (%s), "
                "while the loaded parameter (namely [ %s ]) has a shape of (%s)."
                % (", ".join(str(d) for d in var.shape), name, ", ".join(str(d) for d in got)))


def load_params(executor, dirname, main_program=None, filename=None):
    """Loads the program's parameters."""
    return load_vars(executor, dirname, main_program=main_program, predicate=is_parameter,
                     filename=filename)


def load_persistables(executor, dirname, main_program=None, filename=None):
    """Loads the program's persistable variables."""
    return load_vars(executor, dirname, main_program=main_program, predicate=is_persistable,
                     filename=filename)


def _write_program(path, program):
    folder = os.path.dirname(path)
    if folder:
        os.makedirs(folder, exist_ok=True)
    with open(path, "wb") as f:
        f.write(program.serialize_to_string())


def _inference_program(program, feed_names, targets):
    """The program `save_inference_model` writes (see the module docs)."""
    block = program.global_block()
    for name in feed_names:
        if not block.has_var(name):
            raise ValueError(
                "cannot feed '%s': it is not a variable of the program's global block; give the "
                "names of its data layers" % name)
    return Program(_fluidc.inference_program(program.desc, feed_names, targets))


def _scaled_targets(program, target_vars):
    """1.4-1.6's targets: each Variable through `scale(var, 1.)` appended
    to `program` (1.x's remedy for a target an inference pass would fuse
    away), its output named `save_infer_model/scale_<i>`, as 1.x's
    `layers.scale(name=)` named it; the saved model fetches those."""
    block = program.global_block()
    out = []
    for i, var in enumerate(target_vars):
        if isinstance(var, Variable):
            name = "save_infer_model/scale_%d" % i
            scaled = block.var(name) if block.has_var(name) else block.create_var(
                name=name, dtype=var.dtype, persistable=False)
            block.append_op(type="scale", inputs={"X": [var]}, outputs={"Out": [scaled]},
                            attrs={"scale": 1.0, "bias": 0.0, "bias_after_scale": True})
            var = scaled
        out.append(var)
    return out


def save_inference_model(dirname, feeded_var_names, target_vars, executor, main_program=None,
                         model_filename=None, params_filename=None, export_for_deployment=True,
                         program_only=False):
    """Writes `main_program` pruned for inference from `feeded_var_names`
    to `target_vars` as `dirname/__model__` (or `model_filename`), and,
    unless `program_only`, its persistable variables (in
    `params_filename`, or one file each). Returns the targets' names."""
    if isinstance(feeded_var_names, str):
        feeded_var_names = [feeded_var_names]
    elif export_for_deployment and feeded_var_names:
        if not all(isinstance(n, str) for n in feeded_var_names):
            raise ValueError("'feed_var_names' should be a list of str.")
    if isinstance(target_vars, Variable):
        target_vars = [target_vars]
    elif export_for_deployment:
        if not (target_vars and all(isinstance(v, Variable) for v in target_vars)):
            raise ValueError("'target_vars' should be a list of Variable.")
    main_program = _program(main_program)
    # 1.4-1.6 warned that an auc op's states are saved as they stand.
    if any(op.type == "auc" for op in main_program.global_block().ops):
        import warnings  # on first use: importing it costs start-up
        warnings.warn("please ensure that you have set the auc states to zeros before saving "
                      "inference model")
    target_vars = _scaled_targets(main_program, target_vars)
    target_names = [v.name for v in target_vars]
    dirname = os.path.normpath(dirname)
    model = os.path.join(dirname, os.path.basename(model_filename or "__model__"))
    if export_for_deployment:
        program = _inference_program(main_program, list(feeded_var_names), target_names)
    else:
        program, model = main_program, model + ".main_program"
    if _HOST.build:
        return target_names
    os.makedirs(dirname, exist_ok=True)
    _write_program(model, program)
    if not program_only:
        if params_filename is not None:
            params_filename = os.path.basename(params_filename)
        save_persistables(executor, dirname, program, params_filename)
    return target_names


def _load_model(model, params_dir, params_filename):
    """`[program, feed_names, fetch_targets]` of the model file `model`,
    with its persistable variables loaded into the scope from
    `params_dir` (one file each, or `params_filename`)."""
    if _HOST.build and not os.path.exists(model):
        # The model is the one this script's run would have saved.
        raise _fluidc.BuildStop()
    with open(model, "rb") as f:
        program = Program.parse_from_string(f.read())
    # The program keeps its feed and fetch ops, as 1.x's did (the executor
    # runs it without them); they give the feed and fetch targets.
    _, feed_names, fetch_names = _fluidc.split_feed_fetch(program.desc)
    load_persistables(None, params_dir, program, params_filename)
    block = program.global_block()
    return [program, feed_names, [block.var(n) for n in fetch_names]]


def load_inference_model(dirname, executor, model_filename=None, params_filename=None,
                         pserver_endpoints=None):
    """Reads a model `save_inference_model` wrote (`dirname/__model__` or
    `model_filename`, the parameters in `params_filename` or one file
    each): `[program, feed_names, fetch_targets]`."""
    if pserver_endpoints is not None:
        raise NotImplementedError(
            "load_inference_model's pserver_endpoints (distributed lookup tables) are not "
            "supported by fluidc; leave it out")
    dirname = os.path.normpath(dirname)
    if not os.path.isdir(dirname) and not _HOST.build:
        raise ValueError("There is no directory named '%s'" % dirname)
    model = os.path.join(dirname, os.path.basename(model_filename or "__model__"))
    if params_filename is not None:
        params_filename = os.path.basename(params_filename)
    return _load_model(model, dirname, params_filename)


def save(program, model_path):
    """Saves the values of `program`'s parameters (pickled, name to array)
    to `model_path.pdparams`, of its optimizer state to `.pdopt`, and the
    program to `.pdmodel`."""
    base_name = os.path.basename(model_path)
    if base_name == "":
        raise AssertionError(
            "The input model_path MUST be format of dirname/filename [dirname\\filename in "
            "Windows system], but received model_path is empty string.")
    if not isinstance(program, Program):
        raise TypeError("program should be a fluid.Program, not %s" % type(program).__name__)
    if _HOST.build:
        return None
    dir_name = os.path.dirname(model_path)
    if dir_name:
        os.makedirs(dir_name, exist_ok=True)
    scope = global_scope()

    def values(predicate):
        out = {}
        for v in program.list_vars():
            if predicate(v):
                got = scope._session.tensor(v.name)
                if got is None:
                    raise RuntimeError(
                        "cannot save '%s': the scope holds no value for it; run the startup "
                        "program first" % v.name)
                out[v.name] = np.ndarray._wrap(got[0])
        return out

    for suffix, predicate in ((".pdparams", is_parameter), (".pdopt", is_belong_to_optimizer)):
        with open(model_path + suffix, "wb") as f:
            import pickle  # on first use: importing it costs start-up
            pickle.dump(values(predicate), f, protocol=2)
    with open(model_path + ".pdmodel", "wb") as f:
        f.write(program.serialize_to_string())
    return None


def load(program, model_path, executor=None, var_list=None):
    """Sets `program`'s parameters and optimizer state in the scope from
    what `save` wrote at `model_path` (with or without its suffix); without
    a `.pdparams` file, from what `save_vars` wrote: a directory (one file
    per variable), or a combined file holding `var_list`."""
    prefix = model_path
    for suffix in (".pdparams", ".pdopt", ".pdmodel"):
        if prefix.endswith(suffix):
            prefix = prefix[:-len(suffix)]
            break
    params_file = prefix + ".pdparams"
    if _HOST.build:
        return None
    if not os.path.exists(params_file):
        _load_saved_vars(program, model_path, executor, var_list)
        return None
    scope = global_scope()
    for file_name, predicate in ((params_file, is_parameter),
                                 (prefix + ".pdopt", is_belong_to_optimizer)):
        chosen = [v for v in program.list_vars() if predicate(v)]
        if not chosen:
            continue
        if not os.path.exists(file_name):
            raise AssertionError("Optimizer file [%s] not exits" % file_name)
        with open(file_name, "rb") as f:
            import pickle  # on first use: importing it costs start-up
            loaded = pickle.load(f, encoding="latin1")
        for v in chosen:
            if v.name not in loaded:
                raise AssertionError("Can not find [%s] in model file [%s]" % (v.name, file_name))
            scope.var(v.name).get_tensor().set(loaded[v.name])
    return None


def _load_saved_vars(program, model_path, executor, var_list):
    if executor is None:
        raise ValueError("executor is required when loading model file saved with "
                         "[ save_params, save_persistables, save_vars ]")
    if os.path.isdir(model_path):
        files = set(os.listdir(model_path))
        chosen = [v for v in program.list_vars() if v.name in files]
        load_vars(executor, model_path, program, vars=chosen)
    elif os.path.isfile(model_path):
        if var_list is None:
            raise ValueError("var_list is required when loading model file saved with "
                             "[ save_params, save_persistables, save_vars ]")
        names = set(v.name for v in program.list_vars())
        for var in var_list:
            if var.name not in names:
                raise LookupError("loaded var [%s] is not in program variable list" % var.name)
        dir_name, file_name = os.path.split(model_path)
        load_vars(executor, dir_name, program, vars=var_list, filename=file_name)
    else:
        raise ValueError("There is no file or directory named '%s' (nor %s.pdparams)"
                         % (model_path, model_path))


def _strip_model_suffix(model_path):
    for suffix in (".pdparams", ".pdopt", ".pdmodel"):
        if model_path.endswith(suffix):
            return model_path[:-len(suffix)]
    return model_path


def load_program_state(model_path, var_list=None):
    """1.6's: what `save` wrote at `model_path` (`.pdparams`, with `.pdopt`
    if there) as a dict from names to numpy arrays. Without a `.pdparams`
    (1.7's, kept by 3.3.1), what `save_vars` wrote: a directory (every file
    in it, or the variables of `var_list`), or a combined file holding
    `var_list`. The scope is left as it was."""
    prefix = _strip_model_suffix(model_path)
    params_file = prefix + ".pdparams"
    if _HOST.build and not os.path.exists(params_file) and not os.path.exists(model_path):
        # The files are the ones this script's run would have saved.
        raise _fluidc.BuildStop()
    if os.path.exists(params_file):
        import pickle  # on first use: importing it costs start-up
        with open(params_file, "rb") as f:
            state = pickle.load(f, encoding="latin1")
        if os.path.exists(prefix + ".pdopt"):
            with open(prefix + ".pdopt", "rb") as f:
                state.update(pickle.load(f, encoding="latin1"))
        return state
    if var_list is None and os.path.isfile(model_path):
        raise ValueError("var_list can not be None when model_path is a file type")
    if var_list is not None:
        for var in var_list:
            if not isinstance(var, Variable):
                raise TypeError("value in var_list must be variable")
        names = [var.name for var in var_list]
    else:
        names = []
        for root, _dirs, files in os.walk(model_path, topdown=False):
            for f in files:
                names.append(os.path.relpath(os.path.join(root, f), model_path))
    if os.path.isfile(model_path):
        dirname, filename = os.path.split(model_path)
    else:
        dirname, filename = model_path, None
    session = core.Scope()._session
    _fluidc.load_tensors(session, names, os.path.normpath(dirname or "."), filename)
    return {name: np.ndarray._wrap(session.tensor(name)[0]) for name in names}


def set_program_state(program, state_dict):
    """1.6's: sets each persistable variable of `program` that
    `state_dict` names (name to numpy array) in the global scope, whose
    value (the startup program's) must have the same shape and dtype; the
    names it holds that `program` has not are warned of."""
    used = set()
    scope = global_scope()
    for para in program.list_vars():
        if not is_persistable(para):
            continue
        var_temp = scope.find_var(para.name)
        assert var_temp is not None, \
            "Variable [ {} ] Not found, Please make sure run startup program".format(para.name)
        if para.name not in state_dict:
            continue
        orig_para_np = np.array(var_temp.get_tensor())
        new_para_np = state_dict[para.name]
        assert orig_para_np.shape == new_para_np.shape, \
            "Shape not matching: the Program requires a parameter with a shape of ({}), " \
            "while the loaded parameter (namely [ {} ]) has a shape of  ({})." \
            .format(orig_para_np.shape, para.name, new_para_np.shape)
        assert orig_para_np.dtype == new_para_np.dtype, \
            "Dtype not matching: the Program requires a parameter with a dtype of ({}), " \
            "while the loaded parameter (namely [ {} ]) has a dtype of  ({})." \
            .format(orig_para_np.dtype, para.name, new_para_np.dtype)
        var_temp.get_tensor().set(new_para_np, core.CPUPlace())
        used.add(para.name)
    unused = [k for k in state_dict if k not in used]
    if unused:
        import warnings  # on first use: importing it costs start-up
        warnings.warn("This list is not set, Because of Paramerter not found in program. "
                      "There are: {}".format(" ".join(unused)),
                      stacklevel=_stack.user_stacklevel())


def get_inference_program(target_vars, main_program=None):
    """2018's (0.11-0.15) way to a test program: `main_program` (the
    default main program by default) pruned to the ops `target_vars` need
    (Variables; an Evaluator stands for its states and metrics), with
    `is_test` set. Paddle 1.0 replaced it by `clone(for_test=True)`."""
    if main_program is None:
        main_program = framework.default_main_program()
    if not isinstance(target_vars, list):
        target_vars = [target_vars]
    from .evaluator import Evaluator
    targets = []
    for var in target_vars:
        if isinstance(var, Evaluator):
            targets.extend(var.states)
            targets.extend(var.metrics)
        else:
            targets.append(var)
    pruned_program = main_program._prune(targets=targets)
    return pruned_program._inference_optimize()


def _clone_var_in_block_(block, var):
    """A persistable variable of `block` named, shaped and typed as `var`
    (1.x's helper: what a one-variable program fetches from the scope)."""
    assert isinstance(var, Variable)
    if int(var.type) == int(VarType.LOD_TENSOR):
        return block.create_var(name=var.name, shape=var.shape, dtype=var.dtype,
                                type=var.type, lod_level=var.lod_level, persistable=True)
    return block.create_var(name=var.name, shape=var.shape, dtype=var.dtype,
                            type=var.type, persistable=True)


def get_parameter_value(para, executor):
    """1.0-1.5's: the value (a numpy array) the executor's scope holds for
    the parameter `para`, fetched by running a program that only names it."""
    assert is_parameter(para)
    get_program = Program()
    block = get_program.global_block()
    new_var = _clone_var_in_block_(block, para)
    return executor.run(get_program, feed={}, fetch_list=[new_var])[0]


def get_parameter_value_by_name(name, executor, program=None):
    """1.0-1.5's: `get_parameter_value` of the parameter `name` of
    `program`'s global block (the default main program by default)."""
    if program is None:
        program = framework.default_main_program()
    var = program.global_block().var(name)
    return get_parameter_value(var, executor)
