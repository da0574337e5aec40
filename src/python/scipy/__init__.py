"""fluidc's scipy: only `scipy.special`'s `expit`, `logit` and `erf`, which
Paddle's 2018-19 op tests (test_activation_op, test_sigmoid_cross_entropy_
with_logits_op) computed their expected values with."""
