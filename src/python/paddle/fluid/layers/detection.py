"""The SSD-style detection layers of 1.x's `layers/detection.py`: prior
boxes over feature maps. Each appends the op 1.x's layer appended, with
its attributes; the boxes they make are constants of the feature maps'
shapes (stop_gradient), as in 1.x."""
from ..layer_helper import LayerHelper

__all__ = [
    "prior_box",
    "density_prior_box",
]


def _is_list_or_tuple_(data):
    return isinstance(data, (list, tuple))


def prior_box(input, image, min_sizes, max_sizes=None, aspect_ratios=[1.],
              variance=[0.1, 0.1, 0.2, 0.2], flip=False, clip=False, steps=[0.0, 0.0],
              offset=0.5, name=None, min_max_aspect_ratios_order=False):
    """Prior boxes for each place of `input`'s feature map, normalized by
    `image`'s size (1.x's layer): `(boxes, variances)`, each `[H, W,
    num_priors, 4]`."""
    helper = LayerHelper("prior_box", **locals())
    dtype = helper.input_dtype()
    if not _is_list_or_tuple_(min_sizes):
        min_sizes = [min_sizes]
    if not _is_list_or_tuple_(aspect_ratios):
        aspect_ratios = [aspect_ratios]
    if not (_is_list_or_tuple_(steps) and len(steps) == 2):
        raise ValueError('steps should be a list or tuple ',
                         'with length 2, (step_width, step_height).')
    min_sizes = list(map(float, min_sizes))
    aspect_ratios = list(map(float, aspect_ratios))
    steps = list(map(float, steps))
    attrs = {
        'min_sizes': min_sizes,
        'aspect_ratios': aspect_ratios,
        'variances': variance,
        'flip': flip,
        'clip': clip,
        'step_w': steps[0],
        'step_h': steps[1],
        'offset': offset,
        'min_max_aspect_ratios_order': min_max_aspect_ratios_order,
    }
    if max_sizes is not None and len(max_sizes) > 0 and max_sizes[0] > 0:
        if not _is_list_or_tuple_(max_sizes):
            max_sizes = [max_sizes]
        attrs['max_sizes'] = max_sizes
    box = helper.create_variable_for_type_inference(dtype)
    var = helper.create_variable_for_type_inference(dtype)
    helper.append_op(type="prior_box", inputs={"Input": input, "Image": image},
                     outputs={"Boxes": box, "Variances": var}, attrs=attrs)
    box.stop_gradient = True
    var.stop_gradient = True
    return box, var


def density_prior_box(input, image, densities=None, fixed_sizes=None, fixed_ratios=None,
                      variance=[0.1, 0.1, 0.2, 0.2], clip=False, steps=[0.0, 0.0],
                      offset=0.5, flatten_to_2d=False, name=None):
    """Density prior boxes (1.x's layer, 1.2+): per fixed size and ratio,
    a density x density grid of boxes around each place of `input`'s map:
    `(boxes, variances)`, `[H, W, num_priors, 4]` or, with
    `flatten_to_2d`, `[H * W * num_priors, 4]`."""
    helper = LayerHelper("density_prior_box", **locals())
    dtype = helper.input_dtype()
    if not _is_list_or_tuple_(densities):
        raise TypeError('densities should be a list or a tuple or None.')
    if not _is_list_or_tuple_(fixed_sizes):
        raise TypeError('fixed_sizes should be a list or a tuple or None.')
    if not _is_list_or_tuple_(fixed_ratios):
        raise TypeError('fixed_ratios should be a list or a tuple or None.')
    if len(densities) != len(fixed_sizes):
        raise ValueError('densities and fixed_sizes length should be euqal.')
    if not (_is_list_or_tuple_(steps) and len(steps) == 2):
        raise ValueError('steps should be a list or tuple ',
                         'with length 2, (step_width, step_height).')
    densities = list(map(int, densities))
    fixed_sizes = list(map(float, fixed_sizes))
    fixed_ratios = list(map(float, fixed_ratios))
    steps = list(map(float, steps))
    attrs = {
        'variances': variance,
        'clip': clip,
        'step_w': steps[0],
        'step_h': steps[1],
        'offset': offset,
        'densities': densities,
        'fixed_sizes': fixed_sizes,
        'fixed_ratios': fixed_ratios,
        'flatten_to_2d': flatten_to_2d,
    }
    box = helper.create_variable_for_type_inference(dtype)
    var = helper.create_variable_for_type_inference(dtype)
    helper.append_op(type="density_prior_box", inputs={"Input": input, "Image": image},
                     outputs={"Boxes": box, "Variances": var}, attrs=attrs)
    box.stop_gradient = True
    var.stop_gradient = True
    return box, var
