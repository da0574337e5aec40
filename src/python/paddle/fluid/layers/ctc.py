"""1.x's CTC layers (`layers/nn.py` in 1.x, and re-exported from fluidc's
`nn.py`): `warpctc`, `ctc_greedy_decoder`, `edit_distance`, as 1.6 built
them. fluidc computes them on LoD input only: the padded forms
(`input_length`/`label_length`, 1.6) raise NotImplementedError."""
from ..layer_helper import LayerHelper

__all__ = ["warpctc", "ctc_greedy_decoder", "edit_distance"]


def _no_padded(layer, **lengths):
    given = [name for name, value in lengths.items() if value is not None]
    if given:
        raise NotImplementedError(
            "%s: fluidc computes it on LoD tensors only; %s (the padded form) is not "
            "supported" % (layer, " and ".join(given)))


def warpctc(input, label, blank=0, norm_by_times=False, use_cudnn=False, input_length=None,
            label_length=None):
    """The CTC loss of each sequence of `input` (unscaled logits, LoD) for
    its label sequence (`label`, int32, LoD): a `[sequences, 1]` column.
    `use_cudnn` (1.0-1.5) chose a GPU kernel: on the CPU it changes
    nothing."""
    _no_padded("warpctc", input_length=input_length, label_length=label_length)
    helper = LayerHelper("warpctc", **locals())
    loss_out = helper.create_variable_for_type_inference(dtype=input.dtype)
    grad_out = helper.create_variable_for_type_inference(dtype=input.dtype)
    helper.append_op(
        type="warpctc", inputs={"Logits": [input], "Label": [label]},
        outputs={"WarpCTCGrad": [grad_out], "Loss": [loss_out]},
        attrs={"blank": blank, "norm_by_times": norm_by_times})
    return loss_out


def ctc_greedy_decoder(input, blank, input_length=None, padding_value=0, name=None):
    """The best class of each step (`topk` 1), then repeats merged and
    blanks dropped (`ctc_align`): an int64 LoD tensor of the decoded
    sequences; `[[-1]]` when every one is empty."""
    _no_padded("ctc_greedy_decoder", input_length=input_length)
    from .nn import topk
    helper = LayerHelper("ctc_greedy_decoder", **locals())
    _, topk_indices = topk(input, k=1)
    ctc_out = helper.create_variable_for_type_inference(dtype="int64")
    helper.append_op(
        type="ctc_align", inputs={"Input": [topk_indices]}, outputs={"Output": [ctc_out]},
        attrs={"merge_repeated": True, "blank": blank})
    return ctc_out


def edit_distance(input, label, normalized=True, ignored_tokens=None, input_length=None,
                  label_length=None):
    """The edit distance of each decoded sequence (`input`, int64 LoD) from
    its label (`label`), over the label's length when `normalized`; and
    the number of sequences. `ignored_tokens` are erased from both first
    (1.x's `sequence_erase` op)."""
    _no_padded("edit_distance", input_length=input_length, label_length=label_length)
    helper = LayerHelper("edit_distance", **locals())
    if ignored_tokens is not None and len(ignored_tokens) > 0:
        erased_input = helper.create_variable_for_type_inference(dtype="int64")
        erased_label = helper.create_variable_for_type_inference(dtype="int64")
        helper.append_op(type="sequence_erase", inputs={"X": [input]},
                         outputs={"Out": [erased_input]}, attrs={"tokens": ignored_tokens})
        input = erased_input
        helper.append_op(type="sequence_erase", inputs={"X": [label]},
                         outputs={"Out": [erased_label]}, attrs={"tokens": ignored_tokens})
        label = erased_label
    edit_distance_out = helper.create_variable_for_type_inference(dtype="float32")
    sequence_num = helper.create_variable_for_type_inference(dtype="int64")
    helper.append_op(
        type="edit_distance", inputs={"Hyps": [input], "Refs": [label]},
        outputs={"Out": [edit_distance_out], "SequenceNum": [sequence_num]},
        attrs={"normalized": normalized})
    return edit_distance_out, sequence_num
