// Run-time dispatch: the level is chosen once, on first use, from CPUID (and the OS's saved-state support), or
// from the HUSH_KERNELS environment variable; every public entry point then calls through one table pointer.
#include "Kernels.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>
#endif
#if defined(__APPLE__)
#include <sys/sysctl.h>
#endif
#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
// The bits of the kernel's hardware capabilities (asm/hwcap.h), spelled out for older headers.
#define HUSH_HWCAP_ASIMDDP (1UL << 20)
#define HUSH_HWCAP2_I8MM (1UL << 13)
#endif

// MARK: - Tables

static const hush_kernel_table scalar_table = {
    .dot_f32 = hush_dot_f32_ref,
    .dot_f32_rows = hush_dot_f32_rows_scalar,
    .dot_i8 = hush_dot_i8_ref,
    .dot_i8_rows = hush_dot_i8_rows_scalar,
    .dot_u4i8 = hush_dot_u4i8_ref,
    .hamming = hush_hamming_ref,
    .hamming_rows = hush_hamming_rows_scalar,
    .add_bias_f32 = hush_add_bias_f32_scalar,
    .bias_gelu_f32 = hush_bias_gelu_f32_ref,
    .bias_residual_layernorm_f32 = hush_bias_residual_layernorm_f32_ref,
    .scaled_softmax_rows_f32 = hush_scaled_softmax_rows_f32_ref,
    .dequantize_q4_0 = hush_dequantize_q4_0_ref,
    .quantize_q8_0 = hush_quantize_q8_0_ref,
    .matmul_q4_0_q8_0 = hush_matmul_q4_0_q8_0_ref,
    .matmul_q4_0_q8_0_rows8 = hush_matmul_q4_0_q8_0_rows8_ref,
    .pack_f16_panels = hush_pack_f16_panels_ref,
    .matmul_f32_f16p = hush_matmul_f32_f16p_ref,
};

#if defined(__x86_64__)
static const hush_kernel_table avx2_table = {
    .dot_f32 = hush_dot_f32_avx2,
    .dot_f32_rows = hush_dot_f32_rows_avx2,
    .dot_i8 = hush_dot_i8_avx2,
    .dot_i8_rows = hush_dot_i8_rows_avx2,
    .dot_u4i8 = hush_dot_u4i8_avx2,
    .hamming = hush_hamming_popcnt,
    .hamming_rows = hush_hamming_rows_popcnt,
    .add_bias_f32 = hush_add_bias_f32_avx2,
    .bias_gelu_f32 = hush_bias_gelu_f32_avx2,
    .bias_residual_layernorm_f32 = hush_bias_residual_layernorm_f32_avx2,
    .scaled_softmax_rows_f32 = hush_scaled_softmax_rows_f32_avx2,
    .dequantize_q4_0 = hush_dequantize_q4_0_avx2,
    .quantize_q8_0 = hush_quantize_q8_0_avx2,
    .matmul_q4_0_q8_0 = hush_matmul_q4_0_q8_0_avx2,
    .matmul_q4_0_q8_0_rows8 = hush_matmul_q4_0_q8_0_rows8_avx2,
    .pack_f16_panels = hush_pack_f16_panels_avx2,
    .matmul_f32_f16p = hush_matmul_f32_f16p_avx2,
};
// Filled in by detect(): the int8 and Hamming entries depend on VNNI and VPOPCNTDQ.
static hush_kernel_table avx512_table;
#endif

