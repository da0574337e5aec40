# SyntaxErrors a script meets when it compiles code of its own (exec of
# Python 2 lines, a config's expression), caught and printed.
for src in ["print 'x'", "exec 'y = 1'", "    print  total", "a = 1 2", "f(x for x in y z)"]:
    try:
        compile(src.strip(), "<cfg>", "exec")
    except SyntaxError as e:
        print(repr(src), e.msg, e.lineno)
