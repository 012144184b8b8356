// The quantised and binary16 paths of the encoders for arm64: Q8_0 activation quantisation, Q4_0
// dequantisation, the 4-bit x 8-bit matrix product, 4-bit codes against an int8 query, the int8 dot products
// and the binary16 weight panels. Three variants, chosen at run time (Dispatch.c):
//
// - plain NEON (every AArch64 core): widening multiplies (smull/smlal) and pairwise adds;
// - DotProd (Armv8.2 sdot: Apple A13 and later, every Apple-silicon Mac, Neoverse N1 and later): four int8
//   products into each int32 lane per instruction;
// - I8MM (Armv8.6 smmla: Apple A15/M2 and later, Neoverse V1/N2 and later): a 2 x 8 by 8 x 2 int8 product
//   into a 2 x 2 int32 tile per instruction, twice sdot's multiply-adds.
//
// The two later variants are compiled for their extension per function (target attributes; SwiftPM gives a C
// target no per-file flags), so the file builds for any arm64 baseline and the dispatcher only calls them on a
// CPU that has the extension. GCC and Clang spell those targets differently.
//
// Integer results are exact, so every variant gives the reference's codes, sums and dot products bit for bit.
// The 4-bit product accumulates each output in f32 over its blocks in the reference's order with fused
// multiply-adds, and the binary16 product in the order of k, so they give the reference's bits wherever the
// reference's multiply-add is fused (as the compilers here contract it on arm64).
#if defined(__aarch64__)

#include "Kernels.h"
#include <arm_neon.h>
#include <string.h>

#if defined(__clang__)
#define DOTPROD __attribute__((target("dotprod")))
#define I8MM __attribute__((target("dotprod,i8mm")))
#else
#define DOTPROD __attribute__((target("arch=armv8.2-a+dotprod")))
#define I8MM __attribute__((target("arch=armv8.2-a+dotprod+i8mm")))
#endif
#define INLINE static inline __attribute__((always_inline))

// MARK: - Q8_0 activation quantisation and Q4_0 dequantisation

/// The largest |x| of a block of 32 floats (maxNum ignores a NaN, as the reference's fmaxf does).
INLINE float block_largest(const float *x) {
    float32x4_t m = vabsq_f32(vld1q_f32(x));
    for (int j = 1; j < 8; j++) m = vmaxnmq_f32(m, vabsq_f32(vld1q_f32(x + 4 * j)));
    return vmaxnmvq_f32(m);
}

/// Writes one block's codes, x x inverse rounded half to even (fcvtns) and saturated to int8 by two saturating
/// narrows; returns their sum.
INLINE int32_t quantize_codes(const float *x, float inverse, int8_t *q) {
    int16x8_t halves[4];
    for (int j = 0; j < 4; j++) {
        const int32x4_t a = vcvtnq_s32_f32(vmulq_n_f32(vld1q_f32(x + 8 * j), inverse));
        const int32x4_t b = vcvtnq_s32_f32(vmulq_n_f32(vld1q_f32(x + 8 * j + 4), inverse));
        halves[j] = vcombine_s16(vqmovn_s32(a), vqmovn_s32(b));
    }
    const int8x16_t c0 = vcombine_s8(vqmovn_s16(halves[0]), vqmovn_s16(halves[1]));
    const int8x16_t c1 = vcombine_s8(vqmovn_s16(halves[2]), vqmovn_s16(halves[3]));
    vst1q_s8(q, c0);
    vst1q_s8(q + 16, c1);
    return (int32_t)vaddlvq_s8(c0) + (int32_t)vaddlvq_s8(c1);
}

// The reference's arithmetic lane for lane: d = largest / 127 and 1 / d (0 where d is 0), four blocks' divisions in
// one vector division each (a division per block would cost more than the block's other work).
void hush_quantize_q8_0_neon(const float *x, size_t m, size_t k, size_t ldx, int8_t *q, float *d, int32_t *s) {
    const size_t blocks = k / 32;
    for (size_t t = 0; t < m; t++) {
        const float *row = x + t * ldx;
        const size_t first = t * blocks;
        for (size_t b = 0; b < blocks; b += 4) {
            const size_t count = blocks - b < 4 ? blocks - b : 4;
            float largest[4] = {0, 0, 0, 0}, inverse[4];
            for (size_t j = 0; j < count; j++) largest[j] = block_largest(row + (b + j) * 32);
            const float32x4_t scale = vdivq_f32(vld1q_f32(largest), vdupq_n_f32(127.0f));
            const uint32x4_t positive = vcgtq_f32(scale, vdupq_n_f32(0));
            vst1q_f32(inverse, vreinterpretq_f32_u32(
                                   vandq_u32(vreinterpretq_u32_f32(vdivq_f32(vdupq_n_f32(1.0f), scale)), positive)));
            float scales[4];
            vst1q_f32(scales, scale);
            for (size_t j = 0; j < count; j++) {
                d[first + b + j] = scales[j];
                s[first + b + j] = quantize_codes(row + (b + j) * 32, inverse[j], q + (first + b + j) * 32);
            }
        }
    }
}

