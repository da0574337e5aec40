"""The fluid2018 shim's 1.x detection evaluation, which Paddle 3.3.1
dropped, written after Paddle 1.x's Python over Paddle 3.3.1's legacy
static programs:

- `detection_map` (layers.detection): a py_func computing 1.x's
  detection_map kernel (detection_map_op.h) in numpy, in float32 as its
  `T` (its integral AP sums in `float` too), its states in and out;
- `MetricDetectionMAP` (fluid.metrics.DetectionMAP, 1.2-1.x) and
  `EvaluatorDetectionMAP` (fluid.evaluator.DetectionMAP): the two
  detection_maps of 1.x's, the batch's and the accumulating one, with the
  int32 `has_state` flag the program sets to 1 and `reset` to 0;
- `yolo_box` and `yolov3_loss` (1.6's layers) on Paddle 3.3.1's ops,
  their attributes past 1.6's left at their defaults."""

import numpy

import paddle
from paddle.base import core, unique_name
from paddle.base.framework import Program, Variable, program_guard
from paddle.nn.initializer import Constant
from paddle.base.layer_helper import LayerHelper

F = numpy.float32


def _jaccard(a, b):
    if b[0] > a[2] or b[2] < a[0] or b[1] > a[3] or b[3] < a[1]:
        return F(0)
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    inter = F(w * h)
    area = lambda x: F((x[2] - x[0]) * (x[3] - x[1]))  # noqa: E731
    return F(inter / F(area(a) + area(b) - inter))


def _lod_tensor(rows, starts, dtype):
    t = core.DenseTensor()
    t.set(numpy.array(rows, dtype=dtype).reshape(-1, 2), core.CPUPlace())
    t.set_lod([starts])
    return t


def _np_detection_map(det, label, has_state=None, pos_count=None, true_pos=None,
                      false_pos=None, class_num=0, overlap_threshold=0.5,
                      evaluate_difficult=True, ap_type="integral", background_label=0):
    """1.x's DetectionMAPOpKernel<float>::Compute."""
    dl, ll = det.lod()[0], label.lod()[0]
    dv, lv = numpy.array(det).astype(F), numpy.array(label).astype(F)
    width = lv.shape[1]
    pos, tp, fp = {}, {}, {}
    state = has_state is not None and int(numpy.array(has_state).reshape(-1)[0]) != 0
    if state and pos_count is not None:
        counts = numpy.array(pos_count).reshape(-1)
        for i in range(class_num):
            pos[i] = int(counts[i])
        for src, into in ((true_pos, tp), (false_pos, fp)):
            rows, starts = numpy.array(src).astype(F), src.lod()[0]
            for c in range(len(starts) - 1):
                for j in range(starts[c], starts[c + 1]):
                    into.setdefault(c, []).append((rows[j, 0], int(rows[j, 1])))
    images = []
    for n in range(len(ll) - 1):
        gts, dets = {}, {}
        for r in lv[ll[n]:ll[n + 1]]:
            at = 2 if width == 6 else 1
            difficult = width == 6 and abs(float(r[1])) >= 1e-6
            gts.setdefault(int(r[0]), []).append((r[at:at + 4], difficult))
        for r in dv[dl[n]:dl[n + 1]]:
            dets.setdefault(int(r[0]), []).append((r[1], r[2:6]))
        images.append((dets, gts))
    for _, gts in images:
        for c in sorted(gts):
            k = sum(1 for _, d in gts[c] if evaluate_difficult or not d)
            if k:
                pos[c] = pos.get(c, 0) + k

    def mark(c, score, hit):
        tp.setdefault(c, []).append((score, int(hit)))
        fp.setdefault(c, []).append((score, int(not hit)))

    for dets, gts in images:
        for c in sorted(dets):
            if c not in gts:
                for score, _ in dets[c]:
                    mark(c, score, False)
                continue
            visited = [False] * len(gts[c])
            for score, box in sorted(dets[c], key=lambda d: -d[0]):
                box = numpy.clip(box, F(0), F(1))
                best, at = F(-1), 0
                for j, (g, _) in enumerate(gts[c]):
                    o = _jaccard(box, g)
                    if o > best:
                        best, at = o, j
                if best > F(overlap_threshold):
                    if evaluate_difficult or not gts[c][at][1]:
                        mark(c, score, not visited[at])
                        visited[at] = True
                else:
                    mark(c, score, False)
    total, count = F(0), 0
    for c in sorted(pos):
        if pos[c] == background_label or c not in tp:
            continue

        def sums(rows):
            return numpy.cumsum([f for _, f in sorted(rows, key=lambda r: -r[0])])
        ts, fs = sums(tp[c]), sums(fp[c])
        precision = [F(F(t) / F(t + f)) for t, f in zip(ts, fs)]
        with numpy.errstate(divide="ignore", invalid="ignore"):
            recall = [F(F(t) / F(pos[c])) for t in ts]
        if ap_type == "11point":
            best = [F(0)] * 11
            start = len(recall) - 1
            for j in range(10, -1, -1):
                i = start
                while i >= 0:
                    if float(recall[i]) < j / 10.:
                        start = i
                        if j > 0:
                            best[j - 1] = best[j]
                        break
                    if best[j] < precision[i]:
                        best[j] = precision[i]
                    i -= 1
            for j in range(10, -1, -1):
                total = F(total + F(best[j] / F(11)))
        else:
            ap, prev = F(0), F(0)
            for p, r in zip(precision, recall):
                step = F(abs(F(r - prev)))
                if float(step) > 1e-6:
                    ap = F(ap + F(p * step))
                prev = r
            total = F(total + ap)
        count += 1
    if count:
        total = F(total / F(count))

    def rows_of(flags):
        rows, starts = [], [0]
        for c in range(class_num):
            rows += [(s, f) for s, f in flags.get(c, [])]
            starts.append(len(rows))
        return _lod_tensor(rows, starts, "float32")
    counts = numpy.array([pos.get(c, 0) for c in range(class_num)], "int32").reshape(-1, 1)
    return (numpy.array([total], "float32"), counts, rows_of(tp), rows_of(fp))


