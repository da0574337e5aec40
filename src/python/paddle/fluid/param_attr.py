"""paddle.fluid.param_attr: how a layer's parameter is named, initialized,
regularized and trained."""
from . import initializer as _init
from . import regularizer as _reg

__all__ = ["ParamAttr", "WeightNormParamAttr"]


class ParamAttr(object):
    # do_model_average: True by default, as 1.6 (1.0-1.5 said False but
    # never passed it on: their parameters had None, which
    # ExponentialMovingAverage and ModelAverage took as "average it").
    def __init__(self, name=None, initializer=None, learning_rate=1.0,
                 regularizer=None, trainable=True, gradient_clip=None,
                 do_model_average=True):
        if name is not None and not isinstance(name, str):
            raise TypeError("ParamAttr's name must be a str, not %s" % type(name).__name__)
        if initializer is not None and not isinstance(initializer, _init.Initializer):
            raise TypeError("ParamAttr's initializer must be a fluid.initializer, not %s"
                            % type(initializer).__name__)
        if regularizer is not None and not isinstance(regularizer, _reg.WeightDecayRegularizer):
            raise TypeError("ParamAttr's regularizer must be fluid.regularizer.L2Decay or L1Decay")
        self.name = name
        self.initializer = initializer
        self.learning_rate = learning_rate
        self.regularizer = regularizer
        self.trainable = trainable
        self.gradient_clip = gradient_clip
        self.do_model_average = do_model_average

    def _set_default_initializer(self, initializer):
        if self.initializer is None:
            self.initializer = initializer

    def _set_default_param_initializer(self):
        self._set_default_initializer(_init.Xavier())

    def _set_default_bias_initializer(self):
        self._set_default_initializer(_init.Constant(0.0))

    @staticmethod
    def _to_attr(arg):
        """None (defaults), a name, a ParamAttr, an initializer, a
        regularizer, or False (no parameter: `bias_attr=False`); a list
        gives one per input."""
        if arg is None:
            return ParamAttr()
        if isinstance(arg, (list, tuple)):
            return [ParamAttr._to_attr(a) for a in arg]
        if isinstance(arg, ParamAttr):
            return arg
        if isinstance(arg, str):
            return ParamAttr(name=arg)
        if isinstance(arg, _init.Initializer):
            return ParamAttr(initializer=arg)
        if isinstance(arg, _reg.WeightDecayRegularizer):
            return ParamAttr(regularizer=arg)
        if isinstance(arg, bool):
            return ParamAttr() if arg else False
        raise TypeError("%s cast to ParamAttr" % type(arg))

    def _to_kwargs(self, with_initializer=False):
        kwargs = {
            "name": self.name,
            "optimize_attr": {"learning_rate": self.learning_rate},
            "regularizer": self.regularizer,
            "trainable": self.trainable,
            "gradient_clip_attr": self.gradient_clip,
            "do_model_average": self.do_model_average,
        }
        if with_initializer:
            kwargs["initializer"] = self.initializer
        return kwargs


class WeightNormParamAttr(ParamAttr):
    """A parameter W reparameterized by weight normalization
    (https://arxiv.org/pdf/1602.07868.pdf): W = g * v / ||v||, the norm
    over every dimension but `dim` (over all of them for None), with g
    (`<name>_g`) and v (`<name>_v`) the trainable parameters. The startup
    program initializes v with the initializer and g with ||v||, so W
    starts as the initializer made it (LayerHelper.create_parameter)."""

    # The W made for each WeightNormParamAttr, as 1.x recorded them.
    params_with_weight_norm = []

    def __init__(self, dim=None, name=None, initializer=None, learning_rate=1.0,
                 regularizer=None, trainable=True, gradient_clip=None, do_model_average=False):
        super(WeightNormParamAttr, self).__init__(
            name=name, initializer=initializer, learning_rate=learning_rate,
            regularizer=regularizer, trainable=trainable, gradient_clip=gradient_clip,
            do_model_average=do_model_average)
        self.dim = dim
