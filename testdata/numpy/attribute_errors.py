# A misspelt array method, as a reader's preprocessing meets it: the
# message names numpy's type and suggests the method, and getattr's
# default and hasattr still work.
import numpy as np

img = np.zeros((2, 3), dtype='float32')
print(hasattr(img, 'reshape'), hasattr(img, 'resize_to'), getattr(img, 'mean_value', -1))
for name in ['reshap', 'tolist_', 'shap']:
    try:
        getattr(img, name)
    except AttributeError as e:
        print(e, e.name == name, e.obj is img)
