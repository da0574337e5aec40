# Image.putdata / getdata as 2018 image readers and their tests used them:
# a synthetic picture written from a flat list of pixel values, read back
# row by row, then color-jittered with ImageEnhance.
from __future__ import print_function
from PIL import Image, ImageEnhance

im = Image.new("L", (3, 2))
im.putdata([0, 50, 100, 150, 200, 250])


def rows(i, w=3):
    d = list(i.getdata())
    return [d[k:k + w] for k in range(0, len(d), w)]


print(rows(im), len(im.getdata()), im.getdata()[4])
print(rows(ImageEnhance.Brightness(im).enhance(2.0)))
print(rows(ImageEnhance.Contrast(im).enhance(0.5)))

clipped = Image.new("L", (4, 1), 9)
clipped.putdata([-5, 300, 7.9])
print(list(clipped.getdata()))
scaled = Image.new("L", (2, 2))
scaled.putdata([1, 2, 3, 200], scale=2.0, offset=10)
print(list(scaled.getdata()))

rgb = Image.new("RGB", (2, 2), (1, 2, 3))
rgb.putdata([(255, 0, 0), (0, 255, 0), (0, 0, 255)])
print(list(rgb.getdata()), list(rgb.getdata(1)), rgb.getpixel((1, 1)))
print(list(ImageEnhance.Color(rgb).enhance(0.0).getdata()))
rgba = Image.new("RGBA", (2, 1))
rgba.putdata([(10, 20, 30, 40), (1, 2, 3)])
print(list(rgba.getdata()))
try:
    im.putdata(list(range(7)))
except TypeError as e:
    print("TypeError", e)