#if defined(__aarch64__)
static const hush_kernel_table neon_table = {
    .dot_f32 = hush_dot_f32_neon,
    .dot_f32_rows = hush_dot_f32_rows_neon,
    .dot_i8 = hush_dot_i8_neon,
    .dot_i8_rows = hush_dot_i8_rows_neon,
    .dot_u4i8 = hush_dot_u4i8_neon,
    .hamming = hush_hamming_neon,
    .hamming_rows = hush_hamming_rows_neon,
    .add_bias_f32 = hush_add_bias_f32_neon,
    .bias_gelu_f32 = hush_bias_gelu_f32_neon,
    .bias_residual_layernorm_f32 = hush_bias_residual_layernorm_f32_neon,
    .scaled_softmax_rows_f32 = hush_scaled_softmax_rows_f32_neon,
    .dequantize_q4_0 = hush_dequantize_q4_0_neon,
    .quantize_q8_0 = hush_quantize_q8_0_neon,
    .matmul_q4_0_q8_0 = hush_matmul_q4_0_q8_0_neon,
    // No .matmul_q4_0_q8_0_rows8: the plain layout's NEON kernels (sdot, smmla) serve arm64, and no interleaved
    // copy is made there; a direct call finds the entry empty and runs the reference.
    .pack_f16_panels = hush_pack_f16_panels_neon,
    .matmul_f32_f16p = hush_matmul_f32_f16p_neon,
};
// Filled in by detect_arm64() from the NEON table: sdot wherever int8 products are summed, then smmla for the
// 4-bit x 8-bit product (the one product with several tokens against each weight block; the single-vector dots
// have no second row for smmla's 2 x 2 tile).
static hush_kernel_table dotprod_table, i8mm_table;
#endif

// MARK: - Detection

static hush_level best_level = HUSH_LEVEL_SCALAR;
static int has_vnni = 0;
static int avx512_halved = 0;
static pthread_once_t detect_once = PTHREAD_ONCE_INIT;
static _Atomic(const hush_kernel_table *) active = NULL;
static _Atomic(int) active_level = HUSH_LEVEL_SCALAR;

#if defined(__APPLE__)
// A CPU feature the kernel reports (hw.optional.*): macOS enables AVX-512 state lazily (XCR0 lacks it until first
// use), and arm64 user code cannot read the ID registers.
static int apple_flag(const char *name) {
    int value = 0;
    size_t size = sizeof(value);
    if (sysctlbyname(name, &value, &size, NULL, 0) != 0) return 0;
    return value != 0;
}
#endif

#if defined(__x86_64__)
static uint64_t read_xcr0(void) {
    uint32_t eax, edx;
    __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
    return ((uint64_t)edx << 32) | eax;
}


/// The CPU family of an AMD processor (base plus extended family, as AMD counts: 25 is Zen 3 and Zen 4) from CPUID
/// leaf 1's EAX, 0 on any other vendor's.
static unsigned amd_family(unsigned leaf1_eax) {
    unsigned a, b, c, d;
    if (!__get_cpuid(0, &a, &b, &c, &d)) return 0;
    if (b != 0x68747541 || d != 0x69746E65 || c != 0x444D4163) return 0;  // "Auth" "enti" "cAMD"
    const unsigned base = (leaf1_eax >> 8) & 0xF;
    return base == 0xF ? base + ((leaf1_eax >> 20) & 0xFF) : base;
}

