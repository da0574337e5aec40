//! numpy's own kernels for the math functions its SIMD code computes
//! (numpy 2.4 on x86-64 with AVX2 and FMA, `X86_V3`, and the same
//! algorithms on AVX-512): float32 `exp` and `log`
//! (`loops_exponent_log.dispatch.c.src`), float32 and float64 `tanh`
//! (`loops_hyperbolic.dispatch.cpp.src`, converted from Intel's SVML) and
//! float32 `sin` and `cos` (`loops_trigonometric.dispatch.cpp`), one
//! element at a time with the same fused multiply-adds, so every result is
//! numpy's to the bit. The C library's functions (what float64 `exp`,
//! `log`, `sin` and `cos` call in numpy) differ from these in the last bit
//! for some arguments.

/// numpy's `simd_range_reduction`: `x - y*C` in three fused steps.
fn range_reduction(x: f32, y: f32, c1: f32, c2: f32, c3: f32) -> f32 {
    let r = y.mul_add(c1, x);
    let r = y.mul_add(c2, r);
    y.mul_add(c3, r)
}

/// `x + 0x1.8p23 - 0x1.8p23`: round to nearest even for |x| <= 2**22.
fn rint_magic(x: f32) -> f32 {
    const MAGIC: f32 = 12_582_912.0; // 0x1.800000p+23
    (x + MAGIC) - MAGIC
}

/// numpy's `fma_scalef_ps`: `poly * 2**quadrant` by adding to the
/// exponent bits, dividing for results that are denormal.
fn scalef(poly: f32, quadrant: f32) -> f32 {
    let min_quadrant = -125.0f32;
    if quadrant <= min_quadrant {
        let diff = 0.0 - (quadrant - min_quadrant);
        let shift = diff.round_ties_even() as i32;
        let two_power_diff = if (0..32).contains(&shift) {
            1i32 << shift
        } else {
            0
        };
        let q = quadrant.max(min_quadrant);
        let poly = f32::from_bits((poly.to_bits() as i32).wrapping_add((q as i32) << 23) as u32);
        poly / two_power_diff as f32
    } else {
        let e = (quadrant.round_ties_even() as i32).wrapping_shl(23);
        f32::from_bits((poly.to_bits() as i32).wrapping_add(e) as u32)
    }
}

#[allow(clippy::excessive_precision)]
/// numpy's float32 `exp` (`simd_exp_FLOAT`): Cody-Waite reduction by
/// ln 2 and a (5, 2) rational minimax polynomial.
pub fn exp_f32(x: f32) -> f32 {
    const XMAX: f32 = 88.722_839_355_468_75;
    const XMIN: f32 = -103.972_084_045_410_156_25;
    const C1: f32 = -6.931_457_52e-1;
    const C2: f32 = -1.428_606_77e-6;
    const P: [f32; 6] = [
        9.999_999_999_980_870_924_916e-1,
        7.257_664_613_233_124_478_488e-1,
        2.473_615_434_895_520_810_817e-1,
        5.114_512_081_637_298_353_406e-2,
        6.757_896_990_527_504_603_057e-3,
        5.082_762_527_590_693_718_096e-4,
    ];
    const Q: [f32; 3] = [
        1.0,
        -2.742_335_390_411_667_452_936e-1,
        2.159_509_375_685_829_852_307e-2,
    ];
    if x.is_nan() {
        return f32::NAN;
    }
    if x >= XMAX {
        return f32::INFINITY;
    }
    if x <= XMIN {
        return 0.0;
    }
    let quadrant = rint_magic(x * std::f32::consts::LOG2_E);
    let r = range_reduction(x, quadrant, C1, C2, 0.0);
    let mut num = P[5].mul_add(r, P[4]);
    num = num.mul_add(r, P[3]);
    num = num.mul_add(r, P[2]);
    num = num.mul_add(r, P[1]);
    num = num.mul_add(r, P[0]);
    let mut den = Q[2].mul_add(r, Q[1]);
    den = den.mul_add(r, Q[0]);
    scalef(num / den, quadrant)
}

