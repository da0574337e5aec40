"""paddle.fluid.transpiler.details (1.x): helpers its transpilers shared;
fluidc has `program_utils`, which 1.x scripts used to print programs."""
from .program_utils import *  # noqa: F401,F403
