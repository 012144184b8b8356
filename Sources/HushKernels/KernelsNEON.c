// NEON kernels for arm64 (Advanced SIMD is part of every AArch64 CPU, so no run-time check is needed).
// Tails are scalar, except in the elementwise kernels, which copy the tail through a small zero-padded buffer so
// it gets exactly the same arithmetic as the body.
#if defined(__aarch64__)

#include "Kernels.h"
#include <arm_neon.h>
#include <math.h>
#include <string.h>

// MARK: - f32 dot products

float hush_dot_f32_neon(const float *a, const float *b, size_t n) {
    float32x4_t s0 = vdupq_n_f32(0), s1 = vdupq_n_f32(0), s2 = vdupq_n_f32(0), s3 = vdupq_n_f32(0);
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        s0 = vfmaq_f32(s0, vld1q_f32(a + i), vld1q_f32(b + i));
        s1 = vfmaq_f32(s1, vld1q_f32(a + i + 4), vld1q_f32(b + i + 4));
        s2 = vfmaq_f32(s2, vld1q_f32(a + i + 8), vld1q_f32(b + i + 8));
        s3 = vfmaq_f32(s3, vld1q_f32(a + i + 12), vld1q_f32(b + i + 12));
    }
    for (; i + 4 <= n; i += 4) s0 = vfmaq_f32(s0, vld1q_f32(a + i), vld1q_f32(b + i));
    float s = vaddvq_f32(vaddq_f32(vaddq_f32(s0, s1), vaddq_f32(s2, s3)));
    for (; i < n; i++) s += a[i] * b[i];
    return s;
}

// Four rows at a time share each query load, two accumulators per row: eight independent FMA chains.
void hush_dot_f32_rows_neon(const float *m, size_t rows, size_t dim, const float *q, float *out) {
    const size_t full8 = dim & ~(size_t)7, full4 = dim & ~(size_t)3;
    size_t r = 0;
    for (; r + 4 <= rows; r += 4) {
        const float *p0 = m + r * dim, *p1 = p0 + dim, *p2 = p1 + dim, *p3 = p2 + dim;
        float32x4_t a0 = vdupq_n_f32(0), a1 = vdupq_n_f32(0), a2 = vdupq_n_f32(0), a3 = vdupq_n_f32(0);
        float32x4_t b0 = vdupq_n_f32(0), b1 = vdupq_n_f32(0), b2 = vdupq_n_f32(0), b3 = vdupq_n_f32(0);
        size_t c = 0;
        for (; c < full8; c += 8) {
            float32x4_t qa = vld1q_f32(q + c), qb = vld1q_f32(q + c + 4);
            a0 = vfmaq_f32(a0, vld1q_f32(p0 + c), qa);
            a1 = vfmaq_f32(a1, vld1q_f32(p1 + c), qa);
            a2 = vfmaq_f32(a2, vld1q_f32(p2 + c), qa);
            a3 = vfmaq_f32(a3, vld1q_f32(p3 + c), qa);
            b0 = vfmaq_f32(b0, vld1q_f32(p0 + c + 4), qb);
            b1 = vfmaq_f32(b1, vld1q_f32(p1 + c + 4), qb);
            b2 = vfmaq_f32(b2, vld1q_f32(p2 + c + 4), qb);
            b3 = vfmaq_f32(b3, vld1q_f32(p3 + c + 4), qb);
        }
        if (c < full4) {
            float32x4_t qa = vld1q_f32(q + c);
            a0 = vfmaq_f32(a0, vld1q_f32(p0 + c), qa);
            a1 = vfmaq_f32(a1, vld1q_f32(p1 + c), qa);
            a2 = vfmaq_f32(a2, vld1q_f32(p2 + c), qa);
            a3 = vfmaq_f32(a3, vld1q_f32(p3 + c), qa);
        }
        // Pairwise adds leave lane i holding the sum of row i.
        float32x4_t s01 = vpaddq_f32(vaddq_f32(a0, b0), vaddq_f32(a1, b1));
        float32x4_t s23 = vpaddq_f32(vaddq_f32(a2, b2), vaddq_f32(a3, b3));
        float32x4_t sums = vpaddq_f32(s01, s23);
        for (size_t t = full4; t < dim; t++) {
            float32x4_t col = {p0[t], p1[t], p2[t], p3[t]};
            sums = vfmaq_n_f32(sums, col, q[t]);
        }
        vst1q_f32(out + r, sums);
    }
    for (; r < rows; r++) out[r] = hush_dot_f32_neon(m + r * dim, q, dim);
}

