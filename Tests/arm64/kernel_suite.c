// The aarch64 kernel suite: every kernel of every level this CPU has, held to the scalar reference on random and
// edge-case shapes. Cross-compiled for aarch64 and run under qemu-user by scripts/arm64/test (make test-arm64).
//
//   kernel_suite BEST ACTIVE [--dispatch-only]
//
// BEST is the level the CPU must report as its best ("i8mm" under qemu's -cpu max, "dotprod" under -cpu
// neoverse-n1, "neon" under -cpu cortex-a72), ACTIVE the level that must be in use at first use (BEST, or what
// HUSH_KERNELS forces). Every level above BEST must be refused. With --dispatch-only the kernels are not run. Integer kernels, the conversions to and from binary16 and the binary16 product must
// equal the reference bit for bit; the f32 kernels agree within the tolerances stated in HushKernels.h. Prints
// one line per failure and "N passed, M failed"; exits 1 on any failure.
#include "HushKernels.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed, failed;

__attribute__((format(printf, 4, 5))) static void check(int ok, const char *kernel, const char *level,
                                                        const char *fmt, ...) {
    if (ok) {
        passed++;
        return;
    }
    failed++;
    if (failed > 40) return;
    va_list args;
    va_start(args, fmt);
    printf("FAIL %s [%s]: ", kernel, level);
    vprintf(fmt, args);
    printf("\n");
    va_end(args);
}

// MARK: - Data

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t next_u64(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}
static float uniform(float lo, float hi) { return lo + (hi - lo) * (float)((next_u64() >> 40) / 16777216.0); }
static int8_t random_i8(void) { return (int8_t)(next_u64() >> 56); }

