# __future__ imports that 2018 Paddle scripts start with (print_function, division, absolute_import, unicode_literals) are accepted and harmless.
from __future__ import absolute_import
from __future__ import division
from __future__ import print_function
from __future__ import unicode_literals
import __future__

print(7 / 2, 7 // 2, type("s").__name__, "x", end="!\n")
print(__future__.division.mandatory, sorted(__future__.all_feature_names)[:3], __future__.annotations.compiler_flag > 0)
