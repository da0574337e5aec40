# Box coding as SSD and Faster R-CNN code used it: ground-truth boxes
# encoded against prior boxes (variances as a Variable or a list, None
# refused; pixel boxes), predicted offsets decoded back (priors along axis 0
# and, per row, along axis 1), and a LoD target kept through the encode.
import numpy as np
import paddle.fluid as fluid

prior = fluid.layers.data(name='prior', shape=[4, 4], dtype='float32', append_batch_size=False)
prior_var = fluid.layers.data(name='prior_var', shape=[4, 4], dtype='float32',
                              append_batch_size=False)
gt = fluid.layers.data(name='gt', shape=[4], dtype='float32', lod_level=1)
deltas = fluid.layers.data(name='deltas', shape=[3, 4, 4], dtype='float32',
                           append_batch_size=False)
rows = fluid.layers.data(name='rows', shape=[3, 4], dtype='float32', append_batch_size=False)

enc_var = fluid.layers.box_coder(prior, prior_var, gt)
enc_list = fluid.layers.box_coder(prior_box=prior, prior_box_var=[0.1, 0.1, 0.2, 0.2],
                                  target_box=gt, code_type='encode_center_size')
enc_pixels = fluid.layers.box_coder(prior, prior_var, gt, box_normalized=False)
dec_var = fluid.layers.box_coder(prior, prior_var, deltas, code_type='decode_center_size',
                                 name='decoded')
dec_list = fluid.layers.box_coder(prior, [0.1, 0.1, 0.2, 0.2], deltas,
                                  code_type='decode_center_size', box_normalized=False)
dec_axis1 = fluid.layers.box_coder(rows, [0.2, 0.2, 0.5, 0.5], deltas,
                                   code_type='decode_center_size', axis=1)
print(enc_var.shape, dec_var.shape, dec_axis1.shape, dec_var.name)
try:
    fluid.layers.box_coder(prior, None, gt)
except TypeError as e:
    print('TypeError:', e)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
np.random.seed(2)
def boxes(n, scale=1.0):
    lo = np.random.rand(n, 2) * 0.5 * scale
    return np.hstack([lo, lo + (np.random.rand(n, 2) * 0.4 + 0.1) * scale]).astype('float32')
gt_t = fluid.create_lod_tensor(boxes(5), [[2, 3]], fluid.CPUPlace())
feed = {'prior': boxes(4), 'prior_var': (np.random.rand(4, 4) * 0.2 + 0.1).astype('float32'),
        'gt': gt_t, 'deltas': (np.random.randn(3, 4, 4) * 0.5).astype('float32'),
        'rows': boxes(3, 20.0)}
outs = exe.run(feed=feed, fetch_list=[enc_var, enc_list, enc_pixels, dec_var, dec_list,
                                      dec_axis1], return_numpy=False)
for name, t in zip(['enc_var', 'enc_list', 'enc_pixels', 'dec_var', 'dec_list', 'dec_axis1'],
                   outs):
    o = np.array(t)
    print(name, o.shape, t.lod())
    print(np.round(o[:2].astype('float64'), 4).tolist())
    print(round(float(o.sum()), 3))
