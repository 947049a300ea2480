#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Run the generator on a bad spec and check it fails as the spec's first line says.

    expect_error.py SPEC                 one spec; exit status 0 when it fails as expected
    expect_error.py --batch DIR SPEC...  every spec, each in its own process forked from this
                                         one (the generator is imported once): DIR/NAME.log
                                         and DIR/NAME.rc per spec (0: as expected)

The first line of every file in tests/specs/bad/ reads
    # expect: PMRnnn line N
The generator must exit with status 1, print that code at that line first,
print no traceback, and write no file. A first line ending in "padded to N bytes"
runs the generator on a copy of the spec with comment lines appended up to N
bytes (so that the size bound is tested without committing a huge file).
"as NAME.yaml" runs it on a copy called NAME.yaml (a family named like a
hand-written header, say, must still live in a file of its name), and
"with FILE.yaml" generates tests/specs/bad/companions/FILE.yaml together with it
(given first: names that clash across families).
"""

import io
import os
import re
import subprocess
import sys
import tempfile

GEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "gen", "generate.py")


def run_subprocess(out, specs):
    p = subprocess.run([sys.executable, GEN, "--out", out] + specs, capture_output=True, text=True)
    return p.returncode, p.stderr


def run_forked(main):
    """A runner that calls the imported generator's main() in a forked child, its standard error
    kept in a file: a process of its own, as a subprocess would be, without starting Python again."""
    def run(out, specs):
        with tempfile.TemporaryFile(mode="w+") as err:
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                try:
                    os.dup2(err.fileno(), 2)
                    sys.stderr = io.TextIOWrapper(os.fdopen(2, "wb", closefd=False), write_through=True)
                    status = main(["--out", out] + specs)
                    sys.stderr.flush()
                    os._exit(status if isinstance(status, int) else 3)
                except BaseException:               # a traceback, as the generator run alone would print
                    import traceback
                    traceback.print_exc()
                    sys.stderr.flush()
                    os._exit(3)
            _, status = os.waitpid(pid, 0)
            err.seek(0)
            code = os.waitstatus_to_exitcode(status)
            return code, err.read()
    return run


def expect(spec, runner):
    """(ok, text): what the generator printed, then one line per problem."""
    with open(spec, "rb") as f:          # bytes: a bad spec may be deliberately not UTF-8
        head = f.readline().decode("ascii", "replace")
    m = re.match(r"#\s*expect:\s*(PMR\d{3})\s+line\s+(\d+)(?:.*padded to (\d+) bytes)?", head)
    if not m:
        return False, f"{spec}: first line must be '# expect: PMRnnn line N'\n"
    code, line = m.group(1), int(m.group(2))
    copy_as = re.search(r"\bas ([a-z0-9_]+\.yaml)\b", head)
    companion = re.search(r"\bwith ([a-z0-9_]+\.yaml)\b", head)
    with tempfile.TemporaryDirectory() as out:
        run, others = spec, []
        if m.group(3) or copy_as or companion:
            run = os.path.join(out, "in", copy_as.group(1) if copy_as else os.path.basename(spec))
            os.mkdir(os.path.dirname(run))
            with open(spec, "rb") as f, open(run, "wb") as g:
                g.write(f.read())
                if m.group(3):
                    pad = b"#" + b"-" * 78 + b"\n"
                    g.write(pad * (int(m.group(3)) // len(pad) + 1))
            if companion:
                others = [os.path.join(out, "in", companion.group(1))]
                with open(os.path.join(os.path.dirname(spec), "companions", companion.group(1)), "rb") as f, \
                        open(others[0], "wb") as g:
                    g.write(f.read())
        status, stderr = runner(out, others + [run])
        written = [f for f in os.listdir(out) if f != "in"]
        shown = os.path.relpath(run)
    first = stderr.splitlines()[0] if stderr else ""
    want = re.compile(rf"^{re.escape(shown)}:{line}:\d+: error\[{code}\]: \S")
    problems = []
    if status != 1:
        problems.append(f"exit status {status}, expected 1")
    if not want.match(first):
        problems.append(f"first error line does not match {want.pattern!r}")
    if "Traceback" in stderr:
        problems.append("the generator printed a traceback")
    if written:
        problems.append(f"files were written: {written}")
    return not problems, stderr + "".join(f"{spec}: {pr}\n" for pr in problems)


def main(argv):
    if argv[:1] == ["--batch"]:
        d, specs = argv[1], argv[2:]
        os.makedirs(d, exist_ok=True)
        sys.path.insert(0, os.path.dirname(GEN))
        import generate                    # noqa: E402 (the generator, imported once for every child)
        from pmregs_gen import reserved    # noqa: E402
        # what a header's text defines (reserved.c_definitions) is read from the same hand-written headers
        # in every run: read once, here, and remembered by text for every child
        definitions, seen = reserved.c_definitions, {}

        def c_definitions(text):
            if text not in seen:
                seen[text] = definitions(text)
            return seen[text]
        reserved.c_definitions = c_definitions
        reserved.table([])
        runner = run_forked(generate.main)
        for spec in specs:
            ok, text = expect(spec, runner)
            name = os.path.basename(spec)
            with open(os.path.join(d, name + ".log"), "w", encoding="utf-8") as f:
                f.write(text)
            with open(os.path.join(d, name + ".rc"), "w", encoding="ascii") as f:
                f.write("0\n" if ok else "1\n")
        return 0
    ok, text = expect(argv[0], run_subprocess)
    print(text, end="")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
