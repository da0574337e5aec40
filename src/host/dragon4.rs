//! Decimal digits of binary floats as numpy prints them: the Dragon4
//! algorithm (Steele & White; Burger & Dybvig) in the variant numpy uses
//! (`dragon4.c`, after Ryan Juckett), so the digits, the rounding of a
//! cut-off last digit and the trimming and padding are numpy's exactly.
//!
//! Two digit modes: *unique* gives the shortest digits that read back as
//! the same float of its own type (float32 values get float32's shortest
//! digits), optionally cut at a precision or extended to a minimum number
//! of digits (rounding the exact value); *exact* gives the exact value's
//! digits cut at a precision. Values are exact big integers throughout
//! (no floating-point shortcuts), so every float prints as numpy prints it.
use std::cmp::Ordering;

/// An unsigned big integer, 32-bit limbs, least significant first, no
/// trailing zero limbs.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Big(Vec<u32>);

impl Big {
    fn from_u64(v: u64) -> Big {
        let mut b = Big(vec![v as u32, (v >> 32) as u32]);
        b.trim();
        b
    }

    fn pow2(e: u32) -> Big {
        let mut limbs = vec![0u32; (e / 32) as usize + 1];
        if let Some(top) = limbs.last_mut() {
            *top = 1 << (e % 32);
        }
        Big(limbs)
    }

    fn pow10(e: u32) -> Big {
        let mut b = Big::from_u64(1);
        let mut left = e;
        while left >= 9 {
            b.mul_small(1_000_000_000);
            left -= 9;
        }
        b.mul_small(10u32.pow(left));
        b
    }

    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }

    fn is_zero(&self) -> bool {
        self.0.is_empty()
    }

    fn mul_small(&mut self, m: u32) {
        let mut carry = 0u64;
        for limb in &mut self.0 {
            let p = u64::from(*limb) * u64::from(m) + carry;
            *limb = p as u32;
            carry = p >> 32;
        }
        if carry != 0 {
            self.0.push(carry as u32);
        }
        self.trim();
    }

    fn mul(&self, other: &Big) -> Big {
        let mut out = vec![0u32; self.0.len() + other.0.len()];
        for (i, &a) in self.0.iter().enumerate() {
            let mut carry = 0u64;
            for (j, &b) in other.0.iter().enumerate() {
                let cur = u64::from(out[i + j]) + u64::from(a) * u64::from(b) + carry;
                out[i + j] = cur as u32;
                carry = cur >> 32;
            }
            let mut k = i + other.0.len();
            while carry != 0 && k < out.len() {
                let cur = u64::from(out[k]) + carry;
                out[k] = cur as u32;
                carry = cur >> 32;
                k += 1;
            }
        }
        let mut b = Big(out);
        b.trim();
        b
    }

    fn shl(&mut self, bits: u32) {
        if self.is_zero() || bits == 0 {
            return;
        }
        let (whole, part) = ((bits / 32) as usize, bits % 32);
        let mut out = vec![0u32; whole];
        if part == 0 {
            out.extend_from_slice(&self.0);
        } else {
            let mut carry = 0u32;
            for &limb in &self.0 {
                out.push((limb << part) | carry);
                carry = limb >> (32 - part);
            }
            out.push(carry);
        }
        self.0 = out;
        self.trim();
    }

    fn add(&self, other: &Big) -> Big {
        let (long, short) = if self.0.len() >= other.0.len() {
            (self, other)
        } else {
            (other, self)
        };
        let mut out = Vec::with_capacity(long.0.len() + 1);
        let mut carry = 0u64;
        for (i, &a) in long.0.iter().enumerate() {
            let s = u64::from(a) + u64::from(short.0.get(i).copied().unwrap_or(0)) + carry;
            out.push(s as u32);
            carry = s >> 32;
        }
        if carry != 0 {
            out.push(carry as u32);
        }
        Big(out)
    }

    /// `self -= other`, for `self >= other`.
    fn sub_assign(&mut self, other: &Big) {
        let mut borrow = 0i64;
        for (i, limb) in self.0.iter_mut().enumerate() {
            let d = i64::from(*limb) - i64::from(other.0.get(i).copied().unwrap_or(0)) - borrow;
            borrow = i64::from(d < 0);
            *limb = (d + (borrow << 32)) as u32;
        }
        self.trim();
    }

    fn cmp(&self, other: &Big) -> Ordering {
        self.0
            .len()
            .cmp(&other.0.len())
            .then_with(|| self.0.iter().rev().cmp(other.0.iter().rev()))
    }

    /// The quotient `self / divisor` (known to be below 10), leaving the
    /// remainder in `self`.
    fn div_rem_digit(&mut self, divisor: &Big) -> u32 {
        let mut q = 0;
        while self.cmp(divisor) != Ordering::Less && q < 10 {
            self.sub_assign(divisor);
            q += 1;
        }
        q
    }
}

