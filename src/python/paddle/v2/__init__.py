"""paddle.v2: early 2018's spelling of the package (`import paddle.v2 as
paddle`, `import paddle.v2.fluid as fluid`). Everything under it is the
same module as under `paddle`: `paddle.v2.fluid.layers` *is*
`paddle.fluid.layers`, so programs and defaults are shared whichever
spelling a script imports."""
import importlib
import importlib.machinery
import sys

import paddle as _paddle

_PREFIX = __name__ + "."


class _Alias(object):
    """The import system's finder and loader for `paddle.v2.<path>`: the
    module `paddle.<path>` itself, not a copy."""

    def find_spec(self, fullname, path=None, target=None):
        if not fullname.startswith(_PREFIX):
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec):
        module = importlib.import_module("paddle." + spec.name[len(_PREFIX):])
        spec.loader_state = module.__spec__
        return module

    def exec_module(self, module):
        # The import system pointed the module's __spec__ at the alias; the
        # module is the one its own spec describes.
        module.__spec__ = module.__spec__.loader_state


sys.meta_path.insert(0, _Alias())


def __getattr__(name):
    # `paddle.v2.batch`, `paddle.v2.reader`, ...: `paddle`'s own.
    return getattr(_paddle, name)
