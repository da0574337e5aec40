"""paddle.fluid.contrib.model_stat (1.4-1.6): `summary(main_prog)` prints
each conv, pool, fc (`mul`), batch_norm and activation op of a program
with its input and output shapes, parameters and FLOPs, as 1.x's did.

1.x printed the table with the `prettytable` package (right-aligned
columns); fluidc draws the same table itself. The counts are 1.x's own
arithmetic, including its quirks: a dimension of -1 (the batch) enters an
activation's FLOPs, an fc is a `mul` whose output name contains "fc", and
its parameters count one bias."""
from __future__ import print_function

from collections import OrderedDict

__all__ = ["summary"]


def summary(main_prog):
    """Prints the table of `main_prog`'s ops and the totals."""
    collected = []
    for block in main_prog.blocks:
        for op in block.ops:
            stat = _summary_model(block.vars, op)
            if stat is None:
                continue
            info = OrderedDict()
            info['type'] = op.type
            info['input_shape'] = stat[0][1:]
            info['out_shape'] = stat[1][1:]
            info['PARAMs'] = stat[2]
            info['FLOPs'] = stat[3]
            collected.append(info)
    rows = [[i, o['type'], o['input_shape'], o['out_shape'], int(o['PARAMs']), int(o['FLOPs'])]
            for i, o in enumerate(collected)]
    print(_table(["No.", "TYPE", "INPUT", "OUTPUT", "PARAMs", "FLOPs"], rows))
    params = sum(r[4] for r in rows)
    flops = sum(r[5] for r in rows)
    print('Total PARAMs: {}({:.4f}M)'.format(params, params / (10**6)))
    print('Total FLOPs: {}({:.2f}G)'.format(flops, flops / 10**9))
    print("Notice: \n now supported ops include [Conv, DepthwiseConv, FC(mul), BatchNorm, "
          "Pool, Activation(sigmoid, tanh, relu, leaky_relu, prelu)]")


def _summary_model(block_vars, op):
    """(input shape, output shape, params, flops) of one op, or None for an
    op 1.x did not count."""
    def shape(name):
        return tuple(block_vars[name].shape)

    if op.type in ['conv2d', 'depthwise_conv2d']:
        c_out, c_in, k_h, k_w = shape(op.input("Filter")[0])
        in_shape = shape(op.input("Input")[0])
        out_shape = shape(op.output("Output")[0])
        _, c_out_, h_out, w_out = out_shape
        assert c_out == c_out_, 'shape error!'
        kernel_ops = k_h * k_w * (c_in / op.attr("groups"))
        # 1.x's conv2d listed an empty Bias (layers add the bias with an
        # elementwise_add); Paddle 3's conv2d has no Bias slot.
        bias_ops = 1 if "Bias" in op.input_names and op.input("Bias") else 0
        params = c_out * (kernel_ops + bias_ops)
        # mul and add, as NVIDIA's paper counts them
        flops = 2 * h_out * w_out * c_out * (kernel_ops + bias_ops)
    elif op.type == 'pool2d':
        in_shape = shape(op.input("X")[0])
        out_shape = shape(op.output("Out")[0])
        _, c_out, h_out, w_out = out_shape
        k_size = op.attr("ksize")
        params = 0
        flops = h_out * w_out * c_out * (k_size[0] * k_size[1])
    elif op.type == 'mul':
        k_in, k_out = shape(op.input("Y")[0])
        in_shape = shape(op.input("X")[0])
        out_shape = shape(op.output("Out")[0])
        if 'fc' not in op.output("Out")[0]:
            return None
        params = k_in * k_out + 1
        flops = k_in * k_out
    elif op.type in ['sigmoid', 'tanh', 'relu', 'leaky_relu', 'prelu']:
        in_shape = shape(op.input("X")[0])
        out_shape = shape(op.output("Out")[0])
        params = 1 if op.type == 'prelu' else 0
        flops = 1
        for d in in_shape:
            flops *= d
    elif op.type == 'batch_norm':
        in_shape = shape(op.input("X")[0])
        out_shape = shape(op.output("Y")[0])
        _, c_in, h_out, w_out = in_shape
        params = c_in * 2
        flops = h_out * w_out * c_in * 2
    else:
        return None
    return in_shape, out_shape, params, flops


def _table(header, rows):
    """prettytable's box with every column right-aligned (1.x set
    `align = 'r'`), one space of padding each side."""
    cells = [[str(c) for c in header]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    rule = "+" + "+".join("-" * (w + 2) for w in widths) + "+"

    def line(r):
        return "|" + "|".join(" " + c.rjust(w) + " " for c, w in zip(r, widths)) + "|"

    return "\n".join([rule, line(cells[0]), rule] + [line(r) for r in cells[1:]] + [rule])
