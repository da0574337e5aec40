# os.path.expanduser/expandvars with the environment, os.path.join of many parts, splitext of dotfiles, normcase, sep handling.
import os

home = os.environ.get("HOME", "")
print(os.path.expanduser("~") == home or home == "", os.path.expanduser("~/data").endswith("/data"), os.path.expanduser("x~y"))
os.environ["FLUIDC_DATA_DIR"] = "/datasets"
print(os.path.expandvars("$FLUIDC_DATA_DIR/mnist"), os.path.expandvars("${FLUIDC_DATA_DIR}/x"), os.path.expandvars("$FLUIDC_UNSET_VAR/y"))
print(os.path.join("a", "b", "c", "d.txt"), os.path.join(*["x", "y"]), os.path.splitext(".bashrc"), os.path.splitext("a/.hidden.tar.gz"))
print(os.path.normcase("A/B"), os.path.basename("/a/b/"), os.path.dirname("/a/b/"), os.path.split("/a/b/"), os.path.ismount("/"))