/// Whether a cut-off counts digits after the decimal point or all
/// significant digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cutoff {
    Fraction,
    Total,
}

/// The decimal digits of a positive float and the power of ten of the
/// first.
#[derive(Debug)]
struct Digits {
    digits: Vec<u8>,
    exp10: i32,
}

/// A finite float as `mantissa * 2^exponent`, with what Dragon4 needs of
/// its format.
#[derive(Debug, Clone, Copy)]
pub struct Decoded {
    mantissa: u64,
    exponent: i32,
    /// The index of the highest set bit of the mantissa.
    mantissa_bit: u32,
    /// At a power of two the gap to the next float below is half the gap
    /// above.
    unequal_margins: bool,
}

/// The longest digit string Dragon4 writes (numpy's buffer is about this
/// big); only exact printing of huge values comes near it.
const MAX_DIGITS: i32 = 4096;

fn dragon4(v: Decoded, unique: bool, cutoff: Cutoff, max: i32, min: i32) -> Digits {
    if v.mantissa == 0 {
        return Digits {
            digits: vec![b'0'],
            exp10: 0,
        };
    }
    let is_even = v.mantissa.is_multiple_of(2);
    let mut value = Big::from_u64(v.mantissa);
    let mut scale;
    let mut margin_low;
    // The value and margins are scaled by 2 (by 4 with unequal margins) so
    // the half-gaps are integers.
    let extra = if v.unequal_margins { 2 } else { 1 };
    if v.exponent > 0 {
        value.shl(v.exponent as u32 + extra);
        scale = Big::from_u64(1 << extra);
        margin_low = Big::pow2(v.exponent as u32);
    } else {
        value.shl(extra);
        scale = Big::pow2((-v.exponent) as u32 + extra);
        margin_low = Big::from_u64(1);
    }
    let high_of = |low: &Big| {
        if v.unequal_margins {
            let mut h = low.clone();
            h.shl(1);
            h
        } else {
            low.clone()
        }
    };
    let log10_2 = std::f64::consts::LOG10_2;
    let mut digit_exp =
        ((f64::from(v.mantissa_bit as i32 + v.exponent) * log10_2) - 0.69).ceil() as i32;
    if max >= 0 && cutoff == Cutoff::Fraction && digit_exp <= -max {
        digit_exp = -max + 1;
    }
    match digit_exp.cmp(&0) {
        Ordering::Greater => scale = scale.mul(&Big::pow10(digit_exp as u32)),
        Ordering::Less => {
            let p = Big::pow10((-digit_exp) as u32);
            value = value.mul(&p);
            margin_low = margin_low.mul(&p);
        }
        Ordering::Equal => {}
    }
    if value.cmp(&scale) != Ordering::Less {
        digit_exp += 1;
    } else {
        value.mul_small(10);
        margin_low.mul_small(10);
    }
    let mut margin_high = high_of(&margin_low);

    let mut cutoff_max_exp = digit_exp - MAX_DIGITS;
    if max >= 0 {
        let desired = match cutoff {
            Cutoff::Total => digit_exp - max,
            Cutoff::Fraction => -max,
        };
        cutoff_max_exp = cutoff_max_exp.max(desired);
    }
    let mut cutoff_min_exp = digit_exp;
    if min >= 0 {
        let desired = match cutoff {
            Cutoff::Total => digit_exp - min,
            Cutoff::Fraction => -min,
        };
        cutoff_min_exp = cutoff_min_exp.min(desired);
    }
    let mut exp10 = digit_exp - 1;
    let mut digits = Vec::new();
    let (mut low, mut high) = (false, false);
    let mut digit;
    loop {
        digit_exp -= 1;
        digit = value.div_rem_digit(&scale);
        if unique {
            let value_high = value.add(&margin_high);
            let c = value.cmp(&margin_low);
            low = if is_even {
                c != Ordering::Greater
            } else {
                c == Ordering::Less
            };
            let c = value_high.cmp(&scale);
            high = if is_even {
                c != Ordering::Less
            } else {
                c == Ordering::Greater
            };
            if ((low || high) && digit_exp <= cutoff_min_exp) || digit_exp == cutoff_max_exp {
                break;
            }
        } else if value.is_zero() || digit_exp == cutoff_max_exp {
            break;
        }
        digits.push(b'0' + digit as u8);
        value.mul_small(10);
        if unique {
            margin_low.mul_small(10);
            margin_high = high_of(&margin_low);
        }
    }
    let mut round_down = low;
    if low == high {
        value.shl(1);
        round_down = match value.cmp(&scale) {
            Ordering::Less => true,
            Ordering::Greater => false,
            Ordering::Equal => digit % 2 == 0,
        };
    }
    if round_down {
        digits.push(b'0' + digit as u8);
    } else if digit < 9 {
        digits.push(b'0' + digit as u8 + 1);
    } else {
        // Carry: drop the trailing nines and increment the digit before.
        loop {
            match digits.pop() {
                None => {
                    digits.push(b'1');
                    exp10 += 1;
                    break;
                }
                Some(b'9') => {}
                Some(d) => {
                    digits.push(d + 1);
                    break;
                }
            }
        }
    }
    Digits { digits, exp10 }
}

