# -*- coding: gbk -*-
# A 2018 script saved by a Windows editor in GBK, as its first line says.
words = ["英文", "中文"]
for w in words:
    print(w, len(w), w.encode("utf-8"))