#[allow(clippy::excessive_precision)]
/// numpy's float32 `log` (`simd_log_FLOAT`): the mantissa in
/// [sqrt(1/2), sqrt(2)) and a (5, 5) rational minimax polynomial for
/// `log(1 + m)`.
pub fn log_f32(x: f32) -> f32 {
    const P: [f32; 6] = [
        0.0,
        9.999_999_999_999_998_702_752e-1,
        2.112_677_543_073_053_063_722,
        1.480_000_633_576_506_585_156,
        3.808_837_741_388_407_920_751e-1,
        2.589_979_117_907_922_693_523e-2,
    ];
    const Q: [f32; 6] = [
        1.0,
        2.612_677_543_073_109_236_779,
        2.453_006_071_784_736_363_091,
        9.864_942_958_519_418_960_339e-1,
        1.546_476_374_983_906_719_538e-1,
        5.875_095_403_124_574_342_950e-3,
    ];
    if x.is_nan() {
        return f32::NAN;
    }
    if x < 0.0 {
        return -f32::NAN;
    }
    if x == 0.0 {
        return f32::NEG_INFINITY;
    }
    if x == f32::INFINITY {
        return f32::INFINITY;
    }
    // Denormals are scaled by 2**100 first.
    let (scaled, bias) = if x < f32::MIN_POSITIVE {
        (x * f32::from_bits(0x7180_0000), 100.0)
    } else {
        (x, 0.0)
    };
    let bits = scaled.to_bits();
    let mut exponent = ((bits >> 23) as i32 - 0x7e) as f32 - bias;
    let mut m = f32::from_bits((bits & 0x007f_ffff) | (126 << 23));
    if m <= std::f32::consts::FRAC_1_SQRT_2 {
        m = m + m;
        exponent -= 1.0;
    }
    let m = m - 1.0;
    let mut num = P[5].mul_add(m, P[4]);
    num = num.mul_add(m, P[3]);
    num = num.mul_add(m, P[2]);
    num = num.mul_add(m, P[1]);
    num = num.mul_add(m, P[0]);
    let mut den = Q[5].mul_add(m, Q[4]);
    den = den.mul_add(m, Q[3]);
    den = den.mul_add(m, Q[2]);
    den = den.mul_add(m, Q[1]);
    den = den.mul_add(m, Q[0]);
    exponent.mul_add(std::f32::consts::LN_2, num / den)
}

/// numpy's float32 `sin` and `cos` (`simd_sincos_f32`): Cody-Waite
/// reduction by pi/2 and minimax polynomials; large arguments go to the C
/// library.
fn sincos_f32(x: f32, cos: bool) -> f32 {
    if x.is_nan() {
        return f32::NAN;
    }
    // 71476.0625 and 117435.992 (as float32).
    let max = f32::from_bits(if cos { 0x478b_9a08 } else { 0x47e5_5dff });
    if x.abs() > max {
        return if cos { x.cos() } else { x.sin() };
    }
    let quadrant = rint_magic(x * f32::from_bits(0x3f22_f983));
    let r = range_reduction(
        x,
        quadrant,
        f32::from_bits(0xbfc9_0fd8),
        f32::from_bits(0xb4a8_885a),
        f32::from_bits(0xa7c2_34c4),
    );
    let r2 = r * r;
    let mut c = f32::from_bits(0x37cc_730b).mul_add(r2, f32::from_bits(0xbab6_036e));
    c = c.mul_add(r2, f32::from_bits(0x3d2a_aa9e));
    c = c.mul_add(r2, -0.5);
    c = c.mul_add(r2, 1.0);
    let mut s = f32::from_bits(0x363e_9dde).mul_add(r2, f32::from_bits(0xb950_35dd));
    s = s.mul_add(r2, f32::from_bits(0x3c08_88cd));
    s = s.mul_add(r2, f32::from_bits(0xbe2a_aaab));
    s = s.mul_add(r2, 0.0);
    s = s.mul_add(r, r);
    let mut q = quadrant.round_ties_even() as i32;
    if cos {
        q = q.wrapping_add(1);
    }
    let v = if q & 1 == 0 { s } else { c };
    if q & 2 == 2 {
        0.0 - v
    } else {
        v
    }
}

