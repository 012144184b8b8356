#!/usr/bin/env python3
"""Static cost of HushKernels' arm64 inner loops, for scripts/bench/arm64-estimate.sh.

  arm64_loops.py ASM FUNCTION MCA CPU MATTR [UNIT=N]

Finds the loop of FUNCTION in the assembly file ASM whose body holds the most work (for a tile specialised by
token count, the widest one), counts its instructions and its work, runs the body through llvm-mca for CPU, and
prints one JSON line: instructions and cycles per iteration and per 32 units of work. Work is integer
multiply-adds by default (sdot 16, smmla 32, smull/smlal on bytes 8, mul/mla on 4 lanes 4, scalar madd/mul 1;
fmla, 4, only where a loop has no integer ones); UNIT=N counts N units per instruction named UNIT instead
(fcvtns=4: values quantised by a 4-lane conversion).
"""
import json
import re
import subprocess
import sys

BRANCH = re.compile(r"^\s+(b\.[a-z]+|b|cbnz|cbz|tbnz|tbz)\s+(?:[^,]+,\s*)*(\.?L\w+)\s*$")


def function_lines(path, name):
    lines = open(path).read().splitlines()
    start = next(i for i, l in enumerate(lines) if l.split("//")[0].strip() == f"{name}:")
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith(".Lfunc_end")), len(lines))
    return lines[start:end]


def instructions(lines):
    return [l.strip() for l in lines if l.startswith("\t") and not l.strip().startswith(".") and l.strip()
            and not l.strip().startswith("//")]


def macs(instruction, unit=None):
    op = instruction.split()[0]
    if unit:
        return unit[1] if op == unit[0] else 0
    if op == "sdot":
        return 16
    if op == "smmla":
        return 32
    if op in ("smull", "smull2", "smlal", "smlal2") and ".8h" in instruction:
        return 8
    if op in ("mul", "mla") and ".4s" in instruction:
        return 4
    if op in ("madd", "mul"):
        return 1
    return 0


def work(body, unit):
    weight = sum(macs(i, unit) for i in body)
    if weight or unit:
        return weight
    return sum(4 for i in body if i.split()[0] == "fmla" and ".4s" in i)


def loop(path, name, unit):
    lines = function_lines(path, name)
    labels = {l.split(":")[0]: i for i, l in enumerate(lines) if re.match(r"^\.?L\w+:", l)}
    best = None
    for j, l in enumerate(lines):
        m = BRANCH.match(l)
        if not m or m.group(2) not in labels or labels[m.group(2)] >= j:
            continue
        body = instructions(lines[labels[m.group(2)] + 1 : j + 1])
        weight = work(body, unit)
        if weight and (best is None or weight > best[0]):
            best = (weight, body)
    if best is None:
        sys.exit(f"arm64_loops: no loop with multiply-adds in {name}")
    return best


def main():
    path, name, mca, cpu, mattr = sys.argv[1:6]
    unit = None
    if len(sys.argv) > 6:
        op, count = sys.argv[6].split("=")
        unit = (op, int(count))
    weight, body = loop(path, name, unit)
    args = [mca, "-mtriple=aarch64", f"-mcpu={cpu}", "-iterations=200"] + ([f"-mattr={mattr}"] if mattr else [])
    report = subprocess.run(args, input="\n".join(body) + "\n", capture_output=True, text=True, check=True).stdout
    cycles = int(re.search(r"Total Cycles:\s+(\d+)", report).group(1)) / 200
    print(json.dumps({
        "function": name, "cpu": cpu, "instructions": len(body), "macs": weight,
        "cycles": round(cycles, 2),
        "instructions_per_32": round(32 * len(body) / weight, 2),
        "cycles_per_32": round(32 * cycles / weight, 3),
        "ops": {op: sum(1 for i in body if i.split()[0] == op) for op in sorted({i.split()[0] for i in body})},
    }))


if __name__ == "__main__":
    main()
