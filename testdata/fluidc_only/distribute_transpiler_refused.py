# 1.x's DistributeTranspiler (parameter servers, or NCCL2) cannot train on
# Paddle 3.3.1's CPU engine: fluidc refuses transpile() and names the way it
# does train data-parallel (fluidc distribute + paddle.distributed.launch).
import paddle.fluid as fluid

x = fluid.layers.data(name='x', shape=[1])
loss = fluid.layers.mean(fluid.layers.fc(input=x, size=1))
fluid.optimizer.SGD(learning_rate=0.1).minimize(loss)

for mode in ("pserver", "nccl2"):
    config = fluid.DistributeTranspilerConfig()
    config.mode = mode
    t = fluid.transpiler.DistributeTranspiler(config=config)
    try:
        t.transpile(0, pservers="127.0.0.1:6174", trainers=2)
    except NotImplementedError as e:
        assert "fluidc distribute" in str(e) and mode in str(e), str(e)
    else:
        raise AssertionError("transpile(%s) was accepted" % mode)
print("refused")
