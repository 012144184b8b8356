// AVX-512 VNNI kernels of the encoder's 4-bit weight products: activations rounded to 8 bits per block (Q8_0)
// against 4-bit weights (Q4_0), pairwise (both rows of a pair in one 512-bit register) or 8 rows interleaved
// (vpdpbusd on 256 bits, tiles of 8 tokens). As in KernelsAVX512.c, every function carries its own target
// attribute, so this file builds for any x86-64; Dispatch.c calls these only on CPUs with AVX-512 VNNI.
#if defined(__x86_64__)

#include "Kernels.h"
#include "KernelsX86.h"
#include <immintrin.h>
#include <string.h>

// MARK: - 4-bit weights x 8-bit activations (VNNI)

#define AVX512_VNNI_F16C                                                                                               \
    __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx512vnni,avx2,fma,f16c")))

/// A pair of weight rows ready for the tile: per block, row 0's 32 nibbles as bytes in the low half and row
/// 1's in the high half (unsigned: the -8 comes later through the code sums), and the two rows' scales as
/// (d0 d0 d0 d0 d1 d1 d1 d1).
typedef struct {
    __m512i nibbles[q4q8_span];
    float scales[q4q8_span][8];
} q4q8z_rows;

static inline AVX512_VNNI_F16C void q4q8z_expand(const uint8_t *w0, const uint8_t *w1, size_t count,
                                                 q4q8z_rows *rows) {
    for (size_t b = 0; b < count; b++) {
        rows->nibbles[b] =
            _mm512_inserti64x4(_mm512_castsi256_si512(q4q8_nibbles(w0 + b * 18)), q4q8_nibbles(w1 + b * 18), 1);
        q4q8_pair_scales(w0 + b * 18, w1 + b * 18, rows->scales[b]);
    }
}

/// One tile: a row pair against `tokens` (1-8) quantised rows starting at q (rows k apart), taken as two groups
/// of four. The AVX2 kernel's arithmetic lane for lane on twice the width: both rows of the pair against one
/// token in one register, and vpdpbusd (unsigned nibble x signed code, four products into each 32-bit lane) in
/// place of vpmaddubsw and vpmaddwd, whose lanes hold the same four products (vpmaddubsw's 16-bit pairs cannot
/// saturate here: 2 x 15 x 128 < 32,768); each lane still adds its blocks in order, one fused multiply-add each,
/// so every output is bit for bit the AVX2 kernel's. Eight tokens, not four, so that eight chains of
/// multiply-adds (not four) hide the instruction's latency.
static inline AVX512_VNNI_F16C __attribute__((always_inline)) void q4q8z_tile(
    const int tokens, const q4q8z_rows *rows, const q4q8_tokens *group, size_t count, const int8_t *q, size_t k,
    const float *start0, const float *start1, size_t lds, float *y0, float *y1, size_t ldy) {
    __m512 acc[2 * q4q8_tile_tokens];
    for (int t = 0; t < tokens; t++) acc[t] = _mm512_setzero_ps();
    const int groups = (tokens + q4q8_tile_tokens - 1) / q4q8_tile_tokens;
    __m256 corr[2] = {_mm256_setzero_ps(), _mm256_setzero_ps()};
    float scales[2][q4q8_span][8] __attribute__((aligned(32)));
    for (int g = 0; g < groups; g++) corr[g] = q4q8_scale_products(rows->scales, &group[g], count, scales[g]);
    // Lane i of token t's scale vector: dw0 da_t for the low half (row 0), dw1 da_t for the high half (row 1).
    __m512i pick[q4q8_tile_tokens];
    for (int t = 0; t < q4q8_tile_tokens; t++)
        pick[t] = _mm512_inserti64x4(_mm512_set1_epi32(t), _mm256_set1_epi32(4 + t), 1);
    for (size_t b = 0; b < count; b++) {
        const __m512i n = rows->nibbles[b];
        const __m512 s0 = _mm512_castps256_ps512(_mm256_load_ps(scales[0][b]));
        const __m512 s1 = groups > 1 ? _mm512_castps256_ps512(_mm256_load_ps(scales[1][b])) : s0;
        for (int t = 0; t < tokens; t++) {
            const __m512i a = _mm512_broadcast_i64x4(_mm256_loadu_si256((const __m256i *)(q + t * k + b * 32)));
            const __m512 p = _mm512_cvtepi32_ps(_mm512_dpbusd_epi32(_mm512_setzero_si512(), n, a));
            const __m512 scale = _mm512_permutexvar_ps(pick[t % q4q8_tile_tokens], t < q4q8_tile_tokens ? s0 : s1);
            acc[t] = _mm512_fmadd_ps(p, scale, acc[t]);
        }
    }
    float c[2][8];
    _mm256_storeu_ps(c[0], corr[0]);
    _mm256_storeu_ps(c[1], corr[1]);
    for (int t = 0; t < tokens; t++) {
        const float *ct = c[t / q4q8_tile_tokens];
        const int lane = t % q4q8_tile_tokens;
        const float sum0 = hsum(_mm512_castps512_ps256(acc[t]));
        const float sum1 = hsum(_mm512_extractf32x8_ps(acc[t], 1));
        y0[t * ldy] = ((start0 ? start0[t * lds] : 0.0f) + sum0) - 8.0f * ct[lane];
        if (y1) y1[t * ldy] = ((start1 ? start1[t * lds] : 0.0f) + sum1) - 8.0f * ct[4 + lane];
    }
}

