"""`PIL.ImageOps`: the operations 2018-19 image readers used (PaddleGAN's
data_reader mirrors its training images), over fluidc's `PIL.Image`.
Pillow's others (autocontrast, equalize, fit, ...) are not here."""
from . import Image


def _border(border):
    """(left, top, right, bottom) from an int, a pair or a 4-tuple."""
    if isinstance(border, tuple):
        if len(border) == 2:
            left, top = right, bottom = border
        elif len(border) == 4:
            left, top, right, bottom = border
    else:
        left = top = right = bottom = border
    return left, top, right, bottom


def mirror(image):
    """The image flipped left to right."""
    return image.transpose(Image.FLIP_LEFT_RIGHT)


def flip(image):
    """The image flipped top to bottom."""
    return image.transpose(Image.FLIP_TOP_BOTTOM)


def grayscale(image):
    """The image in mode "L"."""
    return image.convert("L")


def crop(image, border=0):
    """The image with `border` pixels removed from each side."""
    left, top, right, bottom = _border(border)
    return image.crop((left, top, image.size[0] - right, image.size[1] - bottom))


def invert(image):
    """255 minus each value of an "L" or "RGB" image."""
    if image.mode not in ("L", "RGB"):
        raise IOError("not supported for this image mode")
    import numpy as np
    return Image.fromarray((255 - np.asarray(image).astype("int32")).astype("uint8"), image.mode)