pub fn sin_f32(x: f32) -> f32 {
    sincos_f32(x, false)
}

pub fn cos_f32(x: f32) -> f32 {
    sincos_f32(x, true)
}

/// numpy's float32 `tanh` (`simd_tanh_f32`, after SVML): a polynomial of
/// degree 6 in `|x| - b` on each of 32 intervals, `1` beyond them.
pub fn tanh_f32(x: f32) -> f32 {
    if x.is_nan() {
        return f32::NAN;
    }
    let bits = x.to_bits() as i32;
    let ndnan = bits & 0x7fe0_0000;
    let special = ndnan > 0x7f00_0000;
    let idx = ((ndnan - 0x3d40_0000).clamp(0, 0x03e0_0000) >> 21) as usize;
    let row = &TANH_F32[idx];
    let c = |k: usize| f32::from_bits(row[k]);
    // c6, c5, c4, c3, c2, c1, c0, b
    let y = x.abs() - c(7);
    let mut r = c(0).mul_add(y, c(1));
    for k in 2..7 {
        r = r.mul_add(y, c(k));
    }
    let r = if special { 1.0 } else { r };
    f32::from_bits(r.to_bits() | (x.to_bits() & 0x8000_0000))
}

/// numpy's float64 `tanh` (`simd_tanh_f64`, after SVML): a polynomial of
/// degree 16 in `|x| - b` on each of 16 intervals, `1` beyond them.
pub fn tanh_f64(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    let bits = x.to_bits() as i64;
    let ndnan = bits & 0x7ff8_0000_0000_0000;
    let special = ndnan > 0x7fe0_0000_0000_0000;
    // numpy clamps the high 32 bits of `ndnan - 0x3fc0...` to
    // [0, 0x780000] and shifts them down by 19.
    let high = ((ndnan - 0x3fc0_0000_0000_0000) >> 32) as i32;
    let idx = (high.clamp(0, 0x0078_0000) >> 19) as usize;
    let row = &TANH_F64[idx];
    let c = |k: usize| f64::from_bits(row[k]);
    // b, c0, c1, ..., c16
    let y = x.abs() - c(0);
    let mut r = c(17).mul_add(y, c(16));
    for k in (1..16).rev() {
        r = r.mul_add(y, c(k));
    }
    let r = if special { 1.0 } else { r };
    f64::from_bits(r.to_bits() | (x.to_bits() & 0x8000_0000_0000_0000))
}

/// `frexp`: `x = m * 2**e` with `m` in [0.5, 1) (finite nonzero `x`).
fn frexp(x: f64) -> (f64, i32) {
    let bits = x.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    if exp == 0 {
        // Subnormal: scale into the normal range first.
        let (m, e) = frexp(x * f64::from_bits(0x4350_0000_0000_0000));
        return (m, e - 54);
    }
    let m = f64::from_bits((bits & !(0x7ff << 52)) | (0x3fe << 52));
    (m, exp - 0x3fe)
}

/// `2**n` for the exponents `cbrt` scales by.
fn pow2(n: i32) -> f64 {
    f64::from_bits(((n + 0x3ff) as u64) << 52)
}

#[allow(clippy::excessive_precision)]
const CBRT2: f64 = 1.259_921_049_894_873_164_8;
#[allow(clippy::excessive_precision)]
const SQR_CBRT2: f64 = 1.587_401_051_968_199_474_8;

/// glibc's `factor[2 + xe % 3]` of `cbrt`.
fn cbrt_factor(e: i32) -> f64 {
    match e % 3 {
        -2 => 1.0 / SQR_CBRT2,
        -1 => 1.0 / CBRT2,
        1 => CBRT2,
        2 => SQR_CBRT2,
        _ => 1.0,
    }
}