// The AVX2 kernel's loops (32 tokens at a time, 128 blocks of k at a time, each pair of weight rows unpacked
// once into L1 for the chunk) around the wider tile of eight tokens.
AVX512_VNNI_F16C void hush_matmul_q4_0_q8_0_avx512vnni(const int8_t *q, const float *d, const int32_t *s, size_t m,
                                                       size_t k, const uint8_t *w, size_t n, const float *bias,
                                                       float *y, size_t ldy) {
    const size_t blocks = k / 32;
    q4q8z_rows rows __attribute__((aligned(64)));
    q4q8_tokens groups[q4q8_chunk_tokens / q4q8_tile_tokens] __attribute__((aligned(32)));
    for (size_t c0 = 0; c0 < m; c0 += q4q8_chunk_tokens) {
        const size_t chunk = m - c0 < q4q8_chunk_tokens ? m - c0 : q4q8_chunk_tokens;
        for (size_t b0 = 0; b0 < blocks; b0 += q4q8_span) {
            const size_t count = blocks - b0 < q4q8_span ? blocks - b0 : q4q8_span;
            q4q8_gather(d, s, m, blocks, c0, chunk, b0, count, groups);
            for (size_t o = 0; o < n; o += 2) {
                const uint8_t *w0 = w + (o * blocks + b0) * 18;
                const int pair = o + 1 < n;
                q4q8z_expand(w0, pair ? w0 + blocks * 18 : w0, count, &rows);
                for (size_t g = 0; g * q4q8_tile_tokens < chunk; g += 2) {
                    const size_t t0 = c0 + g * q4q8_tile_tokens;
                    const int8_t *qt = q + t0 * k + b0 * 32;
                    float *y0 = y + t0 * ldy + o, *y1 = pair ? y0 + 1 : NULL;
                    // The first pass starts from the bias (the same for every token: stride 0), later ones from y.
                    const float *s0 = b0 > 0 ? y0 : bias ? bias + o : NULL, *s1 = b0 > 0 ? y1 : bias ? bias + o + 1 : NULL;
                    const size_t lds = b0 > 0 ? ldy : 0;
                    const size_t left = c0 + chunk - t0;
                    const q4q8_tokens *tile = &groups[g];
                    switch (left < 2 * q4q8_tile_tokens ? left : 2 * q4q8_tile_tokens) {
                    case 8: q4q8z_tile(8, &rows, tile, count, qt, k, s0, s1, lds, y0, y1, ldy); break;
                    case 7: q4q8z_tile(7, &rows, tile, count, qt, k, s0, s1, lds, y0, y1, ldy); break;
                    case 6: q4q8z_tile(6, &rows, tile, count, qt, k, s0, s1, lds, y0, y1, ldy); break;
                    case 5: q4q8z_tile(5, &rows, tile, count, qt, k, s0, s1, lds, y0, y1, ldy); break;
                    case 4: q4q8z_tile(4, &rows, tile, count, qt, k, s0, s1, lds, y0, y1, ldy); break;
                    case 3: q4q8z_tile(3, &rows, tile, count, qt, k, s0, s1, lds, y0, y1, ldy); break;
                    case 2: q4q8z_tile(2, &rows, tile, count, qt, k, s0, s1, lds, y0, y1, ldy); break;
                    default: q4q8z_tile(1, &rows, tile, count, qt, k, s0, s1, lds, y0, y1, ldy); break;
                    }
                }
            }
        }
    }
}