/// A Q4_0 block's 32 weights as signed bytes (nibble - 8): weights 0-15 (the low nibbles) and 16-31.
INLINE void q4_signed(const uint8_t *block, int8x16_t *low, int8x16_t *high) {
    const uint8x16_t bytes = vld1q_u8(block + 2);
    *low = vsubq_s8(vreinterpretq_s8_u8(vandq_u8(bytes, vdupq_n_u8(0x0F))), vdupq_n_s8(8));
    *high = vsubq_s8(vreinterpretq_s8_u8(vshrq_n_u8(bytes, 4)), vdupq_n_s8(8));
}

/// 16 signed bytes times d, as 16 floats (one rounding each, as the reference's (nibble - 8) x d).
INLINE void store_scaled16(float *out, int8x16_t v, float d) {
    const int16x8_t a = vmovl_s8(vget_low_s8(v)), b = vmovl_high_s8(v);
    vst1q_f32(out, vmulq_n_f32(vcvtq_f32_s32(vmovl_s16(vget_low_s16(a))), d));
    vst1q_f32(out + 4, vmulq_n_f32(vcvtq_f32_s32(vmovl_high_s16(a)), d));
    vst1q_f32(out + 8, vmulq_n_f32(vcvtq_f32_s32(vmovl_s16(vget_low_s16(b))), d));
    vst1q_f32(out + 12, vmulq_n_f32(vcvtq_f32_s32(vmovl_high_s16(b)), d));
}

void hush_dequantize_q4_0_neon(const uint8_t *blocks, size_t count, float *out) {
    for (size_t b = 0; b < count; b++, blocks += 18, out += 32) {
        const float d = hush_half_to_float((uint16_t)(blocks[0] | (blocks[1] << 8)));
        int8x16_t low, high;
        q4_signed(blocks, &low, &high);
        store_scaled16(out, low, d);
        store_scaled16(out + 16, high, d);
    }
}

// MARK: - int8 dot products with sdot

DOTPROD int32_t hush_dot_i8_dotprod(const int8_t *a, const int8_t *b, size_t n) {
    int32x4_t s0 = vdupq_n_s32(0), s1 = vdupq_n_s32(0);
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        s0 = vdotq_s32(s0, vld1q_s8(a + i), vld1q_s8(b + i));
        s1 = vdotq_s32(s1, vld1q_s8(a + i + 16), vld1q_s8(b + i + 16));
    }
    for (; i + 16 <= n; i += 16) s0 = vdotq_s32(s0, vld1q_s8(a + i), vld1q_s8(b + i));
    uint32_t s = (uint32_t)vaddvq_s32(vaddq_s32(s0, s1));
    for (; i < n; i++) s += (uint32_t)((int32_t)a[i] * (int32_t)b[i]);
    return (int32_t)s;
}

// Four rows share each query load.
DOTPROD void hush_dot_i8_rows_dotprod(const int8_t *m, size_t rows, size_t dim, const int8_t *q, int32_t *out) {
    const size_t full = dim & ~(size_t)15;
    size_t r = 0;
    for (; r + 4 <= rows; r += 4) {
        const int8_t *p0 = m + r * dim, *p1 = p0 + dim, *p2 = p1 + dim, *p3 = p2 + dim;
        int32x4_t s0 = vdupq_n_s32(0), s1 = vdupq_n_s32(0), s2 = vdupq_n_s32(0), s3 = vdupq_n_s32(0);
        for (size_t c = 0; c < full; c += 16) {
            const int8x16_t qv = vld1q_s8(q + c);
            s0 = vdotq_s32(s0, vld1q_s8(p0 + c), qv);
            s1 = vdotq_s32(s1, vld1q_s8(p1 + c), qv);
            s2 = vdotq_s32(s2, vld1q_s8(p2 + c), qv);
            s3 = vdotq_s32(s3, vld1q_s8(p3 + c), qv);
        }
        uint32_t t[4];
        vst1q_u32(t, vreinterpretq_u32_s32(vpaddq_s32(vpaddq_s32(s0, s1), vpaddq_s32(s2, s3))));
        for (size_t c = full; c < dim; c++) {
            const int32_t qc = q[c];
            t[0] += (uint32_t)(p0[c] * qc);
            t[1] += (uint32_t)(p1[c] * qc);
            t[2] += (uint32_t)(p2[c] * qc);
            t[3] += (uint32_t)(p3[c] * qc);
        }
        for (int i = 0; i < 4; i++) out[r + (size_t)i] = (int32_t)t[i];
    }
    for (; r < rows; r++) out[r] = hush_dot_i8_dotprod(m + r * dim, q, dim);
}

// MARK: - 4-bit codes against an int8 query

