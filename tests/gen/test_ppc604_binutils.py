# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Cross-check of <pmregs/ppc604.h>'s SPR numbers against the PowerPC binutils.

GNU binutils' opcode table (opcodes/ppc-opc.c) has extended mnemonics for the
PM registers under its PPC750 flag: mfmmcr0, mfpmc1 ... mfummcr0, mfusia ...
We assemble them (as -m750cl), disassemble the result as plain mfspr/mtspr
and compare each SPR number with the header's constant, read from a small C
program compiled against the header. Needs binutils-powerpc-linux-gnu and a C
compiler; skipped, saying so, without them.
"""

import os
import re
import shutil
import subprocess
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
AS, OBJDUMP = "powerpc-linux-gnu-as", "powerpc-linux-gnu-objdump"
CC = os.environ.get("CC") or "cc"

# binutils mnemonic suffix -> the header's constant
PAIRS = [
    ("mmcr0", "PMREGS_PPC604_SPR_MMCR0"), ("pmc1", "PMREGS_PPC604_SPR_PMC1"),
    ("pmc2", "PMREGS_PPC604_SPR_PMC2"), ("sia", "PMREGS_PPC604_SPR_SIAR"),
    ("mmcr1", "PMREGS_PPC604_SPR_MMCR1"), ("pmc3", "PMREGS_PPC604_SPR_PMC3"),
    ("pmc4", "PMREGS_PPC604_SPR_PMC4"),
    ("ummcr0", "PMREGS_PPC604_USER_SPR_MMCR0_7XX"), ("upmc1", "PMREGS_PPC604_USER_SPR_PMC1"),
    ("upmc2", "PMREGS_PPC604_USER_SPR_PMC2"), ("usia", "PMREGS_PPC604_USER_SPR_SIAR"),
    ("ummcr1", "PMREGS_PPC604_USER_SPR_MMCR1_7XX"), ("upmc3", "PMREGS_PPC604_USER_SPR_PMC3"),
    ("upmc4", "PMREGS_PPC604_USER_SPR_PMC4"),
]


@unittest.skipUnless(shutil.which(AS) and shutil.which(OBJDUMP) and shutil.which(CC),
                     "binutils-powerpc-linux-gnu (or a C compiler) is not installed")
class Binutils(unittest.TestCase):
    def test_spr_numbers(self):
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "sprs.c")
            with open(src, "w") as f:
                f.write("#include <stdio.h>\n#include <pmregs/ppc604.h>\nint main(void)\n{\n")
                for _, mac in PAIRS:
                    f.write(f'\tprintf("%u\\n", (unsigned){mac});\n')
                f.write("\treturn 0;\n}\n")
            exe = os.path.join(d, "sprs")
            subprocess.run([CC, "-std=c99", "-I", os.path.join(ROOT, "include"), src, "-o", exe], check=True)
            ours = [int(x) for x in subprocess.run([exe], capture_output=True, text=True, check=True).stdout.split()]
            asm = os.path.join(d, "pm.s")
            with open(asm, "w") as f:
                for name, _ in PAIRS:
                    f.write(f"\tmf{name} 3\n")
                for name, _ in PAIRS[:7]:          # the supervisor registers can be written too
                    f.write(f"\tmt{name} 3\n")
            obj = os.path.join(d, "pm.o")
            subprocess.run([AS, "-m750cl", "-o", obj, asm], check=True)
            dis = subprocess.run([OBJDUMP, "-d", obj], capture_output=True, text=True, check=True).stdout
            got = [int(m.group(1) or m.group(2)) for m in
                   re.finditer(r"\b(?:mfspr\s+r3,(\d+)|mtspr\s+(\d+),r3)", dis)]
        self.assertEqual(len(got), len(PAIRS) + 7, dis)
        for (name, mac), want, have in zip(PAIRS + PAIRS[:7], ours + ours[:7], got):
            self.assertEqual(want, have, f"{mac} = {want}, binutils {name} = {have}")


if __name__ == "__main__":
    unittest.main()