/// glibc's `cbrt` (`sysdeps/ieee754/dbl-64/s_cbrt.c`), which numpy calls
/// (Rust's own differs in the last bit).
#[allow(clippy::excessive_precision)]
pub fn cbrt_f64(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x + x;
    }
    let (xm, xe) = frexp(x.abs());
    let u = 0.354_895_765_043_919_860
        + ((1.508_191_937_815_848_96
            + ((-2.114_994_941_673_712_87
                + ((2.446_931_225_635_344_30
                    + ((-1.834_692_774_836_130_86
                        + (0.784_932_344_976_639_262 - 0.145_263_899_385_486_377 * xm) * xm)
                        * xm))
                    * xm))
                * xm))
            * xm);
    let t2 = u * u * u;
    let ym = u * (t2 + 2.0 * xm) / (2.0 * t2 + xm) * cbrt_factor(xe);
    let ym = if x > 0.0 { ym } else { -ym };
    ym * pow2(xe / 3)
}

/// glibc's `cbrtf` (`sysdeps/ieee754/flt-32/s_cbrtf.c`): float variables,
/// double constants, as C evaluates them.
#[allow(clippy::excessive_precision)]
pub fn cbrt_f32(x: f32) -> f32 {
    if x == 0.0 || !x.is_finite() {
        return x + x;
    }
    let (xm, xe) = frexp(f64::from(x.abs()));
    let xm = xm as f32;
    let u = (0.492_659_620_528_969_547
        + (0.697_570_460_207_922_770 - 0.191_502_161_678_719_066 * f64::from(xm)) * f64::from(xm))
        as f32;
    let t2 = u * u * u;
    let ym = (f64::from(u) * (f64::from(t2) + 2.0 * f64::from(xm))
        / (2.0 * f64::from(t2) + f64::from(xm))
        * cbrt_factor(xe)) as f32;
    let ym = if x > 0.0 { ym } else { -ym };
    (f64::from(ym) * pow2(xe / 3)) as f32
}