/// A block's 64 nibbles as bytes 0...15: dimensions 0-15, 16-31 (low nibbles), 32-47 and 48-63 (high).
INLINE void u4_codes(const uint8_t *codes, int8x16_t c[4]) {
    const uint8x16_t mask = vdupq_n_u8(0x0F), c0 = vld1q_u8(codes), c1 = vld1q_u8(codes + 16);
    c[0] = vreinterpretq_s8_u8(vandq_u8(c0, mask));
    c[1] = vreinterpretq_s8_u8(vandq_u8(c1, mask));
    c[2] = vreinterpretq_s8_u8(vshrq_n_u8(c0, 4));
    c[3] = vreinterpretq_s8_u8(vshrq_n_u8(c1, 4));
}

// A product is at most 15 x 128 = 1,920, so each int16 lane safely sums the four products smull/smlal give it.
int32_t hush_dot_u4i8_neon(const uint8_t *codes, const int8_t *query, size_t blocks) {
    int32x4_t s0 = vdupq_n_s32(0), s1 = vdupq_n_s32(0);
    for (size_t b = 0; b < blocks; b++) {
        int8x16_t c[4];
        u4_codes(codes + 32 * b, c);
        const int8_t *q = query + 64 * b;
        const int8x16_t q0 = vld1q_s8(q), q1 = vld1q_s8(q + 16), q2 = vld1q_s8(q + 32), q3 = vld1q_s8(q + 48);
        int16x8_t low = vmull_s8(vget_low_s8(c[0]), vget_low_s8(q0));
        low = vmlal_high_s8(low, c[0], q0);
        low = vmlal_s8(low, vget_low_s8(c[1]), vget_low_s8(q1));
        low = vmlal_high_s8(low, c[1], q1);
        int16x8_t high = vmull_s8(vget_low_s8(c[2]), vget_low_s8(q2));
        high = vmlal_high_s8(high, c[2], q2);
        high = vmlal_s8(high, vget_low_s8(c[3]), vget_low_s8(q3));
        high = vmlal_high_s8(high, c[3], q3);
        s0 = vpadalq_s16(s0, low);
        s1 = vpadalq_s16(s1, high);
    }
    return vaddvq_s32(vaddq_s32(s0, s1));
}

DOTPROD int32_t hush_dot_u4i8_dotprod(const uint8_t *codes, const int8_t *query, size_t blocks) {
    int32x4_t s0 = vdupq_n_s32(0), s1 = vdupq_n_s32(0);
    for (size_t b = 0; b < blocks; b++) {
        int8x16_t c[4];
        u4_codes(codes + 32 * b, c);
        const int8_t *q = query + 64 * b;
        s0 = vdotq_s32(s0, c[0], vld1q_s8(q));
        s1 = vdotq_s32(s1, c[1], vld1q_s8(q + 16));
        s0 = vdotq_s32(s0, c[2], vld1q_s8(q + 32));
        s1 = vdotq_s32(s1, c[3], vld1q_s8(q + 48));
    }
    return vaddvq_s32(vaddq_s32(s0, s1));
}

// MARK: - 4-bit weights x 8-bit activations
//
// Loop order (as on x86): 32 tokens at a time (their codes stay in L1), then 16 blocks of k at a time (longer
// rows take several passes, each adding into y), then four weight rows at a time, unpacked once into the
// variant's layout for the pass (signed weights, so no code sums are needed: sum (n - 8) q = sum n q - 8 sum q,
// exactly), then tiles of up to 8 tokens x 4 outputs. Per block and tile, the integer dots of 4 outputs for one
// token (or 2 x 2 for smmla) come out in one int32 vector, which is converted and added into the f32
// accumulators with the product of the two blocks' scales.

enum { q4q8n_span = 16, q4q8n_chunk = 32, q4q8n_tile = 8 };

/// Four weight rows of a pass in a variant's layout: 8 vectors of 16 signed weights per block, and the scales.
///   plain: row r's weights 0-15 and 16-31 in vectors 2r, 2r + 1; scales[b][0] = (d0 d1 d2 d3).
///   sdot:  vector g holds weights 4g...4g + 3 of rows 0, 1, 2, 3 (a 4 x 4 transpose of 32-bit groups), so one
///          sdot by a lane of the activations adds four weights' products into each row's lane.
///   smmla: vectors 4p...4p + 3 hold rows 2p and 2p + 1, weights 8g...8g + 7 of each; scales[b][p] =
///          (d2p d2p+1 d2p d2p+1), the lane order of smmla's 2 x 2 result (token, row).
typedef struct {
    int8x16_t weights[q4q8n_span][8];
    float32x4_t scales[q4q8n_span][2];
} q4q8n_rows;

/// A chunk's tokens for smmla: pairs of tokens interleaved 8 codes at a time (pair p, block b: vectors g = 0...3
/// hold codes 8g...8g + 7 of token 2p, then of token 2p + 1), and each pair's scales as (d2p d2p d2p+1 d2p+1).
/// An odd last token is paired with itself.
typedef struct {
    int8x16_t codes[q4q8n_chunk / 2][q4q8n_span][4];
    float32x4_t scales[q4q8n_chunk / 2][q4q8n_span];
} q4q8n_pairs;