/// How trailing zeros are trimmed (numpy's `trim`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trim {
    /// `'k'`: keep trailing zeros (and pad with zeros to the precision).
    Keep,
    /// `'.'`: trim trailing zeros, keep the point (`1.`).
    Point,
    /// `'0'`: trim trailing zeros but keep one after the point (`1.0`).
    Zero,
    /// `'-'`: trim trailing zeros and the point (`1`).
    Dash,
}

/// The options of numpy's `dragon4_positional`/`dragon4_scientific`
/// (`format_float_positional`/`format_float_scientific`); `-1` (or
/// `None`) is "not given".
#[derive(Debug, Clone, Copy)]
pub struct FloatFormat {
    pub unique: bool,
    pub precision: i32,
    pub min_digits: i32,
    pub trim: Trim,
    pub sign: bool,
    pub pad_left: i32,
    pub pad_right: i32,
    pub exp_digits: i32,
}

impl FloatFormat {
    /// Shortest unique digits, no cut-off, no padding.
    pub fn unique(trim: Trim) -> FloatFormat {
        FloatFormat {
            unique: true,
            precision: -1,
            min_digits: -1,
            trim,
            sign: false,
            pad_left: -1,
            pad_right: -1,
            exp_digits: -1,
        }
    }
}

/// A float type Dragon4 can print.
pub trait Float: Copy {
    fn is_nan(self) -> bool;
    fn is_infinite(self) -> bool;
    fn is_sign_negative(self) -> bool;
    fn abs(self) -> Self;
    fn decode(self) -> Decoded;
}

fn decode_bits(bits: u64, mantissa_bits: u32, bias: i32, exp_bits: u32) -> Decoded {
    let fraction = bits & ((1u64 << mantissa_bits) - 1);
    let biased = ((bits >> mantissa_bits) & ((1u64 << exp_bits) - 1)) as i32;
    if biased != 0 {
        Decoded {
            mantissa: fraction | (1u64 << mantissa_bits),
            exponent: biased - bias - mantissa_bits as i32,
            mantissa_bit: mantissa_bits,
            unequal_margins: biased != 1 && fraction == 0,
        }
    } else {
        Decoded {
            mantissa: fraction,
            exponent: 1 - bias - mantissa_bits as i32,
            mantissa_bit: 63u32.saturating_sub(fraction.leading_zeros()),
            unequal_margins: false,
        }
    }
}

