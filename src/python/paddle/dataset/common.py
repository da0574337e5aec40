"""paddle.dataset.common: where 1.x's datasets live.

Paddle 1.x's `download(url, module_name, md5sum)` fetched each file into
`~/.cache/paddle/dataset/<module_name>/` (named as the URL's last part)
and checked its md5. fluidc never downloads: it reads the file Paddle
left there. A missing file is an error naming it, the address Paddle got
it from and where to put it. A file whose md5 is not Paddle's (Paddle
would download it again) gets a warning, once, and is read all the same,
so that small test files work.
"""
import hashlib
import os
import sys
import warnings

from .. import _stack

__all__ = ["DATA_HOME", "download", "md5file", "convert"]

DATA_HOME = os.path.expanduser("~/.cache/paddle/dataset")

_warned = set()

# The cache directories not named as their module.
_MODULE_OF_DIR = {"conll05st": "conll05"}


def md5file(fname):
    """The md5 of a file, as hex."""
    h = hashlib.md5()
    with open(fname, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def download(url, module_name, md5sum, save_name=None):
    """The path of the file Paddle 1.x would have downloaded from `url`."""
    filename = os.path.join(DATA_HOME, module_name,
                            save_name if save_name is not None else url.split("/")[-1])
    if not os.path.exists(filename):
        raise RuntimeError(
            "paddle.dataset.%s needs the file `%s`, which is not there. fluidc never "
            "downloads: Paddle 1.x downloaded it from %s; put that file at %s "
            "(HOME decides where ~/.cache is)"
            % (_MODULE_OF_DIR.get(module_name, module_name), filename, url, filename))
    if filename not in _warned:
        _warned.add(filename)
        md5 = md5file(filename)
        if md5 != md5sum:
            warnings.warn(
                "`%s` is not the file Paddle 1.x downloaded (its md5 is %s, Paddle's is %s); "
                "fluidc reads it anyway (Paddle would download it again from %s)"
                % (filename, md5, md5sum, url), stacklevel=_stack.user_stacklevel())
    return filename


def convert(output_path, reader, line_count, name_prefix):
    """1.x wrote a reader's samples as pickles into RecordIO files
    (`output_path/name_prefix-00000`, ...) with the `recordio` package (the
    Go RecordIO's binding, not fluid's `recordio_writer`); fluidc has no
    writer nor reader of those files."""
    raise NotImplementedError(
        "paddle.dataset.common.convert writes RecordIO files (`%s/%s-*`), which fluidc "
        "does not support; read the dataset with its train()/test() readers instead"
        % (output_path, name_prefix))