/// Where a tile reads its tokens: the codes and scales of its first token at the pass's first block (tokens
/// `k` codes and `blocks` scales apart), or its first pair in the interleaved chunk.
typedef struct {
    const int8_t *q;
    const float *d;
    size_t k, blocks;
    const q4q8n_pairs *pairs;
    size_t pair;
} q4q8n_tokens;

typedef void (*q4q8n_expand_fn)(const uint8_t *const rows[4], size_t count, q4q8n_rows *out);
typedef void (*q4q8n_tile_fn)(const q4q8n_rows *rows, size_t count, const q4q8n_tokens *tokens, size_t n_tokens,
                              const float *start, size_t lds, float *y, size_t ldy, size_t outputs);

/// The four rows' block scales (binary16 to binary32, exact).
INLINE float32x4_t q4_scales(const uint8_t *const rows[4], size_t b) {
    uint16_t h[4];
    for (int r = 0; r < 4; r++) h[r] = (uint16_t)(rows[r][b * 18] | (rows[r][b * 18 + 1] << 8));
    return vcvt_f32_f16(vreinterpret_f16_u16(vld1_u16(h)));
}

static void q4q8n_expand_plain(const uint8_t *const rows[4], size_t count, q4q8n_rows *out) {
    for (size_t b = 0; b < count; b++) {
        for (int r = 0; r < 4; r++) q4_signed(rows[r] + b * 18, &out->weights[b][2 * r], &out->weights[b][2 * r + 1]);
        out->scales[b][0] = q4_scales(rows, b);
    }
}

/// out[g] = 32-bit group g of v[0], v[1], v[2], v[3].
INLINE void transpose_groups(const int8x16_t v[4], int8x16_t out[4]) {
    const int32x4_t a = vreinterpretq_s32_s8(v[0]), b = vreinterpretq_s32_s8(v[1]), c = vreinterpretq_s32_s8(v[2]),
                    d = vreinterpretq_s32_s8(v[3]);
    const int64x2_t ab0 = vreinterpretq_s64_s32(vtrn1q_s32(a, b)), ab1 = vreinterpretq_s64_s32(vtrn2q_s32(a, b));
    const int64x2_t cd0 = vreinterpretq_s64_s32(vtrn1q_s32(c, d)), cd1 = vreinterpretq_s64_s32(vtrn2q_s32(c, d));
    out[0] = vreinterpretq_s8_s64(vtrn1q_s64(ab0, cd0));
    out[1] = vreinterpretq_s8_s64(vtrn1q_s64(ab1, cd1));
    out[2] = vreinterpretq_s8_s64(vtrn2q_s64(ab0, cd0));
    out[3] = vreinterpretq_s8_s64(vtrn2q_s64(ab1, cd1));
}

static void q4q8n_expand_dot(const uint8_t *const rows[4], size_t count, q4q8n_rows *out) {
    for (size_t b = 0; b < count; b++) {
        int8x16_t low[4], high[4];
        for (int r = 0; r < 4; r++) q4_signed(rows[r] + b * 18, &low[r], &high[r]);
        transpose_groups(low, &out->weights[b][0]);
        transpose_groups(high, &out->weights[b][4]);
        out->scales[b][0] = q4_scales(rows, b);
    }
}

static void q4q8n_expand_mmla(const uint8_t *const rows[4], size_t count, q4q8n_rows *out) {
    for (size_t b = 0; b < count; b++) {
        int64x2_t low[4], high[4];
        for (int r = 0; r < 4; r++) {
            int8x16_t l, h;
            q4_signed(rows[r] + b * 18, &l, &h);
            low[r] = vreinterpretq_s64_s8(l);
            high[r] = vreinterpretq_s64_s8(h);
        }
        for (int p = 0; p < 2; p++) {
            int8x16_t *w = &out->weights[b][4 * p];
            w[0] = vreinterpretq_s8_s64(vzip1q_s64(low[2 * p], low[2 * p + 1]));
            w[1] = vreinterpretq_s8_s64(vzip2q_s64(low[2 * p], low[2 * p + 1]));
            w[2] = vreinterpretq_s8_s64(vzip1q_s64(high[2 * p], high[2 * p + 1]));
            w[3] = vreinterpretq_s8_s64(vzip2q_s64(high[2 * p], high[2 * p + 1]));
        }
        const float32x4_t d = q4_scales(rows, b);
        out->scales[b][0] = vcombine_f32(vget_low_f32(d), vget_low_f32(d));
        out->scales[b][1] = vcombine_f32(vget_high_f32(d), vget_high_f32(d));
    }
}