// MARK: - 4-bit weights, 8 rows interleaved x 8-bit activations (VNNI)

/// Tokens per tile of the interleaved product with VNNI: AVX-512VL's 32 registers hold eight tokens' sums beside
/// the block's eight weight registers.
enum { rows8z_tile_tokens = 8 };

/// One tile: 8 interleaved rows (their blocks at p) against `tokens` (1-8) quantised rows from q (rows k apart).
/// AVX2's rows8_tile with vpdpbusd in place of vpmaddubsw, vpaddw and vpmaddwd: lane r adds row r's products with
/// four of the token's codes at a time straight into 32 bits, in two chains of four (the instruction's latency),
/// the first starting from -8 x the codes' sum, so the lane ends on the reference's integer (dot - 8 sum) exactly.
/// The float steps are the reference's, a product and then a sum, so the outputs are the reference's bit for bit.
static inline AVX512_VNNI_F16C __attribute__((always_inline)) void rows8z_tile(const int tokens, const uint8_t *p,
                                                                                size_t blocks, const int8_t *q,
                                                                                const float *d, const int32_t *s,
                                                                                size_t k, const float *bias, float *y,
                                                                                size_t ldy) {
    __m256 acc[rows8z_tile_tokens];
    const __m256 start = bias ? _mm256_loadu_ps(bias) : _mm256_setzero_ps();
    HUSH_UNROLL_FULL
    for (int t = 0; t < tokens; t++) acc[t] = start;
    for (size_t b = 0; b < blocks; b++, p += hush_rows8_block_bytes) {
        __m256i w[8];
        const __m256 weight_scales = rows8_block(p, w);
        HUSH_UNROLL_FULL
        for (int t = 0; t < tokens; t++) {
            int32_t codes[8];
            memcpy(codes, q + t * k + b * 32, 32);
            __m256i even = _mm256_set1_epi32(-8 * s[t * blocks + b]), odd = _mm256_setzero_si256();
            for (int j = 0; j < 8; j += 2) {
                even = _mm256_dpbusd_epi32(even, w[j], _mm256_set1_epi32(codes[j]));
                odd = _mm256_dpbusd_epi32(odd, w[j + 1], _mm256_set1_epi32(codes[j + 1]));
            }
            const __m256i dot = _mm256_add_epi32(even, odd);
            const __m256 scale = _mm256_mul_ps(weight_scales, _mm256_set1_ps(d[t * blocks + b]));
            acc[t] = _mm256_add_ps(acc[t], _mm256_mul_ps(scale, _mm256_cvtepi32_ps(dot)));
        }
    }
    HUSH_UNROLL_FULL
    for (int t = 0; t < tokens; t++) _mm256_storeu_ps(y + t * ldy, acc[t]);
}

/// rows8z_tile for any count of tokens up to the tile's, each count with its loops unrolled.
static AVX512_VNNI_F16C void rows8z_tile_any(size_t tokens, const uint8_t *p, size_t blocks, const int8_t *q,
                                             const float *d, const int32_t *s, size_t k, const float *bias, float *y,
                                             size_t ldy) {
    switch (tokens) {
    case 8: rows8z_tile(8, p, blocks, q, d, s, k, bias, y, ldy); break;
    case 7: rows8z_tile(7, p, blocks, q, d, s, k, bias, y, ldy); break;
    case 6: rows8z_tile(6, p, blocks, q, d, s, k, bias, y, ldy); break;
    case 5: rows8z_tile(5, p, blocks, q, d, s, k, bias, y, ldy); break;
    case 4: rows8z_tile(4, p, blocks, q, d, s, k, bias, y, ldy); break;
    case 3: rows8z_tile(3, p, blocks, q, d, s, k, bias, y, ldy); break;
    case 2: rows8z_tile(2, p, blocks, q, d, s, k, bias, y, ldy); break;
    default: rows8z_tile(1, p, blocks, q, d, s, k, bias, y, ldy); break;
    }
}

AVX512_VNNI_F16C void hush_matmul_q4_0_q8_0_rows8_avx512vnni(const int8_t *q, const float *d, const int32_t *s,
                                                             size_t m, size_t k, const uint8_t *packed, size_t n,
                                                             const float *bias, float *y, size_t ldy) {
    rows8_loops(rows8z_tile_tokens, rows8z_tile_any, q, d, s, m, k, packed, n, bias, y, ldy);
}

#endif
