/**
 * IEEE half-precision floats (Node 20 has no Float16Array): the precise copy of stored
 * vectors is kept as f16 — about three significant digits, ample for cosine ranking of
 * unit vectors — at half the memory of f32. Encoding rounds to nearest; decoding is one
 * table lookup.
 */

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** The f16 bits of a number (round to nearest; out of range saturates to ±infinity). */
export const toHalf = (x: number): number => {
  f32[0] = x;
  return halfOfBits(u32[0]!);
};

/*
 * `halfOfBits` by tables of the float's sign and exponent (its top 9 bits), with no
 * branch: a stored vector is mostly zeros among its other components, and a branch on
 * the exponent per component is mispredicted a quarter of the time. For top bits `e`,
 * the half is `HALF_BASE[e]` (sign and exponent) plus the mantissa, implicit bit
 * included for a subnormal half (`HALF_MANTISSA`, `HALF_IMPLICIT`: none when the half is
 * zero or infinite), shifted right by `HALF_SHIFT[e]` and rounded at the last bit out —
 * the same arithmetic as `halfOfBits`, case by case (the tests compare the two).
 */
const HALF_BASE = new Uint16Array(512);
const HALF_MANTISSA = new Uint32Array(512);
const HALF_IMPLICIT = new Uint32Array(512);
const HALF_SHIFT = new Uint8Array(512);
for (let e = 0; e < 512; e++) {
  const sign = (e & 0x100) << 7;
  const exp = (e & 0xff) - 112;
  const normal = exp > 0 && exp < 31;
  const subnormal = exp <= 0 && exp >= -10;
  HALF_BASE[e] = normal ? sign | (exp << 10) : exp >= 31 ? sign | 0x7c00 : sign;
  HALF_MANTISSA[e] = normal || subnormal ? 0x7fffff : 0;
  HALF_IMPLICIT[e] = subnormal ? 0x800000 : 0;
  // A subnormal's `(m >>> (1 - exp) + 0x1000) >>> 13` is m shifted by 14 - exp, rounded.
  HALF_SHIFT[e] = normal ? 13 : subnormal ? 14 - exp : 24;
}

/**
 * Writes `d` floats of `v` from `from` as f16 bits into `out` at `at`: {@link toHalf} of
 * each, read from the floats' own bits rather than through a scalar round trip.
 */
export const toHalfInto = (
  v: Float32Array,
  from: number,
  out: Uint16Array,
  at: number,
  d: number,
): void => {
  const bits = new Uint32Array(v.buffer, v.byteOffset + from * 4, d);
  for (let i = 0; i < d; i++) {
    const b = bits[i]!;
    const e = b >>> 23;
    const m = (b & HALF_MANTISSA[e]!) | HALF_IMPLICIT[e]!;
    const s = HALF_SHIFT[e]!;
    out[at + i] = HALF_BASE[e]! + (m >>> s) + ((m >>> (s - 1)) & 1);
  }
};

/** The f16 bits of the f32 whose bits are `b`. */
const halfOfBits = (b: number): number => {
  const sign = (b >>> 16) & 0x8000;
  const exp = ((b >>> 23) & 0xff) - 112;
  const mant = b & 0x7fffff;
  if (exp <= 0) {
    if (exp < -10) return sign;
    const m = (mant | 0x800000) >>> (1 - exp);
    return sign | ((m + 0x1000) >>> 13);
  }
  if (exp >= 31) return sign | 0x7c00;
  return (sign | (exp << 10) | (mant >>> 13)) + ((mant >>> 12) & 1);
};

/** Every f16 bit pattern's value. */
export const HALF_TABLE: Float32Array = (() => {
  const t = new Float32Array(65536);
  for (let h = 0; h < 65536; h++) {
    const sign = h & 0x8000 ? -1 : 1;
    const exp = (h >>> 10) & 0x1f;
    const mant = h & 0x3ff;
    t[h] =
      exp === 0
        ? sign * mant * 2 ** -24
        : exp === 31
          ? mant === 0
            ? sign * Number.POSITIVE_INFINITY
            : Number.NaN
          : sign * (1 + mant / 1024) * 2 ** (exp - 15);
  }
  return t;
})();
