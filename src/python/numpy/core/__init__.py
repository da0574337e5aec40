"""numpy.core: numpy 1.x's name of the core package (numpy 2 keeps it for
old pickles, which name `numpy.core.multiarray._reconstruct`)."""
