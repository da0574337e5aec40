"""`PIL.Image`: open, convert, resize, crop, transpose, rotate by right
angles, save, `np.array(img)` and `Image.fromarray`, for modes L, LA, RGB
and RGBA (8 bits per band).

An image holds its pixels as bytes, row-major, one byte per band. What
Pillow 5 (2018) did, fluidc does: `resize` without `resample` is
NEAREST (Pillow 7 made it BICUBIC), and `ANTIALIAS` is LANCZOS. `blend`
is Pillow's (its C arithmetic in float32), and `PIL.ImageEnhance`'s
Brightness, Contrast and Color are over it; `getdata` and `putdata` read
and write the pixels as a flat sequence. Other modes ("1", "P", "I",
"F", ...), `thumbnail`, `paste`, `filter` (so ImageEnhance.Sharpness) are
not there: using them raises an error that says so.
"""
import builtins as _builtins
import io as _io
import os as _os

import _imaging

NEAREST = NONE = 0
LANCZOS = ANTIALIAS = 1
BILINEAR = LINEAR = 2
BICUBIC = CUBIC = 3
BOX = 4
HAMMING = 5

FLIP_LEFT_RIGHT = 0
FLIP_TOP_BOTTOM = 1
ROTATE_90 = 2
ROTATE_180 = 3
ROTATE_270 = 4
TRANSPOSE = 5
TRANSVERSE = 6


class Resampling(object):
    NEAREST, LANCZOS, BILINEAR, BICUBIC, BOX, HAMMING = 0, 1, 2, 3, 4, 5


class Transpose(object):
    FLIP_LEFT_RIGHT, FLIP_TOP_BOTTOM, ROTATE_90, ROTATE_180 = 0, 1, 2, 3
    ROTATE_270, TRANSPOSE, TRANSVERSE = 4, 5, 6


_BANDS = {"L": 1, "LA": 2, "RGB": 3, "RGBA": 4}


class UnidentifiedImageError(OSError):
    pass


def _unsupported_mode(mode):
    return ValueError("fluidc's PIL holds modes L, LA, RGB and RGBA, not %r" % (mode,))


