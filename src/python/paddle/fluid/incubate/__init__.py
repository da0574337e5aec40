"""paddle.fluid.incubate: 1.5-1.6's incubating APIs; fluidc has
`data_generator` (fleet, distributed training, is not in fluidc)."""
from . import data_generator
