# quit(4) from a script: stdout so far is kept, no traceback, exit code 4.
def finish(ok):
    if not ok:
        print("stopping early")
        quit(4)


finish(True)
finish(False)
print("not reached")
