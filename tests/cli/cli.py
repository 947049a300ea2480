#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Tests of examples/pmregs-decode, run by tests/cli/checks.sh (make check).

    cli.py golden TOOL FILE...      each golden file: run the command it names, compare status,
                                    stdout and stderr, and check the fields its source states
    cli.py golden --bless TOOL FILE rewrite the outputs of a golden file (review the diff by hand!)
    cli.py json TOOL ACCESSOR_DUMP  --json output parsed back and compared with the typed accessors
    cli.py svg TOOL DOC_DIR         every reference-page diagram and every --svg output is well-formed
    cli.py errors TOOL              bad arguments give the documented message and exit status
    cli.py version TOOL VERSION     --version prints the release named in the VERSION file
    cli.py man TOOL PAGE            the man page (SYNOPSIS to EXIT STATUS) says what --help says, word for word
    cli.py batch DIR TOOL ACCESSOR_DUMP DOC_DIR VERSION PAGE GOLDEN...
                                    all of the above in one Python, each check's output and status kept
                                    in DIR (golden-NAME.log/.rc, json.log/.rc, ...; see batch())

A golden file starts with '#' header lines:

    # args: netburst cccr 0x0003D000      the command line ({name} = a file of tests/cli/data)
    # status: 0                           the exit status
    # source: ...                         where the value and its meaning come from
    # expect: enable=1 escr_select=6      fields the source states; checked through --json
    --- stdout
    ...
    --- stderr
    ...