/// [`Float`] for a primitive float type: its methods, and its bits as
/// (`bits`, mantissa bits, exponent bias, exponent bits).
macro_rules! float {
    ($t:ty, $mantissa:expr, $bias:expr, $exp:expr) => {
        impl Float for $t {
            fn is_nan(self) -> bool {
                <$t>::is_nan(self)
            }
            fn is_infinite(self) -> bool {
                <$t>::is_infinite(self)
            }
            fn is_sign_negative(self) -> bool {
                <$t>::is_sign_negative(self)
            }
            fn abs(self) -> Self {
                <$t>::abs(self)
            }
            fn decode(self) -> Decoded {
                decode_bits(u64::from(self.to_bits()), $mantissa, $bias, $exp)
            }
        }
    };
}

float!(f64, 52, 1023, 11);
float!(f32, 23, 127, 8);

/// `nan`, `inf`, `-inf` (`+inf` with `sign`), or `None` for finite values.
fn non_finite<F: Float>(x: F, sign: bool) -> Option<String> {
    if x.is_nan() {
        Some("nan".to_string())
    } else if x.is_infinite() {
        let s = if x.is_sign_negative() {
            "-"
        } else if sign {
            "+"
        } else {
            ""
        };
        Some(format!("{s}inf"))
    } else {
        None
    }
}

fn sign_of<F: Float>(x: F, sign: bool) -> &'static str {
    if x.is_sign_negative() {
        "-"
    } else if sign {
        "+"
    } else {
        ""
    }
}

/// Strips trailing zeros after the point as `trim` says; returns the new
/// count of fraction digits.
fn trim_zeros(out: &mut String, mut frac: i32, trim: Trim) -> i32 {
    if trim == Trim::Keep || frac <= 0 {
        return frac;
    }
    while out.ends_with('0') {
        out.pop();
        frac -= 1;
    }
    if out.ends_with('.') {
        match trim {
            Trim::Zero => {
                out.push('0');
                frac += 1;
            }
            Trim::Dash => {
                out.pop();
            }
            _ => {}
        }
    }
    frac
}

/// After the digits: the point (unless `'-'` mode) and, for `'0'`, one
/// zero, for `'k'`, zeros up to the wanted digits; returns the new count
/// of fraction digits.
fn complete_fraction(out: &mut String, mut frac: i32, opt: &FloatFormat) -> i32 {
    if opt.trim != Trim::Dash && frac == 0 {
        out.push('.');
    }
    let wanted = if opt.unique {
        opt.min_digits
    } else {
        opt.precision
    }
    .max(0);
    match opt.trim {
        Trim::Zero if frac == 0 => {
            out.push('0');
            frac += 1;
        }
        Trim::Keep if wanted > frac => {
            out.extend(std::iter::repeat_n('0', (wanted - frac) as usize));
            frac = wanted;
        }
        _ => {}
    }
    frac
}

/// numpy's `dragon4_positional(x, ...)` with `fractional=True`.
pub fn positional<F: Float>(x: F, opt: &FloatFormat) -> String {
    if let Some(s) = non_finite(x, opt.sign) {
        return s;
    }
    let sign = sign_of(x, opt.sign);
    let d = dragon4(
        x.decode(),
        opt.unique,
        Cutoff::Fraction,
        opt.precision,
        opt.min_digits,
    );
    let digits = String::from_utf8_lossy(&d.digits).into_owned();
    let n = digits.len() as i32;
    let mut out = String::from(sign);
    let (whole, mut frac);
    if d.exp10 >= 0 {
        whole = d.exp10 + 1;
        if n <= whole {
            out.push_str(&digits);
            out.extend(std::iter::repeat_n('0', (whole - n) as usize));
            frac = 0;
        } else {
            out.push_str(&digits[..whole as usize]);
            out.push('.');
            out.push_str(&digits[whole as usize..]);
            frac = n - whole;
        }
    } else {
        whole = 1;
        let zeros = -(d.exp10 + 1);
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', zeros as usize));
        out.push_str(&digits);
        frac = zeros + n;
    }
    frac = complete_fraction(&mut out, frac, opt);
    frac = trim_zeros(&mut out, frac, opt.trim);
    if opt.pad_right >= frac {
        if opt.trim == Trim::Dash && frac == 0 {
            out.push(' ');
        }
        out.extend(std::iter::repeat_n(' ', (opt.pad_right - frac) as usize));
    }
    let left = whole + i32::from(!sign.is_empty());
    if opt.pad_left > left {
        out.insert_str(0, &" ".repeat((opt.pad_left - left) as usize));
    }
    out
}

