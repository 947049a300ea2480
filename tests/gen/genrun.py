# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""The generator run as a process of its own, forked from the test process.

run(*args, env=None, cwd=None) gives what subprocess.run([python3, gen/generate.py, *args]) gives -- a
CompletedProcess with the exit status (or -N for a process killed by signal N), standard output and
standard error -- but the child is a fork of this process, which has imported the generator and
compiled its templates once, instead of a new Python that imports and compiles them again for every
run. The child starts with the signal dispositions a program started from a terminal has (SIGINT
raises KeyboardInterrupt, SIGTERM and SIGHUP do what the generator makes of them), so a test can
interrupt or kill it as it would the script; the script's own entry point (sys.exit(main())) is run as
a separate process by the suite's other checks (make, the drift checks, the bad specs)."""

import io
import os
import signal
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "gen"))

import generate  # noqa: E402
from pmregs_gen import reserved  # noqa: E402

GEN = os.path.join(ROOT, "gen", "generate.py")
_warm = False
_base_files = None

WARM_SPEC = ('family: w\ntitle: w\nlayouts:\n  a: {fields: [{name: x, bits: "63:0"}]}\n'
             'registers:\n  - {name: r, layout: a}\nconstants: {k: 1}\n'
             "functions:\n  - {name: f, returns: u8, expr: '1'}\n")


def warm():
    """Compile the templates of headers, self-tests and reference pages in this process, once, so that
    every forked child finds them compiled; read the pages of the hand-written headers (docs.base_files(),
    a function of the source tree alone, which no test changes) once, for every child that writes pages;
    and have what a header's text defines (reserved.c_definitions(), a function of the text alone) remembered
    by text, so that the hand-written headers every run reads for its reserved names are read once, here."""
    global _warm, _base_files
    if _warm:
        return
    _warm = True
    remember_definitions()
    reserved.table([])
    _base_files = generate.base_files()
    with tempfile.TemporaryDirectory() as d:
        spec = os.path.join(d, "w.yaml")
        with open(spec, "w") as f:
            f.write(WARM_SPEC)
        real, generate.base_files = generate.base_files, _memo_base_files
        try:
            for kw in ({}, {"selftests": True}, {"docs": True}):
                try:
                    generate.build([spec], **kw)
                except Exception:          # a warm-up only: the tests themselves say what is wrong
                    pass
        finally:
            generate.base_files = real


def remember_definitions():
    """reserved.c_definitions() remembered by text in this process and every child forked after (the same
    Counters for the same text: nothing that reads them changes them)."""
    definitions = reserved.c_definitions
    if getattr(definitions, "remembered", False):
        return
    seen = {}

    def c_definitions(text):
        if text not in seen:
            seen[text] = definitions(text)
        return seen[text]
    c_definitions.remembered = True
    reserved.c_definitions = c_definitions


def _memo_base_files():
    return dict(_base_files[0]), list(_base_files[1])


def _child(main, args, env, cwd, out, err):
    """In the forked child: never returns."""
    try:
        os.dup2(out.fileno(), 1)
        os.dup2(err.fileno(), 2)
        sys.stdout = io.TextIOWrapper(os.fdopen(1, "wb", closefd=False), write_through=True)
        sys.stderr = io.TextIOWrapper(os.fdopen(2, "wb", closefd=False), write_through=True)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        for name in ("SIGTERM", "SIGHUP", "SIGQUIT"):
            if hasattr(signal, name):
                signal.signal(getattr(signal, name), signal.SIG_DFL)
        if _base_files is not None:
            generate.base_files = _memo_base_files
        if env:
            os.environ.update(env)
        if cwd:
            os.chdir(cwd)
        try:
            status = main(list(args))
        except SystemExit as e:         # --help, a usage error: argparse exits
            status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
            if not isinstance(e.code, int) and e.code is not None:
                print(e.code, file=sys.stderr)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status if isinstance(status, int) else 3)
    except BaseException:               # a traceback, as the script run alone would print
        import traceback
        traceback.print_exc()
        sys.stderr.flush()
        os._exit(3)


def run(*args, env=None, cwd=None):
    """The generator run with args in a process of its own: a subprocess.CompletedProcess (text)."""
    warm()
    return run_main(generate.main, GEN, *args, env=env, cwd=cwd)


def run_main(main, script, *args, env=None, cwd=None):
    """main(args) of an imported script (script: its path, for the record) run in a forked process."""
    return finish(start(main, script, *args, env=env, cwd=cwd))


def start(main, script, *args, env=None, cwd=None):
    """main(args) started in a forked process; finish() waits for it. Several may run at once."""
    out, err = tempfile.TemporaryFile(mode="w+b"), tempfile.TemporaryFile(mode="w+b")
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        _child(main, args, env, cwd, out, err)
    return pid, out, err, [sys.executable, script, *args]


def finish(started):
    """The subprocess.CompletedProcess of a run start() began, once it has ended."""
    pid, out, err, cmd = started
    with out, err:
        _, status = os.waitpid(pid, 0)
        out.seek(0)
        err.seek(0)
        return subprocess.CompletedProcess(cmd, os.waitstatus_to_exitcode(status),
                                           out.read().decode("utf-8", "replace"),
                                           err.read().decode("utf-8", "replace"))
