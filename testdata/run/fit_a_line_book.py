# The 2019 book's fit_a_line/train.py, in its shape: argparse options with
# their defaults (fluidc run passes no words after `--` here), a
# train_test helper, main(use_cuda) under `if __name__ == '__main__'`, the
# models repo's print_arguments with six, and early stopping on the test
# loss. UCI housing comes from Paddle's dataset cache (the test puts a
# small housing.data under a temporary HOME). Costs print with 2 decimals
# (the book: %f): after a few SGD steps, fluidc's and Paddle's float32
# parameters differ in the last bit (GEMMs sum in different orders).
from __future__ import print_function

import argparse
import math
import sys

import numpy
import six
import paddle
import paddle.fluid as fluid


def parse_args():
    parser = argparse.ArgumentParser("fit_a_line")
    parser.add_argument(
        '--enable_ce',
        action='store_true',
        help="If set, run the task with continuous evaluation logs.")
    parser.add_argument(
        '--use_gpu',
        type=bool,
        default=False,
        help="Whether to use GPU or not.")
    parser.add_argument(
        '--num_epochs', type=int, default=3, help="number of epochs.")
    args = parser.parse_args()
    return args


def print_arguments(args):
    print("-----------  Configuration Arguments -----------")
    for arg, value in sorted(six.iteritems(vars(args))):
        print("%s: %s" % (arg, value))
    print("------------------------------------------------")


# For training test cost
def train_test(executor, program, reader, feeder, fetch_list):
    accumulated = 1 * [0]
    count = 0
    for data_test in reader():
        outs = executor.run(
            program=program, feed=feeder.feed(data_test), fetch_list=fetch_list)
        # Paddle 3 fetches the mean as a 0-d array (1.x: shape [1]).
        accumulated = [x_c[0] + float(x_c[1]) for x_c in zip(accumulated, outs)]
        count += 1
    return [x_d / count for x_d in accumulated]


def main(use_cuda, num_epochs):
    batch_size = 20
    train_reader = paddle.batch(paddle.dataset.uci_housing.train(), batch_size=batch_size)
    test_reader = paddle.batch(paddle.dataset.uci_housing.test(), batch_size=batch_size)

    main_program = fluid.default_main_program()
    startup_program = fluid.default_startup_program()
    main_program.random_seed = 90
    startup_program.random_seed = 90

    x = fluid.layers.data(name='x', shape=[13], dtype='float32')
    y = fluid.layers.data(name='y', shape=[1], dtype='float32')
    y_predict = fluid.layers.fc(input=x, size=1, act=None)
    cost = fluid.layers.square_error_cost(input=y_predict, label=y)
    avg_loss = fluid.layers.mean(cost)

    test_program = main_program.clone(for_test=True)
    sgd_optimizer = fluid.optimizer.SGD(learning_rate=0.001)
    sgd_optimizer.minimize(avg_loss)

    place = fluid.CPUPlace()
    exe = fluid.Executor(place)
    exe.run(startup_program)

    feeder = fluid.DataFeeder(place=place, feed_list=[x, y])
    train_prompt = "Train cost"
    test_prompt = "Test cost"
    step = 0
    for pass_id in range(num_epochs):
        for data_train in train_reader():
            avg_loss_value, = exe.run(
                main_program, feed=feeder.feed(data_train), fetch_list=[avg_loss])
            if step % 2 == 0:  # record a train cost every 2 batches
                print("%s, Step %d, Cost %.2f" % (train_prompt, step, float(avg_loss_value)))
            if step % 4 == 0:  # record a test cost every 4 batches
                test_metics = train_test(
                    executor=exe,
                    program=test_program,
                    reader=test_reader,
                    fetch_list=[avg_loss],
                    feeder=feeder)
                print("%s, Step %d, Cost %.2f" % (test_prompt, step, test_metics[0]))
                if test_metics[0] < 10.0:
                    break
            step += 1
            if math.isnan(float(avg_loss_value)):
                sys.exit("got NaN loss, training failed.")


if __name__ == '__main__':
    args = parse_args()
    print_arguments(args)
    main(use_cuda=args.use_gpu, num_epochs=args.num_epochs)