/// numpy's `dragon4_scientific(x, ...)`.
pub fn scientific<F: Float>(x: F, opt: &FloatFormat) -> String {
    if let Some(s) = non_finite(x, opt.sign) {
        return s;
    }
    let sign = sign_of(x, opt.sign);
    let mut out = String::new();
    let left = 1 + i32::from(!sign.is_empty());
    if opt.pad_left > left {
        out.push_str(&" ".repeat((opt.pad_left - left) as usize));
    }
    out.push_str(sign);
    let plus_one = |p: i32| if p < 0 { -1 } else { p + 1 };
    let d = dragon4(
        x.decode(),
        opt.unique,
        Cutoff::Total,
        plus_one(opt.precision),
        plus_one(opt.min_digits),
    );
    let digits = String::from_utf8_lossy(&d.digits).into_owned();
    out.push_str(&digits[..1]);
    let frac = digits.len() as i32 - 1;
    if frac > 0 {
        out.push('.');
        out.push_str(&digits[1..]);
    }
    let frac = complete_fraction(&mut out, frac, opt);
    // Scientific notation keeps a bare point even in `'-'` mode (numpy's
    // `FormatScientific` removes only zeros).
    let trim = if opt.trim == Trim::Dash {
        Trim::Point
    } else {
        opt.trim
    };
    trim_zeros(&mut out, frac, trim);
    let exp_digits = if opt.exp_digits < 0 {
        2
    } else {
        opt.exp_digits.min(5)
    };
    let e = d.exp10;
    out.push('e');
    out.push(if e >= 0 { '+' } else { '-' });
    out.push_str(&format!(
        "{:0width$}",
        e.unsigned_abs(),
        width = exp_digits as usize
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(x: f64, precision: i32) -> String {
        let mut o = FloatFormat::unique(Trim::Point);
        o.precision = precision;
        positional(x, &o)
    }

    #[test]
    fn shortest_digits() {
        assert_eq!(positional(0.1f32, &FloatFormat::unique(Trim::Zero)), "0.1");
        assert_eq!(positional(0.1f64, &FloatFormat::unique(Trim::Zero)), "0.1");
        assert_eq!(positional(1.0f64, &FloatFormat::unique(Trim::Point)), "1.");
        assert_eq!(positional(2.0f64, &FloatFormat::unique(Trim::Zero)), "2.0");
        assert_eq!(
            positional(-0.0f64, &FloatFormat::unique(Trim::Zero)),
            "-0.0"
        );
        assert_eq!(
            positional(1e16f64, &FloatFormat::unique(Trim::Zero)),
            "10000000000000000.0"
        );
        assert_eq!(
            scientific(1e16f64, &FloatFormat::unique(Trim::Dash)),
            "1e+16"
        );
        assert_eq!(
            scientific(1.5e-5f64, &FloatFormat::unique(Trim::Dash)),
            "1.5e-05"
        );
        assert_eq!(
            scientific(5e-324f64, &FloatFormat::unique(Trim::Dash)),
            "5e-324"
        );
        assert_eq!(
            positional(1.0f64 / 3.0, &FloatFormat::unique(Trim::Zero)),
            "0.3333333333333333"
        );
    }

    #[test]
    fn cut_off_rounds_half_to_even() {
        assert_eq!(pos(0.125, 2), "0.12");
        assert_eq!(pos(0.375, 2), "0.38");
        assert_eq!(pos(0.999_999_999_9, 8), "1.");
        assert_eq!(pos(0.123_456_789_012, 8), "0.12345679");
    }
}
