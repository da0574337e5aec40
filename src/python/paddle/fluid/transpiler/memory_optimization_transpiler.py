"""`fluid.memory_optimize` and `fluid.release_memory` (1.x).

In 1.x they rewrote a program so that it used less memory when run:
`memory_optimize` renamed variables so that one whose last use had passed
lent its memory to a later one of the same shape (`level` 0) or of no
larger size (`level` 1); `release_memory` inserted `delete_var` ops after
each variable's last use. Neither changed what a program computes.

fluidc's runtime frees every tensor after its last use by itself, so both
leave the program as it is (1.6 made them no-ops too, for the same
reason). Their arguments are still checked as 1.x checked them; with
`print_log`, 1.x printed each reuse it made, and fluidc makes none, so
there is nothing to print; `skip_opt_set` and `skip_grads` named
variables to keep out of the reuse, and no variable is reused.
"""
from ..framework import Program, Variable

__all__ = ["memory_optimize", "release_memory"]


def _check(api, input_program, skip_opt_set):
    if not isinstance(input_program, Program):
        raise TypeError("%s()'s input_program must be a fluid.Program, not %s"
                        % (api, type(input_program).__name__))
    if skip_opt_set is None:
        return
    if not isinstance(skip_opt_set, (set, list, tuple)):
        raise TypeError("%s()'s skip_opt_set must be a set of variable names, not %s"
                        % (api, type(skip_opt_set).__name__))
    for name in skip_opt_set:
        if not isinstance(name, (str, Variable)):
            raise TypeError("%s()'s skip_opt_set must hold variable names, not %s"
                            % (api, type(name).__name__))


def memory_optimize(input_program, skip_opt_set=None, print_log=False, level=0,
                    skip_grads=False):
    """Checks its arguments and leaves `input_program` as it is: fluidc's
    runtime already frees each tensor after its last use."""
    _check("memory_optimize", input_program, skip_opt_set)
    if level != 0 and level != 1:
        raise ValueError("only support opt_level 0 or 1.")


def release_memory(input_program, skip_opt_set=None):
    """Checks its arguments and leaves `input_program` as it is: fluidc's
    runtime already frees each tensor after its last use."""
    _check("release_memory", input_program, skip_opt_set)
