# Recursion: factorial, memoized fibonacci, mutual recursion, deep recursion within the limit, RecursionError caught.
import sys


def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)


memo = {}


def fib(n):
    if n < 2:
        return n
    if n not in memo:
        memo[n] = fib(n - 1) + fib(n - 2)
    return memo[n]


def is_even(n):
    return True if n == 0 else is_odd(n - 1)


def is_odd(n):
    return False if n == 0 else is_even(n - 1)


print(fact(20), fib(90), is_even(100), is_odd(7))


def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1)


print(depth(500), sys.getrecursionlimit())


def forever(n):
    return forever(n + 1)


try:
    forever(0)
except RecursionError as e:
    print("RecursionError caught")


def hanoi(n, a="A", b="B", c="C", moves=None):
    moves = [] if moves is None else moves
    if n:
        hanoi(n - 1, a, c, b, moves)
        moves.append(a + c)
        hanoi(n - 1, b, a, c, moves)
    return moves


print(len(hanoi(10)), hanoi(2))
