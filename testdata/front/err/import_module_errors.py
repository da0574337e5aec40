# Errors inside an imported sibling module point into that module's file
# and line; names the module does not have, and modules that do not exist,
# are errors at the import.
import paddle.fluid as fluid
import _helper_with_errors as helper
from _helper_with_errors import make_input, missing_name
import no_such_helper

x = make_input()
y = helper.build(x)
z = helper.other(x)