static void detect_x86(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return;
    const unsigned leaf1_eax = a;
    const int fma = (c >> 12) & 1, popcnt = (c >> 23) & 1, osxsave = (c >> 27) & 1, avx = (c >> 28) & 1,
              f16c = (c >> 29) & 1;
    if (!osxsave || !avx) return;
    const uint64_t xcr0 = read_xcr0();
    if ((xcr0 & 0x6) != 0x6) return;  // XMM and YMM state
    if (__get_cpuid_max(0, NULL) < 7) return;
    __cpuid_count(7, 0, a, b, c, d);
    const int avx2 = (b >> 5) & 1;
    const int avx512 = ((b >> 16) & 1) && ((b >> 17) & 1) && ((b >> 30) & 1) && ((b >> 31) & 1);  // F DQ BW VL
    const int vnni = (c >> 11) & 1, vpopcntdq = (c >> 14) & 1;
    if (!(avx2 && fma && popcnt && f16c)) return;
    best_level = HUSH_LEVEL_AVX2;
#if defined(__APPLE__)
    const int os_avx512 = apple_flag("hw.optional.avx512f");
#else
    const int os_avx512 = (xcr0 & 0xE6) == 0xE6;  // plus opmask, upper ZMM and ZMM16-31 state
#endif
    if (!(avx512 && os_avx512)) return;
    best_level = HUSH_LEVEL_AVX512;
    has_vnni = vnni;
    avx512_halved = amd_family(leaf1_eax) == 25;
    avx512_table = (hush_kernel_table){
        .dot_f32 = hush_dot_f32_avx512,
        .dot_f32_rows = hush_dot_f32_rows_avx512,
        .dot_i8 = vnni ? hush_dot_i8_avx512vnni : hush_dot_i8_avx512,
        .dot_i8_rows = vnni ? hush_dot_i8_rows_avx512vnni : hush_dot_i8_rows_avx512,
        .dot_u4i8 = hush_dot_u4i8_avx2,  // a few loads per 64 dimensions: AVX2's width suffices
        .hamming = vpopcntdq ? hush_hamming_avx512popcnt : hush_hamming_popcnt,
        .hamming_rows = vpopcntdq ? hush_hamming_rows_avx512popcnt : hush_hamming_rows_popcnt,
        .add_bias_f32 = hush_add_bias_f32_avx512,
        .bias_gelu_f32 = hush_bias_gelu_f32_avx512,
        .bias_residual_layernorm_f32 = hush_bias_residual_layernorm_f32_avx512,
        .scaled_softmax_rows_f32 = hush_scaled_softmax_rows_f32_avx512,
        .dequantize_q4_0 = hush_dequantize_q4_0_avx2,  // memory-bound: the AVX2 loop suffices
        .quantize_q8_0 = hush_quantize_q8_0_avx2,  // vpdpbusd would fuse two steps; not written untested here
        // With VNNI: both rows of a pair in one register, vpdpbusd for vpmaddubsw + vpmaddwd (the same sums).
        .matmul_q4_0_q8_0 = vnni ? hush_matmul_q4_0_q8_0_avx512vnni : hush_matmul_q4_0_q8_0_avx2,
        .matmul_q4_0_q8_0_rows8 = vnni ? hush_matmul_q4_0_q8_0_rows8_avx512vnni : hush_matmul_q4_0_q8_0_rows8_avx2,
        .pack_f16_panels = hush_pack_f16_panels_avx2,
        .matmul_f32_f16p = hush_matmul_f32_f16p_avx2,  // FMA-bound at 6 tokens x 16 outputs: AVX2 suffices
    };
}
#endif

#if defined(__aarch64__)
// Advanced SIMD is part of every AArch64 CPU; DotProd and I8MM are optional (I8MM is only used with DotProd).
static void detect_arm64(void) {
    best_level = HUSH_LEVEL_NEON;
#if defined(__APPLE__)
    const int dotprod = apple_flag("hw.optional.arm.FEAT_DotProd"), i8mm = apple_flag("hw.optional.arm.FEAT_I8MM");
#elif defined(__linux__)
    const unsigned long hwcap = getauxval(AT_HWCAP), hwcap2 = getauxval(AT_HWCAP2);
    const int dotprod = (hwcap & HUSH_HWCAP_ASIMDDP) != 0, i8mm = (hwcap2 & HUSH_HWCAP2_I8MM) != 0;
#else
    const int dotprod = 0, i8mm = 0;  // no way to ask: the plain NEON kernels run everywhere
#endif
    if (!dotprod) return;
    best_level = HUSH_LEVEL_NEON_DOTPROD;
    dotprod_table = neon_table;
    dotprod_table.dot_i8 = hush_dot_i8_dotprod;
    dotprod_table.dot_i8_rows = hush_dot_i8_rows_dotprod;
    dotprod_table.dot_u4i8 = hush_dot_u4i8_dotprod;
    dotprod_table.matmul_q4_0_q8_0 = hush_matmul_q4_0_q8_0_dotprod;
    if (!i8mm) return;
    best_level = HUSH_LEVEL_NEON_I8MM;
    i8mm_table = dotprod_table;
    i8mm_table.matmul_q4_0_q8_0 = hush_matmul_q4_0_q8_0_i8mm;
}
#endif