// MARK: - int8 dot products (widening multiply to int16, pairwise accumulate into int32: exact)

/// Adds the products of 16 int8 pairs to the int32 lanes of acc.
static inline int32x4_t dot16(int32x4_t acc, int8x16_t a, int8x16_t b) {
    int16x8_t lo = vmull_s8(vget_low_s8(a), vget_low_s8(b));
    int16x8_t hi = vmull_high_s8(a, b);
    return vpadalq_s16(vpadalq_s16(acc, lo), hi);
}

int32_t hush_dot_i8_neon(const int8_t *a, const int8_t *b, size_t n) {
    int32x4_t s0 = vdupq_n_s32(0), s1 = vdupq_n_s32(0);
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        s0 = dot16(s0, vld1q_s8(a + i), vld1q_s8(b + i));
        s1 = dot16(s1, vld1q_s8(a + i + 16), vld1q_s8(b + i + 16));
    }
    for (; i + 16 <= n; i += 16) s0 = dot16(s0, vld1q_s8(a + i), vld1q_s8(b + i));
    uint32_t s = (uint32_t)vaddvq_s32(vaddq_s32(s0, s1));
    for (; i < n; i++) s += (uint32_t)((int32_t)a[i] * (int32_t)b[i]);
    return (int32_t)s;
}

void hush_dot_i8_rows_neon(const int8_t *m, size_t rows, size_t dim, const int8_t *q, int32_t *out) {
    const size_t full = dim & ~(size_t)15;
    size_t r = 0;
    for (; r + 4 <= rows; r += 4) {
        const int8_t *p0 = m + r * dim, *p1 = p0 + dim, *p2 = p1 + dim, *p3 = p2 + dim;
        int32x4_t s0 = vdupq_n_s32(0), s1 = vdupq_n_s32(0), s2 = vdupq_n_s32(0), s3 = vdupq_n_s32(0);
        for (size_t c = 0; c < full; c += 16) {
            int8x16_t qv = vld1q_s8(q + c);
            s0 = dot16(s0, vld1q_s8(p0 + c), qv);
            s1 = dot16(s1, vld1q_s8(p1 + c), qv);
            s2 = dot16(s2, vld1q_s8(p2 + c), qv);
            s3 = dot16(s3, vld1q_s8(p3 + c), qv);
        }
        int32x4_t sums = vpaddq_s32(vpaddq_s32(s0, s1), vpaddq_s32(s2, s3));
        uint32_t t[4];
        vst1q_u32(t, vreinterpretq_u32_s32(sums));
        for (size_t c = full; c < dim; c++) {
            int32_t qc = q[c];
            t[0] += (uint32_t)(p0[c] * qc);
            t[1] += (uint32_t)(p1[c] * qc);
            t[2] += (uint32_t)(p2[c] * qc);
            t[3] += (uint32_t)(p3[c] * qc);
        }
        for (int i = 0; i < 4; i++) out[r + (size_t)i] = (int32_t)t[i];
    }
    for (; r < rows; r++) out[r] = hush_dot_i8_neon(m + r * dim, q, dim);
}

// MARK: - Hamming distance (byte popcount, widened pairwise)

