#!/usr/bin/env python
# vim: set fileencoding=latin-1 :
print("café", len("café"))
