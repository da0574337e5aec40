"""numpy.testing: numpy's assertions, with numpy's messages (ported from
numpy/testing/_private/utils.py)."""
import operator
import unittest as _unittest

import numpy as np

__all__ = [
    "assert_", "assert_equal", "assert_almost_equal", "assert_approx_equal",
    "assert_array_equal", "assert_array_less", "assert_array_almost_equal",
    "assert_allclose", "assert_raises", "assert_raises_regex", "assert_string_equal",
    "assert_warns", "assert_no_warnings", "build_err_msg", "suppress_warnings",
]


def build_err_msg(arrays, err_msg, header='Items are not equal:',
                  verbose=True, names=('ACTUAL', 'DESIRED'), precision=8):
    msg = ['\n' + header]
    err_msg = str(err_msg)
    if err_msg:
        if err_msg.find('\n') == -1 and len(err_msg) < 79 - len(header):
            msg = [msg[0] + ' ' + err_msg]
        else:
            msg.append(err_msg)
    if verbose:
        for i, a in enumerate(arrays):
            try:
                if isinstance(a, np.ndarray):
                    r = np.array_repr(a, precision=precision)
                else:
                    r = repr(a)
            except Exception as exc:
                r = f'[repr failed for <{type(a).__name__}>: {exc}]'
            if r.count('\n') > 3:
                r = '\n'.join(r.splitlines()[:3])
                r += '...'
            msg.append(f' {names[i]}: {r}')
    return '\n'.join(msg)


def assert_(val, msg=''):
    if not val:
        try:
            smsg = msg()
        except TypeError:
            smsg = msg
        raise AssertionError(smsg)


def assert_equal(actual, desired, err_msg='', verbose=True, *, strict=False):
    if isinstance(desired, dict):
        if not isinstance(actual, dict):
            raise AssertionError(repr(type(actual)))
        assert_equal(len(actual), len(desired), err_msg, verbose)
        for k in desired:
            if k not in actual:
                raise AssertionError(repr(k))
            assert_equal(actual[k], desired[k], f'key={k!r}\n{err_msg}', verbose)
        return
    if isinstance(desired, (list, tuple)) and isinstance(actual, (list, tuple)):
        assert_equal(len(actual), len(desired), err_msg, verbose)
        for k in range(len(desired)):
            assert_equal(actual[k], desired[k], f'item={k!r}\n{err_msg}', verbose)
        return
    if isinstance(actual, np.ndarray) or isinstance(desired, np.ndarray):
        return assert_array_equal(actual, desired, err_msg, verbose, strict=strict)
    msg = build_err_msg([actual, desired], err_msg, verbose=verbose)
    if np.isscalar(desired) != np.isscalar(actual):
        raise AssertionError(msg)
    try:
        isdesnan = np.isnan(desired)
        isactnan = np.isnan(actual)
        if isdesnan and isactnan:
            return
        if desired == 0 and actual == 0:
            if not np.signbit(desired) == np.signbit(actual):
                raise AssertionError(msg)
    except (TypeError, ValueError, NotImplementedError):
        pass
    if not (desired == actual):
        raise AssertionError(msg)


def assert_almost_equal(actual, desired, decimal=7, err_msg='', verbose=True):
    def _build_err_msg():
        header = ('Arrays are not almost equal to %d decimals' % decimal)
        return build_err_msg([actual, desired], err_msg, verbose=verbose, header=header)

    if isinstance(actual, (np.ndarray, tuple, list)) or isinstance(desired, (np.ndarray, tuple, list)):
        return assert_array_almost_equal(actual, desired, decimal, err_msg)
    try:
        if not (np.isfinite(desired) and np.isfinite(actual)):
            if np.isnan(desired) or np.isnan(actual):
                if not (np.isnan(desired) and np.isnan(actual)):
                    raise AssertionError(_build_err_msg())
            elif not desired == actual:
                raise AssertionError(_build_err_msg())
            return
    except (NotImplementedError, TypeError):
        pass
    if abs(desired - actual) >= np.float64(1.5 * 10.0**(-decimal)):
        raise AssertionError(_build_err_msg())


