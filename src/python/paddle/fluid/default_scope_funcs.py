"""paddle.fluid.default_scope_funcs (1.0-1.6): a thread-local stack of
scopes; its top is the current scope, its bottom the parent of all.
`var` / `find_var` make / find a variable in the current scope (finding
searches the parents too); `enter_local_scope` / `leave_local_scope` push a
kid scope / pop it (the parent then drops its kids); `scoped_function`
calls a function in a new local scope."""
from __future__ import print_function

import threading

import paddle.fluid.core

__tl_scope__ = threading.local()

__all__ = [
    'get_cur_scope',
    'enter_local_scope',
    'leave_local_scope',
    'var',
    'find_var',
    'scoped_function',
]


def get_cur_scope():
    """The current scope (a paddle.fluid.core.Scope)."""
    if getattr(__tl_scope__, 'cur_scope', None) is None:
        __tl_scope__.cur_scope = []
    if not __tl_scope__.cur_scope:
        __tl_scope__.cur_scope.append(paddle.fluid.core.Scope())
    return __tl_scope__.cur_scope[-1]


def enter_local_scope():
    """Makes a kid of the current scope the current scope."""
    new_scope = get_cur_scope().new_scope()
    __tl_scope__.cur_scope.append(new_scope)


def leave_local_scope():
    """Back to the parent scope, which drops its kids."""
    __tl_scope__.cur_scope.pop()
    get_cur_scope().drop_kids()


def var(name):
    """The variable `name` of the current scope, made if need be."""
    return get_cur_scope().var(name)


def find_var(name):
    """The variable `name` of the current scope or its parents, or None."""
    return get_cur_scope().find_var(name)


def scoped_function(func):
    """Calls `func()` in a new local scope, left afterwards (also when
    `func` raises)."""
    enter_local_scope()
    try:
        func()
    finally:
        leave_local_scope()
