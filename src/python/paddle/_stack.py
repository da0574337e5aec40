"""Where a warning the package raises points: at the script's line."""
import sys


def user_stacklevel():
    """The `stacklevel` that points a warning raised by the caller at the
    first frame outside the paddle package: the script's line, however
    many package frames (a layer's `main_program=` wrapper, a helper) lie
    between."""
    level = 1
    frame = sys._getframe(1)
    while frame is not None and frame.f_globals.get("__name__", "").split(".")[0] == "paddle":
        frame = frame.f_back
        level += 1
    return level
