#!/usr/bin/env bash
# What this core can do per cycle, measured: the instruction rates that bound an encoder's throughput here.
#
#   scripts/bench/isa-peak.sh
#
# Compiles a small C program (cc, -mavx2 -mfma) that times long unrolled runs of one instruction on 12
# independent registers (enough to hide every latency) and the clock by a chain of dependent scalar adds
# of a register (one per cycle; an immediate's adds are folded by some Intel cores, which then ran 10 of them a
# "cycle"), then prints, per cycle: 256- and 128-bit f32 FMAs, the int8 multiply-adds of AVX2
# (vpmaddubsw, vpmaddwd), an int8 dot step with its widening to int32 (both multiplies), and binary16 -> f32
# conversions (vcvtph2ps). From the f32 rate it prints the ceiling of all-MiniLM-L6-v2 tokens/s per core: a
# token costs 10.6 M multiply-adds in the encoder's products (6 layers x (4 x 384 x 384 + 2 x 384 x 1536)).
# x86-64 with AVX2; on a core with AVX-512 VNNI, also its 512-bit rates (below).
set -euo pipefail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/peak.c" <<'C'
#include <stdio.h>
#include <time.h>

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

enum { ROUNDS = 50000000 };

/* Twelve independent destinations, so that throughput, not latency, sets the pace. */
#define ON_12(OP) OP(0) OP(1) OP(2) OP(3) OP(4) OP(5) OP(6) OP(7) OP(8) OP(9) OP(10) OP(11)
#define CLOBBER_12 "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11"
#define FMA_Y(r) "vfmadd231ps %%ymm12, %%ymm13, %%ymm" #r "\n"
#define FMA_X(r) "vfmadd231ps %%xmm12, %%xmm13, %%xmm" #r "\n"
#define MADDUBSW(r) "vpmaddubsw %%ymm12, %%ymm13, %%ymm" #r "\n"
#define MADDWD(r) "vpmaddwd %%ymm12, %%ymm13, %%ymm" #r "\n"
#define CVTPH(r) "vcvtph2ps %%xmm12, %%ymm" #r "\n"
#define FMA_Z(r) "vfmadd231ps %%zmm12, %%zmm13, %%zmm" #r "\n"
#define DPBUSD_Z(r) "vpdpbusd %%zmm12, %%zmm13, %%zmm" #r "\n"
#define DPBUSD_Y(r) "vpdpbusd %%ymm12, %%ymm13, %%ymm" #r "\n"
/* One 32-byte int8 dot step as a kernel does it: u8 x s8 pairs to int16, pairs to int32, accumulate. */
#define DOT8(r) "vpmaddubsw %%ymm12, %%ymm13, %%ymm14\n vpmaddwd %%ymm15, %%ymm14, %%ymm14\n" \
                "vpaddd %%ymm14, %%ymm" #r ", %%ymm" #r "\n"

#define TIME(CODE, ...) ({ double t0 = seconds(); \
    for (long i = 0; i < ROUNDS; i++) __asm__ volatile(CODE ::: __VA_ARGS__); seconds() - t0; })

int main(int argc, char **argv) {
    long x = 0, one = 1;
    double t0 = seconds();
    for (long i = 0; i < ROUNDS; i++)
        __asm__ volatile("add %1, %0\n add %1, %0\n add %1, %0\n add %1, %0\n"
                         "add %1, %0\n add %1, %0\n add %1, %0\n add %1, %0\n" : "+r"(x) : "r"(one));
    double cycle = (seconds() - t0) / (ROUNDS * 8.0);
    double per = ROUNDS * 12.0 * cycle;  /* seconds of 12 x ROUNDS instructions at one per cycle */
    double fmaY = per / TIME(ON_12(FMA_Y), CLOBBER_12);
    double fmaX = per / TIME(ON_12(FMA_X), CLOBBER_12);
    double maddubsw = per / TIME(ON_12(MADDUBSW), CLOBBER_12);
    double maddwd = per / TIME(ON_12(MADDWD), CLOBBER_12);
    double dot8 = per / TIME(ON_12(DOT8), CLOBBER_12, "xmm14");
    double cvtph = per / TIME(ON_12(CVTPH), CLOBBER_12);
    double clock = 1e-9 / cycle;
    printf("clock (dependent adds)        %.2f GHz\n", clock);
    printf("vfmadd231ps ymm               %.2f per cycle = %.1f f32 multiply-adds\n", fmaY, fmaY * 8);
    printf("vfmadd231ps xmm               %.2f per cycle = %.1f f32 multiply-adds\n", fmaX, fmaX * 4);
    printf("vpmaddubsw ymm                %.2f per cycle\n", maddubsw);
    printf("vpmaddwd ymm                  %.2f per cycle\n", maddwd);
    printf("int8 dot step (32 products)   %.2f per cycle = %.1f int8 multiply-adds\n", dot8, dot8 * 32);
    printf("vcvtph2ps ymm                 %.2f per cycle\n", cvtph);
    double macs = (fmaY * 8 > fmaX * 4 ? fmaY * 8 : fmaX * 4) * clock * 1e9;
    printf("MiniLM ceiling, f32, one core %.0f tokens/s (10.6 M multiply-adds a token)\n", macs / 10.6e6);
    printf("MiniLM ceiling, int8, one core %.0f tokens/s\n", dot8 * 32 * clock * 1e9 / 10.6e6);
    if (argc > 1) {  /* "vnni": the core has AVX-512 VNNI */
        double fmaZ = per / TIME(ON_12(FMA_Z), CLOBBER_12);
        double dpZ = per / TIME(ON_12(DPBUSD_Z), CLOBBER_12);
        double dpY = per / TIME(ON_12(DPBUSD_Y), CLOBBER_12);
        printf("vfmadd231ps zmm               %.2f per cycle = %.1f f32 multiply-adds\n", fmaZ, fmaZ * 16);
        printf("vpdpbusd zmm                  %.2f per cycle = %.1f int8 multiply-adds\n", dpZ, dpZ * 64);
        printf("vpdpbusd ymm                  %.2f per cycle = %.1f int8 multiply-adds\n", dpY, dpY * 32);
        printf("e5-small ceiling, int8, one core %.0f tokens/s (21.2 M multiply-adds a token)\n",
               dpZ * 64 * clock * 1e9 / 21.2e6);
    }
    (void)argv;
    return (int)(x & 1);
}
C
cc -O2 -mavx2 -mfma -o "$work/peak" "$work/peak.c"
echo "== $(lscpu | grep -m1 'Model name' | sed 's/  */ /g'); $(grep -m1 'cpu family' /proc/cpuinfo | tr -s '\t ' ' '), $(grep -m1 '^model\s' /proc/cpuinfo | tr -s '\t ' ' ')"
# On AVX-512 VNNI cores (where Hush's e5 product runs hush_matmul_q4_0_q8_0_avx512vnni), also 512-bit f32 FMAs
# and vpdpbusd (64 u8 x s8 products summed four by four into 16 int32 lanes) on 512 and 256 bits, and from the
# vpdpbusd zmm rate the ceiling of multilingual-e5-small tokens/s per core: its encoder's products are 21.2 M
# multiply-adds a token (12 layers x (4 x 384 x 384 + 2 x 384 x 1536)).
if grep -qw avx512_vnni /proc/cpuinfo; then "$work/peak" vnni; else "$work/peak"; fi