uint32_t hush_hamming_neon(const uint64_t *a, const uint64_t *b, size_t words) {
    uint64x2_t s = vdupq_n_u64(0);
    size_t i = 0;
    for (; i + 2 <= words; i += 2) {
        uint8x16_t x = vreinterpretq_u8_u64(veorq_u64(vld1q_u64(a + i), vld1q_u64(b + i)));
        s = vpadalq_u32(s, vpaddlq_u16(vpaddlq_u8(vcntq_u8(x))));
    }
    uint64_t d = vaddvq_u64(s);
    for (; i < words; i++) d += (uint64_t)__builtin_popcountll(a[i] ^ b[i]);
    return (uint32_t)d;
}

void hush_hamming_rows_neon(const uint64_t *m, size_t rows, size_t words, const uint64_t *q, uint32_t *out) {
    for (size_t r = 0; r < rows; r++) out[r] = hush_hamming_neon(m + r * words, q, words);
}

// MARK: - Encoder loops

void hush_add_bias_f32_neon(float *x, size_t rows, size_t cols, const float *bias) {
    for (size_t r = 0; r < rows; r++) {
        float *row = x + r * cols;
        size_t c = 0;
        for (; c + 4 <= cols; c += 4) vst1q_f32(row + c, vaddq_f32(vld1q_f32(row + c), vld1q_f32(bias + c)));
        for (; c < cols; c++) row[c] += bias[c];
    }
}

/// exp(x) to about 1 ulp for x <= 88; 0 below HUSH_EXP_MIN (where expf is subnormal), NaN stays NaN.
static inline float32x4_t exp_neon(float32x4_t x) {
    uint32x4_t underflow = vcltq_f32(x, vdupq_n_f32(HUSH_EXP_MIN));
    x = vminq_f32(vmaxq_f32(x, vdupq_n_f32(HUSH_EXP_MIN)), vdupq_n_f32(88.0f));  // NEON min/max propagate NaN
    float32x4_t n = vrndnq_f32(vmulq_n_f32(x, HUSH_LOG2E));
    float32x4_t r = vfmsq_f32(x, n, vdupq_n_f32(HUSH_LN2_HI));
    r = vfmsq_f32(r, n, vdupq_n_f32(HUSH_LN2_LO));
    float32x4_t p = vdupq_n_f32(HUSH_EXP_E4);
    p = vfmaq_f32(vdupq_n_f32(HUSH_EXP_E3), p, r);
    p = vfmaq_f32(vdupq_n_f32(HUSH_EXP_E2), p, r);
    p = vfmaq_f32(vdupq_n_f32(HUSH_EXP_E1), p, r);
    p = vfmaq_f32(vdupq_n_f32(HUSH_EXP_E0), p, r);
    p = vaddq_f32(vfmaq_f32(r, p, vmulq_f32(r, r)), vdupq_n_f32(1.0f));
    int32x4_t bits = vshlq_n_s32(vaddq_s32(vcvtq_s32_f32(n), vdupq_n_s32(127)), 23);
    float32x4_t e = vmulq_f32(p, vreinterpretq_f32_s32(bits));
    return vreinterpretq_f32_u32(vbicq_u32(vreinterpretq_u32_f32(e), underflow));
}

