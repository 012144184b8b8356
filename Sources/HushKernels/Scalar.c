// Scalar references: the definition of every kernel. Vectorised variants are tested against these.
#include "HushKernels.h"
#include "Kernels.h"

#include <string.h>
#include <math.h>

float hush_dot_f32_ref(const float *a, const float *b, size_t n) {
    float s = 0;
    for (size_t i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}

int32_t hush_dot_i8_ref(const int8_t *a, const int8_t *b, size_t n) {
    int32_t s = 0;
    for (size_t i = 0; i < n; i++) s += (int32_t)a[i] * (int32_t)b[i];
    return s;
}

int32_t hush_dot_u4i8_ref(const uint8_t *codes, const int8_t *query, size_t blocks) {
    int32_t s = 0;
    for (size_t b = 0; b < blocks; b++) {
        const uint8_t *c = codes + 32 * b;
        const int8_t *q = query + 64 * b;
        for (size_t j = 0; j < 32; j++) s += (int32_t)(c[j] & 15) * q[j] + (int32_t)(c[j] >> 4) * q[32 + j];
    }
    return s;
}

uint32_t hush_hamming_ref(const uint64_t *a, const uint64_t *b, size_t words) {
    uint32_t d = 0;
    for (size_t i = 0; i < words; i++) d += (uint32_t)__builtin_popcountll(a[i] ^ b[i]);
    return d;
}

void hush_bias_gelu_f32_ref(float *x, size_t rows, size_t cols, const float *bias) {
    for (size_t r = 0; r < rows; r++) {
        float *row = x + r * cols;
        for (size_t c = 0; c < cols; c++) {
            float v = row[c] + (bias ? bias[c] : 0.0f);
            row[c] = 0.5f * v * (1.0f + erff(v * 0.70710678118654752f));
        }
    }
}

void hush_bias_residual_layernorm_f32_ref(float *x, size_t rows, size_t cols, const float *bias, const float *residual,
                                          const float *gamma, const float *beta, float eps) {
    for (size_t r = 0; r < rows; r++) {
        float *row = x + r * cols;
        const float *res = residual ? residual + r * cols : NULL;
        double mean = 0;
        for (size_t c = 0; c < cols; c++) {
            float v = row[c];
            if (bias) v += bias[c];
            if (res) v += res[c];
            row[c] = v;
            mean += v;
        }
        mean /= (double)cols;
        double var = 0;
        for (size_t c = 0; c < cols; c++) {
            double d = row[c] - mean;
            var += d * d;
        }
        var /= (double)cols;
        float inv = (float)(1.0 / sqrt(var + eps));
        for (size_t c = 0; c < cols; c++) row[c] = ((row[c] - (float)mean) * inv) * gamma[c] + beta[c];
    }
}

void hush_scaled_softmax_rows_f32_ref(float *x, size_t rows, size_t cols, size_t valid, float scale) {
    for (size_t r = 0; r < rows; r++) {
        float *row = x + r * cols;
        float mx = -INFINITY;
        for (size_t c = 0; c < valid; c++) {
            float v = row[c] * scale;
            row[c] = v;
            if (v > mx) mx = v;
        }
        float sum = 0;
        for (size_t c = 0; c < valid; c++) {
            row[c] = expf(row[c] - mx);
            sum += row[c];
        }
        float inv = sum > 0 ? 1.0f / sum : 0;
        for (size_t c = 0; c < valid; c++) row[c] *= inv;
        for (size_t c = valid; c < cols; c++) row[c] = 0;
    }
}

// MARK: - Scalar level: row loops over the references (internal, see Kernels.h)

#include "Kernels.h"

void hush_dot_f32_rows_scalar(const float *m, size_t rows, size_t dim, const float *q, float *out) {
    for (size_t r = 0; r < rows; r++) out[r] = hush_dot_f32_ref(m + r * dim, q, dim);
}

void hush_dot_i8_rows_scalar(const int8_t *m, size_t rows, size_t dim, const int8_t *q, int32_t *out) {
    for (size_t r = 0; r < rows; r++) out[r] = hush_dot_i8_ref(m + r * dim, q, dim);
}

void hush_hamming_rows_scalar(const uint64_t *m, size_t rows, size_t words, const uint64_t *q, uint32_t *out) {
    for (size_t r = 0; r < rows; r++) out[r] = hush_hamming_ref(m + r * words, q, words);
}

void hush_add_bias_f32_scalar(float *x, size_t rows, size_t cols, const float *bias) {
    for (size_t r = 0; r < rows; r++)
        for (size_t c = 0; c < cols; c++) x[r * cols + c] += bias[c];
}

void hush_half_to_float_array(const uint8_t *src, size_t count, float *out) {
    for (size_t i = 0; i < count; i++) out[i] = hush_half_to_float((uint16_t)(src[2 * i] | (src[2 * i + 1] << 8)));
}

void hush_dequantize_q4_0_ref(const uint8_t *blocks, size_t count, float *out) {
    for (size_t b = 0; b < count; b++, blocks += 18, out += 32) {
        const float d = hush_half_to_float((uint16_t)(blocks[0] | (blocks[1] << 8)));
        for (int j = 0; j < 16; j++) {
            out[j] = (float)((int)(blocks[2 + j] & 0x0F) - 8) * d;
            out[j + 16] = (float)((int)(blocks[2 + j] >> 4) - 8) * d;
        }
    }
}

void hush_quantize_q8_0_ref(const float *x, size_t m, size_t k, size_t ldx, int8_t *q, float *d, int32_t *s) {
    const size_t blocks = k / 32;
    for (size_t t = 0; t < m; t++)
        for (size_t b = 0; b < blocks; b++) {
            const float *v = x + t * ldx + b * 32;
            const size_t i = t * blocks + b;
            float largest = 0;
            for (int j = 0; j < 32; j++) largest = fmaxf(largest, fabsf(v[j]));
            const float scale = largest / 127.0f, inverse = scale > 0 ? 1.0f / scale : 0.0f;
            int32_t sum = 0;
            for (int j = 0; j < 32; j++) {
                long code = lrintf(v[j] * inverse);
                code = code > 127 ? 127 : code < -128 ? -128 : code;
                q[i * 32 + j] = (int8_t)code;
                sum += (int32_t)code;
            }
            d[i] = scale;
            s[i] = sum;
        }
}

void hush_matmul_q4_0_q8_0_ref(const int8_t *q, const float *d, const int32_t *s, size_t m, size_t k,
                               const uint8_t *w, size_t n, const float *bias, float *y, size_t ldy) {
    const size_t blocks = k / 32;
    for (size_t t = 0; t < m; t++)
        for (size_t o = 0; o < n; o++) {
            float sum = bias ? bias[o] : 0.0f;
            for (size_t b = 0; b < blocks; b++) {
                const uint8_t *block = w + (o * blocks + b) * 18;
                const int8_t *codes = q + (t * blocks + b) * 32;
                int32_t dot = 0;
                for (int j = 0; j < 16; j++)
                    dot += (block[2 + j] & 0x0F) * codes[j] + (block[2 + j] >> 4) * codes[j + 16];
                const float scale = hush_half_to_float((uint16_t)(block[0] | (block[1] << 8))) * d[t * blocks + b];
                // A product, then a sum, in two statements: never contracted into a fused multiply-add (which
                // arm64 would do), so that every platform's reference, and the rows8 kernels, agree bit for bit.
                const float term = scale * (float)(dot - 8 * s[t * blocks + b]);
                sum += term;
            }
            y[t * ldy + o] = sum;
        }
}

size_t hush_q4_0_rows8_size(size_t n, size_t k) { return n / 8 * (k / 32) * hush_rows8_block_bytes; }

/// Row r's scale in one group-block of the rows8 layout.
static inline float rows8_scale(const uint8_t *group, size_t r) {
    return hush_half_to_float((uint16_t)(group[2 * r] | (group[2 * r + 1] << 8)));
}

/// Row r's nibble byte e of run j in one group-block (low nibble: weight 4j + e; high: 16 + 4j + e).
static inline uint8_t rows8_byte(const uint8_t *group, size_t r, size_t j, size_t e) {
    return group[16 + 32 * j + 4 * r + e];
}

void hush_q4_0_interleave_rows8(const uint8_t *w, size_t n, size_t k, uint8_t *out) {
    const size_t blocks = k / 32;
    for (size_t g = 0; g < n / 8; g++)
        for (size_t b = 0; b < blocks; b++) {
            uint8_t *group = out + (g * blocks + b) * hush_rows8_block_bytes;
            for (size_t r = 0; r < 8; r++) {
                const uint8_t *block = w + ((8 * g + r) * blocks + b) * 18;
                memcpy(group + 2 * r, block, 2);
                for (size_t j = 0; j < 4; j++) memcpy(group + 16 + 32 * j + 4 * r, block + 2 + 4 * j, 4);
            }
        }
}

void hush_dequantize_q4_0_rows8(const uint8_t *packed, size_t k, size_t row, float *out) {
    const size_t blocks = k / 32, g = row / 8, r = row % 8;
    for (size_t b = 0; b < blocks; b++) {
        const uint8_t *group = packed + (g * blocks + b) * hush_rows8_block_bytes;
        const float scale = rows8_scale(group, r);
        for (size_t j = 0; j < 4; j++)
            for (size_t e = 0; e < 4; e++) {
                const uint8_t byte = rows8_byte(group, r, j, e);
                out[32 * b + 4 * j + e] = (float)((int)(byte & 0x0F) - 8) * scale;
                out[32 * b + 16 + 4 * j + e] = (float)((int)(byte >> 4) - 8) * scale;
            }
    }
}

void hush_matmul_q4_0_q8_0_rows8_ref(const int8_t *q, const float *d, const int32_t *s, size_t m, size_t k,
                                     const uint8_t *packed, size_t n, const float *bias, float *y, size_t ldy) {
    const size_t blocks = k / 32;
    for (size_t t = 0; t < m; t++)
        for (size_t o = 0; o < n; o++) {
            const size_t g = o / 8, r = o % 8;
            float sum = bias ? bias[o] : 0.0f;
            for (size_t b = 0; b < blocks; b++) {
                const uint8_t *group = packed + (g * blocks + b) * hush_rows8_block_bytes;
                const int8_t *codes = q + (t * blocks + b) * 32;
                int32_t dot = 0;
                for (size_t j = 0; j < 4; j++)
                    for (size_t e = 0; e < 4; e++) {
                        const uint8_t byte = rows8_byte(group, r, j, e);
                        dot += (byte & 0x0F) * codes[4 * j + e] + (byte >> 4) * codes[16 + 4 * j + e];
                    }
                const float scale = rows8_scale(group, r) * d[t * blocks + b];
                const float term = scale * (float)(dot - 8 * s[t * blocks + b]);
                sum += term;
            }
            y[t * ldy + o] = sum;
        }
}

uint16_t hush_float_to_half(float value) {
    union { float f; uint32_t u; } v = {value};
    const uint32_t sign = (v.u >> 16) & 0x8000, magnitude = v.u & 0x7FFFFFFF;
    if (magnitude >= 0x7F800000) return (uint16_t)(sign | (magnitude > 0x7F800000 ? 0x7E00 : 0x7C00));
    if (magnitude >= 0x477FF000) return (uint16_t)(sign | 0x7C00);  // 65520 and up round to infinity
    if (magnitude < 0x38800000) {
        // Below 2^-14: a subnormal half, in units of 2^-24 (the scaling is exact; lrintf rounds to even).
        return (uint16_t)(sign | (uint32_t)lrintf(fabsf(value) * 16777216.0f));
    }
    const uint32_t mantissa = magnitude & 0x7FFFFF, rest = mantissa & 0x1FFF;
    uint32_t half = ((((magnitude >> 23) - 112) << 10) | (mantissa >> 13));
    if (rest > 0x1000 || (rest == 0x1000 && (half & 1))) half++;  // a carry moves into the exponent, as it should
    return (uint16_t)(sign | half);
}

void hush_pack_f16_panels_ref(const float *w, size_t n, size_t k, uint16_t *out) {
    for (size_t o = 0; o < n; o++)
        for (size_t i = 0; i < k; i++) out[(o / 16) * 16 * k + i * 16 + o % 16] = hush_float_to_half(w[o * k + i]);
}

void hush_matmul_f32_f16p_ref(const float *x, size_t m, size_t k, size_t ldx, const uint16_t *w, size_t n,
                              float *y, size_t ldy) {
    for (size_t t = 0; t < m; t++)
        for (size_t o = 0; o < n; o++) {
            const uint16_t *panel = w + (o / 16) * 16 * k + o % 16;
            float sum = 0.0f;
            for (size_t i = 0; i < k; i++) sum = fmaf(x[t * ldx + i], hush_half_to_float(panel[i * 16]), sum);
            y[t * ldy + o] = sum;
        }
}
