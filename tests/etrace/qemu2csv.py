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
    line_re = re.compile(r"^Trace \d+: \S+ \[[0-9a-f]+/([0-9a-f]+)/")
    out = sys.stdout
    if not pcs_only:
        out.write("VALID,ADDRESS,INSN,PRIVILEGE,EXCEPTION,ECAUSE,TVAL,INTERRUPT\n")
    pcs = []
    for line in open(args[1]):
        m = line_re.match(line)
        if m:
            pcs.append(int(m.group(1), 16))
    for i, pc in enumerate(pcs):
        if pcs_only:
            out.write("0x%x\n" % pc)
            continue
        insn, n = insn_at(segs, pc)
        exc = 1 if traps and insn == 0x00000073 and i + 1 < len(pcs) else 0
        out.write("1,%x,%x,0,%d,%x,0,0\n" % (pc, insn, exc, 8 if exc else 0))


main()
