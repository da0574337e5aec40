"""numpy._core: numpy 2's name of the core package, for the globals numpy
pickles name."""