"""

import contextlib
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import traceback
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
SVG_NS = "{http://www.w3.org/2000/svg}"


def data_files(tmp):
    """tests/cli/data/NAME.hex (hex bytes, '#' comments) as binary files in tmp: {NAME: path}."""
    out = {}
    d = os.path.join(HERE, "data")
    for f in sorted(os.listdir(d)):
        if not f.endswith(".hex"):
            continue
        with open(os.path.join(d, f), encoding="utf-8") as fh:
            text = " ".join(line.split("#")[0] for line in fh)
        path = os.path.join(tmp, f[:-4] + ".bin")
        with open(path, "wb") as fh:
            fh.write(bytes(int(x, 16) for x in text.split()))
        out[f[:-4]] = path
    return out


def run(tool, args):
    p = subprocess.run([tool] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode("utf-8"), p.stderr.decode("utf-8")


def parse_golden(path):
    head, parts, cur = {}, {"stdout": [], "stderr": []}, None
    with open(path, encoding="utf-8") as f:
        for line in f.read().split("\n"):
            if cur is None and line.startswith("# "):
                k, _, v = line[2:].partition(":")
                head[k.strip()] = (head.get(k.strip(), "") + " " + v.strip()).strip()
            elif line in ("--- stdout", "--- stderr"):
                cur = line[4:]
            elif cur is not None:
                parts[cur].append(line)
    return head, "\n".join(parts["stdout"]), "\n".join(parts["stderr"])


def golden(tool, files, bless=False, data=None):
    """data: the data files of data_files() and their folder ("tmp"), written already (batch)."""
    if data is None:
        with tempfile.TemporaryDirectory() as tmp:
            data = data_files(tmp)
            data["tmp"] = tmp
            return golden(tool, files, bless, data)
    bad = 0
    tmp = data["tmp"]
    for path in files:
        failed = bad
        head, want_out, want_err = parse_golden(path)
        args = [a.format(**data) for a in shlex.split(head["args"])]
        status, out, err = run(tool, args)
        err = err.replace(tool, "pmregs-decode").replace(tmp, "{tmp}")     # data files live in tmp
        if bless:
            with open(path, encoding="utf-8") as f:
                keep = [line for line in f.read().split("\n") if line.startswith("# ")]
            keep = [line if not line.startswith("# status:") else f"# status: {status}" for line in keep]
            with open(path, "w", encoding="utf-8") as f:
                f.write("\n".join(keep) + "\n--- stdout\n" + out + "--- stderr\n" + err)
            continue
        name = os.path.basename(path)
        if status != int(head["status"]):
            print(f"{name}: exit status {status}, want {head['status']}")
            bad += 1
        if out != want_out + ("\n" if want_out else "") and out != want_out:
            print(f"{name}: stdout differs:\n--- got\n{out}--- want\n{want_out}")
            bad += 1
        if err != want_err + ("\n" if want_err else "") and err != want_err:
            print(f"{name}: stderr differs:\n--- got\n{err}--- want\n{want_err}")
            bad += 1
        if head.get("expect"):
            # what the source says, checked against the decoded fields (independently of the text)
            st, js, _ = run(tool, ["--json"] + args)
            fields = {f["name"]: f for f in json.loads(js)["fields"]}
            for item in head["expect"].split():
                k, _, v = item.partition("=")
                m = re.match(r"^(-?\w+)(?:\((\w+)\))?$", v)
                got = fields.get(k)
                want_v = int(m.group(1), 0)
                got_v = got.get("signed_value", got["value"]) if got else None
                if got is None or got_v != want_v or (m.group(2) and got["meaning"] != m.group(2)):
                    print(f"{name}: the source says {item}, decoded {got}")
                    bad += 1
        print(f"{name}: {'ok' if bad == failed else 'FAILED'}")
    return bad


# (family, register or layout, value, layout of tests/cli/accessor_dump.c); values of the golden cases
JSON_CASES = [
    ("netburst", "cccr", "0x0003D000", "cccr"),
    ("netburst", "iq_cccr0", "0x00039000", "cccr_ext"),
    ("netburst", "escr", "0x0600C205", "escr"),
    ("netburst", "msr_fsb_escr0", "0xffffffffffffffff", "escr"),
    ("x86", "ia32_perfevtsel0", "0x5300c0", "perfevtsel"),
    ("x86", "ia32_debugctl", "0x1801", "debugctl"),
    ("x86", "ia32_perfevtsel3", "0xffffffffffffffff", "perfevtsel"),
    ("ppc604", "mmcr0", "0x44808042", "mmcr0_604"),
    ("ppc604", "mmcr0", "0xffffffff", "mmcr0_604"),
    ("itanium", "pmc4", "0x2503028", "pmc_counting"),
    ("itanium", "pmc10", "0x40088", "pmc10_tlb"),
    ("itanium", "pmc13", "0x0003FFFF00000001", "pmc13"),
    ("etrace", "ioptions_ref", "0x1d", "ioptions_ref"),
]


def json_check(tool, dump):
    bad = 0
    for fam, name, value, layout in JSON_CASES:
        status, out, err = run(tool, ["--json", fam, name, value])
        if status not in (0, 1):
            print(f"{fam} {name} {value}: status {status}: {err}")
            bad += 1
            continue
        d = json.loads(out)
        want = {}
        for line in subprocess.run([dump, fam, layout, value], stdout=subprocess.PIPE, check=True,
                                   universal_newlines=True).stdout.split("\n"):
            if line:
                k, _, v = line.partition("=")
                want[k] = int(v)
        user = {f["name"]: f for f in d["fields"] if f["access"] not in ("rsvd", "ignored", "res1")}
        problems = []
        if d["family"] != fam or d["value"] != int(value, 0):
            problems.append(f"family/value {d['family']} {d['value']:#x}")
        if d.get("variant") not in (None, layout) or (d.get("variant") is None and d["layout"] != layout):
            problems.append(f"layout {d['layout']} variant {d.get('variant')}, want {layout}")
        if set(user) != set(want):
            problems.append(f"fields {sorted(user)} != accessors {sorted(want)}")
        for k, v in want.items():
            if k in user and user[k]["value"] != v:
                problems.append(f"{k}: --json {user[k]['value']}, accessor {v}")
        # the bits of all fields together rebuild the value, and "valid" agrees with the reserved fields
        rebuilt = 0
        for f in d["fields"]:
            x, parts = f["value"], f["bits"]
            for hi, lo in reversed(parts):
                w = hi - lo + 1
                rebuilt |= (x & ((1 << w) - 1)) << lo
                x >>= w
        if rebuilt != d["value"]:
            problems.append(f"fields rebuild {rebuilt:#x}")
        if d["valid"] != all(f["ok"] for f in d["fields"]) or d["valid"] != (status == 0):
            problems.append(f"valid={d['valid']} with status {status}")
        for p in problems:
            print(f"{fam} {name} {value}: {p}")
        bad += len(problems)
        print(f"{fam} {name} {value}: {len(want)} fields {'agree' if not problems else 'DISAGREE'}")
    # --list and stream output are JSON too
    fams = json.loads(run(tool, ["--list", "--json"])[1])
    for f in fams:
        lst = json.loads(run(tool, ["--list", "--json", f["name"]])[1])
        if len(lst["registers"]) != f["registers"] or len(lst["layouts"]) != f["layouts"]:
            print(f"--list --json {f['name']}: counts disagree with the family list")
            bad += 1
        for L in lst["layouts"]:
            one = json.loads(run(tool, ["--list", "--json", f["name"], "layout:" + L["name"]])[1])
            if len(one["fields"]) != L["fields"]:
                print(f"--list --json {f['name']} {L['name']}: {len(one['fields'])} fields, want {L['fields']}")
                bad += 1
    print(f"--list --json: {len(fams)} families")
    return bad


def svg_check(tool, doc_dir):
    bad = n = 0

    def check(path, fields=()):
        nonlocal bad, n
        n += 1
        try:
            root = ET.parse(path).getroot()
        except ET.ParseError as e:
            print(f"{path}: not well-formed XML: {e}")
            bad += 1
            return
        texts = " ".join((t.text or "") for t in root.iter(SVG_NS + "text"))
        if root.tag != SVG_NS + "svg" or root.find(SVG_NS + "title") is None:
            print(f"{path}: not an SVG document with a title")
            bad += 1
        for f in fields:
            if f not in texts:
                print(f"{path}: field {f} is not drawn")
                bad += 1

    for d, _, files in sorted(os.walk(doc_dir)):
        for f in sorted(files):
            if f.endswith(".svg"):
                check(os.path.join(d, f))
    if n == 0:
        print(f"no diagrams under {doc_dir}")
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        for fam, name, value, _ in JSON_CASES:
            out = os.path.join(tmp, f"{fam}_{name}.svg")
            status, _, err = run(tool, ["--svg", out, fam, name, value])
            if status not in (0, 1) or not os.path.exists(out):
                print(f"--svg {fam} {name} {value}: status {status} {err}")
                bad += 1
                continue
            d = json.loads(run(tool, ["--json", fam, name, value])[1])
            check(out, [f["name"] for f in d["fields"]])
    print(f"{n} SVG files well-formed" if not bad else f"{bad} problems in {n} SVG files")
    return bad


# (arguments, exit status, a regular expression the error message must match); see the tool's usage text
ERROR_CASES = [
    (["nosuchfamily", "cccr", "0"], 3, r"unknown family 'nosuchfamily' \(families: amd etrace itanium netburst"),
    (["netburst", "nosuchreg", "0"], 3, r"netburst has no register, layout or table 'nosuchreg'"),
    (["--list", "nosuchfamily"], 3, r"unknown family"),
    (["--list", "x86", "nosuchreg"], 3, r"x86 has no register, layout or table"),
    (["--list", "netburst", "table:cccr"], 3, r"netburst has no table 'cccr'"),
    (["--sample", "nosuch", "amd", "0"], 3, r"amd has no sample 'nosuch'"),
    (["--sample", "ibs_op", "amd"], 2, r"give the sample as a file or as its values"),
    (["--sample", "ibs_op", "amd", "0x100000000", "1"], 4, r"does not fit the 32-bit cpuid_8000001b_eax"),
    (["--sample", "ibs_op", "amd", "0", "1", "2"], 4, r"holds 7 registers, not 2"),
    (["--sample", "ibs_op", "--svg", "x.svg", "amd", "0"], 2, r"--sample takes no --svg"),
    (["--sample"], 2, r"--sample needs an argument"),
    (["--list", "x86", "arch_events", "extra"], 2, r"--list takes at most a family and a register, layout or table"),
    (["--event", "INST_RETIRED.ANY_P", "--cpu", "nosuchcpu"], 3, r"no processor model 'nosuchcpu'"),
    (["--event", "NO_SUCH_EVENT", "--cpu", "spr"], 3, r"spr \(x86 events\) has no event 'NO_SUCH_EVENT'"),
    (["--event", "INST_RETIRED.ANY_P:c=999", "--cpu", "spr"], 4, r"a value does not fit its field at 'c=999'"),
    (["--event", "INST_RETIRED.ANY_P:zz", "--cpu", "spr"], 4, r"unknown modifier, unit mask or term at 'zz'"),
    (["--event", "INST_RETIRED.ANY_P", "x86"], 2, r"--event takes only --cpu, --json and --long"),
    (["--event"], 2, r"--event needs an argument"),
    (["--list", "x86", "nosuch", "--cpu", "spr"], 3, r"spr has no catalogue 'x86 nosuch'"),
    (["--list", "x86", "events"], 2, r"events is an event catalogue: list a model's events with --cpu MODEL"),
    (["netburst", "cccr", "0xZZ"], 4, r"'0xZZ' is not a value"),
    (["netburst", "cccr", "12abc"], 4, r"'12abc' is not a value"),
    (["netburst", "cccr", ""], 4, r"'' is not a value"),
    (["netburst", "cccr", "-1"], 4, r"'-1' is not a value"),
    (["netburst", "cccr", "0x10000000000000000"], 4, r"needs more than 64 bits"),
    (["ppc604", "mmcr0", "0x100000000"], 4, r"does not fit the 32-bit mmcr0"),
    (["etrace", "ioptions_ref", "256"], 4, r"does not fit the 8-bit ioptions_ref"),
    (["netburst", "cccr"], 2, r"netburst has no packet streams"),
    (["netburst"], 2, r"give a register or layout and a value"),
    (["--bogus"], 2, r"unknown option --bogus"),
    (["netburst", "cccr", "0", "extra"], 2, r"too many arguments"),
    (["--svg"], 2, r"--svg needs an argument"),
    (["--svg", "/nonexistent-dir/x.svg", "netburst", "cccr", "0"], 5, r"cannot write /nonexistent-dir/x.svg"),
    (["etrace", "/nonexistent-file"], 5, r"cannot read /nonexistent-file"),
    (["etrace", "--params", "nosuch=1", "-"], 3, r"etrace has no parameter 'nosuch'"),
    (["etrace", "--params", "iaddress_width_p=99", "-"], 4, r"iaddress_width_p=99 is outside 1\.\.64"),
    (["etrace", "--params", "iaddress_width_p", "-"], 2, r"is not NAME=VALUE"),
    (["etrace", "--params", "iaddress_width_p=x", "-"], 4, r"'x' is not a value for iaddress_width_p"),
    (["etrace", "--stream", "nosuch", "-"], 3, r"etrace has no stream 'nosuch' \(streams: encap_stream smi_stream atb_stream smi_data_stream\)"),
    (["etrace", "--params", "iaddress_lsb_p=40,iaddress_width_p=32", "-"], 4, r"not a legal combination"),
    (["--svg", "x.svg", "etrace", "-"], 2, r"--svg draws a register value"),
    (["--list", "--params", "a=1"], 2, r"--list takes at most"),
    # a name not found: the nearest names (edits, swapped letters, a prefix), whatever the case
    (["netbrust", "cccr", "0"], 3, r"unknown family 'netbrust' \(families: .*\) \(did you mean netburst\?\)"),
    (["netburst", "CCRR", "0"], 3, r"no register, layout or table 'CCRR' \(did you mean cccr\?\)"),
    (["netburst", "iq_cccr", "0"], 3, r"\(did you mean iq_cccr0, iq_cccr1 or iq_cccr2\?\)"),
    (["--list", "x86", "table:arch_event"], 3, r"x86 has no table 'arch_event' \(did you mean arch_events\?\)"),
    (["--sample", "ibs_opp", "amd", "0"], 3, r"amd has no sample 'ibs_opp' \(did you mean ibs_op\?\)"),
    (["etrace", "--stream", "SMI_STREM", "-"], 3, r"etrace has no stream 'SMI_STREM' .*\(did you mean smi_stream\?\)"),
    (["etrace", "--params", "iaddress_widht_p=3", "-"], 3, r"no parameter 'iaddress_widht_p' \(did you mean iaddress_width_p"),
    (["etrace", "--params", "preset=FZZI", "-"], 3, r"no parameter preset 'FZZI' .*\(did you mean fzi\?\)"),
    (["etrace", "--stream", "smi", "-"], 3, r"etrace has more than one stream 'smi'"),
]


def errors(tool):
    bad = 0
    for args, want, pattern in ERROR_CASES:
        p = subprocess.run([tool] + args, input=b"", stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        err = p.stderr.decode("utf-8")
        ok = p.returncode == want and re.search(pattern, err) and err.startswith("pmregs-decode: ")
        if not ok:
            print(f"{' '.join(args)}: status {p.returncode} (want {want}), stderr: {err!r}")
            bad += 1
    # the usage text documents every status the cases above use
    usage = run(tool, ["--help"])[1]
    for st in sorted({w for _, w, _ in ERROR_CASES}):
        if not re.search(rf"\b{st} [a-z]", usage):
            print(f"--help does not document exit status {st}")
            bad += 1
    print(f"{len(ERROR_CASES)} bad command lines" + (" rejected as documented" if not bad else f": {bad} wrong"))
    return bad


def version(tool, version_file):
    with open(version_file, encoding="ascii") as f:
        want = f"pmregs-decode {f.read().strip()}\n"
    st, out, err = run(tool, ["--version"])
    print(f"--version: status {st}, {out!r}")
    if st != 0 or out != want or err:
        print(f"want status 0 and {want!r} on stdout, nothing on stderr")
        return 1
    return 0


def roff_words(path):
    """The words of a man page from SYNOPSIS up to EXAMPLES, without the markup and the section names."""
    words, inside = [], False
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith(".SH"):
                name = line[3:].strip().strip('"')
                inside = name in ("SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXIT STATUS")
                continue
            if not inside or line.startswith('.\\"'):
                continue
            if line.startswith("."):
                macro, _, rest = line.partition(" ")
                if macro not in (".B", ".I", ".BI", ".IB", ".BR", ".RB", ".IR", ".RI"):
                    continue
                line = rest.replace('"', "")
            line = re.sub(r"\\f[BIRP]", "", line).replace("\\-", "-").replace("\\(aq", "'")
            words += line.split()
    return words


def man_check(tool, page):
    st, out, _ = run(tool, ["--help"])
    want = out.split()
    if want and want[0] == "usage:":
        want = want[1:]
    got = roff_words(page)
    if st == 0 and got == want:
        print(f"{page}: the same {len(got)} words as --help")
        return 0
    i = next((k for k, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
    print(f"{page} and --help differ at word {i}: change both together")
    print(f"  man page: {' '.join(got[max(0, i - 8):i + 8])}")
    print(f"  --help:   {' '.join(want[max(0, i - 8):i + 8])}")
    return 1


def batch(out_dir, tool, dump, doc_dir, version_file, page, goldens):
    """Every check of this file, one after the other in this one Python: each golden file's result in
    OUT_DIR/golden-NAME.log (what it printed) and golden-NAME.rc (its exit status), and those of json,
    svg, errors, man and version in OUT_DIR/MODE.log and MODE.rc; a check that raises fails with its
    traceback in its log, and the others still run."""
    os.makedirs(out_dir, exist_ok=True)

    def one(name, fn, *args):
        with open(os.path.join(out_dir, name + ".log"), "w", encoding="utf-8") as log:
            with contextlib.redirect_stdout(log):
                try:
                    rc = 1 if fn(*args) else 0
                except Exception:                       # noqa: BLE001 (reported in that check's log)
                    traceback.print_exc(file=log)
                    rc = 1
        with open(os.path.join(out_dir, name + ".rc"), "w", encoding="ascii") as f:
            f.write(f"{rc}\n")

    with tempfile.TemporaryDirectory() as tmp:
        data = data_files(tmp)
        data["tmp"] = tmp
        for g in goldens:
            one("golden-" + os.path.basename(g)[:-len(".txt")], golden, tool, [g], False, data)
    one("json", json_check, tool, dump)
    one("svg", svg_check, tool, doc_dir)
    one("errors", errors, tool)
    one("man", man_check, tool, page)
    one("version", version, tool, version_file)
    return 0


def main(argv):
    mode = argv[1]
    if mode == "batch":
        return batch(argv[2], argv[3], argv[4], argv[5], argv[6], argv[7], argv[8:])
    if mode == "golden":
        bless = argv[2] == "--bless"
        rest = argv[3:] if bless else argv[2:]
        return 1 if golden(rest[0], rest[1:], bless) else 0
    if mode == "json":
        return 1 if json_check(argv[2], argv[3]) else 0
    if mode == "svg":
        return 1 if svg_check(argv[2], argv[3]) else 0
    if mode == "errors":
        return 1 if errors(argv[2]) else 0
    if mode == "man":
        return 1 if man_check(argv[2], argv[3]) else 0
    if mode == "version":
        return 1 if version(argv[2], argv[3]) else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