class Image(object):
    """An image: `mode`, `size` (width, height) and its pixels."""

    format = None

    def __init__(self, mode, size, data, format=None):
        self.mode = mode
        self.size = (int(size[0]), int(size[1]))
        self._data = data
        self.format = format
        self.info = {}

    @property
    def width(self):
        return self.size[0]

    @property
    def height(self):
        return self.size[1]

    def _tuple(self):
        return (self.mode, self.size[0], self.size[1], self._data)

    @classmethod
    def _of(cls, t, format=None):
        mode, w, h, data = t
        return cls(mode, (w, h), data, format)

    def _array(self):
        import numpy as np
        a = np.frombuffer(self._data, dtype=np.uint8)
        b = _BANDS[self.mode]
        shape = (self.size[1], self.size[0]) if b == 1 else (self.size[1], self.size[0], b)
        return a.reshape(shape)

    def __array__(self, dtype=None, copy=None):
        a = self._array()
        return a if dtype is None else a.astype(dtype)

    def __repr__(self):
        return "<PIL.Image.Image image mode=%s size=%dx%d at 0x%X>" % (
            self.mode, self.size[0], self.size[1], id(self))

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.close()

    def close(self):
        pass

    def load(self):
        return _PixelAccess(self)

    def copy(self):
        return Image(self.mode, self.size, self._data, self.format)

    def tobytes(self, encoder_name="raw", *args):
        if encoder_name != "raw" or args:
            raise NotImplementedError("fluidc's PIL gives raw bytes only")
        return self._data

    def getbands(self):
        return tuple(self.mode)

    def getpixel(self, xy):
        x, y = int(xy[0]), int(xy[1])
        if x < 0:
            x += self.size[0]
        if y < 0:
            y += self.size[1]
        if not (0 <= x < self.size[0] and 0 <= y < self.size[1]):
            raise IndexError("image index out of range")
        b = _BANDS[self.mode]
        at = (y * self.size[0] + x) * b
        px = tuple(self._data[at:at + b])
        return px[0] if b == 1 else px

    def convert(self, mode=None, matrix=None, dither=None, palette=0, colors=256):
        if matrix is not None:
            raise NotImplementedError("convert(matrix=...) is not supported by fluidc's PIL")
        if mode is None or mode == self.mode:
            return self.copy()
        if mode not in _BANDS:
            raise _unsupported_mode(mode)
        return Image._of(_imaging.convert(self._tuple(), mode))

    def resize(self, size, resample=None, box=None, reducing_gap=None):
        if reducing_gap is not None:
            raise NotImplementedError("resize(reducing_gap=...) is not supported by fluidc's PIL")
        if resample is None:
            resample = NEAREST  # Pillow 5's default
        if resample not in (NEAREST, LANCZOS, BILINEAR, BICUBIC, BOX, HAMMING):
            raise ValueError("Unknown resampling filter (%s)." % (resample,))
        w, h = int(size[0]), int(size[1])
        if w < 0 or h < 0:
            raise ValueError("height and width must be > 0")
        if box is None:
            box = (0, 0) + self.size
        box = tuple(float(v) for v in box)
        if (box[0] < 0 or box[1] < 0 or box[2] > self.size[0] or box[3] > self.size[1]
                or box[2] < box[0] or box[3] < box[1]):
            raise ValueError("box can't exceed original image size")
        if (w, h) == self.size and box == (0, 0) + tuple(float(v) for v in self.size):
            return self.copy()
        return Image._of(_imaging.resize(self._tuple(), (w, h), resample, box))

    def crop(self, box=None):
        """The region (left, upper, right, lower); outside the image it is
        zeros, as Pillow pads it."""
        if box is None:
            return self.copy()
        import numpy as np
        x0, y0, x1, y1 = [int(round(v)) for v in box]
        if x1 < x0 or y1 < y0:
            raise ValueError("Coordinate 'right' is less than 'left'" if x1 < x0
                             else "Coordinate 'lower' is less than 'upper'")
        b = _BANDS[self.mode]
        src = self._array().reshape(self.size[1], self.size[0], b)
        out = np.zeros((y1 - y0, x1 - x0, b), dtype=np.uint8)
        sx0, sy0 = max(x0, 0), max(y0, 0)
        sx1, sy1 = min(x1, self.size[0]), min(y1, self.size[1])
        if sx1 > sx0 and sy1 > sy0:
            out[sy0 - y0:sy1 - y0, sx0 - x0:sx1 - x0] = src[sy0:sy1, sx0:sx1]
        return Image(self.mode, (x1 - x0, y1 - y0), out.tobytes())

    def transpose(self, method):
        import numpy as np
        b = _BANDS[self.mode]
        a = self._array().reshape(self.size[1], self.size[0], b)
        if method == FLIP_LEFT_RIGHT:
            a = a[:, ::-1]
        elif method == FLIP_TOP_BOTTOM:
            a = a[::-1]
        elif method == ROTATE_90:
            a = a.transpose((1, 0, 2))[::-1]
        elif method == ROTATE_180:
            a = a[::-1, ::-1]
        elif method == ROTATE_270:
            a = a.transpose((1, 0, 2))[:, ::-1]
        elif method == TRANSPOSE:
            a = a.transpose((1, 0, 2))
        elif method == TRANSVERSE:
            a = a.transpose((1, 0, 2))[::-1, ::-1]
        else:
            raise ValueError("Unknown transpose type %s" % (method,))
        a = np.ascontiguousarray(a)
        return Image(self.mode, (a.shape[1], a.shape[0]), a.tobytes())

    def rotate(self, angle, resample=NEAREST, expand=0, center=None, translate=None,
               fillcolor=None):
        """Pillow's `rotate`: counter-clockwise by `angle` degrees about
        `center` (the image's by default), nearest resampling, the corners
        `fillcolor` (black); `expand` grows the image to hold it all."""
        import math
        angle = angle % 360.0
        if not (center or translate):
            if angle == 0:
                return self.copy()
            if angle == 180:
                return self.transpose(ROTATE_180)
            if angle in (90, 270) and (expand or self.width == self.height):
                return self.transpose(ROTATE_90 if angle == 90 else ROTATE_270)
        if resample != NEAREST:
            raise NotImplementedError("fluidc's PIL rotates with resample=NEAREST only, not %r"
                                      % (resample,))
        w, h = self.size
        post_trans = (0, 0) if translate is None else translate
        if center is None:
            center = (w / 2, h / 2)
        angle = -math.radians(angle)
        matrix = [round(math.cos(angle), 15), round(math.sin(angle), 15), 0.0,
                  round(-math.sin(angle), 15), round(math.cos(angle), 15), 0.0]

        def transform(x, y):
            a, b, c, d, e, f = matrix
            return a * x + b * y + c, d * x + e * y + f

        matrix[2], matrix[5] = transform(-center[0] - post_trans[0],
                                         -center[1] - post_trans[1])
        matrix[2] += center[0]
        matrix[5] += center[1]
        if expand:
            corners = [transform(x, y) for x, y in ((0, 0), (w, 0), (w, h), (0, h))]
            xs, ys = [c[0] for c in corners], [c[1] for c in corners]
            nw = math.ceil(max(xs)) - math.floor(min(xs))
            nh = math.ceil(max(ys)) - math.floor(min(ys))
            matrix[2], matrix[5] = transform(-(nw - w) / 2.0, -(nh - h) / 2.0)
            w, h = nw, nh
        fill = _color(self.mode, 0 if fillcolor is None else fillcolor)
        return Image._of(_imaging.affine(self._tuple(), (w, h), tuple(matrix), fill))

    def split(self):
        a = self._array()
        b = _BANDS[self.mode]
        if b == 1:
            return (self.copy(),)
        return tuple(Image("L", self.size, a[:, :, i].copy().tobytes()) for i in range(b))

    def save(self, fp, format=None, **params):
        # JPEG's `quality` (Pillow's default 75; other formats ignore it,
        # as Pillow's do).
        quality = params.pop("quality", 75)
        if params:
            raise NotImplementedError("save(%s) is not supported by fluidc's PIL"
                                      % ", ".join(sorted(params)))
        if format is None:
            if not isinstance(fp, (str, bytes, _os.PathLike)):
                raise ValueError("unknown file extension: saving to a file object needs format=")
            ext = _os.path.splitext(_os.fspath(fp))[1].lower()
            format = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG", ".bmp": "BMP"}.get(ext)
            if format is None:
                raise ValueError("unknown file extension: %s" % ext)
        # libjpeg writes the tables Pillow's baseline-forced call writes
        # from quality 24 up; below, Pillow clips them to 8 bits and
        # libjpeg's unforced call would not.
        jpeg = format.upper() in ("JPEG", "JPG")
        if jpeg and (not isinstance(quality, int) or not 24 <= quality <= 100):
            raise NotImplementedError("save(quality=%r) is not supported by fluidc's PIL "
                                      "(an int from 24 to 100)" % (quality,))
        data = _imaging.encode(self._tuple(), format, quality if jpeg else 75)
        if isinstance(fp, (str, bytes, _os.PathLike)):
            with _builtins.open(fp, "wb") as f:
                f.write(data)
        else:
            fp.write(data)

    def getdata(self, band=None):
        """The pixels as a flat sequence, row by row: ints for a one-band
        image (or one `band`), tuples otherwise."""
        b = _BANDS[self.mode]
        data = self._data
        if band is not None:
            band = int(band)
            if not 0 <= band < b:
                raise IndexError("band index out of range")
            return _ImagingCore([data[i] for i in range(band, len(data), b)])
        if b == 1:
            return _ImagingCore(list(data))
        return _ImagingCore([tuple(data[i:i + b]) for i in range(0, len(data), b)])

    def putdata(self, data, scale=1.0, offset=0.0):
        """Copies the pixel values of the flat sequence `data` into the
        image from its top left, row by row (Pillow's `putdata`): a
        one-band image takes numbers (`value * scale + offset`, clipped to
        0..255), a multi-band one tuples of its bands."""
        values = list(data)
        n = self.size[0] * self.size[1]
        if len(values) > n:
            raise TypeError("too many data entries")
        b = _BANDS[self.mode]
        out = bytearray(self._data)
        if b == 1:
            scaled = scale != 1.0 or offset != 0.0
            for i, v in enumerate(values):
                if not isinstance(v, (int, float)):
                    raise TypeError("putdata: a %s image takes numbers, not %s"
                                    % (self.mode, type(v).__name__))
                out[i] = _clip8(v * scale + offset if scaled else v)
        else:
            for i, v in enumerate(values):
                if not isinstance(v, tuple) or len(v) not in (b, 3 if b == 4 else b):
                    raise TypeError("putdata: a %s image takes tuples of %d values, not %r"
                                    % (self.mode, b, v))
                px = [_clip8(int(c)) for c in v]
                if len(px) < b:
                    px.append(255)
                out[i * b:(i + 1) * b] = bytes(px)
        self._data = bytes(out)

    def __getattr__(self, name):
        if name in ("thumbnail", "paste", "filter", "point", "putpixel", "quantize",
                    "transform", "histogram", "draft"):
            raise NotImplementedError("Image.%s is not supported by fluidc's PIL" % name)
        raise AttributeError("'Image' object has no attribute '%s'" % name)