/// 1 + erf(z), computed without cancellation for negative z (see Kernels.h for the approximation).
static inline float32x4_t one_plus_erf_neon(float32x4_t z) {
    const float32x4_t one = vdupq_n_f32(1.0f);
    float32x4_t a = vminq_f32(vabsq_f32(z), vdupq_n_f32(10.0f));
    float32x4_t a2 = vmulq_f32(a, a);
    float32x4_t p = vdupq_n_f32(HUSH_ERF_P6);
    p = vfmaq_f32(vdupq_n_f32(HUSH_ERF_P5), p, a2);
    p = vfmaq_f32(vdupq_n_f32(HUSH_ERF_P4), p, a2);
    p = vfmaq_f32(vdupq_n_f32(HUSH_ERF_P3), p, a2);
    p = vfmaq_f32(vdupq_n_f32(HUSH_ERF_P2), p, a2);
    p = vfmaq_f32(vdupq_n_f32(HUSH_ERF_P1), p, a2);
    p = vfmaq_f32(vdupq_n_f32(HUSH_ERF_P0), p, a2);
    float32x4_t small = vmulq_f32(a, p);
    float32x4_t al = vmaxq_f32(a, one);
    float32x4_t hi = vmulq_f32(al, al);
    float32x4_t lo = vfmaq_f32(vnegq_f32(hi), al, al);  // al * al - hi, exactly
    float32x4_t t = vdivq_f32(one, vminq_f32(al, vdupq_n_f32(4.0f)));
    float32x4_t rr = vdupq_n_f32(HUSH_ERF_R8);
    rr = vfmaq_f32(vdupq_n_f32(HUSH_ERF_R7), rr, t);
    rr = vfmaq_f32(vdupq_n_f32(HUSH_ERF_R6), rr, t);
    rr = vfmaq_f32(vdupq_n_f32(HUSH_ERF_R5), rr, t);
    rr = vfmaq_f32(vdupq_n_f32(HUSH_ERF_R4), rr, t);
    rr = vfmaq_f32(vdupq_n_f32(HUSH_ERF_R3), rr, t);
    rr = vfmaq_f32(vdupq_n_f32(HUSH_ERF_R2), rr, t);
    rr = vfmaq_f32(vdupq_n_f32(HUSH_ERF_R1), rr, t);
    rr = vfmaq_f32(vdupq_n_f32(HUSH_ERF_R0), rr, t);
    float32x4_t e = exp_neon(vnegq_f32(hi));
    e = vfmsq_f32(e, e, lo);
    float32x4_t erfc = vmulq_f32(e, rr);
    uint32x4_t negative = vcltq_f32(z, vdupq_n_f32(0.0f));
    uint32x4_t is_small = vcltq_f32(a, one);
    float32x4_t from_small = vbslq_f32(negative, vsubq_f32(one, small), vaddq_f32(one, small));
    float32x4_t from_large = vbslq_f32(negative, erfc, vsubq_f32(vdupq_n_f32(2.0f), erfc));
    return vbslq_f32(is_small, from_small, from_large);
}

static inline float32x4_t gelu_neon(float32x4_t v) {
    float32x4_t ope = one_plus_erf_neon(vmulq_n_f32(v, 0.70710678118654752f));
    return vmulq_f32(vmulq_n_f32(v, 0.5f), ope);
}

void hush_bias_gelu_f32_neon(float *x, size_t rows, size_t cols, const float *bias) {
    const size_t full = cols & ~(size_t)3, rest = cols - full;
    for (size_t r = 0; r < rows; r++) {
        float *row = x + r * cols;
        for (size_t c = 0; c < full; c += 4)
            vst1q_f32(row + c, gelu_neon(vaddq_f32(vld1q_f32(row + c), bias ? vld1q_f32(bias + c) : vdupq_n_f32(0))));
        if (rest) {
            float v[4] = {0, 0, 0, 0}, bb[4] = {0, 0, 0, 0};
            memcpy(v, row + full, rest * sizeof(float));
            if (bias) memcpy(bb, bias + full, rest * sizeof(float));
            vst1q_f32(v, gelu_neon(vaddq_f32(vld1q_f32(v), vld1q_f32(bb))));
            memcpy(row + full, v, rest * sizeof(float));
        }
    }
}

