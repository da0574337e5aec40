# raise SystemExit(0) from deep inside functions ends the script quietly with code 0; atexit handlers run.
import atexit


def bye():
    print("atexit handler")


atexit.register(bye)


def deep():
    raise SystemExit(0)


print("start")
deep()
print("not reached")
