# operator.itemgetter/attrgetter for sorting and grouping dict rows; itemgetter with multiple keys returning tuples; sorting with reverse flags.
import itertools
import operator

rows = [{"cls": "cat", "score": 0.9, "id": 3}, {"cls": "dog", "score": 0.8, "id": 1}, {"cls": "cat", "score": 0.7, "id": 2}]
get_cls = operator.itemgetter("cls")
for cls, group in itertools.groupby(sorted(rows, key=get_cls), key=get_cls):
    print(cls, [r["id"] for r in group])
print(sorted(rows, key=operator.itemgetter("score"), reverse=True)[0]["id"], list(map(operator.itemgetter("cls", "id"), rows)))
print(max(rows, key=operator.itemgetter("id")), sorted(map(operator.itemgetter("score"), rows)))