static float *floats(size_t n, float lo, float hi) {
    float *p = malloc((n ? n : 1) * sizeof(float));
    for (size_t i = 0; i < n; i++) p[i] = uniform(lo, hi);
    return p;
}
static int8_t *int8s(size_t n) {
    int8_t *p = malloc(n ? n : 1);
    for (size_t i = 0; i < n; i++) p[i] = random_i8();
    return p;
}
static uint32_t bits(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static int same_bits(const float *a, const float *b, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (bits(a[i]) != bits(b[i])) return 0;
    return 1;
}

/// Q4_0 blocks with random nibbles and scales between `lo` and `hi` (some negative), or the extremes.
static uint8_t *q4_blocks(size_t count, float lo, float hi, int extreme) {
    uint8_t *w = malloc((count ? count : 1) * 18);
    for (size_t b = 0; b < count; b++) {
        uint16_t d = hush_float_to_half(uniform(lo, hi) * ((next_u64() & 7) == 0 ? -1.0f : 1.0f));
        w[b * 18] = (uint8_t)d;
        w[b * 18 + 1] = (uint8_t)(d >> 8);
        for (int j = 0; j < 16; j++) w[b * 18 + 2 + j] = extreme ? 0x00 : (uint8_t)(next_u64() >> 56);
    }
    return w;
}

// MARK: - Distances

static void test_distances(const char *level) {
    static const size_t lengths[] = {0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 32, 33, 47, 63, 64, 65, 100, 383, 384, 1536};
    for (size_t li = 0; li < sizeof lengths / sizeof *lengths; li++) {
        const size_t n = lengths[li];
        float *a = floats(n, -1, 1), *b = floats(n, -1, 1);
        double magnitude = 0;
        for (size_t i = 0; i < n; i++) magnitude += fabs((double)a[i] * b[i]);
        const float got = hush_dot_f32(a, b, n), want = hush_dot_f32_ref(a, b, n);
        check(fabs((double)got - want) <= 1e-6 * magnitude + 1e-30, "dot_f32", level, "n=%zu %g vs %g", n, got, want);
        int8_t *x = int8s(n), *y = int8s(n);
        check(hush_dot_i8(x, y, n) == hush_dot_i8_ref(x, y, n), "dot_i8", level, "n=%zu", n);
        memset(x, -128, n);
        memset(y, -128, n);
        check(hush_dot_i8(x, y, n) == hush_dot_i8_ref(x, y, n), "dot_i8", level, "n=%zu, all -128", n);
        const size_t words = n / 8;
        uint64_t *h1 = (uint64_t *)int8s(8 * words), *h2 = (uint64_t *)int8s(8 * words);
        check(hush_hamming(h1, h2, words) == hush_hamming_ref(h1, h2, words), "hamming", level, "words=%zu", words);
        free(a), free(b), free(x), free(y), free(h1), free(h2);
    }
    static const size_t dims[] = {0, 1, 3, 4, 5, 8, 13, 16, 17, 33, 64, 384};
    for (size_t di = 0; di < sizeof dims / sizeof *dims; di++)
        for (size_t rows = 0; rows <= 9; rows++) {
            const size_t dim = dims[di];
            float *m = floats(rows * dim, -1, 1), *q = floats(dim, -1, 1), out[9], want[9];
            hush_dot_f32_rows(m, rows, dim, q, out);
            int ok = 1;
            for (size_t r = 0; r < rows; r++) {
                want[r] = hush_dot_f32_ref(m + r * dim, q, dim);
                if (fabsf(out[r] - want[r]) > 1e-6f * (float)dim + 1e-30f) ok = 0;
            }
            check(ok, "dot_f32_rows", level, "rows=%zu dim=%zu", rows, dim);
            int8_t *mi = int8s(rows * dim), *qi = int8s(dim);
            int32_t outi[9];
            hush_dot_i8_rows(mi, rows, dim, qi, outi);
            ok = 1;
            for (size_t r = 0; r < rows; r++) ok &= outi[r] == hush_dot_i8_ref(mi + r * dim, qi, dim);
            check(ok, "dot_i8_rows", level, "rows=%zu dim=%zu", rows, dim);
            const size_t words = dim / 4;
            uint64_t *mh = (uint64_t *)int8s(8 * rows * words), *qh = (uint64_t *)int8s(8 * words);
            uint32_t outh[9];
            hush_hamming_rows(mh, rows, words, qh, outh);
            ok = 1;
            for (size_t r = 0; r < rows; r++) ok &= outh[r] == hush_hamming_ref(mh + r * words, qh, words);
            check(ok, "hamming_rows", level, "rows=%zu words=%zu", rows, words);
            free(m), free(q), free(mi), free(qi), free(mh), free(qh);
        }
    for (size_t blocks = 0; blocks <= 24; blocks++) {
        uint8_t *codes = (uint8_t *)int8s(32 * blocks);
        int8_t *query = int8s(64 * blocks);
        check(hush_dot_u4i8(codes, query, blocks) == hush_dot_u4i8_ref(codes, query, blocks), "dot_u4i8", level,
              "blocks=%zu", blocks);
        memset(codes, 0xFF, 32 * blocks);  // every nibble 15 against -128: the largest products
        memset(query, -128, 64 * blocks);
        check(hush_dot_u4i8(codes, query, blocks) == hush_dot_u4i8_ref(codes, query, blocks), "dot_u4i8", level,
              "blocks=%zu, extremes", blocks);
        free(codes), free(query);
    }
}

// MARK: - Encoder loops

static void test_encoder_loops(const char *level) {
    for (size_t cols = 0; cols <= 40; cols++)
        for (size_t rows = 1; rows <= 3; rows += 2) {
            const size_t n = rows * cols;
            float *x = floats(n, -20, 20), *bias = floats(cols, -1, 1), *a = malloc((n + 1) * 4),
                  *b = malloc((n + 1) * 4);
            memcpy(a, x, n * 4);
            hush_add_bias_f32(a, rows, cols, bias);
            int ok = 1;
            for (size_t i = 0; i < n; i++) ok &= bits(a[i]) == bits(x[i] + bias[i % (cols ? cols : 1)]);
            check(ok, "add_bias_f32", level, "rows=%zu cols=%zu", rows, cols);
            for (int with_bias = 0; with_bias < 2; with_bias++) {
                memcpy(a, x, n * 4);
                memcpy(b, x, n * 4);
                hush_bias_gelu_f32(a, rows, cols, with_bias ? bias : NULL);
                hush_bias_gelu_f32_ref(b, rows, cols, with_bias ? bias : NULL);
                ok = 1;
                for (size_t i = 0; i < n; i++) ok &= fabsf(a[i] - b[i]) <= 4e-7f + 2.4e-7f * fabsf(b[i]);
                check(ok, "bias_gelu_f32", level, "rows=%zu cols=%zu bias=%d", rows, cols, with_bias);
            }
            if (cols > 0) {
                float *residual = floats(n, -3, 3), *gamma = floats(cols, 0.5f, 1.5f), *beta = floats(cols, -1, 1);
                for (int variant = 0; variant < 4; variant++) {
                    memcpy(a, x, n * 4);
                    memcpy(b, x, n * 4);
                    const float *bi = variant & 1 ? bias : NULL, *re = variant & 2 ? residual : NULL;
                    hush_bias_residual_layernorm_f32(a, rows, cols, bi, re, gamma, beta, 1e-12f);
                    hush_bias_residual_layernorm_f32_ref(b, rows, cols, bi, re, gamma, beta, 1e-12f);
                    ok = 1;
                    for (size_t i = 0; i < n; i++) ok &= fabsf(a[i] - b[i]) <= 2e-6f * (1 + fabsf(b[i]));
                    check(ok, "bias_residual_layernorm_f32", level, "rows=%zu cols=%zu variant=%d", rows, cols, variant);
                }
                for (size_t valid = 0; valid <= cols; valid += (cols > 8 ? 7 : 1)) {
                    memcpy(a, x, n * 4);
                    memcpy(b, x, n * 4);
                    hush_scaled_softmax_rows_f32(a, rows, cols, valid, 0.17677669f);
                    hush_scaled_softmax_rows_f32_ref(b, rows, cols, valid, 0.17677669f);
                    ok = 1;
                    for (size_t i = 0; i < n; i++) ok &= fabsf(a[i] - b[i]) <= 1e-6f * (1e-3f + fabsf(b[i]));
                    check(ok, "scaled_softmax_rows_f32", level, "rows=%zu cols=%zu valid=%zu", rows, cols, valid);
                }
                free(residual), free(gamma), free(beta);
            }
            free(x), free(bias), free(a), free(b);
        }
}

// MARK: - Quantised products

static void test_quantization(const char *level) {
    // Q4_0 -> f32, including subnormal and negative scales.
    for (size_t count = 0; count <= 9; count++) {
        uint8_t *blocks = q4_blocks(count, count % 2 ? 1e-7f : 1e-3f, count % 2 ? 5e-6f : 0.1f, 0);
        float *a = malloc((32 * count + 1) * 4), *b = malloc((32 * count + 1) * 4);
        hush_dequantize_q4_0(blocks, count, a);
        hush_dequantize_q4_0_ref(blocks, count, b);
        check(same_bits(a, b, 32 * count), "dequantize_q4_0", level, "count=%zu", count);
        free(blocks), free(a), free(b);
    }
    // f32 -> Q8_0: random rows, a zero block, huge values, and codes exactly halfway between two integers.
    static const size_t ks[] = {0, 32, 64, 96, 384, 1536};
    for (size_t ki = 0; ki < sizeof ks / sizeof *ks; ki++)
        for (size_t m = 1; m <= 5; m += 2) {
            const size_t k = ks[ki], ldx = k + 3, blocks = k / 32;
            float *x = floats(m * ldx, -4, 4);
            if (blocks >= 2) {
                memset(x + 32, 0, 32 * sizeof(float));
                x[0] = 3e38f;
            }
            if (blocks >= 1 && m >= 2)  // d = 1, so every other code lies halfway between two integers
                for (int j = 0; j < 32; j++) x[ldx + j] = j == 0 ? 127.0f : (float)(j % 9) - 4.5f;
            int8_t *qa = malloc(m * k + 1), *qb = malloc(m * k + 1);
            float *da = malloc((m * blocks + 1) * 4), *db = malloc((m * blocks + 1) * 4);
            int32_t *sa = malloc((m * blocks + 1) * 4), *sb = malloc((m * blocks + 1) * 4);
            hush_quantize_q8_0(x, m, k, ldx, qa, da, sa);
            hush_quantize_q8_0_ref(x, m, k, ldx, qb, db, sb);
            check(memcmp(qa, qb, m * k) == 0 && same_bits(da, db, m * blocks) &&
                      memcmp(sa, sb, m * blocks * 4) == 0,
                  "quantize_q8_0", level, "m=%zu k=%zu", m, k);
            free(x), free(qa), free(qb), free(da), free(db), free(sa), free(sb);
        }
}

static void check_q4q8(const char *level, size_t m, size_t k, size_t n, int with_bias, int extreme) {
    const size_t blocks = k / 32, ldy = n + 5;
    float *x = floats(m * k, -3, 3);
    if (extreme)
        for (size_t i = 0; i < m * k; i++) x[i] = -1.0f;  // every code -127
    int8_t *q = malloc(m * k + 1);
    float *d = malloc((m * blocks + 1) * 4);
    int32_t *s = malloc((m * blocks + 1) * 4);
    hush_quantize_q8_0_ref(x, m, k, k, q, d, s);
    uint8_t *w = q4_blocks(n * blocks, 1e-3f, 0.05f, extreme);
    float *bias = with_bias ? floats(n, -1, 1) : NULL;
    float *a = malloc((m * ldy + 1) * 4), *b = malloc((m * ldy + 1) * 4);
    for (size_t i = 0; i < m * ldy; i++) a[i] = b[i] = 12345.0f;  // the gaps between rows must stay untouched
    hush_matmul_q4_0_q8_0(q, d, s, m, k, w, n, bias, a, ldy);
    hush_matmul_q4_0_q8_0_ref(q, d, s, m, k, w, n, bias, b, ldy);
    int ok = 1;
    size_t exact = 0;
    double worst = 0;
    for (size_t t = 0; t < m; t++)
        for (size_t o = 0; o < ldy; o++) {
            const float got = a[t * ldy + o], want = b[t * ldy + o];
            if (o >= n) {
                ok &= got == 12345.0f;
                continue;
            }
            // The sum of the terms' magnitudes, for the tolerance (f32 accumulation over `blocks` terms).
            double magnitude = bias ? fabs(bias[o]) : 0;
            for (size_t bl = 0; bl < blocks; bl++) {
                const uint8_t *block = w + (o * blocks + bl) * 18;
                int32_t dot = 0;
                for (int j = 0; j < 16; j++)
                    dot += ((block[2 + j] & 15) - 8) * q[t * k + bl * 32 + j] +
                           ((block[2 + j] >> 4) - 8) * q[t * k + bl * 32 + 16 + j];
                float dw;
                hush_half_to_float_array(block, 1, &dw);
                magnitude += fabs((double)dw * d[t * blocks + bl] * dot);
            }
            const double error = fabs((double)got - want);
            if (error > worst) worst = error;
            ok &= error <= 1.2e-7 * (double)(blocks + 1) * magnitude + 1e-30;
            exact += bits(got) == bits(want);
        }
    check(ok, "matmul_q4_0_q8_0", level, "m=%zu k=%zu n=%zu bias=%d extreme=%d: largest difference %g", m, k, n,
          with_bias, extreme, worst);
    if (m * n > 0 && exact != m * n)
        printf("note matmul_q4_0_q8_0 [%s] m=%zu k=%zu n=%zu: %zu of %zu outputs bit-identical\n", level, m, k, n,
               exact, m * n);
    free(x), free(q), free(d), free(s), free(w), free(bias), free(a), free(b);
}

static void test_q4q8(const char *level) {
    // Every token count of a tile and of a chunk, every group tail (n % 4), one and several passes over k.
    for (size_t m = 1; m <= 10; m++)
        for (size_t n = 1; n <= 9; n++) check_q4q8(level, m, 32 * (1 + (m + n) % 3), n, (m + n) % 2, 0);
    static const size_t shapes[][3] = {{1, 384, 384}, {7, 384, 1536}, {31, 1536, 12}, {32, 512, 8}, {33, 544, 13},
                                       {65, 1056, 7}, {1, 1536, 384}, {512, 384, 16}, {512, 1536, 4}, {3, 0, 5}};
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++)
        check_q4q8(level, shapes[i][0], shapes[i][1], shapes[i][2], (int)(i % 2), 0);
    check_q4q8(level, 9, 1536, 8, 1, 1);  // every weight -8 against codes of -127: the largest products
}

