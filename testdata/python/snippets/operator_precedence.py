# Operator precedence and associativity: power binds tighter than unary minus, right-assoc **, comparison chaining, not/and/or, bitwise vs comparison.
print(-2 ** 2, (-2) ** 2, 2 ** -1, 2 ** 3 ** 2, (2 ** 3) ** 2, -3 % 5, -(3 % 5), 10 - 4 - 3, 100 / 10 / 5)
print(1 + 2 * 3 ** 2, (1 + 2) * 3, 7 // 2 * 2, 7 % 3 * 2, 2 * 3 % 4, 1 << 2 + 1, (1 << 2) + 1, 6 & 3 | 8, 6 & (3 | 8))
print(not 1 == 2, not (1 and 0), 1 or 0 and 0, (1 or 0) and 0, 1 < 2 == 2, 3 > 2 > 1, 1 == 1 in [True], 5 in [5] == True)
print(1 if 0 else 2 if 0 else 3, (lambda: 1 or 2)(), -~5, ~-5, not -1, 2 * -1, 4 - -1, "a" * 2 + "b")
x = 5
print(x > 3 and x < 10, 0 < x <= 5 != 6, x & 1 == 1, (x & 1) == 1, x ^ 1 > 3)
