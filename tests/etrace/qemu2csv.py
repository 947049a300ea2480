#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Turn a qemu-user execution log into a hart trace.

    qemu2csv.py [--pcs] [--ecall-traps] ELF LOG > OUT

LOG is what `qemu-riscv64 -singlestep -d nochain,exec -D LOG ELF` (or
qemu-riscv32) writes: with single-stepping and no chaining, one
"Trace N: HOST [CS_BASE/PC/FLAGS/CFLAGS] SYMBOL" line per executed
instruction (qemu 7.2). Without options OUT is the hart trace CSV the E-Trace
reference flow reads (VALID,ADDRESS,INSN,PRIVILEGE,EXCEPTION,ECAUSE,TVAL,
INTERRUPT, hexadecimal, user privilege 0), with the instruction words read from
the ELF's loadable segments. With --ecall-traps every ecall row is an exception
(cause 8, environment call from U-mode) that retires, so the instruction after
it is reported as the first instruction of a trap handler; qemu-user runs the
system call itself, so the "handler" is the next instruction. The last row (the
exit system call) stays an ordinary instruction: no handler follows it. With --pcs OUT is
one address per line (0x...), the ground truth a reconstruction is compared with.
"""
import re
import struct
import sys


def load_segments(path):
    data = open(path, "rb").read()
    if data[:4] != b"\x7fELF":
        sys.exit("%s: not an ELF file" % path)
    is64 = data[4] == 2
    if is64:
        phoff, = struct.unpack_from("<Q", data, 0x20)
        phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
    else:
        phoff, = struct.unpack_from("<I", data, 0x1C)
        phentsize, phnum = struct.unpack_from("<HH", data, 0x2A)
    segs = []
    for i in range(phnum):
        o = phoff + i * phentsize
        if is64:
            ptype, flags, off, vaddr, paddr, filesz, memsz, align = struct.unpack_from("<IIQQQQQQ", data, o)
        else:
            ptype, off, vaddr, paddr, filesz, memsz, flags, align = struct.unpack_from("<IIIIIIII", data, o)
        if ptype == 1:
            segs.append((vaddr, data[off:off + filesz]))
    return segs


def insn_at(segs, pc):
    for base, b in segs:
        if base <= pc < base + len(b) - 1:
            lo = b[pc - base] | (b[pc - base + 1] << 8)
            if lo & 3 != 3:
                return lo, 2
            return lo | (b[pc - base + 2] << 16) | (b[pc - base + 3] << 24), 4
    sys.exit("no instruction at 0x%x" % pc)


def main():
    args = sys.argv[1:]
    pcs_only = "--pcs" in args
    traps = "--ecall-traps" in args
    args = [a for a in args if not a.startswith("--")]
    if len(args) != 2:
        sys.exit(__doc__)
    segs = load_segments(args[0])
    line_re = re.compile(r"^Trace \d+: \S+ \[[0-9a-f]+/([0-9a-f]+)/", re.M)
    out = sys.stdout
    if not pcs_only:
        out.write("VALID,ADDRESS,INSN,PRIVILEGE,EXCEPTION,ECAUSE,TVAL,INTERRUPT\n")
    with open(args[1]) as f:
        pcs = [int(pc, 16) for pc in line_re.findall(f.read())]
    if pcs_only:
        out.write("".join("0x%x\n" % pc for pc in pcs))
        return
    rows = []
    row_at = {}  # the row of each address executed (ecall's but the last's are traps)
    for pc in pcs:
        row = row_at.get(pc)
        if row is None:
            insn = insn_at(segs, pc)[0]
            row = row_at[pc] = ("1,%x,%x,0,1,8,0,0\n" if traps and insn == 0x00000073 else "1,%x,%x,0,0,0,0,0\n") % (pc, insn)
        rows.append(row)
    if pcs and traps and rows[-1].endswith(",1,8,0,0\n"):
        rows[-1] = "1,%x,%x,0,0,0,0,0\n" % (pcs[-1], 0x00000073)
    out.write("".join(rows))


main()