def detection_map(detect_res, label, class_num, background_label=0, overlap_threshold=0.3,
                  evaluate_difficult=True, has_state=None, input_states=None, out_states=None,
                  ap_version='integral'):
    """1.x's layer (background_label not passed on, as 1.x's layer did not)."""
    helper = LayerHelper("detection_map")
    new = helper.create_variable_for_type_inference
    map_out = new("float32")
    outs = list(out_states) if out_states else [new("int32"), new("float32"), new("float32")]
    for v, shape in zip([map_out] + outs, ([1], [class_num, 1], [-1, 2], [-1, 2])):
        v.desc.set_shape(shape)
        v.stop_gradient = True
    ins = [detect_res, label]
    if has_state is not None:
        ins.append(has_state)
        if input_states:
            ins += list(input_states)
    attrs = dict(class_num=class_num, overlap_threshold=overlap_threshold,
                 evaluate_difficult=evaluate_difficult, ap_type=ap_version)

    def forward(*a):
        return _np_detection_map(*a, **attrs)
    paddle.static.py_func(forward, ins, [map_out] + outs)
    return map_out


def _label(gt_label, gt_box, gt_difficult):
    layers = paddle.fluid.layers
    gt_label = layers.cast(x=gt_label, dtype=gt_box.dtype)
    if gt_difficult is not None:
        gt_difficult = layers.cast(x=gt_difficult, dtype=gt_box.dtype)
        return layers.concat([gt_label, gt_difficult, gt_box], axis=1)
    return layers.concat([gt_label, gt_box], axis=1)


