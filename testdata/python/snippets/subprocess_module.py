# subprocess: run a child process with captured output and a return code, check_output, and CalledProcessError.
import subprocess
import sys

r = subprocess.run(["echo", "hello from child"], capture_output=True, text=True)
print(r.returncode, repr(r.stdout))
print(subprocess.check_output(["printf", "a\\nb"]).decode().splitlines())
r = subprocess.run("exit 3", shell=True)
print(r.returncode)
try:
    subprocess.run(["false"], check=True)
except subprocess.CalledProcessError as e:
    print("CalledProcessError", e.returncode)
print(subprocess.call(["true"]))
