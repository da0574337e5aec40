# -*- coding: gbkx -*-
print("never")