static void test_f16_panels(const char *level) {
    static const size_t ks[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 31, 33, 384};
    for (size_t ki = 0; ki < sizeof ks / sizeof *ks; ki++)
        for (size_t n = 16; n <= 48; n += 16) {
            const size_t k = ks[ki];
            float *w = floats(n * k, -2, 2);
            // Halves' edge cases: ties, subnormals, overflow, signed zeros.
            const float edges[] = {1.0f + 1.0f / 2048, 1.0f + 3.0f / 2048, 3e-6f, -5.96e-8f, 2.9e-8f, 65519.0f,
                                   65520.0f, 1e6f, -0.0f, 0.0f, 6.1e-5f, -70000.0f};
            for (size_t e = 0; e < sizeof edges / sizeof *edges && e < n * k; e++) w[(e * 7) % (n * k)] = edges[e];
            uint16_t *a = malloc(n * k * 2), *b = malloc(n * k * 2);
            hush_pack_f16_panels(w, n, k, a);
            hush_pack_f16_panels_ref(w, n, k, b);
            check(memcmp(a, b, n * k * 2) == 0, "pack_f16_panels", level, "n=%zu k=%zu", n, k);
            for (size_t m = 1; m <= 9; m += (m < 6 ? 1 : 3)) {
                const size_t ldx = k + 2, ldy = n + 3;
                float *x = floats(m * ldx, -1, 1), *ya = malloc(m * ldy * 4), *yb = malloc(m * ldy * 4);
                for (size_t i = 0; i < m * ldy; i++) ya[i] = yb[i] = -7.0f;
                hush_pack_f16_panels_ref(w, n, k, b);
                for (size_t i = 0; i < n * k; i++)  // keep the product finite: no infinities from the edge cases
                    if ((b[i] & 0x7C00) == 0x7C00) b[i] = 0x3C00;
                hush_matmul_f32_f16p(x, m, k, ldx, b, n, ya, ldy);
                hush_matmul_f32_f16p_ref(x, m, k, ldx, b, n, yb, ldy);
                check(same_bits(ya, yb, m * ldy), "matmul_f32_f16p", level, "m=%zu k=%zu n=%zu", m, k, n);
                free(x), free(ya), free(yb);
            }
            free(w), free(a), free(b);
        }
    // A query's tokens against one e5-sized panel set, and 512 tokens against one panel.
    const size_t shapes[][3] = {{11, 384, 1536}, {512, 64, 16}};
    for (int s = 0; s < 2; s++) {
        const size_t m = shapes[s][0], k = shapes[s][1], n = shapes[s][2];
        float *w = floats(n * k, -0.2f, 0.2f), *x = floats(m * k, -1, 1), *ya = malloc(m * n * 4),
              *yb = malloc(m * n * 4);
        uint16_t *p = malloc(n * k * 2);
        hush_pack_f16_panels(w, n, k, p);
        hush_matmul_f32_f16p(x, m, k, k, p, n, ya, n);
        hush_matmul_f32_f16p_ref(x, m, k, k, p, n, yb, n);
        check(same_bits(ya, yb, m * n), "matmul_f32_f16p", level, "m=%zu k=%zu n=%zu", m, k, n);
        free(w), free(x), free(ya), free(yb), free(p);
    }
}

