# с╒нд comment in GBK, no coding line
print("never")