/// `simd_tanh_f32`'s table: per interval c6, c5, c4, c3, c2, c1, c0, b.
const TANH_F32: [[u32; 8]; 32] = [
    [
        0xbc0e2f66, 0x3e0910e9, 0xb76dd6b9, 0xbeaaaaa5, 0xb0343c7b, 0x3f800000, 0, 0,
    ],
    [
        0x460bda12, 0x43761143, 0xbe1c276d, 0xbeab0612, 0xbd6ee69d, 0x3f7f1f84, 0x3d6fb9c9,
        0x3d700000,
    ],
    [
        0x43d638ef, 0x4165ecdc, 0x3c1dcf2f, 0xbea7f01f, 0xbd8f0da7, 0x3f7ebd11, 0x3d8fc35f,
        0x3d900000,
    ],
    [
        0xc3e11c3e, 0xc190f756, 0x3dc1a78d, 0xbea4e120, 0xbdae477d, 0x3f7e1e5f, 0x3daf9169,
        0x3db00000,
    ],
    [
        0xc2baa4e9, 0xc08c097d, 0x3d96f985, 0xbea387b7, 0xbdcd2a1f, 0x3f7d609f, 0x3dcf49ab,
        0x3dd00000,
    ],
    [
        0xc249da2d, 0xc02ba813, 0x3da2b61b, 0xbea15962, 0xbdeba80d, 0x3f7c842d, 0x3deee849,
        0x3df00000,
    ],
    [
        0xc1859b82, 0xbf7f6bda, 0x3dc13397, 0xbe9d57f7, 0xbe0c443b, 0x3f7b00e5, 0x3e0f0ee8,
        0x3e100000,
    ],
    [
        0x40dd5b57, 0x3f2b1dc0, 0x3dd2f670, 0xbe976b5a, 0xbe293cf3, 0x3f789580, 0x3e2e4984,
        0x3e300000,
    ],
    [
        0x40494640, 0x3ece105d, 0x3df48a0a, 0xbe90230d, 0xbe44f282, 0x3f75b8ad, 0x3e4d2f8e,
        0x3e500000,
    ],
    [
        0x40c730a8, 0x3f426a94, 0x3e06c5a8, 0xbe880dff, 0xbe5f3651, 0x3f726fd9, 0x3e6bb32e,
        0x3e700000,
    ],
    [
        0xbf0f160e, 0xbadb0dc4, 0x3e1a3aba, 0xbe7479b3, 0xbe81c7c0, 0x3f6cc59b, 0x3e8c51cd,
        0x3e900000,
    ],
    [
        0x3e30e76f, 0x3da43b17, 0x3e27c405, 0xbe4c3d88, 0xbe96d7ca, 0x3f63fb92, 0x3ea96163,
        0x3eb00000,
    ],
    [
        0xbea81387, 0xbd51ab88, 0x3e2e78d0, 0xbe212482, 0xbea7fb8e, 0x3f59ff97, 0x3ec543f1,
        0x3ed00000,
    ],
    [
        0xbdb26a1c, 0xbcaea23d, 0x3e2c3e44, 0xbdeb8cba, 0xbeb50e9e, 0x3f4f11d7, 0x3edfd735,
        0x3ef00000,
    ],
    [
        0xbd351e57, 0xbd3b6d8d, 0x3e1d3097, 0xbd5e78ad, 0xbec12efe, 0x3f3d7573, 0x3f028438,
        0x3f100000,
    ],
    [
        0xbb4c01a0, 0xbd6caaad, 0x3df4a8f4, 0x3c6b5e6e, 0xbec4be92, 0x3f24f360, 0x3f18abf0,
        0x3f300000,
    ],
    [
        0x3c1d7bfb, 0xbd795bed, 0x3da38508, 0x3d839143, 0xbebce070, 0x3f0cbfe7, 0x3f2bc480,
        0x3f500000,
    ],
    [
        0x3c722cd1, 0xbd5fddda, 0x3d31416a, 0x3dc21ee1, 0xbead510e, 0x3eec1a69, 0x3f3bec1c,
        0x3f700000,
    ],
    [
        0x3c973f1c, 0xbd038f3b, 0x3b562657, 0x3de347af, 0xbe8ef7d6, 0x3eb0a801, 0x3f4f2e5b,
        0x3f900000,
    ],
    [
        0x3c33a31b, 0xbc1cad63, 0xbcaeeac9, 0x3dcbec96, 0xbe4b8704, 0x3e6753a2, 0x3f613c53,
        0x3fb00000,
    ],
    [
        0x3b862ef4, 0x3abb4766, 0xbcce9419, 0x3d99ef2d, 0xbe083237, 0x3e132f1a, 0x3f6ce37d,
        0x3fd00000,
    ],
    [
        0x3a27b3d0, 0x3b95f10b, 0xbcaaeac4, 0x3d542ea1, 0xbdaf7449, 0x3db7e7d3, 0x3f743c4f,
        0x3ff00000,
    ],
    [
        0xba3b5907, 0x3b825873, 0xbc49e7d0, 0x3cdde701, 0xbd2e1ec4, 0x3d320845, 0x3f7a5feb,
        0x40100000,
    ],
    [
        0xba0efc22, 0x3afaea66, 0xbba71ddd, 0x3c2cca67, 0xbc83bf06, 0x3c84d3d4, 0x3f7dea85,
        0x40300000,
    ],
    [
        0xb97f9f0f, 0x3a49f878, 0xbb003b0e, 0x3b81cb27, 0xbbc3e0b5, 0x3bc477b7, 0x3f7f3b3d,
        0x40500000,
    ],
    [
        0xb8c8af50, 0x39996bf3, 0xba3f9a05, 0x3ac073a1, 0xbb10aadc, 0x3b10d3da, 0x3f7fb78c,
        0x40700000,
    ],
    [
        0xb7bdddfb, 0x388f3e6c, 0xb92c08a7, 0x39ac3032, 0xba0157db, 0x3a01601e, 0x3f7fefd4,
        0x40900000,
    ],
    [
        0xb64f2950, 0x371bb0e3, 0xb7ba9232, 0x383a94d9, 0xb88c18f2, 0x388c1a3b, 0x3f7ffdd0,
        0x40b00000,
    ],
    [
        0xb4e085b1, 0x35a8a5e6, 0xb64a0b0f, 0x36ca081d, 0xb717b096, 0x3717b0da, 0x3f7fffb4,
        0x40d00000,
    ],
    [
        0xb3731dfa, 0x34369b17, 0xb4dac169, 0x355abd4c, 0xb5a43bae, 0x35a43bce, 0x3f7ffff6,
        0x40f00000,
    ],
    [
        0xb15a1f04, 0x322487b0, 0xb2ab78ac, 0x332b3cb6, 0xb383012c, 0x338306c6, 0x3f7fffff,
        0x41100000,
    ],
    [0, 0, 0, 0, 0, 0, 0x3f800000, 0],
];