/// Interleaves `tokens` tokens of a chunk, blocks [0, count) of the pass, into pairs for smmla.
static void q4q8n_pair_tokens(const int8_t *q, const float *d, size_t tokens, size_t count, size_t k, size_t blocks,
                              q4q8n_pairs *pairs) {
    for (size_t p = 0; 2 * p < tokens; p++) {
        const size_t t0 = 2 * p, t1 = 2 * p + 1 < tokens ? 2 * p + 1 : 2 * p;
        for (size_t b = 0; b < count; b++) {
            const int8_t *a = q + t0 * k + b * 32, *c = q + t1 * k + b * 32;
            const int64x2_t a0 = vreinterpretq_s64_s8(vld1q_s8(a)), a1 = vreinterpretq_s64_s8(vld1q_s8(a + 16));
            const int64x2_t c0 = vreinterpretq_s64_s8(vld1q_s8(c)), c1 = vreinterpretq_s64_s8(vld1q_s8(c + 16));
            int8x16_t *out = pairs->codes[p][b];
            out[0] = vreinterpretq_s8_s64(vzip1q_s64(a0, c0));
            out[1] = vreinterpretq_s8_s64(vzip2q_s64(a0, c0));
            out[2] = vreinterpretq_s8_s64(vzip1q_s64(a1, c1));
            out[3] = vreinterpretq_s8_s64(vzip2q_s64(a1, c1));
            const float d0 = d[t0 * blocks + b], d1 = d[t1 * blocks + b];
            pairs->scales[p][b] = (float32x4_t){d0, d0, d1, d1};
        }
    }
}

/// The value each output of a token starts from: the bias (lds 0), an earlier pass's y (lds = ldy), or 0.
INLINE float32x4_t q4q8n_start(const float *start, size_t lds, size_t t, size_t outputs) {
    if (!start) return vdupq_n_f32(0);
    if (outputs == 4) return vld1q_f32(start + t * lds);
    float v[4] = {0, 0, 0, 0};
    memcpy(v, start + t * lds, outputs * sizeof(float));
    return vld1q_f32(v);
}

INLINE void q4q8n_store(float *y, float32x4_t v, size_t outputs) {
    if (outputs == 4) {
        vst1q_f32(y, v);
        return;
    }
    float out[4];
    vst1q_f32(out, v);
    memcpy(y, out, outputs * sizeof(float));
}

/// Plain NEON: per row, smull/smlal leave 8 int16 lanes of four products each (|(n - 8) q| <= 1,024, so at
/// most 4,096); three pairwise adds fold the four rows into (r0 r0 r1 r1 r2 r2 r3 r3) (at most 16,384) and one
/// widening pairwise add gives the rows' int32 dots.
INLINE void q4q8n_tile_plain_n(const int T, const q4q8n_rows *rows, size_t count, const q4q8n_tokens *tk,
                               const float *start, size_t lds, float *y, size_t ldy, size_t outputs) {
    float32x4_t acc[q4q8n_tile];
    for (int t = 0; t < T; t++) acc[t] = q4q8n_start(start, lds, (size_t)t, outputs);
    for (size_t b = 0; b < count; b++) {
        const int8x16_t *w = rows->weights[b];
        const float32x4_t dw = rows->scales[b][0];
        for (int t = 0; t < T; t++) {
            const int8_t *a = tk->q + (size_t)t * tk->k + b * 32;
            const int8x16_t a0 = vld1q_s8(a), a1 = vld1q_s8(a + 16);
            int16x8_t p[4];
            for (int r = 0; r < 4; r++) {
                p[r] = vmull_s8(vget_low_s8(w[2 * r]), vget_low_s8(a0));
                p[r] = vmlal_high_s8(p[r], w[2 * r], a0);
                p[r] = vmlal_s8(p[r], vget_low_s8(w[2 * r + 1]), vget_low_s8(a1));
                p[r] = vmlal_high_s8(p[r], w[2 * r + 1], a1);
            }
            const int32x4_t dots = vpaddlq_s16(vpaddq_s16(vpaddq_s16(p[0], p[1]), vpaddq_s16(p[2], p[3])));
            acc[t] = vfmaq_f32(acc[t], vcvtq_f32_s32(dots), vmulq_n_f32(dw, tk->d[(size_t)t * tk->blocks + b]));
        }
    }
    for (int t = 0; t < T; t++) q4q8n_store(y + (size_t)t * ldy, acc[t], outputs);
}

