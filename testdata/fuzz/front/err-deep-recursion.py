# Runaway recursion is a diagnostic (the call depth limit), not a crash.
def f(n):
    return f(n + 1)
f(0)