def _clip8(v):
    """Pillow's `CLIP8` then a cast to an 8-bit value (floats truncate)."""
    if v <= 0:
        return 0
    if v >= 256:
        return 255
    return int(v)


class _ImagingCore(object):
    """What `getdata()` gives: a sequence of the pixels."""

    def __init__(self, items):
        self._items = items

    def __len__(self):
        return len(self._items)

    def __getitem__(self, i):
        return self._items[i]

    def __iter__(self):
        return iter(self._items)


class _PixelAccess(object):
    def __init__(self, image):
        self._image = image

    def __getitem__(self, xy):
        return self._image.getpixel(xy)


def open(fp, mode="r", formats=None):
    """Decodes a PNG, JPEG or BMP file (a path or a binary file object)."""
    if mode != "r":
        raise ValueError("bad mode %r" % (mode,))
    if isinstance(fp, (str, bytes, _os.PathLike)):
        filename = _os.fspath(fp)
        with _builtins.open(filename, "rb") as f:
            data = f.read()
    else:
        filename = getattr(fp, "name", None)
        data = fp.read()
    # A file of no known format is Pillow's UnidentifiedImageError; one that
    # is known but corrupt or cut short is the decoder's OSError (Pillow
    # raises it at the first pixel access, fluidc decodes at once).
    try:
        format, t = _imaging.decode(bytes(data))
    except OSError as e:
        if str(e) != "cannot identify image file":
            raise
        format = None
    if format is None:
        raise UnidentifiedImageError(
            "cannot identify image file %r" % (filename if filename is not None else fp))
    return Image._of(t, format)