/// DotProd: eight sdot by lane per token and block, the 4 x 4 transposed weights against the token's codes.
INLINE DOTPROD void q4q8n_tile_dot_n(const int T, const q4q8n_rows *rows, size_t count, const q4q8n_tokens *tk,
                                     const float *start, size_t lds, float *y, size_t ldy, size_t outputs) {
    float32x4_t acc[q4q8n_tile];
    for (int t = 0; t < T; t++) acc[t] = q4q8n_start(start, lds, (size_t)t, outputs);
    for (size_t b = 0; b < count; b++) {
        const int8x16_t *w = rows->weights[b];
        const float32x4_t dw = rows->scales[b][0];
        for (int t = 0; t < T; t++) {
            const int8_t *a = tk->q + (size_t)t * tk->k + b * 32;
            const int8x16_t a0 = vld1q_s8(a), a1 = vld1q_s8(a + 16);
            int32x4_t s = vdotq_laneq_s32(vdupq_n_s32(0), w[0], a0, 0);
            s = vdotq_laneq_s32(s, w[1], a0, 1);
            s = vdotq_laneq_s32(s, w[2], a0, 2);
            s = vdotq_laneq_s32(s, w[3], a0, 3);
            s = vdotq_laneq_s32(s, w[4], a1, 0);
            s = vdotq_laneq_s32(s, w[5], a1, 1);
            s = vdotq_laneq_s32(s, w[6], a1, 2);
            s = vdotq_laneq_s32(s, w[7], a1, 3);
            acc[t] = vfmaq_f32(acc[t], vcvtq_f32_s32(s), vmulq_n_f32(dw, tk->d[(size_t)t * tk->blocks + b]));
        }
    }
    for (int t = 0; t < T; t++) q4q8n_store(y + (size_t)t * ldy, acc[t], outputs);
}

/// I8MM: per pair of tokens and block, four smmla per pair of rows give (t0 r0, t0 r1, t1 r0, t1 r1).
INLINE I8MM void q4q8n_tile_mmla_n(const int P, const q4q8n_rows *rows, size_t count, const q4q8n_tokens *tk,
                                   size_t n_tokens, const float *start, size_t lds, float *y, size_t ldy,
                                   size_t outputs) {
    float32x4_t acc[q4q8n_tile / 2][2];
    for (int p = 0; p < P; p++) {
        const size_t t0 = 2 * (size_t)p, t1 = t0 + 1 < n_tokens ? t0 + 1 : t0;
        const float32x4_t s0 = q4q8n_start(start, lds, t0, outputs), s1 = q4q8n_start(start, lds, t1, outputs);
        acc[p][0] = vcombine_f32(vget_low_f32(s0), vget_low_f32(s1));
        acc[p][1] = vcombine_f32(vget_high_f32(s0), vget_high_f32(s1));
    }
    for (size_t b = 0; b < count; b++) {
        const int8x16_t *w = rows->weights[b];
        const float32x4_t dw0 = rows->scales[b][0], dw1 = rows->scales[b][1];
        for (int p = 0; p < P; p++) {
            const int8x16_t *a = tk->pairs->codes[tk->pair + (size_t)p][b];
            const float32x4_t da = tk->pairs->scales[tk->pair + (size_t)p][b];
            int32x4_t s0 = vmmlaq_s32(vdupq_n_s32(0), a[0], w[0]);
            int32x4_t s1 = vmmlaq_s32(vdupq_n_s32(0), a[0], w[4]);
            s0 = vmmlaq_s32(s0, a[1], w[1]);
            s1 = vmmlaq_s32(s1, a[1], w[5]);
            s0 = vmmlaq_s32(s0, a[2], w[2]);
            s1 = vmmlaq_s32(s1, a[2], w[6]);
            s0 = vmmlaq_s32(s0, a[3], w[3]);
            s1 = vmmlaq_s32(s1, a[3], w[7]);
            acc[p][0] = vfmaq_f32(acc[p][0], vcvtq_f32_s32(s0), vmulq_f32(dw0, da));
            acc[p][1] = vfmaq_f32(acc[p][1], vcvtq_f32_s32(s1), vmulq_f32(dw1, da));
        }
    }
    for (int p = 0; p < P; p++) {
        const size_t t0 = 2 * (size_t)p;
        q4q8n_store(y + t0 * ldy, vcombine_f32(vget_low_f32(acc[p][0]), vget_low_f32(acc[p][1])), outputs);
        if (t0 + 1 < n_tokens)
            q4q8n_store(y + (t0 + 1) * ldy, vcombine_f32(vget_high_f32(acc[p][0]), vget_high_f32(acc[p][1])), outputs);
    }
}

// The tiles by token count: a constant count lets the compiler keep the accumulators in registers.
#define Q4Q8N_CASES(F, ...)                                                                                         \
    switch (n_tokens) {                                                                                             \
    case 8: F(8, __VA_ARGS__); break;                                                                               \
    case 7: F(7, __VA_ARGS__); break;                                                                               \
    case 6: F(6, __VA_ARGS__); break;                                                                               \
    case 5: F(5, __VA_ARGS__); break;                                                                               \
    case 4: F(4, __VA_ARGS__); break;                                                                               \
    case 3: F(3, __VA_ARGS__); break;                                                                               \
    case 2: F(2, __VA_ARGS__); break;                                                                               \
    default: F(1, __VA_ARGS__); break;                                                                              \
    }

static void q4q8n_tile_plain(const q4q8n_rows *rows, size_t count, const q4q8n_tokens *tk, size_t n_tokens,
                             const float *start, size_t lds, float *y, size_t ldy, size_t outputs) {
    Q4Q8N_CASES(q4q8n_tile_plain_n, rows, count, tk, start, lds, y, ldy, outputs)
}