static const hush_kernel_table *table_for(hush_level level) {
    switch (level) {
    case HUSH_LEVEL_SCALAR: return &scalar_table;
#if defined(__aarch64__)
    case HUSH_LEVEL_NEON: return &neon_table;
    case HUSH_LEVEL_NEON_DOTPROD: return best_level >= HUSH_LEVEL_NEON_DOTPROD ? &dotprod_table : NULL;
    case HUSH_LEVEL_NEON_I8MM: return best_level >= HUSH_LEVEL_NEON_I8MM ? &i8mm_table : NULL;
#endif
#if defined(__x86_64__)
    case HUSH_LEVEL_AVX2: return best_level >= HUSH_LEVEL_AVX2 ? &avx2_table : NULL;
    case HUSH_LEVEL_AVX512: return best_level >= HUSH_LEVEL_AVX512 ? &avx512_table : NULL;
#endif
    default: return NULL;
    }
}

static void install(hush_level level, const hush_kernel_table *table) {
    atomic_store_explicit(&active_level, (int)level, memory_order_relaxed);
    atomic_store_explicit(&active, table, memory_order_release);
}

static void detect(void) {
#if defined(__x86_64__)
    detect_x86();
#elif defined(__aarch64__)
    detect_arm64();
#endif
    hush_level level = best_level;
    const char *forced = getenv("HUSH_KERNELS");
    if (forced) {
        for (int l = HUSH_LEVEL_SCALAR; l <= HUSH_LEVEL_NEON_I8MM; l++) {
            if (strcmp(forced, hush_kernels_level_name((hush_level)l)) == 0 && table_for((hush_level)l)) {
                level = (hush_level)l;
            }
        }
    }
    install(level, table_for(level));
}

static inline const hush_kernel_table *kernels(void) {
    const hush_kernel_table *t = atomic_load_explicit(&active, memory_order_acquire);
    if (__builtin_expect(t != NULL, 1)) return t;
    pthread_once(&detect_once, detect);
    return atomic_load_explicit(&active, memory_order_acquire);
}

// MARK: - Level control

hush_level hush_kernels_best_level(void) {
    pthread_once(&detect_once, detect);
    return best_level;
}

hush_level hush_kernels_level(void) {
    pthread_once(&detect_once, detect);
    return (hush_level)atomic_load_explicit(&active_level, memory_order_relaxed);
}

int hush_kernels_set_level(hush_level level) {
    pthread_once(&detect_once, detect);
    const hush_kernel_table *table = table_for(level);
    if (!table) return -1;
    install(level, table);
    return 0;
}

const char *hush_kernels_level_name(hush_level level) {
    switch (level) {
    case HUSH_LEVEL_SCALAR: return "scalar";
    case HUSH_LEVEL_NEON: return "neon";
    case HUSH_LEVEL_AVX2: return "avx2";
    case HUSH_LEVEL_AVX512: return "avx512";
    case HUSH_LEVEL_NEON_DOTPROD: return "dotprod";
    case HUSH_LEVEL_NEON_I8MM: return "i8mm";
    }
    return "unknown";
}

int hush_kernels_has_vnni(void) {
    pthread_once(&detect_once, detect);
    return has_vnni && hush_kernels_level() == HUSH_LEVEL_AVX512;
}

int hush_kernels_avx512_halved(void) {
    pthread_once(&detect_once, detect);
    return avx512_halved;
}

// MARK: - Entry points

float hush_dot_f32(const float *a, const float *b, size_t n) { return kernels()->dot_f32(a, b, n); }