def assert_approx_equal(actual, desired, significant=7, err_msg='', verbose=True):
    (actual, desired) = map(float, (actual, desired))
    if desired == actual:
        return
    scale = 0.5 * (np.abs(desired) + np.abs(actual))
    scale = np.power(10, np.floor(np.log10(scale)))
    try:
        sc_desired = desired / scale
    except ZeroDivisionError:
        sc_desired = 0.0
    try:
        sc_actual = actual / scale
    except ZeroDivisionError:
        sc_actual = 0.0
    msg = build_err_msg([actual, desired], err_msg,
                        header='Items are not equal to %d significant digits:' % significant,
                        verbose=verbose)
    try:
        if not (np.isfinite(desired) and np.isfinite(actual)):
            if np.isnan(desired) or np.isnan(actual):
                if not (np.isnan(desired) and np.isnan(actual)):
                    raise AssertionError(msg)
            elif not desired == actual:
                raise AssertionError(msg)
            return
    except (TypeError, NotImplementedError):
        pass
    if np.abs(sc_desired - sc_actual) >= np.power(10., -(significant - 1)):
        raise AssertionError(msg)


def _array2string(x):
    return np.array2string(x)


def assert_array_compare(comparison, x, y, err_msg='', verbose=True, header='',
                         precision=6, equal_nan=True, equal_inf=True,
                         *, strict=False, names=('ACTUAL', 'DESIRED')):
    x = np.asanyarray(x)
    y = np.asanyarray(y)
    ox, oy = x, y

    def robust_any_difference(x, y):
        result = x == y
        if not hasattr(result, "all") or not callable(result.all):
            result = np.bool(result)
        return result.all() != True  # noqa: E712

    def func_assert_same_pos(x, y, func=np.isnan, hasval='nan'):
        x_id = func(x)
        y_id = func(y)
        if robust_any_difference(x_id, y_id):
            msg = build_err_msg([x, y], err_msg + '\n%s location mismatch:' % (hasval),
                                verbose=verbose, header=header, names=names, precision=precision)
            raise AssertionError(msg)
        if isinstance(x_id, bool) or x_id.ndim == 0:
            return np.bool(x_id)
        elif isinstance(y_id, bool) or y_id.ndim == 0:
            return np.bool(y_id)
        else:
            return y_id

    def assert_same_inf_values(x, y, infs_mask):
        if not infs_mask.any():
            return
        if x.ndim > 0 and y.ndim > 0:
            x = x[infs_mask]
            y = y[infs_mask]
        else:
            assert infs_mask.all()
        if robust_any_difference(x, y):
            msg = build_err_msg([x, y], err_msg + '\ninf values mismatch:', verbose=verbose,
                                header=header, names=names, precision=precision)
            raise AssertionError(msg)

    if strict:
        cond = x.shape == y.shape and x.dtype == y.dtype
    else:
        cond = (x.shape == () or y.shape == ()) or x.shape == y.shape
    if not cond:
        if x.shape != y.shape:
            reason = f'\n(shapes {x.shape}, {y.shape} mismatch)'
        else:
            reason = f'\n(dtypes {x.dtype}, {y.dtype} mismatch)'
        msg = build_err_msg([x, y], err_msg + reason, verbose=verbose, header=header,
                            names=names, precision=precision)
        raise AssertionError(msg)

    flagged = np.bool(False)
    if equal_nan:
        flagged = func_assert_same_pos(x, y, func=np.isnan, hasval='nan')
    if equal_inf:
        isinf_func = lambda xy: np.logical_and(np.isinf(xy), np.invert(flagged))  # noqa: E731
        infs_mask = func_assert_same_pos(x, y, func=isinf_func, hasval='inf')
        assert_same_inf_values(x, y, infs_mask)
        flagged |= infs_mask

    if flagged.ndim > 0:
        x, y = x[~flagged], y[~flagged]
        if x.size == 0:
            return
    elif flagged:
        return

    val = comparison(x, y)
    invalids = np.logical_not(val)

    if isinstance(val, bool):
        cond = val
        reduced = np.array([val])
    else:
        reduced = val.ravel()
        cond = reduced.all()

    if cond != True:  # noqa: E712
        n_mismatch = reduced.size - reduced.sum(dtype=np.intp)
        n_elements = flagged.size if flagged.ndim != 0 else reduced.size
        percent_mismatch = 100 * n_mismatch / n_elements
        remarks = [f'Mismatched elements: {n_mismatch} / {n_elements} ({percent_mismatch:.3g}%)']
        if invalids.ndim != 0:
            if flagged.ndim > 0:
                positions = np.argwhere(np.asarray(~flagged))[invalids]
            else:
                positions = np.argwhere(np.asarray(invalids))
            s = "\n".join([
                f" {p.tolist()}: {ox if ox.ndim == 0 else ox[tuple(p)]} "
                f"({names[0]}), {oy if oy.ndim == 0 else oy[tuple(p)]} "
                f"({names[1]})"
                for p in positions[:5]
            ])
            if len(positions) == 1:
                remarks.append(f"Mismatch at index:\n{s}")
            elif len(positions) <= 5:
                remarks.append(f"Mismatch at indices:\n{s}")
            else:
                remarks.append(f"First 5 mismatches are at indices:\n{s}")

        try:
            error = abs(x - y)
            reduced_error = error[invalids]
            max_abs_error = np.max(reduced_error)
            remarks.append('Max absolute difference among violations: '
                           + _array2string(max_abs_error))
            nonzero = np.bool(y != 0)
            nonzero_and_invalid = np.logical_and(invalids, nonzero)
            if np.all(~nonzero_and_invalid):
                max_rel_error = np.array(np.inf)
            else:
                nonzero_invalid_error = error[nonzero_and_invalid]
                broadcasted_y = np.broadcast_to(y, error.shape)
                nonzero_invalid_y = broadcasted_y[nonzero_and_invalid]
                max_rel_error = np.max(nonzero_invalid_error / abs(nonzero_invalid_y))
            remarks.append('Max relative difference among violations: '
                           + _array2string(max_rel_error))
        except TypeError:
            pass
        err_msg = str(err_msg)
        err_msg += '\n' + '\n'.join(remarks)
        msg = build_err_msg([ox, oy], err_msg, verbose=verbose, header=header,
                            names=names, precision=precision)
        raise AssertionError(msg)


