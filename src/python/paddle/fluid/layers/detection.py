"""1.x's `layers/detection.py`: SSD's matching of predictions to ground
truth (`bipartite_match`, `target_assign`)."""
from ..layer_helper import LayerHelper

__all__ = ["bipartite_match", "target_assign"]


def bipartite_match(dist_matrix, match_type=None, dist_threshold=None, name=None):
    """Greedy bipartite matching of each column of `dist_matrix` (one LoD
    sequence of rows per image) to a row, largest distance first;
    `per_prediction` then matches the columns left to their best row of
    at least `dist_threshold`. Returns (indices int32, distances)."""
    helper = LayerHelper("bipartite_match", **locals())
    match_indices = helper.create_variable_for_type_inference(dtype="int32")
    match_distance = helper.create_variable_for_type_inference(dtype=dist_matrix.dtype)
    helper.append_op(type="bipartite_match", inputs={"DistMat": dist_matrix},
                     attrs={"match_type": match_type, "dist_threshold": dist_threshold},
                     outputs={"ColToRowMatchIndices": match_indices,
                              "ColToRowMatchDist": match_distance})
    return match_indices, match_distance


def target_assign(input, matched_indices, negative_indices=None, mismatch_value=None, name=None):
    """Each prediction's target: the row of `input` (one LoD sequence per
    image) its `matched_indices` entry names, weight 1, or
    `mismatch_value`, weight 0; `negative_indices` (LoD, per image) get
    `mismatch_value` with weight 1. Returns (out, out_weight float32)."""
    helper = LayerHelper("target_assign", **locals())
    out = helper.create_variable_for_type_inference(dtype=input.dtype)
    out_weight = helper.create_variable_for_type_inference(dtype="float32")
    helper.append_op(type="target_assign",
                     inputs={"X": input, "MatchIndices": matched_indices,
                             "NegIndices": negative_indices},
                     outputs={"Out": out, "OutWeight": out_weight},
                     attrs={"mismatch_value": mismatch_value})
    return out, out_weight
