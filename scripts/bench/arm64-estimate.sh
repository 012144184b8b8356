#!/usr/bin/env bash
# What the arm64 kernels should cost on real cores, without one here: an ESTIMATE, not a measurement.
#
# HushKernels is compiled for aarch64 with the Swift toolchain's clang (-O2, the compiler SwiftPM and Xcode use),
# the inner loop of each kernel variant is taken from the assembly (scripts/bench/arm64_loops.py), and llvm-mca
# (Debian's llvm-14) schedules it on three core models: apple-m1 (Firestorm: A14, M1), neoverse-n1 (Graviton2,
# Ampere Altra) and neoverse-v1 (Graviton3). LLVM 14 has no model of an I8MM Apple core (A15/M2 and later), so
# the i8mm row of the Apple column runs the M1 model with I8MM enabled; LLVM 14's neoverse-v1 schedules like its
# neoverse-n1 (the same figures), so the V1 rows understate V1's wider vector unit.
#
# Per e5 token (one 64-token window), the work is: 21,233,664 multiply-adds of 4-bit weights x 8-bit activations
# (the products' inner loops, per variant), 1,008 blocks of activation quantisation (the NEON codes loop, doubled
# for the pass over each block's largest value and the divisions, at every level, which flatters the reference),
# 589,824 f32 multiply-adds of attention (BLAS or Accelerate: counted at the core's
# f32 FMA peak) and 37,248 elements of GELU, layer norm and softmax (counted at 3 cycles each: about 50 vector
# instructions per 4 elements of GELU on 4 pipes; llvm-mca schedules that loop as one latency-bound chain). Tokens per second
# per core = clock / cycles per token, at the clock given per core.
#
#   scripts/bench/arm64-estimate.sh            prints the per-loop figures (JSON) and the tables of docs/benchmarks.md
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
mca=${LLVM_MCA:-llvm-mca-14}
command -v "$mca" >/dev/null || { echo "arm64-estimate: $mca is missing (apt-get install llvm-14)" >&2; exit 1; }
clang=${SWIFT_CLANG:-$(dirname "$(command -v swift)")/clang}
out=.build/arm64/estimate
mkdir -p "$out"
for file in KernelsNEONQuant KernelsNEON Scalar; do
    "$clang" -target aarch64-linux-gnu --sysroot=/ -isystem /usr/aarch64-linux-gnu/include -O2 \
        -ISources/HushKernels/include -S "Sources/HushKernels/$file.c" -o "$out/$file.s"
done

python3 - "$out" "$mca" <<'PY'
import json
import subprocess
import sys

out, mca = sys.argv[1:3]
cores = [  # llvm-mca model, what it stands for, clock (GHz), the variants it has
    ("apple-m1", "Apple A14 / M1 (Firestorm), 3.0 GHz", 3.0, ["ref", "neon", "dotprod", "i8mm*"]),
    ("neoverse-n1", "Neoverse N1 (Graviton2), 2.5 GHz", 2.5, ["ref", "neon", "dotprod"]),
    ("neoverse-v1", "Neoverse V1 (Graviton3), 2.6 GHz", 2.6, ["ref", "neon", "dotprod", "i8mm"]),
]
kernels = {  # variant -> (assembly, function, unit)
    "product": {"ref": ("Scalar", "hush_matmul_q4_0_q8_0_ref", None),
                "neon": ("KernelsNEONQuant", "q4q8n_tile_plain", None),
                "dotprod": ("KernelsNEONQuant", "q4q8n_tile_dot", None),
                "i8mm": ("KernelsNEONQuant", "q4q8n_tile_mmla", None)},
    "codes": {"ref": ("Scalar", "hush_dot_u4i8_ref", None),
              "neon": ("KernelsNEONQuant", "hush_dot_u4i8_neon", None),
              "dotprod": ("KernelsNEONQuant", "hush_dot_u4i8_dotprod", None)},
    "quantise": {"neon": ("KernelsNEONQuant", "hush_quantize_q8_0_neon", "fcvtns=4")},
}


def measure(variant_file, function, unit, cpu):
    args = ["python3", "scripts/bench/arm64_loops.py", f"{out}/{variant_file}.s", function, mca, cpu,
            "+dotprod,+i8mm,+fullfp16"] + ([unit] if unit else [])
    result = json.loads(subprocess.run(args, capture_output=True, text=True, check=True).stdout)
    print(json.dumps(result))
    return result


def fma_per_cycle(cpu):
    body = "\n".join(f"fmla v{i}.4s, v{i + 16}.4s, v{i + 24}.4s" for i in range(8)) + "\n"
    report = subprocess.run([mca, "-mtriple=aarch64", f"-mcpu={cpu}", "-iterations=100"], input=body,
                            capture_output=True, text=True, check=True).stdout
    cycles = int(next(l for l in report.splitlines() if l.startswith("Total Cycles:")).split()[-1]) / 100
    return 8 / cycles


PRODUCT_MACS, BLOCKS, ATTENTION_MACS, ELEMENTWISE = 21_233_664, 1_008, 589_824, 37_248
rows, kernel_rows = [], []
for cpu, label, clock, variants in cores:
    fmas = fma_per_cycle(cpu)
    # The codes loop, doubled for the pass that finds each block's largest value and the divisions.
    quantise = 2 * measure(*kernels["quantise"]["neon"], cpu)["cycles"] * BLOCKS
    rest = quantise + ATTENTION_MACS / (4 * fmas) + 3 * ELEMENTWISE
    figures = {}
    for variant in variants:
        name = variant.rstrip("*")
        product = measure(*kernels["product"][name], cpu)
        cycles = PRODUCT_MACS * product["cycles_per_32"] / 32 + rest
        figures[variant] = (product, cycles)
        kernel_rows.append((label.split(",")[0], f"4-bit x 8-bit product, {variant}", product))
        if name in kernels["codes"]:
            kernel_rows.append((label.split(",")[0], f"4-bit codes x int8 query (the int4 scan), {variant}",
                                measure(*kernels["codes"][name], cpu)))
    reference = figures["ref"][1]
    for variant, (product, cycles) in figures.items():
        rows.append((label, variant, product, cycles, clock * 1e9 / cycles, reference / cycles,
                     figures["dotprod"][1] / cycles if variant.startswith("i8mm") else None))

print("\n| core (llvm-mca model) | level | product loop: instructions / cycles per 32 multiply-adds | "
      "e5 cycles per token | e5 tokens/s per core (estimate) | vs reference | i8mm vs dotprod | measured |")
print("| --- | --- | --- | --- | --- | --- | --- | --- |")
for label, variant, product, cycles, rate, speedup, over_dot in rows:
    print(f"| {label} | {variant} | {product['instructions_per_32']:.2f} / {product['cycles_per_32']:.2f} | "
          f"{cycles / 1e6:.2f} M | {rate:,.0f} | {speedup:.1f}x | {'' if over_dot is None else f'{over_dot:.2f}x'} | |")
print("\n| core | kernel | instructions per 32 | cycles per 32 |")
print("| --- | --- | --- | --- |")
for core, kernel, result in kernel_rows:
    if "product" not in kernel:
        print(f"| {core} | {kernel} | {result['instructions_per_32']:.2f} | {result['cycles_per_32']:.2f} |")
PY
