# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""capi.py: the C API read back from header text for the reference pages (functions, their comments and
error codes through calls, the name tables with FIELD patterns, the example programs)."""

import os
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "gen"))

from pmregs_gen import capi  # noqa: E402

TEXT = """
#define PMREGS_T_L_A_MASK 0x1
#define PMREGS_T_L_A_ON 1
#define PMREGS_T_L_RESET 0
/* Low level: fails with
 * PMREGS_ERANGE. */
static inline int pmregs_t_low(uint64_t v) { return v > 1 ? PMREGS_ERANGE : 0; }
static inline int pmregs_t_high(const uint32_t regs[2], const char *name)
{
	if (!name)
		return PMREGS_ENOENT;
	return pmregs_t_low(regs[0]);
}
static inline uint64_t pmregs_t_l_a_get(uint64_t v) { return v & 1; }
static inline uint64_t pmregs_t_l_b_get(uint64_t v) { return v >> 1 & 1; }
static inline int pmregs_t_l_valid(uint64_t v) { return v < 4; }
"""


class CApi(unittest.TestCase):
    def setUp(self):
        self.fns = {f.name: f for f in capi.functions(TEXT)}

    def test_functions(self):
        self.assertEqual(list(self.fns), ["pmregs_t_low", "pmregs_t_high", "pmregs_t_l_a_get", "pmregs_t_l_b_get",
                                          "pmregs_t_l_valid"])
        self.assertEqual(self.fns["pmregs_t_low"].doc, "Low level: fails with PMREGS_ERANGE.")
        self.assertEqual(self.fns["pmregs_t_high"].doc, "")
        self.assertEqual(self.fns["pmregs_t_high"].signature,
                         "int pmregs_t_high(const uint32_t regs[2], const char *name)")

    def test_a_comment_belongs_to_what_follows_it(self):
        # the comment ending the #define before a function is the macro's, a banner is a section's: neither
        # describes the function; a deprecated alias keeps the comment above its PMREGS_DEPRECATED line
        text = """
/*
 * The matcher, described at length.
 */
#define PMREGS_T_M_WIDTH 64 /* reference bits compared */
static inline int pmregs_t_m(uint64_t a) { return a != 0; }

/* ---- samples: records of register values ---- */
static inline int pmregs_t_s(void) { return 0; }
int x; /* trailing */
static inline int pmregs_t_t(void) { return 0; }
/* Deprecated: the former name of pmregs_t_m(). */
PMREGS_DEPRECATED("renamed pmregs_t_m()")
static inline int pmregs_t_old(uint64_t a) { return pmregs_t_m(a); }
/* Hot. */
PMREGS_HOT int pmregs_t_hot(void) { return 1; }
"""
        fns = {f.name: f for f in capi.functions(text)}
        self.assertEqual(fns["pmregs_t_m"].doc, "")
        self.assertEqual(fns["pmregs_t_s"].doc, "")
        self.assertEqual(fns["pmregs_t_t"].doc, "")
        self.assertEqual(fns["pmregs_t_old"].doc, "Deprecated: the former name of pmregs_t_m().")
        self.assertEqual(fns["pmregs_t_old"].deprecated, "renamed pmregs_t_m()")
        self.assertIsNone(fns["pmregs_t_m"].deprecated)
        self.assertEqual(fns["pmregs_t_hot"].doc, "Hot.")

    def test_errors_follow_calls(self):
        capi.close_errors(list(self.fns.values()))
        self.assertEqual(self.fns["pmregs_t_high"].errors, {"PMREGS_ENOENT", "PMREGS_ERANGE"})
        self.assertEqual(self.fns["pmregs_t_l_valid"].errors, set())

    def test_errors_are_what_returns_give_back(self):
        # codes that are data (a status stored in an output, compared with, or a parameter) are not errors;
        # a code reaches a return directly, through a variable, or through a callee whose result is returned
        text = """
static inline int pmregs_t_next(struct it *it, int rc)
{
	if (rc == PMREGS_ETRUNC)
		it->status = PMREGS_ETRUNC;
	return 1;
}
static inline int pmregs_t_var(int x)
{
	int rc = PMREGS_OK;
	if (x)
		rc = PMREGS_EINVAL;
	return rc;
}
static inline int pmregs_t_chain(int x)
{
	int n, rc;
	rc = pmregs_t_var(x);
	n = rc;
	if (pmregs_t_next(0, x) != 1)
		return PMREGS_ENOSPC;
	return n;
}
static inline const char *pmregs_t_str(int code) { return code == PMREGS_ERANGE ? "range" : "?"; }
"""
        fns = capi.functions(text)
        capi.close_errors(fns)
        got = {f.name: f.errors for f in fns}
        self.assertEqual(got["pmregs_t_next"], set())
        self.assertEqual(got["pmregs_t_var"], {"PMREGS_EINVAL"})
        self.assertEqual(got["pmregs_t_chain"], {"PMREGS_EINVAL", "PMREGS_ENOSPC"})
        self.assertEqual(got["pmregs_t_str"], set())

    def test_errors_of_real_functions(self):
        # read off the generated headers: a stream step returns 0/1 with the status in the item; the NetBurst
        # decoder returns PMREGS_OK or PMREGS_ENOENT; pmregs_strerror() takes a code and returns text
        text = ""
        for name in ("base_core.h", "etrace.h", "netburst.h", "netburst_tools.h", "ppc604.h", "ppc604_tools.h"):
            with open(os.path.join(ROOT, "include", "pmregs", name), encoding="utf-8") as f:
                text += f.read()
        fns = capi.functions(text)
        capi.close_errors(fns)
        got = {f.name: f.errors for f in fns}
        self.assertEqual(got["pmregs_etrace_smi_stream_next"], set())
        self.assertEqual(got["pmregs_netburst_event_decode"], {"PMREGS_ENOENT"})
        self.assertEqual(got["pmregs_ppc604_pm_decode"], {"PMREGS_EINVAL"})
        self.assertEqual(got["pmregs_strerror"], set())

    def test_name_tables(self):
        claimed = set()
        t = capi.name_tables({"functions": list(self.fns.values()), "macros": capi.macros(TEXT)}, "pmregs_t",
                             [("l", [("a", ["on"]), ("b", [])])], claimed)["l"]
        names = [r["name"] for r in t["rows"]]
        self.assertEqual(names, ["PMREGS_T_L_FIELD_MASK", "PMREGS_T_L_FIELD_VALUE", "PMREGS_T_L_RESET",
                                 "pmregs_t_l_FIELD_get", "pmregs_t_l_valid"])
        get = t["rows"][3]
        self.assertEqual((get["sig"], get["fields"]), ("uint64_t pmregs_t_l_FIELD_get(uint64_t v)", "every field"))
        self.assertEqual(claimed, {"pmregs_t_l_a_get", "pmregs_t_l_b_get", "pmregs_t_l_valid"})

    def test_example(self):
        f = self.fns["pmregs_t_high"]
        f.header = "t.h"
        ex = capi.example(f)
        self.assertIn("#include <pmregs/t.h>", ex)
        self.assertIn("uint32_t regs[2];", ex)
        self.assertIn('int rc = pmregs_t_high(regs, "name");', ex)
        self.assertIn("pmregs_strerror(rc)", ex)


if __name__ == "__main__":
    unittest.main()
