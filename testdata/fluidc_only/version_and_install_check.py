# Paddle 1.5-1.6's version API on fluidc's version (paddle.version, as 1.x's
# build generated it), fluid.require_version, fluid.install_check.run_check and
# the CUDA place lists of a CPU-only build. The expected texts are 1.6's
# (python/paddle/fluid/framework.py, install_check.py, python/setup.py.in); the
# require_version cases were checked against 1.6's function run by CPython with
# version 1.8.0. Paddle 3.3.1 reports its own version, so this is fluidc's only.
import contextlib
import io

import paddle
import paddle.version
import paddle.fluid as fluid


def printed(f, *args):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        f(*args)
    return out.getvalue()


v = paddle.version
assert paddle.__version__ == v.full_version, (paddle.__version__, v.full_version)
assert v.full_version == '%s.%s.%s' % (v.major, v.minor, v.patch), v.full_version
assert (v.rc, v.istaged, v.with_mkl, v.mkl()) == ('0', True, 'OFF', 'OFF')
assert printed(v.show) == ('full_version: %s\nmajor: %s\nminor: %s\npatch: %s\nrc: 0\n'
                           % (v.full_version, v.major, v.minor, v.patch)), printed(v.show)
assert paddle.__git_commit__ == v.commit

# Versions fluidc's is in: no error, no return value.
installed = [int(n) for n in (v.major, v.minor, v.patch)]
below = '%d.%d' % (installed[0], installed[1] - 1)
above = '%d.%d.%d.1' % tuple(installed)
for args in [('1.4.0',), ('0.1.0', '10.0.0'), (v.full_version,), (below, above),
             ('%s.%s' % (v.major, v.minor),), (v.full_version, v.full_version + '.0')]:
    assert fluid.require_version(*args) is None, args


def error(*args):
    try:
        fluid.require_version(*args)
    except Exception as e:
        return type(e), str(e)
    raise AssertionError("require_version%r passed" % (args,))


assert error('9.0') == (Exception, (
    "VersionError: PaddlePaddle version 9.0 or higher is required, but %s installed, please "
    "upgrade your PaddlePaddle to 9.0 or other higher version." % v.full_version)), error('9.0')
assert error(above) == (Exception, (
    "VersionError: PaddlePaddle version %s or higher is required, but %s installed, please "
    "upgrade your PaddlePaddle to %s or other higher version." % (above, v.full_version, above)))
assert error('1.0', below) == (Exception, (
    "VersionError: PaddlePaddle version in [1.0, %s] required, but %s installed."
    % (below, v.full_version))), error('1.0', below)
assert error(1.4) == (TypeError, "The type of 'min_version' in require_version must be str, "
                      "but received <class 'float'>."), error(1.4)
assert error('1.0', 2) == (TypeError, "The type of 'max_version' in require_version must be "
                           "str or type(None), but received <class 'int'>."), error('1.0', 2)
fmt = "in require_version must be in format '\\d+(\\.\\d+){0,3}', like '1.5.2.0', but received "
assert error('1.x') == (ValueError, "The value of 'min_version' " + fmt + "1.x"), error('1.x')
assert error('v1.4') == (ValueError, "The value of 'min_version' " + fmt + "v1.4")
assert error('1.0', '1.2.3.4.5') == (ValueError, "The value of 'max_version' " + fmt + "1.2.3.4.5")
# The format is checked before the versions are compared.
assert error('9.0', '9.x') == (ValueError, "The value of 'max_version' " + fmt + "9.x")

# A CPU-only build: no CUDA places.
assert fluid.is_compiled_with_cuda() is False
for f, args in [(fluid.cuda_places, ()), (fluid.cuda_places, ([0, 1],)),
                (fluid.cuda_pinned_places, ()), (fluid.cuda_pinned_places, (2,))]:
    try:
        f(*args)
    except AssertionError as e:
        assert str(e) == "Not compiled with CUDA", str(e)
    else:
        raise AssertionError("%s%r gave places" % (f.__name__, args))

# run_check trains its program on one CPU place, then data-parallel on two, and
# prints what 1.6 printed on a CPU machine when both worked.
assert printed(fluid.install_check.run_check) == (
    "Running Verify Fluid Program ... \n"
    "Your Paddle Fluid works well on SINGLE GPU or CPU.\n"
    "Your Paddle Fluid works well on MUTIPLE GPU or CPU.\n"
    "Your Paddle Fluid is installed successfully! Let's start deep Learning with Paddle Fluid "
    "now\n"), printed(fluid.install_check.run_check)
print("ok")
