// Run-time dispatch. (Scalar only for now: vectorised variants land next.)
#include "HushKernels.h"

static hush_level current = HUSH_LEVEL_SCALAR;

hush_level hush_kernels_best_level(void) { return HUSH_LEVEL_SCALAR; }
hush_level hush_kernels_level(void) { return current; }
int hush_kernels_set_level(hush_level level) {
    if (level > hush_kernels_best_level()) return -1;
    current = level;
    return 0;
}
const char *hush_kernels_level_name(hush_level level) {
    switch (level) {
    case HUSH_LEVEL_SCALAR: return "scalar";
    case HUSH_LEVEL_NEON: return "neon";
    case HUSH_LEVEL_AVX2: return "avx2";
    case HUSH_LEVEL_AVX512: return "avx512";
    }
    return "unknown";
}
int hush_kernels_has_vnni(void) { return 0; }

float hush_dot_f32(const float *a, const float *b, size_t n) { return hush_dot_f32_ref(a, b, n); }
void hush_dot_f32_rows(const float *m, size_t rows, size_t dim, const float *q, float *out) {
    for (size_t r = 0; r < rows; r++) out[r] = hush_dot_f32_ref(m + r * dim, q, dim);
}
int32_t hush_dot_i8(const int8_t *a, const int8_t *b, size_t n) { return hush_dot_i8_ref(a, b, n); }
void hush_dot_i8_rows(const int8_t *m, size_t rows, size_t dim, const int8_t *q, int32_t *out) {
    for (size_t r = 0; r < rows; r++) out[r] = hush_dot_i8_ref(m + r * dim, q, dim);
}
uint32_t hush_hamming(const uint64_t *a, const uint64_t *b, size_t words) { return hush_hamming_ref(a, b, words); }
void hush_hamming_rows(const uint64_t *m, size_t rows, size_t words, const uint64_t *q, uint32_t *out) {
    for (size_t r = 0; r < rows; r++) out[r] = hush_hamming_ref(m + r * words, q, words);
}
void hush_add_bias_f32(float *x, size_t rows, size_t cols, const float *bias) {
    for (size_t r = 0; r < rows; r++)
        for (size_t c = 0; c < cols; c++) x[r * cols + c] += bias[c];
}
void hush_bias_gelu_f32(float *x, size_t rows, size_t cols, const float *bias) { hush_bias_gelu_f32_ref(x, rows, cols, bias); }
void hush_bias_residual_layernorm_f32(float *x, size_t rows, size_t cols, const float *bias, const float *residual,
                                      const float *gamma, const float *beta, float eps) {
    hush_bias_residual_layernorm_f32_ref(x, rows, cols, bias, residual, gamma, beta, eps);
}
void hush_scaled_softmax_rows_f32(float *x, size_t rows, size_t cols, size_t valid, float scale) {
    hush_scaled_softmax_rows_f32_ref(x, rows, cols, valid, scale);
}