static DOTPROD void q4q8n_tile_dot(const q4q8n_rows *rows, size_t count, const q4q8n_tokens *tk, size_t n_tokens,
                                   const float *start, size_t lds, float *y, size_t ldy, size_t outputs) {
    Q4Q8N_CASES(q4q8n_tile_dot_n, rows, count, tk, start, lds, y, ldy, outputs)
}

static I8MM void q4q8n_tile_mmla(const q4q8n_rows *rows, size_t count, const q4q8n_tokens *tk, size_t n_tokens,
                                 const float *start, size_t lds, float *y, size_t ldy, size_t outputs) {
    switch ((n_tokens + 1) / 2) {
    case 4: q4q8n_tile_mmla_n(4, rows, count, tk, n_tokens, start, lds, y, ldy, outputs); break;
    case 3: q4q8n_tile_mmla_n(3, rows, count, tk, n_tokens, start, lds, y, ldy, outputs); break;
    case 2: q4q8n_tile_mmla_n(2, rows, count, tk, n_tokens, start, lds, y, ldy, outputs); break;
    default: q4q8n_tile_mmla_n(1, rows, count, tk, n_tokens, start, lds, y, ldy, outputs); break;
    }
}

/// The loops shared by the three variants; `pairs` is scratch for smmla's interleaved tokens (NULL otherwise).
static void q4q8n_run(q4q8n_expand_fn expand, q4q8n_tile_fn tile, q4q8n_pairs *pairs, const int8_t *q,
                      const float *d, size_t m, size_t k, const uint8_t *w, size_t n, const float *bias, float *y,
                      size_t ldy) {
    const size_t blocks = k / 32;
    if (blocks == 0) {  // an empty sum: y is the bias
        for (size_t t = 0; t < m; t++)
            for (size_t o = 0; o < n; o++) y[t * ldy + o] = bias ? bias[o] : 0.0f;
        return;
    }
    q4q8n_rows rows;
    for (size_t c0 = 0; c0 < m; c0 += q4q8n_chunk) {
        const size_t chunk = m - c0 < q4q8n_chunk ? m - c0 : q4q8n_chunk;
        for (size_t b0 = 0; b0 < blocks; b0 += q4q8n_span) {
            const size_t count = blocks - b0 < q4q8n_span ? blocks - b0 : q4q8n_span;
            if (pairs) q4q8n_pair_tokens(q + c0 * k + b0 * 32, d + c0 * blocks + b0, chunk, count, k, blocks, pairs);
            for (size_t o = 0; o < n; o += 4) {
                const size_t outputs = n - o < 4 ? n - o : 4;
                const uint8_t *row[4];
                for (size_t r = 0; r < 4; r++) row[r] = w + ((o + (r < outputs ? r : outputs - 1)) * blocks + b0) * 18;
                expand(row, count, &rows);
                for (size_t t0 = c0; t0 < c0 + chunk; t0 += q4q8n_tile) {
                    const size_t tokens = c0 + chunk - t0 < q4q8n_tile ? c0 + chunk - t0 : q4q8n_tile;
                    const q4q8n_tokens view = {q + t0 * k + b0 * 32, d + t0 * blocks + b0, k, blocks, pairs,
                                               (t0 - c0) / 2};
                    // The first pass starts from the bias (the same for every token: stride 0), later ones from y.
                    float *yt = y + t0 * ldy + o;
                    const float *start = b0 > 0 ? yt : bias ? bias + o : NULL;
                    tile(&rows, count, &view, tokens, start, b0 > 0 ? ldy : 0, yt, ldy, outputs);
                }
            }
        }
    }
}

void hush_matmul_q4_0_q8_0_neon(const int8_t *q, const float *d, const int32_t *s, size_t m, size_t k,
                                const uint8_t *w, size_t n, const float *bias, float *y, size_t ldy) {
    (void)s;  // signed weights need no code sums
    q4q8n_run(q4q8n_expand_plain, q4q8n_tile_plain, NULL, q, d, m, k, w, n, bias, y, ldy);
}

void hush_matmul_q4_0_q8_0_dotprod(const int8_t *q, const float *d, const int32_t *s, size_t m, size_t k,
                                   const uint8_t *w, size_t n, const float *bias, float *y, size_t ldy) {
    (void)s;
    q4q8n_run(q4q8n_expand_dot, q4q8n_tile_dot, NULL, q, d, m, k, w, n, bias, y, ldy);
}

void hush_matmul_q4_0_q8_0_i8mm(const int8_t *q, const float *d, const int32_t *s, size_t m, size_t k,
                                const uint8_t *w, size_t n, const float *bias, float *y, size_t ldy) {
    (void)s;
    q4q8n_pairs pairs;
    q4q8n_run(q4q8n_expand_mmla, q4q8n_tile_mmla, &pairs, q, d, m, k, w, n, bias, y, ldy);
}

