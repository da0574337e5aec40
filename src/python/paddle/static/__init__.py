"""paddle.static: the Paddle 2/3 spellings of fluid's saving and loading
that 1.x-era scripts meet (docs/models.md): `save_inference_model(path_prefix,
feed_vars, fetch_vars, executor)` writes `path_prefix.pdmodel` and
`path_prefix.pdiparams`, which `load_inference_model(path_prefix,
executor)` reads back; `save_vars`/`load_vars` are fluid.io's."""
import os

from paddle.fluid import io as _io
from paddle.fluid.framework import Variable
from paddle.fluid.io import load_vars, save_vars

__all__ = ["save_inference_model", "load_inference_model", "save_vars", "load_vars"]


def _path_prefix(path_prefix):
    if not isinstance(path_prefix, str):
        raise ValueError("'path_prefix' should be a string.")
    if path_prefix.endswith("/"):
        raise ValueError("'path_prefix' should not be a directory")
    return os.path.abspath(os.path.normpath(path_prefix))


def _check_vars(name, var_list):
    if not isinstance(var_list, list):
        var_list = [var_list]
    if not all(isinstance(v, Variable) for v in var_list):
        raise ValueError("'%s' should be a Variable or a list of Variable." % name)
    return var_list


def save_inference_model(path_prefix, feed_vars, fetch_vars, executor, **kwargs):
    """Writes the program (`program=`, the default main program otherwise)
    pruned for inference from `feed_vars` to `fetch_vars` as
    `path_prefix.pdmodel`, and its persistable variables, combined, as
    `path_prefix.pdiparams`."""
    path_prefix = _path_prefix(path_prefix)
    model_path = path_prefix + ".pdmodel"
    params_path = path_prefix + ".pdiparams"
    if os.path.isdir(model_path):
        raise ValueError("'%s' is an existing directory." % model_path)
    if os.path.isdir(params_path):
        raise ValueError("'%s' is an existing directory." % params_path)
    feed_vars = _check_vars("feed_vars", feed_vars)
    fetch_vars = _check_vars("fetch_vars", fetch_vars)
    for key, default in (("skip_prune_program", False), ("legacy_format", False)):
        if bool(kwargs.get(key, default)) != default:
            raise NotImplementedError(
                "fluidc does not support %s=%r of paddle.static.save_inference_model yet"
                % (key, kwargs[key]))
    # Paddle 3's separate_parameters: the program as `__model__` and one
    # file per variable, in path_prefix's directory.
    separate = bool(kwargs.get("separate_parameters", False))
    program = _io._program(kwargs.get("program"), "program")
    program = _io._inference_program(program, [v.name for v in feed_vars],
                                     [v.name for v in fetch_vars])
    if _io._HOST.build:
        return None
    if separate:
        model_path = os.path.join(os.path.dirname(model_path), "__model__")
    _io._write_program(model_path, program)
    _io.save_persistables(executor, os.path.dirname(path_prefix), program,
                          None if separate else os.path.basename(params_path))
    return None


_LOAD_ARGS = ("model_filename", "params_filename")


def _check_load_args(kwargs):
    """Paddle 3.3.1's check of load_inference_model's keywords."""
    for arg in kwargs:
        if arg == "pserver_endpoints":
            raise ValueError("argument '%s' in function 'load_inference_model' is deprecated, "
                             "only %s are supported." % (arg, _LOAD_ARGS))
        if arg not in _LOAD_ARGS:
            raise ValueError("function 'load_inference_model' doesn't support argument '%s',\n "
                             "only %s are supported." % (arg, _LOAD_ARGS))


def load_inference_model(path_prefix, executor, **kwargs):
    """Reads `path_prefix.pdmodel` and `path_prefix.pdiparams` (or, given
    `model_filename`/`params_filename`, 1.x's files in the directory
    `path_prefix`): `[program, feed_names, fetch_targets]`."""
    _check_load_args(kwargs)
    path_prefix = _path_prefix(path_prefix)
    dir_path = os.path.dirname(path_prefix)
    if not os.path.isdir(dir_path) and not _io._HOST.build:
        raise ValueError("There is no directory named %s" % dir_path)
    if not kwargs:
        return _io._load_model(path_prefix + ".pdmodel", dir_path,
                               os.path.basename(path_prefix) + ".pdiparams")
    model_filename = kwargs.get("model_filename")
    params_filename = kwargs.get("params_filename")
    model_path = _suffixed(path_prefix, model_filename, ".pdmodel", "__model__")
    params = None
    if params_filename is not None:
        params = os.path.basename(_suffixed(path_prefix, params_filename, ".pdiparams", None))
    return _io._load_model(model_path, path_prefix, params)


def _suffixed(folder, name, suffix, default):
    """Paddle 3's lookup of a 1.x file in `folder`: `name + suffix` if it
    exists, else `name` (`default` when no name is given)."""
    if name is None:
        return os.path.join(folder, default)
    path = os.path.join(folder, name + suffix)
    return path if os.path.exists(path) else os.path.join(folder, name)
