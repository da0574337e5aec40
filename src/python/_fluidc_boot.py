"""What the host sets up before a script runs: the stdout tap."""
import io
import sys

# CPython's default; RustPython's debug builds start at 256, which stops
# recursive scripts (and deep pickles, json, deepcopy) that CPython runs.
# The VM's thread has a stack big enough for it.
sys.setrecursionlimit(1000)


def _site_builtins():
    """The builtins CPython's `site` module adds: `quit` and `exit` (which
    scripts call to stop), `help`, `copyright`, `credits` and `license`.
    fluidc starts without `site`, which would also put site-packages on
    sys.path."""
    import builtins
    import _sitebuiltins
    eof = "Ctrl-D (i.e. EOF)"
    builtins.quit = _sitebuiltins.Quitter("quit", eof)
    builtins.exit = _sitebuiltins.Quitter("exit", eof)
    builtins.help = _sitebuiltins._Helper()
    builtins.copyright = _sitebuiltins._Printer("copyright", sys.copyright)
    builtins.credits = _sitebuiltins._Printer("credits", """\
    Thanks to CWI, CNRI, BeOpen.com, Zope Corporation and a cast of thousands
    for supporting Python development.  See www.python.org for more information.""")
    builtins.license = _sitebuiltins._Printer("license", "See https://www.python.org/psf/license/")


_site_builtins()
import _fluidc_codecs  # noqa: E402,F401  (registers gbk, big5, shift_jis, ...)


class _Tap(io.TextIOBase):
    """sys.stdout: writes through (or, for --format json, keeps them) and
    remembers whether the script printed anything, here or on stderr
    (`printed`: a script that logs its losses shows no fetches)."""

    def __init__(self, inner, capture):
        self._inner = inner
        self._capture = capture
        self._kept = []
        self.printed = False

    def write(self, s):
        if not isinstance(s, str):
            raise TypeError("write() argument must be str, not %s" % type(s).__name__)
        if s:
            self.printed = True
        if self._capture:
            self._kept.append(s)
            return len(s)
        return self._inner.write(s)

    def flush(self):
        if not self._capture:
            self._inner.flush()

    def getvalue(self):
        return "".join(self._kept)

    def isatty(self):
        return False if self._capture else self._inner.isatty()

    def fileno(self):
        return self._inner.fileno()

    @property
    def encoding(self):
        return self._inner.encoding

    @property
    def buffer(self):
        return self._inner.buffer


class _LineBuffered(io.TextIOBase):
    """sys.stderr, line-buffered as CPython's is (so a warning shows
    before a script that then hangs or is killed); what it writes counts
    as printed for `tap`."""

    def __init__(self, inner):
        self._inner = inner
        self.tap = None

    def write(self, s):
        if s and self.tap is not None:
            self.tap.printed = True
        n = self._inner.write(s)
        if "\n" in s:
            self._inner.flush()
        return n

    def flush(self):
        self._inner.flush()

    def isatty(self):
        return self._inner.isatty()

    def fileno(self):
        return self._inner.fileno()

    @property
    def encoding(self):
        return self._inner.encoding

    @property
    def buffer(self):
        return self._inner.buffer


def install_stdout(capture, build=False):
    """Installs the stdout tap (returned) and line-buffered stderr. In
    build mode what the script prints goes to stderr: stdout is the
    command's (a dump, or the program's bytes)."""
    sys.stderr = _LineBuffered(sys.stderr)
    tap = _Tap(sys.stderr if build else sys.stdout, capture)
    sys.stderr.tap = tap
    sys.stdout = tap
    return tap


def _test_cases(module):
    """`Class.method` of each test of a module, in the order
    `unittest.main()` runs them, with the TestCase to run it."""
    import unittest
    found = []

    def walk(suite):
        for t in suite:
            if isinstance(t, unittest.TestSuite):
                walk(t)
            else:
                found.append(("%s.%s" % (type(t).__name__, t._testMethodName), t))

    walk(unittest.TestLoader().loadTestsFromModule(module))
    return found


def _build_main(module="__main__", **kwargs):
    """`unittest.main()` in build mode: without `--test`, the host learns
    the file's tests; with it, the chosen test runs alone (setUp, the test,
    tearDown) until its first run, which build mode records."""
    import _fluidc
    host = _fluidc.HOST
    if isinstance(module, str):
        module = sys.modules[module]
    cases = _test_cases(module)
    names = [n for n, _ in cases]
    chosen = host.test
    if chosen is None:
        host.set_tests(names)
        raise _fluidc.BuildStop()
    match = [(n, t) for n, t in cases if n == chosen or n.split(".")[1] == chosen]
    if not match:
        raise SystemExit("--test %s: the file has no such test; its tests are %s"
                         % (chosen, ", ".join(names)))
    if len(match) > 1:
        raise SystemExit("--test %s names %d tests (%s); write Class.method"
                         % (chosen, len(match), ", ".join(n for n, _ in match)))
    test = match[0][1]
    type(test).setUpClass()
    test.setUp()
    getattr(test, test._testMethodName)()
    raise _fluidc.BuildStop()