// MARK: - f32 activations x f16 weight panels

// 4 rows x 4 columns at a time: loaded, transposed, rounded to halves by fcvtn (to nearest even under the default
// rounding mode, as the reference) and stored as 4 halves of 4 consecutive panel lines; a tail of k below 4 goes
// through the reference's rounding.
void hush_pack_f16_panels_neon(const float *w, size_t n, size_t k, uint16_t *out) {
    const size_t full = k & ~(size_t)3;
    for (size_t o = 0; o < n; o += 4) {
        uint16_t *panel = out + (o / 16) * 16 * k + o % 16;
        for (size_t i = 0; i < full; i += 4) {
            int8x16_t r[4], c[4];
            for (int j = 0; j < 4; j++) r[j] = vreinterpretq_s8_f32(vld1q_f32(w + (o + (size_t)j) * k + i));
            transpose_groups(r, c);
            for (int j = 0; j < 4; j++)
                vst1_u16(panel + (i + (size_t)j) * 16, vreinterpret_u16_f16(vcvt_f16_f32(vreinterpretq_f32_s8(c[j]))));
        }
        for (size_t j = 0; j < 4; j++)
            for (size_t i = full; i < k; i++) panel[i * 16 + j] = hush_float_to_half(w[(o + j) * k + i]);
    }
}

/// One panel line's 16 halves widened to four f32 vectors (fcvtl, fcvtl2: exact).
INLINE void f16_line(const uint16_t *line, float32x4_t v[4]) {
    const float16x8_t h0 = vreinterpretq_f16_u16(vld1q_u16(line)), h1 = vreinterpretq_f16_u16(vld1q_u16(line + 8));
    v[0] = vcvt_f32_f16(vget_low_f16(h0));
    v[1] = vcvt_high_f32_f16(h0);
    v[2] = vcvt_f32_f16(vget_low_f16(h1));
    v[3] = vcvt_high_f32_f16(h1);
}

#define F16P_STEP(lane)                                                                                             \
    do {                                                                                                            \
        float32x4_t wv[4];                                                                                          \
        f16_line(panel + (i + lane) * 16, wv);                                                                      \
        for (int r = 0; r < R; r++)                                                                                 \
            for (int j = 0; j < 4; j++) acc[r][j] = vfmaq_laneq_f32(acc[r][j], wv[j], xv[r], lane);                \
    } while (0)

/// R tokens (R <= 4) x one 16-output panel: 16 accumulators, each line of the panel widened once and multiplied
/// by each token's x[t][i] (taken by lane from a vector of four). Lane by lane the reference's fused
/// multiply-adds, in the order of i.
INLINE void f16p_tile_neon(const int R, const float *x, size_t ldx, size_t k, const uint16_t *panel, float *y,
                           size_t ldy) {
    float32x4_t acc[4][4];
    for (int r = 0; r < R; r++)
        for (int j = 0; j < 4; j++) acc[r][j] = vdupq_n_f32(0);
    size_t i = 0;
    for (; i + 4 <= k; i += 4) {
        float32x4_t xv[4];
        for (int r = 0; r < R; r++) xv[r] = vld1q_f32(x + (size_t)r * ldx + i);
        F16P_STEP(0);
        F16P_STEP(1);
        F16P_STEP(2);
        F16P_STEP(3);
    }
    for (; i < k; i++) {
        float32x4_t wv[4];
        f16_line(panel + i * 16, wv);
        for (int r = 0; r < R; r++)
            for (int j = 0; j < 4; j++) acc[r][j] = vfmaq_n_f32(acc[r][j], wv[j], x[(size_t)r * ldx + i]);
    }
    for (int r = 0; r < R; r++)
        for (int j = 0; j < 4; j++) vst1q_f32(y + (size_t)r * ldy + 4 * (size_t)j, acc[r][j]);
}

// Panel by panel (16 outputs; the panel stays in L1/L2 while every 4-token tile of x passes over it).
void hush_matmul_f32_f16p_neon(const float *x, size_t m, size_t k, size_t ldx, const uint16_t *w, size_t n, float *y,
                               size_t ldy) {
    for (size_t p = 0; p < n / 16; p++) {
        const uint16_t *panel = w + p * 16 * k;
        float *column = y + p * 16;
        size_t t = 0;
        for (; t + 4 <= m; t += 4) f16p_tile_neon(4, x + t * ldx, ldx, k, panel, column + t * ldy, ldy);
        switch (m - t) {
        case 3: f16p_tile_neon(3, x + t * ldx, ldx, k, panel, column + t * ldy, ldy); break;
        case 2: f16p_tile_neon(2, x + t * ldx, ldx, k, panel, column + t * ldy, ldy); break;
        case 1: f16p_tile_neon(1, x + t * ldx, ldx, k, panel, column + t * ldy, ldy); break;
        default: break;
        }
    }
}

#endif