void hush_dot_f32_rows(const float *m, size_t rows, size_t dim, const float *q, float *out) {
    kernels()->dot_f32_rows(m, rows, dim, q, out);
}

int32_t hush_dot_i8(const int8_t *a, const int8_t *b, size_t n) { return kernels()->dot_i8(a, b, n); }
int32_t hush_dot_u4i8(const uint8_t *codes, const int8_t *query, size_t blocks) {
    return kernels()->dot_u4i8(codes, query, blocks);
}

void hush_dot_i8_rows(const int8_t *m, size_t rows, size_t dim, const int8_t *q, int32_t *out) {
    kernels()->dot_i8_rows(m, rows, dim, q, out);
}

uint32_t hush_hamming(const uint64_t *a, const uint64_t *b, size_t words) {
    return kernels()->hamming(a, b, words);
}

void hush_hamming_rows(const uint64_t *m, size_t rows, size_t words, const uint64_t *q, uint32_t *out) {
    kernels()->hamming_rows(m, rows, words, q, out);
}

void hush_add_bias_f32(float *x, size_t rows, size_t cols, const float *bias) {
    kernels()->add_bias_f32(x, rows, cols, bias);
}

void hush_bias_gelu_f32(float *x, size_t rows, size_t cols, const float *bias) {
    kernels()->bias_gelu_f32(x, rows, cols, bias);
}

void hush_bias_residual_layernorm_f32(float *x, size_t rows, size_t cols, const float *bias, const float *residual,
                                      const float *gamma, const float *beta, float eps) {
    kernels()->bias_residual_layernorm_f32(x, rows, cols, bias, residual, gamma, beta, eps);
}

void hush_scaled_softmax_rows_f32(float *x, size_t rows, size_t cols, size_t valid, float scale) {
    kernels()->scaled_softmax_rows_f32(x, rows, cols, valid, scale);
}

void hush_dequantize_q4_0(const uint8_t *blocks, size_t count, float *out) {
    kernels()->dequantize_q4_0(blocks, count, out);
}

void hush_quantize_q8_0(const float *x, size_t m, size_t k, size_t ldx, int8_t *q, float *d, int32_t *s) {
    kernels()->quantize_q8_0(x, m, k, ldx, q, d, s);
}

void hush_matmul_q4_0_q8_0(const int8_t *q, const float *d, const int32_t *s, size_t m, size_t k, const uint8_t *w,
                           size_t n, const float *bias, float *y, size_t ldy) {
    kernels()->matmul_q4_0_q8_0(q, d, s, m, k, w, n, bias, y, ldy);
}

void hush_matmul_q4_0_q8_0_rows8(const int8_t *q, const float *d, const int32_t *s, size_t m, size_t k,
                                 const uint8_t *packed, size_t n, const float *bias, float *y, size_t ldy) {
    const hush_kernel_table *table = kernels();
    (table->matmul_q4_0_q8_0_rows8 ? table->matmul_q4_0_q8_0_rows8 : hush_matmul_q4_0_q8_0_rows8_ref)(
        q, d, s, m, k, packed, n, bias, y, ldy);
}

int hush_matmul_q4_0_q8_0_rows8_is_vectorised(void) {
    const hush_kernel_table *table = kernels();
    return table->matmul_q4_0_q8_0_rows8 != NULL && table->matmul_q4_0_q8_0_rows8 != hush_matmul_q4_0_q8_0_rows8_ref;
}

void hush_pack_f16_panels(const float *w, size_t n, size_t k, uint16_t *out) {
    kernels()->pack_f16_panels(w, n, k, out);
}

void hush_matmul_f32_f16p(const float *x, size_t m, size_t k, size_t ldx, const uint16_t *w, size_t n, float *y,
                          size_t ldy) {
    kernels()->matmul_f32_f16p(x, m, k, ldx, w, n, y, ldy);
}
