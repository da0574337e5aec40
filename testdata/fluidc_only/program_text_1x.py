# print(program), print(block), print(var) and print(op) in Paddle 1.0-1.5's
# framework.proto fields: a variable is `type: LOD_TENSOR` with
# `lod_tensor { tensor {...} lod_level: N }` (an array `LOD_TENSOR_ARRAY`
# with `tensor_array {...}`), a VarDesc holds name, type and persistable
# only, and a program ends with `version { version: 0 }`. fluidc only: no
# peer prints 1.x's text (Paddle 3.3.1 prints DENSE_TENSOR, and 1.x's own
# order of a block's variables was libstdc++'s unordered_map order; they
# print sorted by name here). Printing leaves the program's bytes as they
# were.
import paddle.fluid as fluid

prog = fluid.Program()
startup = fluid.Program()
with fluid.program_guard(prog, startup):
    x = fluid.layers.data(name='x', shape=[3], dtype='float32')
    words = fluid.layers.data(name='words', shape=[1], dtype='int64', lod_level=1)
    y = fluid.layers.fc(input=x, size=2)
    emb = fluid.layers.embedding(input=words, size=[10, 2])
    pooled = fluid.layers.sequence_pool(emb, 'sum')
    i = fluid.layers.zeros(shape=[1], dtype='int64')
    arr = fluid.layers.array_write(y, i)
    n = fluid.layers.fill_constant(shape=[1], dtype='int64', value=2)
    cond = fluid.layers.less_than(i, n)
    loop = fluid.layers.While(cond=cond)
    with loop.block():
        z = fluid.layers.scale(x, scale=2.0)
        fluid.layers.increment(i, in_place=True)
        fluid.layers.less_than(i, n, cond=cond)
    loss = fluid.layers.mean(fluid.layers.elementwise_add(y, pooled))
    fluid.optimizer.SGD(learning_rate=0.1).minimize(loss)

before = prog.desc.serialize_to_string()
text = str(prog)
assert text == prog.to_string(True) == prog.to_string(False)
assert prog.desc.serialize_to_string() == before


def names_in(block_text, indent):
    key = indent + 'name: "'
    return [l[len(key):-1] for l in block_text.split('\n') if l.startswith(key)]


# Fields 1.x's framework.proto has, and none that Paddle 3 added.
for gone in ('DENSE_TENSOR', 'dense_tensor', 'legacy_lod_level', 'is_parameter',
             'stop_gradient', 'need_check_feed', 'op_device', 'with_quant_attr'):
    assert gone not in text, gone
assert text.endswith('}\nversion {\n  version: 0\n}\n'), text[-80:]
assert text.startswith('blocks {\n  idx: 0\n  parent_idx: -1\n  vars {\n'), text[:80]

# Each block's variables sorted by name, every one a LoDTensor or an array.
blocks = text.split('\nblocks {\n')
assert len(blocks) == prog.num_blocks == 2, len(blocks)
for b, block in zip(prog.blocks, blocks):
    names = names_in(block, '    ')
    assert names == sorted(b.vars), (names, sorted(b.vars))
    for name in names:
        v = b.var(name)
        lines = str(v).splitlines()
        assert lines[0] == 'name: "%s"' % name and lines[-1].startswith('persistable: '), lines
        assert lines[2] in ('  type: LOD_TENSOR', '  type: LOD_TENSOR_ARRAY',
                            '  type: STEP_SCOPES'), (name, lines[2])
        assert ''.join('    ' + l + '\n' for l in lines) in block, name

var_text = str(words)
assert var_text == (
    'name: "words"\n'
    'type {\n'
    '  type: LOD_TENSOR\n'
    '  lod_tensor {\n'
    '    tensor {\n'
    '      data_type: INT64\n'
    '      dims: -1\n'
    '      dims: 1\n'
    '    }\n'
    '    lod_level: 1\n'
    '  }\n'
    '}\n'
    'persistable: false\n'), var_text
w = prog.global_block().var('fc_0.w_0')
assert str(w) == (
    'name: "fc_0.w_0"\n'
    'type {\n'
    '  type: LOD_TENSOR\n'
    '  lod_tensor {\n'
    '    tensor {\n'
    '      data_type: FP32\n'
    '      dims: 3\n'
    '      dims: 2\n'
    '    }\n'
    '    lod_level: 0\n'
    '  }\n'
    '}\n'
    'persistable: true\n'), str(w)
arr_text = str(arr)
assert arr_text.startswith('name: "%s"\ntype {\n  type: LOD_TENSOR_ARRAY\n  tensor_array {\n'
                           % arr.name), arr_text
assert '\n    lod_level: 0\n  }\n}\npersistable: false\n' in arr_text, arr_text
# Each variable prints in its block as it prints alone.
for v in (words, w, arr):
    assert ('  vars {\n' + ''.join('    ' + l + '\n' for l in str(v).splitlines()) + '  }\n'
            in text), v.name

# A block prints as in the program, with its parent.
body = prog.block(1)
body_text = str(body)
assert body_text == body.to_string(True)
assert body_text.startswith('idx: 1\nparent_idx: 0\n'), body_text[:40]
assert names_in(body_text, '  ') == sorted(body.vars), body_text
assert ''.join('  ' + l + '\n' for l in body_text.splitlines()) in text

# An op: slots, type and attributes; none of Paddle 1.7+'s attributes.
op = prog.global_block().ops[0]
op_text = str(op)
assert op_text == op.to_string(True) == repr(op)
assert ('type: "%s"\n' % op.type) in op_text, op_text
assert 'op_role' in op_text and 'op_device' not in op_text, op_text

# with_details: 1.x's own layout, variables in declaration order.
detail = fluid.Program().to_string(True, True)
assert detail == 'blocks {\n  idx: 0\n  parent_idx: -1\n}', detail

# A program read back from its bytes prints the same.
again = fluid.Program.parse_from_string(before)
assert str(again) == text
print('ok')