// Mean and variance are accumulated in double (as the reference does), so a large common offset costs nothing.
void hush_bias_residual_layernorm_f32_neon(float *x, size_t rows, size_t cols, const float *bias,
                                           const float *residual, const float *gamma, const float *beta, float eps) {
    if (cols == 0) return;
    const size_t full = cols & ~(size_t)3;
    for (size_t r = 0; r < rows; r++) {
        float *row = x + r * cols;
        const float *res = residual ? residual + r * cols : NULL;
        float64x2_t s0 = vdupq_n_f64(0), s1 = vdupq_n_f64(0);
        for (size_t c = 0; c < full; c += 4) {
            float32x4_t v = vld1q_f32(row + c);
            if (bias) v = vaddq_f32(v, vld1q_f32(bias + c));
            if (res) v = vaddq_f32(v, vld1q_f32(res + c));
            vst1q_f32(row + c, v);
            s0 = vaddq_f64(s0, vcvt_f64_f32(vget_low_f32(v)));
            s1 = vaddq_f64(s1, vcvt_high_f64_f32(v));
        }
        double sum = vaddvq_f64(vaddq_f64(s0, s1));
        for (size_t c = full; c < cols; c++) {
            float v = row[c];
            if (bias) v += bias[c];
            if (res) v += res[c];
            row[c] = v;
            sum += v;
        }
        const double mean = sum / (double)cols;
        const float64x2_t meanv = vdupq_n_f64(mean);
        float64x2_t q0 = vdupq_n_f64(0), q1 = vdupq_n_f64(0);
        for (size_t c = 0; c < full; c += 4) {
            float32x4_t v = vld1q_f32(row + c);
            float64x2_t d0 = vsubq_f64(vcvt_f64_f32(vget_low_f32(v)), meanv);
            float64x2_t d1 = vsubq_f64(vcvt_high_f64_f32(v), meanv);
            q0 = vfmaq_f64(q0, d0, d0);
            q1 = vfmaq_f64(q1, d1, d1);
        }
        double var = vaddvq_f64(vaddq_f64(q0, q1));
        for (size_t c = full; c < cols; c++) {
            double d = (double)row[c] - mean;
            var += d * d;
        }
        var /= (double)cols;
        const float inv = (float)(1.0 / sqrt(var + eps)), meanf = (float)mean;
        size_t c = 0;
        for (; c < full; c += 4) {
            float32x4_t v = vmulq_n_f32(vsubq_f32(vld1q_f32(row + c), vdupq_n_f32(meanf)), inv);
            vst1q_f32(row + c, vfmaq_f32(vld1q_f32(beta + c), v, vld1q_f32(gamma + c)));
        }
        for (; c < cols; c++) row[c] = ((row[c] - meanf) * inv) * gamma[c] + beta[c];
    }
}

void hush_scaled_softmax_rows_f32_neon(float *x, size_t rows, size_t cols, size_t valid, float scale) {
    if (valid > cols) valid = cols;
    const size_t full = valid & ~(size_t)3, rest = valid - full;
    for (size_t r = 0; r < rows; r++) {
        float *row = x + r * cols;
        float32x4_t mx = vdupq_n_f32(-INFINITY);
        for (size_t c = 0; c < full; c += 4) {
            float32x4_t v = vmulq_n_f32(vld1q_f32(row + c), scale);
            vst1q_f32(row + c, v);
            mx = vmaxq_f32(mx, v);
        }
        float m = vmaxvq_f32(mx);
        for (size_t c = full; c < valid; c++) {
            row[c] *= scale;
            if (row[c] > m) m = row[c];
        }
        const float32x4_t mv = vdupq_n_f32(m);
        float32x4_t sum = vdupq_n_f32(0);
        for (size_t c = 0; c < full; c += 4) {
            float32x4_t e = exp_neon(vsubq_f32(vld1q_f32(row + c), mv));
            vst1q_f32(row + c, e);
            sum = vaddq_f32(sum, e);
        }
        float total = vaddvq_f32(sum);
        if (rest) {
            float v[4] = {m, m, m, m};  // padding lanes give exp(0) = 1 and are dropped below
            memcpy(v, row + full, rest * sizeof(float));
            vst1q_f32(v, exp_neon(vsubq_f32(vld1q_f32(v), mv)));
            for (size_t i = 0; i < rest; i++) total += v[i];
            memcpy(row + full, v, rest * sizeof(float));
        }
        const float inv = total > 0 ? 1.0f / total : 0.0f;
        size_t c = 0;
        for (; c < full; c += 4) vst1q_f32(row + c, vmulq_n_f32(vld1q_f32(row + c), inv));
        for (; c < valid; c++) row[c] *= inv;
        for (c = valid; c < cols; c++) row[c] = 0;
    }
}

#endif
