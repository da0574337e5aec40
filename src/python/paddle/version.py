"""paddle.version: what Paddle 1.x's build wrote into `paddle/version.py`
(python/setup.py.in's `write_version_py`), for fluidc. This is the one
place fluidc's Paddle version is set: `paddle.__version__` and
`fluid.require_version` read it."""
full_version = '1.8.0'
major, minor, patch = full_version.split('.')
rc = '0'
istaged = True  # a release, as the wheels' builds from a version tag were
# The Paddle commit a wheel was built from: fluidc is built from none, and
# this is what Paddle's setup wrote when it could not ask git.
commit = 'Unknown'
with_mkl = 'OFF'  # fluidc's kernels are its own, not MKL's


def show():
    if istaged:
        print('full_version:', full_version)
        print('major:', major)
        print('minor:', minor)
        print('patch:', patch)
        print('rc:', rc)
    else:
        print('commit:', commit)


def mkl():
    return with_mkl
