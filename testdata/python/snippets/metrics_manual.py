# Evaluation metrics by hand: accuracy, precision/recall/F1 per class, confusion matrix printed as a table, AUC by ranking, top-k accuracy.
preds = [0, 1, 1, 2, 2, 0, 1, 2, 0, 1]
truth = [0, 1, 2, 2, 1, 0, 1, 2, 1, 1]
acc = sum(p == t for p, t in zip(preds, truth)) / len(truth)
print("accuracy %.3f" % acc)
conf = [[0] * 3 for _ in range(3)]
for p, t in zip(preds, truth):
    conf[t][p] += 1
print("     " + " ".join("p%d" % i for i in range(3)))
for i, row in enumerate(conf):
    print("t%d: " % i + " ".join("%2d" % v for v in row))
for c in range(3):
    tp = conf[c][c]
    fp = sum(conf[r][c] for r in range(3)) - tp
    fn = sum(conf[c]) - tp
    prec = tp / (tp + fp) if tp + fp else 0.0
    rec = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * prec * rec / (prec + rec) if prec + rec else 0.0
    print("class %d precision %.4f recall %.4f f1 %.4f" % (c, prec, rec, f1))
scores = [0.9, 0.8, 0.35, 0.6, 0.2, 0.7]
pos = [1, 1, 0, 1, 0, 0]
pairs = [(s, y) for s, y in zip(scores, pos)]
p = [s for s, y in pairs if y]
n = [s for s, y in pairs if not y]
print("auc %.4f" % (sum((a > b) + 0.5 * (a == b) for a in p for b in n) / (len(p) * len(n))))
topk = [[0.1, 0.5, 0.4], [0.7, 0.2, 0.1]]
print(sum(t in sorted(range(3), key=lambda i: -row[i])[:2] for row, t in zip(topk, [2, 2])) / 2)
