# a BOM before the first line
print("bom", 1 + 1)
