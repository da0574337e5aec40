"""`PIL.ImageEnhance`: Pillow's enhancers. Each holds a "degenerate"
image; `enhance(factor)` is `Image.blend(degenerate, image, factor)`, so
1.0 gives the image back, 0.0 the degenerate one, and other factors
interpolate or extrapolate. Sharpness needs `Image.filter`, which fluidc's
PIL does not have."""
from . import Image


def _with_alpha(image, source):
    """`image` with its last (alpha) band taken from `source`'s."""
    import numpy as np
    a = np.array(image)
    a[:, :, -1] = np.asarray(source)[:, :, -1]
    return Image.fromarray(a, image.mode)


class _Enhance(object):
    def enhance(self, factor):
        """The image enhanced by `factor` (1.0: a copy of the image)."""
        return Image.blend(self.degenerate, self.image, factor)


class Color(_Enhance):
    """Color balance: 0.0 gives the image in gray (alpha kept)."""

    def __init__(self, image):
        self.image = image
        self.intermediate_mode = "L"
        if "A" in image.getbands():
            self.intermediate_mode = "LA"
        if self.intermediate_mode != image.mode:
            image = image.convert(self.intermediate_mode).convert(image.mode)
        self.degenerate = image


class Contrast(_Enhance):
    """Contrast: 0.0 gives a solid gray of the image's mean luminance."""

    def __init__(self, image):
        import numpy as np
        self.image = image
        gray = image if image.mode == "L" else image.convert("L")
        pixels = np.asarray(gray)
        mean = int(int(pixels.sum(dtype=np.int64)) / pixels.size + 0.5)
        self.degenerate = Image.new("L", gray.size, mean)
        if self.degenerate.mode != self.image.mode:
            self.degenerate = self.degenerate.convert(self.image.mode)
        if "A" in self.image.getbands():
            self.degenerate = _with_alpha(self.degenerate, self.image)


class Brightness(_Enhance):
    """Brightness: 0.0 gives a black image (alpha kept)."""

    def __init__(self, image):
        self.image = image
        self.degenerate = Image.new(image.mode, image.size, 0)
        if "A" in image.getbands():
            self.degenerate = _with_alpha(self.degenerate, image)


class Sharpness(_Enhance):
    """Sharpness: its degenerate image is `image.filter(SMOOTH)`, which
    fluidc's PIL does not have."""

    def __init__(self, image):
        raise NotImplementedError(
            "ImageEnhance.Sharpness needs Image.filter(ImageFilter.SMOOTH), which is not "
            "supported by fluidc's PIL")
