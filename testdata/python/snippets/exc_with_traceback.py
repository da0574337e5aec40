# Exceptions and the traceback module: format_exception_only, extracting the last frame's name and line number.
import traceback


def fail():
    return {}["missing"]


try:
    fail()
except KeyError as e:
    print(traceback.format_exception_only(type(e), e))
    frames = traceback.extract_tb(e.__traceback__)
    print([(f.name, f.lineno) for f in frames])
    print(frames[-1].line)
try:
    raise ValueError("plain")
except ValueError as e:
    print("".join(traceback.format_exception_only(type(e), e)).strip())
    print(e.__traceback__.tb_lineno, e.__traceback__.tb_frame.f_code.co_name)
