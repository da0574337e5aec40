# math for geometry: distances, angles with atan2 and degrees, IoU of boxes, rotations with sin/cos rounded for stable output.
import math


def iou(a, b):
    ix = max(0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    area = lambda r: (r[2] - r[0]) * (r[3] - r[1])
    return inter / (area(a) + area(b) - inter)


print(round(iou((0, 0, 2, 2), (1, 1, 3, 3)), 6), iou((0, 0, 1, 1), (2, 2, 3, 3)), iou((0, 0, 1, 1), (0, 0, 1, 1)))
print(math.degrees(math.atan2(1, 1)), math.hypot(3, 4), math.dist((1, 1), (4, 5)))
for deg in (0, 90, 180, 270):
    r = math.radians(deg)
    print(deg, round(math.cos(r), 10) + 0.0, round(math.sin(r), 10) + 0.0)