/// `simd_tanh_f64`'s table: per interval b, c0, c1, ..., c16.
const TANH_F64: [[u64; 18]; 16] = [
    [
        0,
        0,
        0x3ff0000000000000,
        0xbbf0b3ea3fdfaa19,
        0xbfd5555555555555,
        0xbce6863ee44ed636,
        0x3fc1111111112ab5,
        0xbda1ea19ddddb3b4,
        0xbfaba1ba1990520b,
        0xbe351ca7f096011f,
        0x3f9664f94e6ac14e,
        0xbea8c4c1fd7852fe,
        0xbf822404577aa9dd,
        0xbefdd99a221ed573,
        0x3f6e3be689423841,
        0xbf2a1306713a4f3a,
        0xbf55d7e76dc56871,
        0x3f35e67ab76a26e7,
    ],
    [
        0x3fcc000000000000,
        0x3fcb8fd0416a7c92,
        0x3fee842ca3f08532,
        0xbfca48aaeb53bc21,
        0xbfd183afc292ba11,
        0x3fc04dcd0476c75e,
        0x3fb5c19efdfc08ad,
        0xbfb0b8df995ce4df,
        0xbf96e37bba52f6fc,
        0x3f9eaaf3320c3851,
        0xbf94d3343bae39dd,
        0xbfccce16b1046f13,
        0x403d8b07f7a82aa3,
        0x4070593a3735bab4,
        0xc0d263511f5baac1,
        0xc1045e509116b066,
        0x41528c38809c90c7,
        0x41848ee0627d8206,
    ],
    [
        0x3fd4000000000000,
        0x3fd35f98a0ea650e,
        0x3fed11574af58f1b,
        0xbfd19921f4329916,
        0xbfcc1a4b039c9bfa,
        0x3fc43d3449a80f08,
        0x3fa74c98dc34fbac,
        0xbfb2955cf41e8164,
        0x3ecff7df18455399,
        0x3f9cf823fe761fc1,
        0xbf7bc748e60df843,
        0xbf81a16f224bb7b6,
        0xbf9f44ab92fbab0a,
        0xbfccab654e44835e,
        0x40169f73b15ebe5c,
        0x4041fab9250984ce,
        0xc076d57fb5190b02,
        0xc0a216d618b489ec,
    ],
    [
        0x3fdc000000000000,
        0x3fda5729ee488037,
        0x3fea945b9c24e4f9,
        0xbfd5e0f09bef8011,
        0xbfc16e1e6d8d0be6,
        0x3fc5c26f3699b7e7,
        0xbf790d6a8eff0a77,
        0xbfaf9d05c309f7c6,
        0x3f97362834d33a4e,
        0x3f9022271754ff1f,
        0xbf8c89372b43ba85,
        0xbf62cbf00406bc09,
        0x3fb2eac604473d6a,
        0x3fd13ed80037dbac,
        0xc025c1dd41cd6cb5,
        0xc0458d090ec3de95,
        0x4085f09f888f8ada,
        0x40a5b89107c8af4f,
    ],
    [
        0x3fe4000000000000,
        0x3fe1bf47eabb8f95,
        0x3fe6284c3374f815,
        0xbfd893b59c35c882,
        0xbf92426c751e48a2,
        0x3fc1a686f6ab2533,
        0xbfac3c021789a786,
        0xbf987d27ccff4291,
        0x3f9e7f8380184b45,
        0xbf731fe77c9c60af,
        0xbf8129a092de747a,
        0x3f75b29bb02cf69b,
        0x3f45f87d903aaac8,
        0xbf6045b9076cc487,
        0xbf58fd89fe05e0d1,
        0xbf74949d60113d63,
        0x3fa246332a2fcba5,
        0x3fb69d8374520eda,
    ],
    [
        0x3fec000000000000,
        0x3fe686650b8c2015,
        0x3fe02500a09f8d6e,
        0xbfd6ba7cb7576538,
        0x3fb4f152b2bad124,
        0x3faf203c316ce730,
        0xbfae2196b7326859,
        0x3f8b2ca62572b098,
        0x3f869543e7c420d4,
        0xbf84a6046865ec7d,
        0x3f60c85b4d538746,
        0x3f607df0f9f90c17,
        0xbf5e104671036300,
        0x3f2085ee7e8ac170,
        0x3f73f7af01d5af7a,
        0x3f7c9fd6200d0ade,
        0xbfb29d851a896fcd,
        0xbfbded519f981716,
    ],
    [
        0x3ff4000000000000,
        0x3feb2523bb6b2dee,
        0x3fd1f25131e3a8c0,
        0xbfce7291743d7555,
        0x3fbbba40cbef72be,
        0xbf89c7a02788557c,
        0xbf93a7a011ff8c2a,
        0x3f8f1cf6c7f5b00a,
        0xbf7326bd4914222a,
        0xbf4ca3f1f2b9192b,
        0x3f5be9392199ec18,
        0xbf4b852a6e0758d5,
        0x3f19bc98ddf0f340,
        0x3f23524622610430,
        0xbf1e40bdead17e6b,
        0x3f02cd40e0ad0a9f,
        0x3ed9065ae369b212,
        0xbef02d288b5b3371,
    ],
    [
        0x3ffc000000000000,
        0x3fee1fbf97e33527,
        0x3fbd22ca1c24a139,
        0xbfbb6d85a01efb80,
        0x3fb01ba038be6a3d,
        0xbf98157e26e0d541,
        0x3f6e4709c7e8430e,
        0x3f60379811e43dd5,
        0xbf5fc15b0a9d98fa,
        0x3f4c77dee0afd227,
        0xbf2a0c68a4489f10,
        0xbf0078c63d1b8445,
        0x3f0d4304bc9246e8,
        0xbeff12a6626911b4,
        0x3ee224cd6c4513e5,
        0xbe858ab8e019f311,
        0xbeb8e1ba4c98a030,
        0x3eb290981209c1a6,
    ],
    [
        0x4004000000000000,
        0x3fef9258260a71c2,
        0x3f9b3afe1fba5c76,
        0xbf9addae58c7141a,
        0x3f916df44871efc8,
        0xbf807b55c1c7d278,
        0x3f67682afa611151,
        0xbf4793826f78537e,
        0x3f14cffcfa69fbb6,
        0x3f04055bce68597a,
        0xbf00462601dc2faa,
        0x3eec12eadd55be7a,
        0xbed13c415f7b9d41,
        0x3eab9008bca408af,
        0xbe24b645e68eeaa3,
        0xbe792fa6323b7cf8,
        0x3e6ffd0766ad4016,
        0xbe567e924bf5ff6e,
    ],
    [
        0x400c000000000000,
        0x3feff112c63a9077,
        0x3f6dd37d19b22b21,
        0xbf6dc59376c7aa19,
        0x3f63c6869dfc8870,
        0xbf53a18d5843190f,
        0x3f3ef2ee77717cbf,
        0xbf2405695e36240f,
        0x3f057e48e5b79d10,
        0xbee2bf0cb4a71647,
        0x3eb7b6a219dea9f4,
        0xbe6fa600f593181b,
        0xbe722b8d9720cdb0,
        0x3e634df71865f620,
        0xbe4abfebfb72bc83,
        0x3e2df04d67876402,
        0xbe0c63c29f505f5b,
        0x3de3f7f7de6b0eb6,
    ],
    [
        0x4014000000000000,
        0x3fefff419668df11,
        0x3f27ccec13a9ef96,
        0xbf27cc5e74677410,
        0x3f1fb9aef915d828,
        0xbf0fb6bbc89b1a5b,
        0x3ef95a4482f180b7,
        0xbee0e08de39ce756,
        0x3ec33b66d7d77264,
        0xbea31eaafe73efd5,
        0x3e80cbcc8d4c5c8a,
        0xbe5a3c935dce3f7d,
        0x3e322666d739bec0,
        0xbe05bb1bcf83ca73,
        0x3dd51c38f8695ed3,
        0xbd95c72be95e4d2c,
        0xbd7fab216b9e0e49,
        0x3d69ed18bae3ebbc,
    ],
    [
        0x401c000000000000,
        0x3feffffc832750f2,
        0x3ecbe6c3f33250ae,
        0xbecbe6c0e8b4cc87,
        0x3ec299d1e27c6e11,
        0xbeb299c9c684a963,
        0x3e9dc2c27da3b603,
        0xbe83d709ba5f714e,
        0x3e66ac4e578b9b10,
        0xbe46abb02c4368ed,
        0x3e2425bb231a5e29,
        0xbe001c6d95e3ae96,
        0x3dd76a553d7e7918,
        0xbdaf2ac143fb6762,
        0x3d8313ac38c6832b,
        0xbd55a89c30203106,
        0x3d2826b62056aa27,
        0xbcf7534c4f3dfa71,
    ],
    [
        0x4024000000000000,
        0x3feffffffdc96f35,
        0x3e41b4865394f75f,
        0xbe41b486526b0565,
        0x3e379b5ddcca334c,
        0xbe279b5dd4fb3d01,
        0x3e12e2afd9f7433e,
        0xbdf92e3fc5ee63e0,
        0x3ddcc74b8d3d5c42,
        0xbdbcc749ca8079dd,
        0x3d9992a4beac8662,
        0xbd74755a00ea1fd3,
        0x3d4de0fa59416a39,
        0xbd23eae52a3dbf57,
        0x3cf7787935626685,
        0xbccad6b3bb9eff65,
        0x3ca313e31762f523,
        0xbc730b73f1eaff20,
    ],
    [
        0x402c000000000000,
        0x3fefffffffffcf58,
        0x3d8853f01bda5f28,
        0xbd8853f01bef63a4,
        0x3d8037f57bc62c9a,
        0xbd7037f57ae72aa6,
        0x3d59f320348679ba,
        0xbd414cc030f2110e,
        0x3d23c589137f92b4,
        0xbd03c5883836b9d2,
        0x3ce191ba5ed3fb67,
        0xbcbc1c6c063bb7ac,
        0x3c948716cf3681b4,
        0xbc6b5e3e9ca0955e,
        0x3c401ffc49c6bc29,
        0xbc12705ccd3dd884,
        0x3bea37aa21895319,
        0xbbba2cff8135d462,
    ],
    [
        0x4034000000000000,
        0x3ff0000000000000,
        0x3c73953c0197ef58,
        0xbc73955be519be31,
        0x3c6a2d4b50a2cff7,
        0xbc5a2ca2bba78e86,
        0x3c44b61d9bbcc940,
        0xbc2ba022e8d82a87,
        0x3c107f8e2c8707a1,
        0xbbf07a5416264aec,
        0x3bc892450bad44c4,
        0xbba3be9a4460fe00,
        0x3b873f9f2d2fda99,
        0xbb5eca68e2c1ba2e,
        0xbabf0b21acfa52ab,
        0xba8e0a4c47ae75f5,
        0x3ae5c7f1fd871496,
        0xbab5a71b5f7d9035,
    ],
    [
        0,
        0x3ff0000000000000,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
    ],
];
