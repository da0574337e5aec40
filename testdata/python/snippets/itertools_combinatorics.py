# itertools combinatorics: product (repeat), permutations, combinations, combinations_with_replacement.
import itertools as it

print(list(it.product("ab", [1, 2])), len(list(it.product(range(3), repeat=3))))
print(list(it.permutations([1, 2, 3])), list(it.permutations("abc", 2)))
print(list(it.combinations(range(4), 2)), list(it.combinations_with_replacement("ab", 2)))
grid = {"lr": [0.1, 0.01], "bs": [32, 64]}
for values in it.product(*[grid[k] for k in sorted(grid)]):
    print(dict(zip(sorted(grid), values)))
print(sum(1 for _ in it.combinations(range(10), 3)), list(it.product()))
