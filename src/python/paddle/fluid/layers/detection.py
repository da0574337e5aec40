"""1.x's `layers/detection.py`: SSD's matching of predictions to ground
truth (`bipartite_match`)."""
from ..layer_helper import LayerHelper

__all__ = ["bipartite_match"]


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
