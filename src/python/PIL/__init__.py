"""fluidc's Pillow: the `PIL.Image` that 2018-19 inference scripts used to
load and prepare images, over the native `_imaging` module (decoding and
encoding by the `image` crate, Pillow's own pixel arithmetic)."""
__version__ = "5.4.1"
