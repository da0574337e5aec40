# An uncaught KeyboardInterrupt prints a traceback; CPython's exit code for it is 130 (killed by SIGINT, reported by the shell).
print("training...")
raise KeyboardInterrupt
