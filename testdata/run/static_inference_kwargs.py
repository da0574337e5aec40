# paddle.static.save_inference_model(..., separate_parameters=True) writes
# the program as `__model__` and one file per variable in the prefix's
# directory (Paddle 3's layout), which load_inference_model reads back
# with model_filename; a keyword load_inference_model does not know is a
# ValueError, as Paddle's check makes it.
import os
import shutil
import tempfile

import numpy as np
import paddle
import paddle.fluid as fluid

x = fluid.layers.data(name='x', shape=[2], dtype='float32')
y = fluid.layers.fc(input=x, size=1,
                    param_attr=fluid.ParamAttr(name='w', initializer=fluid.initializer.Constant(0.5)),
                    bias_attr=fluid.ParamAttr(name='b', initializer=fluid.initializer.Constant(0.25)))
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
tmp = tempfile.mkdtemp()
try:
    paddle.static.save_inference_model(os.path.join(tmp, 'model'), [x], [y], exe,
                                       separate_parameters=True)
    print(sorted(os.listdir(tmp)))
    for bad in ({'pserver_endpoints': None}, {'model_file': '__model__'}):
        try:
            paddle.static.load_inference_model(os.path.join(tmp, 'model'), exe, **bad)
        except ValueError as e:
            print('ValueError:', e)
    with fluid.scope_guard(fluid.Scope()):
        program, feeds, fetches = paddle.static.load_inference_model(
            tmp, exe, model_filename='__model__')
        print(feeds, [v.name for v in fetches])
        out, = exe.run(program, feed={'x': np.array([[1.0, 2.0]], dtype='float32')},
                       fetch_list=fetches)
        print(np.array(out).tolist())
finally:
    shutil.rmtree(tmp)
