#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""<pmregs/riscv.h> against GNU objdump, an independent disassembler (Debian binutils-riscv64-linux-gnu).

    objdump_check.py VIEW OUTDIR [--random N] [--seed S] [--sets c16,len,w32,jalr]

VIEW is tests/riscv/riscv_view.c built against the headers: it writes pmregs' view of a
file of encodings. The same encodings go through `riscv64-linux-gnu-objdump -D -b binary
-m riscv:rv32|riscv:rv64 -M no-aliases,numeric`, and every encoding is compared:

  c16   every 16-bit parcel whose low bits are not 11 (49,152), for RV32 and for RV64
  len   every first parcel with low bits 11 (16,384), each followed by c.nop parcels:
        the length objdump consumes against pmregs_riscv_insn_decode()'s length
  w32   N random 32-bit words per XLEN (one in four with an opcode of interest: BRANCH,
        JAL, JALR, AUIPC, LUI, SYSTEM), JALR with every rd, rs1 and funct3, and SYSTEM
        funct3 000 with every rs1 and imm[11:0] (rd 0 on RV64; every fourth, rd random,
        on RV32)
  jalr  the JALR sweep of w32 alone (not in the default sets)

compared: the kind (from objdump's mnemonic), rd and rs1, the immediate (jalr's offset,
auipc/lui/c.lui's upper immediate) and the target objdump computes for branches and jumps
(pc + imm, modulo 2^XLEN); the itype and the call/return flags, derived here from objdump's
rd and rs1 by the E-Trace ingress chapter's jump classes; whether the encoding is illegal
(objdump prints .2byte/.4byte or c.unimp), over all 16-bit encodings and, of the 32-bit
ones, in BRANCH, JAL, JALR, AUIPC and LUI. A disagreement objdump and the ISA manual are
known to have is counted under its explanation (KNOWN); any other fails the check.
--sets runs only the sets named (c16, len and w32 by default).
Stdlib only.
"""

import argparse
import array
import os
import random
import re
import struct
import subprocess
import sys
import tempfile
from itertools import compress
from operator import itemgetter

OBJDUMP = "riscv64-linux-gnu-objdump"

OTHER, BRANCH, JAL, JALR, AUIPC, LUI, ECALL, EBREAK, XRET = range(9)
INF, UNINF, CALL, RET, C16, ILL = 0x01, 0x02, 0x04, 0x08, 0x10, 0x20
KIND = {"beq": BRANCH, "bne": BRANCH, "blt": BRANCH, "bge": BRANCH, "bltu": BRANCH, "bgeu": BRANCH,
        "c.beqz": BRANCH, "c.bnez": BRANCH, "jal": JAL, "c.j": JAL, "c.jal": JAL,
        "jalr": JALR, "c.jr": JALR, "c.jalr": JALR, "auipc": AUIPC, "lui": LUI, "c.lui": LUI,
        "ecall": ECALL, "ebreak": EBREAK, "c.ebreak": EBREAK,
        "uret": XRET, "sret": XRET, "mret": XRET, "dret": XRET, "mnret": XRET}
INTEREST_32 = (0x63, 0x6F, 0x67, 0x17, 0x37)       # opcodes whose every encoding the spec classifies
# an instruction line of objdump's output: "   1c:\tmnemonic\toperands" (the operands may be absent)
INSN_LINE = re.compile(r"^ *([0-9a-f]+):\t([^\t\n]+)\t?([^\n]*)$", re.M)


def objdump(path, xlen):
    """[(address, mnemonic, operands)] of every instruction objdump prints ("   1c:\tmnemonic\toperands")."""
    return [(int(pc, 16), mnem, ops) for pc, mnem, ops in objdump_lines(path, xlen)]


def objdump_lines(path, xlen):
    """[(address in hex, mnemonic, operands)] of every instruction objdump prints."""
    # written to a file and read at once: read from a pipe, in the many small reads communicate() makes,
    # tens of megabytes took half a second per large set; decoded without text=True's newline
    # translation, a pass that finds nothing
    with tempfile.TemporaryFile(dir=os.path.dirname(path) or ".") as f:
        subprocess.run([OBJDUMP, "-D", "-b", "binary", "-m", f"riscv:rv{xlen}", "-M", "no-aliases,numeric",
                        "--no-show-raw-insn", path], stdout=f, check=True)
        f.seek(0)
        text = f.read().decode("latin-1")
    return INSN_LINE.findall(text)


def packed(items, size):
    """The items as little-endian bytes of `size` each."""
    a = array.array("H" if size == 2 else "I", items)
    assert a.itemsize == size
    if sys.byteorder == "big":
        a.byteswap()
    return a.tobytes()


# pmregs' record of one encoding, as riscv_view writes it: (imm, length, kind, rd, rs1, itype, flags)
RECORD = struct.Struct("<qBBBBBBxx")
KIND_AT, FLAGS_AT = 9, 13                           # the offsets of kind and flags in a record


def view(tool, size, xlen, path, out):
    """pmregs' records, as the bytes riscv_view writes (RECORD.size each)."""
    subprocess.run([tool, str(size), str(xlen), path, out], check=True)
    with open(out, "rb") as f:
        return f.read()


def jump_class(rd, rs1, inferable):
    """(itype, flags) of a jump by the ingress chapter's classes (x1 and x5 are link registers)."""
    link = (1, 5)
    f = INF if inferable else UNINF
    if rd in link and rs1 in link and rd != rs1:
        return 12, f | CALL | RET          # co-routine swap
    if rd in link:
        return 8 + inferable, f | CALL     # call
    if rs1 in link:
        return 13, f | RET                 # return
    if rd == 0:
        return 10 + inferable, f           # jump without linkage
    return 14 + inferable, f               # other jump with linkage


JALR_OPS = re.compile(r"x(\d+),(-?\d+)\(x(\d+)\)")   # jalr's operands with -M numeric: rd,imm(rs1)


def first_reg(ops):
    """The number of the register that starts the operands ("x5,0x1c", "x5")."""
    if ops[:1] != "x":
        raise ValueError(f"no register first in objdump's operands {ops!r}")
    return int(ops[1:].split(",", 1)[0])


def disagreement(ours, mnem, ops, pc, xlen, size, judge_illegal):
    """The names of the fields where pmregs (a record) and objdump's line disagree: the kind (from the
    mnemonic), the legality (where it is judged) and the length, then those objdump's operands give
    for the kind: the target objdump computes (pc + imm modulo 2^XLEN), rd, rs1, the immediate
    (jalr's offset, the upper immediate of auipc, lui and c.lui), and the itype and flags derived
    from rd and rs1 by jump_class()."""
    imm, length, kind, rd, rs1, itype, flags = ours
    t_kind = KIND.get(mnem, OTHER)
    bad = []
    if kind != t_kind:
        bad.append("kind")
    if judge_illegal and bool(flags & ILL) != (mnem[0] == "." or mnem == "c.unimp"):
        bad.append("illegal")
    if bool(flags & C16) != (size == 2):
        bad.append("compressed")
    if bad or t_kind == OTHER:
        return bad
    if "#" in ops:
        ops = ops.split("#")[0]
    ops = ops.strip()
    last = ops.rsplit(",", 1)[-1]
    t_rd = t_rs1 = t_imm = t_upper = t_target = t_itype = t_flags = None
    if t_kind == BRANCH:
        t_target, t_itype, t_flags = int(last, 16), 4, INF
    elif t_kind == JAL:
        t_rd = 1 if mnem == "c.jal" else 0 if mnem == "c.j" else first_reg(ops)
        t_target, t_rs1 = int(last, 16), 0
        t_itype, t_flags = jump_class(t_rd, 0, 1)
    elif t_kind == JALR:
        if mnem == "jalr":                  # jalr rd,imm(rs1)
            m = JALR_OPS.fullmatch(ops)
            t_rd, t_imm, t_rs1 = int(m[1]), int(m[2]), int(m[3])
        else:                               # c.jr rs1, c.jalr rs1
            t_rd, t_rs1, t_imm = (1 if mnem == "c.jalr" else 0), first_reg(ops), 0
        t_itype, t_flags = jump_class(t_rd, t_rs1, 1 if t_rs1 == 0 else 0)
    elif t_kind in (AUIPC, LUI):
        t_rd, t_upper = first_reg(ops), int(last, 16)
    elif t_kind == XRET:
        t_itype, t_flags = 3, UNINF
    if t_target is not None and (pc + imm) & ((1 << xlen) - 1) != t_target:
        bad.append("target")
    if t_rd is not None and rd != t_rd:
        bad.append("rd")
    if t_rs1 is not None and rs1 != t_rs1:
        bad.append("rs1")
    if t_imm is not None and imm != t_imm:
        bad.append("imm")
    if t_upper is not None and (imm >> 12) & 0xFFFFF != t_upper:
        bad.append("imm")
    if t_itype is not None and itype != t_itype:
        bad.append("itype")
    if t_flags is not None and flags & (INF | UNINF | CALL | RET) != t_flags:
        bad.append("flags")
    return bad


# Disagreements with a known reason: (explanation, test(word, xlen, ours, objdump's mnemonic)).
KNOWN = [
    ("objdump accepts c.addi16sp with nzimm = 0; the ISA's RVC quadrant 1 listing marks it RES",
     lambda w, x, o, m: m == "c.addi16sp" and w == 0x6101 and o[6] & ILL),
    ("objdump accepts RV32 c.slli/c.srli/c.srai with shamt[5] = 1; the ISA designates them for custom extensions",
     lambda w, x, o, m: x == 32 and m in ("c.slli", "c.srli", "c.srai") and w & 0x1000 and o[6] & ILL),
    ("c.lui with rd = x0 and a non-zero immediate is a HINT (the ISA's RVC quadrant 1 listing): objdump prints"
     " c.lui x0, pmregs classifies it other",
     lambda w, x, o, m: m == "c.lui" and w & 0xEF83 == 0x6001 and o[2] == OTHER),
    ("binutils 2.40 does not know mnret (Smrnmi, privileged ISA 20240411)",
     lambda w, x, o, m: w == 0x70200073 and m == ".4byte" and o[2] == XRET),
]


# The operands "xN,0xHEX" of auipc, lui and jal: rd and objdump's upper immediate or target.
REG_HEX_OPS = re.compile(r"x(\d+),0x([0-9a-f]+)")
# (itype, flags) of a jal by its rd (rs1 is x0): jump_class(rd, 0, 1)
JAL_CLASS = [jump_class(rd, 0, 1) for rd in range(32)]


def agrees_32(rec, mnem, ops, pc, xmask):
    """True where a 32-bit auipc, lui or jal agrees with pmregs' record in every field disagreement()
    compares (the common case, checked without building the list of names); False where
    disagreement() must say (another mnemonic, other operands, or a difference)."""
    imm, _, kind, rd, rs1, itype, flags = rec
    m = REG_HEX_OPS.fullmatch(ops)
    if m is None or flags & (ILL | C16) or rd != int(m[1]):
        return False
    if mnem == "jal":
        return (kind == JAL and rs1 == 0 and (pc + imm) & xmask == int(m[2], 16)
                and (itype, flags & (INF | UNINF | CALL | RET)) == JAL_CLASS[rd])
    return kind == KIND[mnem] and (imm >> 12) & 0xFFFFF == int(m[2], 16)


def byte_mask(table, data):
    """data translated byte by byte through table (256 values), as one integer (little-endian)."""
    return int.from_bytes(data.translate(bytes(table)), "little")


def run_set(name, tool, out_dir, size, xlen, items, judged=None):
    """Compare one set of encodings; returns (compared, {explanation: count}, [unexplained lines]).
    judged: the opcodes (low 7 bits) whose legality is compared (None: every encoding's)."""
    raw = os.path.join(out_dir, f"{name}.rv{xlen}.bin")
    data = packed(items, size)
    with open(raw, "wb") as f:
        f.write(data)
    ours = view(tool, size, xlen, raw, os.path.join(out_dir, f"{name}.rv{xlen}.view"))
    known, problems = {}, []
    lines = objdump_lines(raw, xlen)
    # every line is at the address of its encoding, else the comparison stops where objdump is out of step
    n = min(len(lines), len(items))
    addrs = list(map(itemgetter(0), lines[:n]))
    out_of_step = None
    if addrs != list(map("%x".__mod__, range(0, n * size, size))):
        n = next(i for i, a in enumerate(addrs) if int(a, 16) != i * size)
        out_of_step = f"{name} rv{xlen}: objdump out of step at {int(addrs[n], 16):#x} ({lines[n][1]} {lines[n][2]})"
    # The common case is set aside a byte per encoding at a time: a mnemonic of no kind that pmregs
    # classifies as other, with the same length and (where it is judged) the same legality. Each side
    # is a byte per encoding, its kind | 0x80 if illegal (the 0x80 kept only where judged); an encoding
    # is compared field by field where either kind is not other, the two bytes differ, or pmregs'
    # length is not the set's.
    mnems = list(map(itemgetter(1), lines[:n]))
    code = {m: KIND.get(m, OTHER) | (0x80 if m[0] == "." or m == "c.unimp" else 0) for m in set(mnems)}
    t = int.from_bytes(bytes(map(code.__getitem__, mnems)), "little")
    o = (byte_mask(range(256), ours[KIND_AT::RECORD.size][:n])
         | byte_mask([0x80 if f & ILL else 0 for f in range(256)], ours[FLAGS_AT::RECORD.size][:n]))
    if judged is not None:
        low_bytes = data[0::size][:n]   # the low byte of each encoding (little-endian)
        j = byte_mask([0xFF if b & 0x7F in judged else 0x7F for b in range(256)], low_bytes)
        t, o = t & j, o & j
    length = byte_mask([int(bool(f & C16) != (size == 2)) for f in range(256)], ours[FLAGS_AT::RECORD.size][:n])
    low = int.from_bytes(b"\x7f" * n, "little")
    sel = (((t | o) & low) | (t ^ o) | length).to_bytes(n, "little")
    fast = ("auipc", "lui", "jal") if size == 4 else ()
    xmask = (1 << xlen) - 1
    for i in compress(range(n), sel):     # the places of sel's non-zero bytes
        (_, mnem, ops), w = lines[i], items[i]
        rec = RECORD.unpack_from(ours, i * RECORD.size)
        if mnem in fast and agrees_32(rec, mnem, ops, i * size, xmask):
            continue
        bad = disagreement(rec, mnem, ops, i * size, xlen, size, judged is None or w & 0x7F in judged)
        if not bad:
            continue
        why = next((e for e, test in KNOWN if test(w, xlen, rec, mnem)), None)
        if why:
            known[why] = known.get(why, 0) + 1
        elif len(problems) < 20:
            problems.append(f"{name} rv{xlen}: {w:#0{2 + 2 * size}x} objdump '{mnem} {ops}' vs pmregs imm={rec[0]} "
                            f"length={rec[1]} kind={rec[2]} rd={rec[3]} rs1={rec[4]} itype={rec[5]} "
                            f"flags={rec[6]:#x}: {bad}")
        else:
            problems.append("")
    if out_of_step:
        return n, known, problems + [out_of_step]
    if n != len(items):
        problems.append(f"{name} rv{xlen}: objdump printed {n} instructions for {len(items)} encodings")
    return n, known, problems


def length_set(tool, out_dir, xlen):
    """Every first parcel with low bits 11, then c.nop parcels (10 after the 80-bit-and-longer prefixes,
    4 after the others): objdump's length is where it starts the next instruction. An objdump that read
    past the fillers would not start one at the next parcel under test, which fails the check."""
    parcels = [p for p in range(0x10000) if p & 3 == 3]
    raw = os.path.join(out_dir, f"len.rv{xlen}.bin")
    with open(raw, "wb") as f:
        f.write(packed(parcels, 2))
    ours = list(RECORD.iter_unpack(view(tool, 2, xlen, raw, os.path.join(out_dir, f"len.rv{xlen}.view"))))
    stream, at = [], []
    for p in parcels:
        at.append(2 * len(stream))
        stream += [p] + [0x0001] * (10 if p & 0x7F == 0x7F else 4)
    path = os.path.join(out_dir, f"len.rv{xlen}.stream")
    with open(path, "wb") as f:
        f.write(packed(stream, 2))
    starts = {pc: mnem for pc, mnem, _ in objdump(path, xlen)}
    at.append(2 * len(stream))
    known, problems = {}, []
    for i, (p, o) in enumerate(zip(parcels, ours)):
        if at[i] not in starts:
            problems.append(f"len rv{xlen}: objdump did not start an instruction at the parcel {p:#06x}")
            continue
        nxt = next(a for a in range(at[i] + 2, at[i + 1] + 2, 2) if a in starts or a == at[-1])
        at_i = at[i]
        theirs_len, mnem = nxt - at_i, starts[at_i]
        ok = o[1] == theirs_len if o[1] else (theirs_len >= 10 or mnem == ".2byte")
        if ok and o[1] == 0:
            why = ("80-bit to 176-bit encodings: objdump skips them whole, pmregs gives length 0 (not supported)"
                   if theirs_len >= 10 else
                   "the 192-bit-and-longer prefix (bits 14:12 = 111): reserved; objdump prints .2byte, pmregs length 0")
            known[why] = known.get(why, 0) + 1
        if not ok and len(problems) < 20:
            problems.append(f"len rv{xlen}: parcel {p:#06x}: objdump {theirs_len} bytes ({mnem}), pmregs {o[1]}")
    return len(parcels), known, problems


def words(rng, n):
    """n random 32-bit words of length 4: one in four with an opcode of interest chosen by its low byte
    (about 40,000 of each for a million words), the others with their low bits set to 11 (and bit 2
    cleared where bits 4:2 would be 111)."""
    ops = INTEREST_32 + (0x73,)
    any32 = bytes((b | 3) & ~4 if (b | 3) & 0x1C == 0x1C else b | 3 for b in range(256))
    interest = bytes((b & 0x80) | ops[b % len(ops)] for b in range(256))
    raw = bytearray(rng.randbytes(4 * n))
    raw[0::4] = raw[0::4].translate(any32)
    raw[4::16] = raw[4::16].translate(interest)
    a = array.array("I", bytes(raw))
    if sys.byteorder == "big":
        a.byteswap()
    return a.tolist()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("view")
    ap.add_argument("out")
    ap.add_argument("--random", type=int, default=1000000, help="random 32-bit words per XLEN (default 1000000)")
    ap.add_argument("--seed", type=int, default=20240411)
    ap.add_argument("--sets", default="c16,len,w32", help="the sets to compare (default c16,len,w32; or jalr)")
    a = ap.parse_args(argv)
    sets = a.sets.split(",")
    if not sets or any(x not in ("c16", "len", "w32", "jalr") for x in sets):
        ap.error(f"--sets: a comma-separated list of c16, len, w32 and jalr, not {a.sets!r}")
    os.makedirs(a.out, exist_ok=True)
    rng = random.Random(a.seed)
    total, known, problems = 0, {}, []

    def add(result, label):
        nonlocal total
        n, k, p = result
        total += n
        for why, c in k.items():
            known[why] = known.get(why, 0) + c
        problems.extend(p)
        print(f"{label}: {n} compared, {sum(1 for x in p if x)} unexplained disagreements")

    c16 = [p for p in range(0x10000) if p & 3 != 3]
    jalr = [0x67 | (v & 31) << 7 | (v >> 5 & 7) << 12 | (v >> 8) << 15 | rng.getrandbits(12) << 20
            for v in range(1 << 13)]
    for xlen in (32, 64):
        if "c16" in sets:
            add(run_set("c16", a.view, a.out, 2, xlen, c16), f"16-bit parcels, RV{xlen}")
        if "len" in sets:
            add(length_set(a.view, a.out, xlen), f"first parcels of longer encodings (lengths), RV{xlen}")
        # SYSTEM funct3 000: every rs1 and imm[11:0] with rd = 0 on RV64; a quarter of them, rd random, on RV32
        system = [0x73 | (v & 31) << 15 | (v >> 5) << 20 | (0 if xlen == 64 else rng.getrandbits(5) << 7)
                  for v in range(1 << 17) if xlen == 64 or v % 4 == 0]
        if "jalr" in sets:
            add(run_set("jalr", a.view, a.out, 4, xlen, jalr, judged=INTEREST_32), f"JALR sweep ({len(jalr)} words), RV{xlen}")
        if "w32" not in sets:
            continue
        w32 = words(rng, a.random) + jalr + system
        add(run_set("w32", a.view, a.out, 4, xlen, w32, judged=INTEREST_32),
            f"32-bit words ({a.random} random, {len(jalr)} JALR, {len(system)} SYSTEM), RV{xlen}")
    for why, c in sorted(known.items()):
        print(f"  known disagreement ({c}): {why}")
    bad = [p for p in problems if p]
    for p in bad:
        print("  " + p)
    if len(problems) > len(bad):
        print(f"  ... and {len(problems) - len(bad)} more")
    print(f"{total} encodings compared with {OBJDUMP}; {len(problems)} unexplained disagreements")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