// MARK: - Levels

int main(int argc, char **argv) {
    const int dispatch_only = argc == 4 && strcmp(argv[3], "--dispatch-only") == 0;
    if (argc != 3 && !dispatch_only) {
        fprintf(stderr, "usage: kernel_suite BEST ACTIVE [--dispatch-only]\n");
        return 2;
    }
    const char *best = hush_kernels_level_name(hush_kernels_best_level());
    const char *active = hush_kernels_level_name(hush_kernels_level());
    check(strcmp(best, argv[1]) == 0, "dispatch", best, "best level %s, expected %s", best, argv[1]);
    check(strcmp(active, argv[2]) == 0, "dispatch", active, "level at first use %s, expected %s", active, argv[2]);
    // arm64's levels in order; each is available exactly up to the best one.
    const hush_level levels[] = {HUSH_LEVEL_SCALAR, HUSH_LEVEL_NEON, HUSH_LEVEL_NEON_DOTPROD, HUSH_LEVEL_NEON_I8MM};
    int available = 1;
    for (size_t i = 0; i < sizeof levels / sizeof *levels; i++) {
        const char *name = hush_kernels_level_name(levels[i]);
        const int rc = hush_kernels_set_level(levels[i]);
        check(rc == (available ? 0 : -1), "dispatch", name, "set_level returned %d", rc);
        if (rc == 0) check(hush_kernels_level() == levels[i], "dispatch", name, "level not installed");
        if (rc == 0 && !dispatch_only) {
            const int before = failed;
            test_distances(name);
            test_encoder_loops(name);
            test_quantization(name);
            test_q4q8(name);
            test_f16_panels(name);
            printf("level %s: %s\n", name, failed == before ? "every kernel equals the reference" : "FAILED");
        }
        if (levels[i] == hush_kernels_best_level()) available = 0;
    }
    check(hush_kernels_set_level(HUSH_LEVEL_AVX2) == -1 && hush_kernels_set_level(HUSH_LEVEL_AVX512) == -1,
          "dispatch", best, "an x86 level was accepted on arm64");
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
