# A 2019 (Paddle 1.6) policy-gradient style script with
# fluid.layers.distributions: a Categorical policy over action logits (its
# entropy bonus and the KL to the old policy), a Normal policy for a
# continuous action (log-probabilities of the taken actions, KL), Uniform
# priors, MultivariateNormalDiag entropy and KL, and seeded samples' shapes.
import warnings

import numpy as np
import paddle.fluid as fluid

warnings.simplefilter("ignore")

obs = fluid.layers.data(name='obs', shape=[4], dtype='float32')
old_logits = fluid.layers.data(name='old_logits', shape=[3], dtype='float32')
action = fluid.layers.data(name='action', shape=[2], dtype='float32')
logits = fluid.layers.fc(obs, size=3, param_attr=fluid.ParamAttr(
    initializer=fluid.initializer.NumpyArrayInitializer(
        np.linspace(-0.6, 0.6, 12).reshape(4, 3).astype('float32'))), bias_attr=False)
policy = fluid.layers.Categorical(logits)
old_policy = fluid.layers.distributions.Categorical(old_logits)
entropy = policy.entropy()
kl = old_policy.kl_divergence(policy)

mu = fluid.layers.fc(obs, size=2, param_attr=fluid.ParamAttr(
    initializer=fluid.initializer.Constant(0.25)), bias_attr=False)
sigma = fluid.layers.fill_constant_batch_size_like(obs, shape=[-1, 2], dtype='float32',
                                                   value=0.8)
gauss = fluid.layers.Normal(mu, sigma)
logp = gauss.log_prob(action)
gauss_entropy = gauss.entropy()
prior = fluid.layers.Normal(fluid.layers.zeros_like(mu), fluid.layers.ones_like(sigma))
gauss_kl = gauss.kl_divergence(prior)
loss = fluid.layers.mean(-logp) - 0.01 * fluid.layers.mean(entropy) + fluid.layers.mean(kl)
fluid.optimizer.SGD(learning_rate=0.1).minimize(loss)

# Distributions of numbers, numpy arrays and lists.
u = fluid.layers.Uniform([0.0, -1.0], np.array([2.0, 3.0]))
points = fluid.layers.assign(np.array([[0.5, -2.0], [1.5, 2.5]], 'float32'))
u_logp = u.log_prob(points)
u_entropy = u.entropy()
n1 = fluid.layers.Normal(0.5, 2.0)
n2 = fluid.layers.Normal(np.array([0.0, 1.0], 'float32'), [1.0, 0.5])
n_kl = n1.kl_divergence(n2)
n_logp = n2.log_prob(fluid.layers.assign(np.array([0.3, 0.9], 'float32')))
n_entropy = n1.entropy()
c1 = fluid.layers.Categorical(np.array([[1.0, 2.0, 0.5], [0.1, 0.1, 3.0]], 'float32'))
c2 = fluid.layers.Categorical([[0.0, 0.0, 0.0], [1.0, -1.0, 0.5]])
c_kl = c1.kl_divergence(c2)
c_entropy = c2.entropy()
as_var = fluid.layers.assign
m1 = fluid.layers.MultivariateNormalDiag(as_var(np.array([0.3, 0.5], 'float32')),
                                         as_var(np.array([[0.4, 0.0], [0.0, 0.5]], 'float32')))
m2 = fluid.layers.MultivariateNormalDiag(as_var(np.array([0.2, 0.1], 'float32')),
                                         as_var(np.array([[0.3, 0.0], [0.0, 0.9]], 'float32')))
m_entropy = m1.entropy()
m_kl = m1.kl_divergence(m2)
samples = [fluid.layers.Uniform(1.0, 3.0).sample([5, 3], seed=2),
           u.sample([4], seed=3), n1.sample([2, 2], seed=4), n2.sample([6], seed=5),
           fluid.layers.Uniform(fluid.layers.zeros_like(mu), fluid.layers.ones_like(mu)).sample(
               [], seed=6), gauss.sample([], seed=7)]
print("shapes:", [list(v.shape) for v in [entropy, kl, logp, gauss_entropy, u_logp, n_kl,
                                          c_kl, c_entropy, m_entropy, m_kl]])
print("sample shapes:", [list(s.shape) for s in samples])

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
rng = np.random.RandomState(4)
feed = {'obs': rng.uniform(-1, 1, (5, 4)).astype('float32'),
        'old_logits': rng.uniform(-1, 1, (5, 3)).astype('float32'),
        'action': rng.uniform(-1, 1, (5, 2)).astype('float32')}
for step in range(3):
    l, e, k, lp = exe.run(feed=feed, fetch_list=[loss, entropy, kl, logp])
    print("step %d loss %.5f entropy %.5f kl %.5f logp %.5f" % (
        step, float(np.array(l).ravel()[0]), float(e.mean()), float(k.mean()),
        float(lp.mean())))
fixed = exe.run(feed=feed, fetch_list=[gauss_entropy, gauss_kl, u_logp, u_entropy, n_kl, n_logp,
                                       n_entropy, c_kl, c_entropy, m_entropy, m_kl])
for name, v in zip(['gauss_entropy', 'gauss_kl', 'u_logp', 'u_entropy', 'n_kl', 'n_logp',
                    'n_entropy', 'c_kl', 'c_entropy', 'm_entropy', 'm_kl'], fixed):
    print(name, np.round(np.asarray(v, 'float64')[:2], 5).tolist())
drawn = exe.run(feed=feed, fetch_list=samples)
print("sampled shapes:", [list(d.shape) for d in drawn])
print("uniform(1, 3) within [-1, 3):", bool(((drawn[0] >= -1) & (drawn[0] < 3)).all()))
# Seeded draws repeat Paddle's (1.6's Uniform.sample drew u from [-1, 1)).
print("seeded:", [np.round(np.asarray(d, 'float64').ravel()[:3], 4).tolist() for d in drawn[:5]])
try:
    fluid.layers.Normal(mu, 1.0)
except ValueError as e:
    print("ValueError:", e)
