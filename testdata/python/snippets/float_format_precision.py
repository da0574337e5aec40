# A float formatted with a precision and no type ('{:.2}'.format(loss), as the 2018 book printed test losses): CPython's
# 'g' with at least one digit past the point, exponent notation one digit earlier; widths, fills, signs, grouping (and
# grouped 'g', on which RustPython's own formatting panicked).
vals = [1.0, 0.5, 2.25, 123.0, 0.0001234, 1e16, 100.0, 0.0, -0.0, -1.0, 12.0, 1.5e-5, 99.5, 1234567.0,
        float('inf'), float('-inf'), float('nan'), 3.14159, 1e-300, 7e22]
specs = ['.2', '0.2', '.3', '.1', '.0', '10.3', '<10.2', '^9.2', '=+10.2', '+.2', ' .4', '#.2', '#.3', ',.8',
         '_.9', '010.2', '*>12.4', '-.5', '.17', '.20', '.2f', 'g', '', '10', '.2e', '.2%']
for v in vals:
    print(' | '.join(format(v, s) for s in specs))
print('{:.2} {:0.2} {:.3}'.format(1.0, 0.25, 12.0), f"{2.0:.2}", '%.2g' % 1.0)
class F(float):
    pass
print(format(F(1.0), '.2'), '{:.2}'.format(F(12.0)))
print(float.__format__(1.0, '.2'), (1.0).__format__('.3'))
try:
    format(1.0, '.2x')
except ValueError as e:
    print('ValueError', e)
for v in [1234567.0, -1234.5, 0.5, 1e20, 12345.678, float('nan'), -0.0, 1.0]:
    print(format(v, ',.8g'), format(v, '_g'), format(v, '>15,.3G'), format(v, '015,g'), format(v, '012,.6'),
          format(v, '=+14_.4'), format(v, '*<12,g'), format(v, '0=12,.3'), format(v, ',.3'))
