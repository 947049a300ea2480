#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""pmregs-decode on input nobody trimmed for it (tests/cli_input/checks.sh, make check):

    input.py windows TOOL DATA.hex   a stream 20000 times over, read from a file and from a pipe fed in odd
                                     chunks: every packet that straddles two reads decodes as in one copy
    input.py endless TOOL            /dev/zero as a file and as standard input, fill bytes and unsynced: the
                                     documented exit 6 (no packet with a payload in --max-idle bytes), in
                                     bounded memory; --sample reads no more than a sample holds
    input.py names TOOL              unknown names and values of any length: the documented exit statuses
                                     (3 for a name, 4 for a value), one short line on stderr

Memory is bounded, never time: the tool runs with 24 MiB of address space (RLIMIT_AS), which a reader that
holds its input (or a few MB of it) runs out of on /dev/zero or on a long pipe.
"""

import gc
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import threading

ENCAP_PARAMS = ["--params", "iaddress_width_p=64,iaddress_lsb_p=0,nocontext_p=0,context_width_p=32,ecause_width_p=5",
                "--params", "encap_srcid_bits=6,encap_type_bits=2,encap_type_inst=2"]
MAX_AS = 24 << 20             # "a few MB": the window is 256 KiB, the rest is the C library


def limit():
    resource.setrlimit(resource.RLIMIT_AS, (MAX_AS, MAX_AS))


def hex_bytes(path):
    with open(path, encoding="utf-8") as f:
        return bytes(int(x, 16) for x in " ".join(ln.split("#")[0] for ln in f).split())


def run(tool, args, stdin=None, feed=None):
    """(status, stdout, stderr) of tool args, run in MAX_AS bytes of address space; feed: bytes written to its
    stdin in chunks of varied sizes from a thread (a pipe that delivers a packet in several reads)."""
    p = subprocess.Popen([tool] + args, stdin=subprocess.PIPE if feed is not None else stdin,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=limit)
    if feed is not None:
        def writer():
            pos, k = 0, 0
            sizes = (1, 7, 4093, 3, 65537, 11, 262143, 5)
            try:
                while pos < len(feed):
                    n = sizes[k % len(sizes)]
                    p.stdin.write(feed[pos:pos + n])
                    p.stdin.flush()
                    pos += n
                    k += 1
            except BrokenPipeError:
                pass
            p.stdin.close()
        t = threading.Thread(target=writer)
        t.start()
    out, err = [], []
    readers = [threading.Thread(target=lambda: out.append(p.stdout.read())),
               threading.Thread(target=lambda: err.append(p.stderr.read()))]
    for r in readers:
        r.start()
    p.wait()
    for r in readers:
        r.join()
    if feed is not None:
        t.join()
    return p.returncode, out[0].decode("utf-8"), err[0].decode("utf-8")


def shifted_copies(lines, size, copies):
    """The text lines of the stream printout of `copies` copies of a `size`-byte stream printed as
    `lines`: each copy's lines with their offsets moved by the bytes before it (a line that starts
    with no offset unchanged). Each line is split once, each copy only formatted."""
    split = [(int(ln[:8], 16), ln[8:]) if re.match(r"^[0-9a-f]{8} ", ln) else (None, ln) for ln in lines]
    return [rest if at is None else f"{at + by:08x}{rest}"
            for by in range(0, copies * size, size) for at, rest in split]


def windows(tool, data_hex):
    data = hex_bytes(data_hex)
    # the specification's transport examples up to their last whole packet (the data ends in a truncated one)
    one = data[:0x74]
    bad = 0
    with tempfile.TemporaryDirectory() as d:
        p1 = os.path.join(d, "one.bin")
        with open(p1, "wb") as f:
            f.write(one)
        st, out, _ = run(tool, ["etrace"] + ENCAP_PARAMS + [p1])
        lines = out.splitlines()[:-1]
        per = len(lines)
        copies = 20000                                   # 2.3 MB: about 9 windows, every cut somewhere else
        want = shifted_copies(lines, len(one), copies)
        # the whole printout expected, compared as one text (200,000 lines; split only to show a difference)
        whole = "\n".join(want + [f"{per * copies} items, {copies} unreadable"]) + "\n"
        many = one * copies
        pn = os.path.join(d, "many.bin")
        with open(pn, "wb") as f:
            f.write(many)
        for how, args, feed in (("file", [pn], None), ("pipe", ["-"], many)):
            st, out, err = run(tool, ["etrace"] + ENCAP_PARAMS + args, feed=feed)
            ok = st == 1 and out == whole
            print(f"{how}: {len(many)} bytes, status {st}, {out.count(chr(10)) - 1} lines:"
                  f" {'as one copy, shifted' if ok else 'WRONG'}")
            if not ok:
                bad += 1
                got = out.splitlines()
                for k, (a, b) in enumerate(zip(got, want)):
                    if a != b:
                        print(f"  line {k}: got  {a}\n  line {k}: want {b}")
                        break
                print(err[-500:])
        # --json: the same items, over a quarter of the copies (580 KB: two refills of the 256 KB window;
        # the JSON of all of them, 150 MB, takes Python seconds to parse)
        jcopies = copies // 4
        pj = os.path.join(d, "quarter.bin")
        with open(pj, "wb") as f:
            f.write(one * jcopies)
        st, out, _ = run(tool, ["--json", "etrace"] + ENCAP_PARAMS + [pj])
        # parsed without the cyclic garbage collector, which would walk the million objects it makes
        # (no cycles among them) again and again while they are made: the same parse, 40% less time
        gc.disable()
        try:
            items = json.loads(out)["items"]
        finally:
            gc.enable()
        if len(items) != per * jcopies or items[-1]["offset"] != (jcopies - 1) * len(one) + 0x68:
            print(f"--json: {len(items)} items, the last at {items[-1]['offset']}: WRONG")
            bad += 1
    return bad


def endless(tool):
    bad = 0
    cases = [
        # (what, args, stdin, want status, stderr pattern, check of stdout)
        ("/dev/zero as a file", ["etrace", "--max-idle", "4194304", "/dev/zero"], None, 6,
         r"no packet with a payload in 4194304 bytes \(up to offset 0x400000\): stopped",
         lambda o: "(4194304 times, 4194304 bytes)" in o and o.endswith("4194304 items, 0 unreadable\n")),
        ("/dev/zero on standard input", ["etrace", "--max-idle", "4194304", "-"], "/dev/zero", 6,
         r"no packet with a payload in 4194304 bytes", lambda o: o.endswith("4194304 items, 0 unreadable\n")),
        ("/dev/zero, the default --max-idle (16 MiB)", ["etrace", "--stream", "atb", "/dev/zero"], None, 6,
         r"no packet with a payload in 16777216 bytes", lambda o: o.endswith("16777216 items, 0 unreadable\n")),
        ("/dev/zero unsynced: one skipped stretch", ["etrace", "--unsynced", "--max-idle", "3000000", "-"],
         "/dev/zero", 6, r"stopped", lambda o: re.search(r"\*\* unsynced: .*; \d+ bytes skipped\n1 item, 1 unreadable\n\Z", o)),
        ("/dev/zero as --json", ["--json", "etrace", "--max-idle", "1000000", "/dev/zero"], None, 6, r"stopped",
         lambda o: json.loads(o)["items"][0]["repeat"] == 1000000 and "stopped" in json.loads(o)),
        ("a sample from /dev/zero", ["--sample", "ibs_op", "amd", "/dev/zero"], None, 4,
         r"/dev/zero holds more than one ibs_op sample can \(516 bytes\)", lambda o: o == ""),
        ("a sample from endless standard input", ["--sample", "ibs_fetch", "amd", "-"], "/dev/zero", 4,
         r"holds more than one ibs_fetch sample can", lambda o: o == ""),
    ]
    for what, args, stdin, want, pattern, check in cases:
        fin = open(stdin, "rb") if stdin else None
        try:
            st, out, err = run(tool, args, stdin=fin)
        finally:
            if fin:
                fin.close()
        ok = st == want and re.search(pattern, err) and check(out)
        print(f"{what}: status {st}: {'ok' if ok else 'WRONG'}")
        if not ok:
            bad += 1
            print(f"  stderr: {err[-300:]!r}\n  stdout: {out[-300:]!r}")
    # a finite run of fill bytes: printed once, with its count; the status of a decoded stream
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "fill.bin")
        with open(p, "wb") as f:
            f.write(bytes(1000))
        st, out, err = run(tool, ["etrace", "--stream", "smi_stream", p])
        ok = st == 0 and out == ("00000000  00" + " " * 35 + "fill length=0 msg_type=0 timestamp_present=0"
                                 "  (1000 times, 1000 bytes)\n1000 items, 0 unreadable\n")
        print(f"1000 fill bytes: status {st}: {'one line' if ok else 'WRONG'}")
        if not ok:
            bad += 1
            print(out[:500], err)
    return bad


def names(tool):
    long = "x" * 100000
    cases = [
        (["--params", f"{long}=1", "etrace", "-"], 3, r"etrace has no parameter 'x{60}\.\.\.'"),
        (["--params", f"preset={long}", "etrace", "-"], 3, r"etrace has no parameter preset 'x{60}\.\.\.'"),
        (["--params", f"iaddress_width_p={'1' * 100000}", "etrace", "-"], 4, r"is not a value for iaddress_width_p"),
        (["--params", f"{long}", "etrace", "-"], 2, r"is not NAME=VALUE"),
        (["--stream", long, "etrace", "-"], 3, r"etrace has no stream 'x{60}\.\.\.'"),
        (["--sample", long, "amd", "0"], 3, r"amd has no sample 'x{60}\.\.\.'"),
        ([long, "cccr", "0"], 3, r"unknown family 'x{60}\.\.\.'"),
        (["netburst", long, "0"], 3, r"netburst has no register, layout or table 'x{60}\.\.\.'"),
        (["--list", "netburst", long], 3, r"netburst has no register, layout or table 'x{60}\.\.\.'"),
        (["--list", "netburst", "table:" + long], 3, r"netburst has no table 'x{60}\.\.\.'"),
        (["--max-idle", "12x", "etrace", "-"], 4, r"--max-idle: '12x' is not a number of bytes"),
        (["--max-idle"], 2, r"--max-idle needs an argument"),
    ]
    bad = 0
    for args, want, pattern in cases:
        p = subprocess.run([tool] + args, input=b"", stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        err = p.stderr.decode("utf-8")
        ok = p.returncode == want and re.search(pattern, err) and err.startswith("pmregs-decode: ") and len(err) < 600
        shown = " ".join(a if len(a) < 40 else a[:20] + f"...({len(a)} characters)" for a in args)
        print(f"{shown}: status {p.returncode} (want {want}){'' if ok else ' WRONG: ' + repr(err[:300])}")
        bad += not ok
    return bad


def main(argv):
    what, tool = argv[1], argv[2]
    if what == "windows":
        bad = windows(tool, argv[3])
    elif what == "endless":
        bad = endless(tool)
    elif what == "names":
        bad = names(tool)
    else:
        sys.exit(__doc__)
    print(f"{what}: {'ok' if not bad else f'{bad} wrong'}")
    return 1 if bad else 0


if __name__ == "__main__":
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    sys.exit(main(sys.argv))
