# A sparse embedding (is_sparse=True) trained with Adamax or Adadelta:
# Paddle 1.x's adamax and adadelta kernels took dense gradients only and
# failed with "The Var(...)'s type should be LoDTensor, but the received
# is SelectedRows"; fluidc refuses it with that error when the optimizer
# op is built (fluidc only: Paddle 3.3.1 crashes on it). A dense
# embedding trains with both.
import paddle.fluid as fluid

for opt in (fluid.optimizer.Adamax(learning_rate=0.1),
            fluid.optimizer.Adadelta(learning_rate=0.1)):
    for sparse in (True, False):
        main, startup = fluid.Program(), fluid.Program()
        with fluid.program_guard(main, startup):
            ids = fluid.layers.data(name='ids', shape=[1], dtype='int64')
            emb = fluid.layers.embedding(ids, size=[10, 4], is_sparse=sparse)
            loss = fluid.layers.mean(emb)
            try:
                opt.minimize(loss)
                refused = None
            except fluid.core.EnforceNotMet as e:
                refused = str(e)
        if sparse:
            assert refused is not None and 'SelectedRows' in refused, refused
        else:
            assert refused is None, refused
print('ok')