def _color(mode, color):
    """A color as the bytes of one pixel of `mode`: an int is one band's
    value, or for several bands the bands packed from the lowest byte up,
    as Pillow reads it (`0x0102ff` is red 255, green 2, blue 1)."""
    if mode not in _BANDS:
        raise _unsupported_mode(mode)
    b = _BANDS[mode]
    if isinstance(color, int):
        color = (color,) if b == 1 else tuple((color >> (8 * k)) & 255 for k in range(b))
    color = tuple(int(c) for c in color)
    if len(color) == 3 and b == 4:
        color = color + (255,)
    if len(color) != b:
        raise ValueError("color must be an int or a tuple of %d ints for mode %s" % (b, mode))
    return bytes(color)


def new(mode, size, color=0):
    return Image(mode, size, _color(mode, color) * (int(size[0]) * int(size[1])))


def blend(im1, im2, alpha):
    """`im1 * (1 - alpha) + im2 * alpha` per byte, as Pillow's C blend
    computes it (in float32, truncated; clipped to 0..255 when `alpha` is
    outside [0, 1]); the images must have one mode and size."""
    import numpy as np
    if im1.mode != im2.mode or im1.size != im2.size:
        raise ValueError("images do not match")
    alpha = float(alpha)
    if alpha == 0.0:
        return im1.copy()
    if alpha == 1.0:
        return im2.copy()
    a = np.frombuffer(im1._data, dtype=np.uint8).astype(np.float32)
    b = np.frombuffer(im2._data, dtype=np.uint8).astype(np.float32)
    out = a + np.float32(alpha) * (b - a)
    if not 0.0 <= alpha <= 1.0:
        out = np.clip(out, 0.0, 255.0)
    return Image(im1.mode, im1.size, out.astype(np.uint8).tobytes())


def fromarray(obj, mode=None):
    """An image of a uint8 array: [h, w] is L, [h, w, 2|3|4] is LA, RGB,
    RGBA."""
    import numpy as np
    a = np.asarray(obj)
    if a.dtype != np.uint8:
        raise TypeError("Cannot handle this data type: %s (fluidc's PIL takes uint8 arrays)"
                        % (a.dtype,))
    if a.ndim == 2:
        guess = "L"
    elif a.ndim == 3 and a.shape[2] in (2, 3, 4):
        guess = {2: "LA", 3: "RGB", 4: "RGBA"}[a.shape[2]]
    else:
        raise TypeError("Cannot handle this data type: %s, %s" % (a.shape, a.dtype))
    if mode is not None and mode != guess:
        raise ValueError("mode %r does not fit an array of shape %s" % (mode, a.shape))
    return Image(guess, (a.shape[1], a.shape[0]), np.ascontiguousarray(a).tobytes())