class _OnImport(object):
    """A meta-path finder that, the first time a script imports `name`,
    calls `patch(module)` after the module has run. Most scripts never
    import these modules, so they are not imported at start-up."""

    def __init__(self, name, patch):
        self._name = name
        self._patch = patch

    def find_spec(self, name, path=None, target=None):
        if name != self._name:
            return None
        sys.meta_path.remove(self)
        for finder in sys.meta_path:
            spec = finder.find_spec(name, path, target)
            if spec is not None:
                spec.loader = _PatchingLoader(spec.loader, self._patch)
                return spec
        return None


class _PatchingLoader(object):
    def __init__(self, inner, patch):
        self._inner = inner
        self._patch = patch

    def create_module(self, spec):
        return self._inner.create_module(spec)

    def exec_module(self, module):
        self._inner.exec_module(module)
        self._patch(module)


def _use_build_main(module):
    module.main = _build_main


def install_build_hooks():
    """Build mode: `unittest.main()` builds one test's program (importing
    unittest at start-up cost every build a fifth of its start)."""
    if "unittest" in sys.modules:
        _use_build_main(sys.modules["unittest"])
    else:
        sys.meta_path.insert(0, _OnImport("unittest", _use_build_main))


def _fix_zlib(module):
    import _fluidc_zlib
    _fluidc_zlib.install(module)


def _fix_math(module):
    import _fluidc_math
    for name in dir(_fluidc_math):
        if not name.startswith("_"):
            setattr(module, name, getattr(_fluidc_math, name))


def _fix_logging(module):
    """The frozen `logging` package has an empty `__path__`, and
    `Handler.handleError` reads `__path__[0]` (to skip logging's own frames
    when it prints where a bad log call came from), so a call such as
    `logger.info("epoch", epoch)` raised IndexError out of the script where
    CPython prints "--- Logging error ---" and goes on. The frozen modules'
    code names no directory (`co_filename` is "logging"), so "" is the
    directory of logging's frames. The frozen importer, ahead of the path
    finder, still finds `logging.handlers` and `logging.config`."""
    if not module.__path__:
        module.__path__ = [""]


def install_vm_fixes():
    """Works around the VM's bugs in its standard library (see
    `_fluidc_zlib`, `_fluidc_math`, `_fix_logging`) and in
    `float.__format__` (see `_fluidc_float`)."""
    import _fluidc_float
    _fluidc_float.install()
    sys.meta_path.insert(0, _OnImport("zlib", _fix_zlib))
    for name, fix in (("math", _fix_math), ("logging", _fix_logging)):
        if name in sys.modules:
            fix(sys.modules[name])
        else:
            sys.meta_path.insert(0, _OnImport(name, fix))


def api_listing():
    """Every public module, class and function of the fluid package, one
    per line (`fluidc api`)."""
    import importlib
    lines = []
    for mod_name in _API_MODULES:
        mod = importlib.import_module(mod_name)
        names = getattr(mod, "__all__", None) or [n for n in dir(mod) if not n.startswith("_")]
        for n in sorted(set(names)):
            obj = getattr(mod, n, None)
            if obj is None or (isinstance(obj, type(sys)) and obj.__name__ != mod_name + "." + n):
                continue
            kind = "module" if isinstance(obj, type(sys)) else (
                "class" if isinstance(obj, type) else (
                    "function" if callable(obj) else "value"))
            lines.append("%s.%s  (%s)" % (mod_name, n, kind))
    return "\n".join(lines) + "\n"


_API_MODULES = [
    "paddle", "paddle.fluid", "paddle.fluid.layers", "paddle.fluid.initializer",
    "paddle.fluid.optimizer", "paddle.fluid.regularizer", "paddle.fluid.clip",
    "paddle.fluid.io", "paddle.fluid.nets", "paddle.fluid.unique_name",
    "paddle.fluid.executor", "paddle.fluid.framework", "paddle.fluid.core",
    "paddle.fluid.op", "paddle.fluid.debugger",
    "paddle.fluid.contrib.decoder.beam_search_decoder",
    "paddle.reader", "paddle.dataset", "numpy", "numpy.random",
]