def assert_array_equal(actual, desired, err_msg='', verbose=True, *, strict=False):
    assert_array_compare(operator.__eq__, actual, desired, err_msg=err_msg,
                         verbose=verbose, header='Arrays are not equal', strict=strict)


def assert_array_almost_equal(actual, desired, decimal=6, err_msg='', verbose=True):
    def compare(x, y):
        dtype = np.result_type(y, 1.)
        y = np.asanyarray(y, dtype)
        z = abs(x - y)
        return z < 1.5 * 10.0**(-decimal)

    assert_array_compare(compare, actual, desired, err_msg=err_msg, verbose=verbose,
                         header=('Arrays are not almost equal to %d decimals' % decimal),
                         precision=decimal)


def assert_array_less(x, y, err_msg='', verbose=True, *, strict=False):
    assert_array_compare(operator.__lt__, x, y, err_msg=err_msg, verbose=verbose,
                         header='Arrays are not strictly ordered `x < y`',
                         equal_inf=False, strict=strict, names=('x', 'y'))


def assert_allclose(actual, desired, rtol=1e-7, atol=0, equal_nan=True,
                    err_msg='', verbose=True, *, strict=False):
    def compare(x, y):
        return np.isclose(x, y, rtol=rtol, atol=atol, equal_nan=equal_nan)

    actual, desired = np.asanyarray(actual), np.asanyarray(desired)
    header = f'Not equal to tolerance rtol={rtol:g}, atol={atol:g}'
    assert_array_compare(compare, actual, desired, err_msg=str(err_msg), verbose=verbose,
                         header=header, equal_nan=equal_nan, strict=strict)


class _Dummy(_unittest.TestCase):
    def nop(self):
        pass


_d = _Dummy('nop')


def assert_raises(*args, **kwargs):
    return _d.assertRaises(*args, **kwargs)


def assert_raises_regex(exception_class, expected_regexp, *args, **kwargs):
    return _d.assertRaisesRegex(exception_class, expected_regexp, *args, **kwargs)


def assert_warns(warning_class, *args, **kwargs):
    return _d.assertWarns(warning_class, *args, **kwargs)


class _NoWarnings(object):
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def assert_no_warnings(*args, **kwargs):
    if not args:
        return _NoWarnings()
    return args[0](*args[1:], **kwargs)


def assert_string_equal(actual, desired):
    if not isinstance(actual, str):
        raise AssertionError(repr(type(actual)))
    if not isinstance(desired, str):
        raise AssertionError(repr(type(desired)))
    if desired != actual:
        raise AssertionError("Differences in strings:\n%r\n%r" % (actual, desired))


class suppress_warnings(object):
    def __init__(self, forwarding_rule="always"):
        pass

    def filter(self, category=Warning, message="", module=None):
        pass

    def record(self, category=Warning, message="", module=None):
        return []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __call__(self, func):
        return func