class _DetectionMAP:
    def _build(self, input, label, class_num, background_label, overlap_threshold,
               evaluate_difficult, ap_version, state_name):
        layers = paddle.fluid.layers
        block = self.helper.main_program.current_block()
        kw = dict(overlap_threshold=overlap_threshold, evaluate_difficult=evaluate_difficult,
                  ap_version=ap_version)
        self.cur_map = detection_map(input, label, class_num, background_label, **kw)
        self.states = [block.create_var(
            name="_".join([unique_name.generate(self.helper.name), suffix]),
            persistable=True, dtype=dtype, shape=None)
            for suffix, dtype in (("accum_pos_count", "int32"), ("accum_true_pos", "float32"),
                                  ("accum_false_pos", "float32"))]
        self.has_state = self.helper.create_global_variable(
            name=state_name(), persistable=True, dtype="int32", shape=[1])
        self.helper.set_variable_initializer(self.has_state, initializer=Constant(value=0))
        self.accum_map = detection_map(input, label, class_num, background_label,
                                       has_state=self.has_state, input_states=self.states,
                                       out_states=self.states, **kw)
        layers.fill_constant(shape=[1], value=1, dtype="int32", out=self.has_state)

    def get_map_var(self):
        return self.cur_map, self.accum_map

    def reset(self, executor, reset_program=None):
        reset_program = reset_program or Program()
        with program_guard(reset_program):
            var = reset_program.current_block().create_var(
                name=self.has_state.name, shape=self.has_state.shape, dtype="int32",
                persistable=True)
            paddle.fluid.layers.fill_constant(shape=var.shape, value=0, dtype="int32", out=var)
        executor.run(reset_program)


class MetricDetectionMAP(_DetectionMAP):
    def __init__(self, input, gt_label, gt_box, gt_difficult=None, class_num=None,
                 background_label=0, overlap_threshold=0.5, evaluate_difficult=True,
                 ap_version='integral'):
        self.helper = LayerHelper("map_eval")
        label = _label(gt_label, gt_box, gt_difficult)
        self._build(input, label, class_num, background_label, overlap_threshold,
                    evaluate_difficult, ap_version,
                    lambda: "_".join([unique_name.generate(self.helper.name), "has_state"]))


class EvaluatorDetectionMAP(_DetectionMAP):
    def __init__(self, input, gt_label, gt_box, gt_difficult=None, class_num=None,
                 background_label=0, overlap_threshold=0.5, evaluate_difficult=True,
                 ap_version='integral'):
        self.helper = LayerHelper("map_eval")
        label = _label(gt_label, gt_box, gt_difficult)
        self._build(input, label, class_num, background_label, overlap_threshold,
                    evaluate_difficult, ap_version,
                    lambda: unique_name.generate(".".join([self.helper.name, "tmp"])))


def yolo_box(x, img_size, anchors, class_num, conf_thresh, downsample_ratio, name=None):
    for ok, message in ((isinstance(x, Variable), "Input x of yolo_box must be Variable"),
                        (isinstance(img_size, Variable),
                         "Input img_size of yolo_box must be Variable"),
                        (isinstance(anchors, (list, tuple)),
                         "Attr anchors of yolo_box must be list or tuple"),
                        (isinstance(class_num, int),
                         "Attr class_num of yolo_box must be an integer"),
                        (isinstance(conf_thresh, float),
                         "Attr ignore_thresh of yolo_box must be a float number")):
        if not ok:
            raise TypeError(message)
    helper = LayerHelper("yolo_box")
    boxes = helper.create_variable_for_type_inference(dtype=x.dtype)
    scores = helper.create_variable_for_type_inference(dtype=x.dtype)
    helper.append_op(type="yolo_box", inputs={"X": x, "ImgSize": img_size},
                     outputs={"Boxes": boxes, "Scores": scores},
                     attrs={"anchors": list(anchors), "class_num": class_num,
                            "conf_thresh": conf_thresh, "downsample_ratio": downsample_ratio})
    return boxes, scores


def yolov3_loss(x, gt_box, gt_label, anchors, anchor_mask, class_num, ignore_thresh,
                downsample_ratio, gt_score=None, use_label_smooth=True, name=None):
    helper = LayerHelper("yolov3_loss")
    loss = helper.create_variable_for_type_inference(dtype=x.dtype)
    obj = helper.create_variable_for_type_inference(dtype=x.dtype)
    match = helper.create_variable_for_type_inference(dtype="int32")
    inputs = {"X": x, "GTBox": gt_box, "GTLabel": gt_label}
    if gt_score is not None:
        inputs["GTScore"] = gt_score
    helper.append_op(type="yolov3_loss", inputs=inputs,
                     outputs={"Loss": loss, "ObjectnessMask": obj, "GTMatchMask": match},
                     attrs={"anchors": list(anchors), "anchor_mask": list(anchor_mask),
                            "class_num": class_num, "ignore_thresh": ignore_thresh,
                            "downsample_ratio": downsample_ratio,
                            "use_label_smooth": use_label_smooth})
    return loss
