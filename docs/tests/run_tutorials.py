#!/usr/bin/python3
"""Runs the runnable blocks of a manual page, as a reader would type them, and checks that each
command prints what the page shows.

    run_tutorials.py --build BUILD --source SOURCE_DIR PAGE.md [--keep]
    run_tutorials.py --self-test SOURCE_DIR BUILD     shows that the checks can fail

A runnable block is a fenced code block right after the line `<!-- haec-run -->`. Its lines that
start with `$ ` are commands (a line ending in a backslash continues on the next one); the other
lines are the output the command must print, in that order, among its other lines (stdout and
stderr together; runs of spaces compare equal; `...` inside a line matches anything, with the
spaces around it, and a line `...` alone any number of lines). A last output line `(exit status N)` expects that status; otherwise a
command must exit 0. A fenced block right after `<!-- haec-file: NAME -->` is written to NAME
before the commands that follow it run.

All commands of a page run in one bash, in order, in a scratch directory that looks like the top
of the repository (its files and directories are links to SOURCE_DIR's, `build` to BUILD), so the
commands are written as a user types them at the top of a clone. Exit status: 0 when every
command did what the page says, 1 otherwise (naming the command, what was expected and what it
printed), 2 for a page without runnable blocks.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

MARK_RUN = re.compile(r"^<!--\s*haec-run\s*-->\s*$")
MARK_FILE = re.compile(r"^<!--\s*haec-file:\s*(\S+)\s*-->\s*$")
FENCE = re.compile(r"^(```+|~~~+)")
EXIT = re.compile(r"^\(exit status (\d+)\)$")


class Step:
    def __init__(self, line, kind, command="", expected=None, name="", content=""):
        self.line, self.kind, self.command, self.name, self.content = line, kind, command, name, content
        self.expected = expected if expected is not None else []

    def _lines(self):
        return [x for x in self.expected if x.strip()]

    def status(self):
        lines = self._lines()
        found = EXIT.match(lines[-1].strip()) if lines else None
        return int(found.group(1)) if found else 0

    def output_lines(self):
        lines = self._lines()
        return lines[:-1] if lines and EXIT.match(lines[-1].strip()) else lines


def blocks(path):
    """(kind, name, first line number, lines) of every marked block of a page."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    found, i = [], 0
    while i < len(lines):
        run, file = MARK_RUN.match(lines[i]), MARK_FILE.match(lines[i])
        if not (run or file):
            i += 1
            continue
        j = i + 1
        fence = FENCE.match(lines[j]) if j < len(lines) else None
        if not fence:
            raise SystemExit(f"{path}:{i + 1}: a haec-run or haec-file mark must be followed by a fenced block")
        end = j + 1
        while end < len(lines) and not lines[end].startswith(fence.group(1)):
            end += 1
        if end == len(lines):
            raise SystemExit(f"{path}:{j + 1}: the fenced block is not closed")
        body = lines[j + 1:end]
        found.append(("run" if run else "file", file.group(1) if file else "", j + 2, body))
        i = end + 1
    return found


def steps(path):
    result = []
    for kind, name, first, body in blocks(path):
        if kind == "file":
            result.append(Step(first, "file", name=name, content="\n".join(body) + "\n"))
            continue
        k = 0
        while k < len(body):
            if not body[k].startswith("$ "):
                if body[k].strip():
                    raise SystemExit(f"{path}:{first + k}: output before any command")
                k += 1
                continue
            line_no, command = first + k, body[k][2:]
            while command.endswith("\\") and k + 1 < len(body):
                k += 1
                command = command + "\n" + body[k]  # bash reads backslash-newline as a continuation
            k += 1
            expected = []
            while k < len(body) and not body[k].startswith("$ "):
                expected.append(body[k])
                k += 1
            result.append(Step(line_no, "run", command=command, expected=expected))
    return result


def scratch_tree(source, build):
    work = tempfile.mkdtemp(prefix="haec-tutorial-")
    for entry in os.listdir(source):
        if entry in (".git", "build", "results") or entry.startswith("build"):
            continue
        os.symlink(os.path.join(source, entry), os.path.join(work, entry))
    os.symlink(build, os.path.join(work, "build"))
    return work


def normal(text):
    return " ".join(text.split())


def matches(expected, actual):
    """Expected lines appear in order among the actual ones; see the module's help."""
    pos = 0
    for e in expected:
        e = normal(e)
        if e == "...":
            continue
        # "..." matches anything, the spaces around it included ("a ... b" matches "a b").
        pattern = re.compile("^" + ".*".join(re.escape(part) for part in re.split(r" ?\.\.\. ?", e)) + "$")
        while pos < len(actual) and not pattern.match(normal(actual[pos])):
            pos += 1
        if pos == len(actual):
            return e
        pos += 1
    return None


def run_page(page, source, build, keep):
    todo = steps(page)
    if not todo:
        print(f"{page}: no runnable block")
        return 2
    work = scratch_tree(source, build)
    marker = f"@@haec-step-{os.getpid()}"
    script = ["set +e", f"cd {sh(work)}", "exec < /dev/null"]
    for n, s in enumerate(todo):
        if s.kind == "file":
            script.append(f"mkdir -p \"$(dirname {sh(s.name)})\"")
            script.append(f"cat > {sh(s.name)} <<'HAEC_TUTORIAL_EOF'\n{s.content}HAEC_TUTORIAL_EOF")
            continue
        script.append(f"echo '{marker} {n} begin'")
        script.append("{\n" + s.command + "\n} 2>&1")
        script.append(f"echo \"{marker} {n} end $?\"")
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(work, ".cache"), LC_ALL="C.UTF-8", COLUMNS="100")
    started = time.time()
    done = subprocess.run(["bash", "-c", "\n".join(script)], capture_output=True, text=True, env=env,
                          timeout=1800)
    took = time.time() - started
    outputs, current, statuses = {}, None, {}
    for line in done.stdout.split("\n"):
        if line.startswith(marker):
            _, n, what, *rest = line.split()
            current = int(n) if what == "begin" else None
            if what == "end":
                statuses[int(n)] = int(rest[0])
            outputs.setdefault(int(n), [])
        elif current is not None:
            outputs[current].append(line)
    failures = 0
    rel = os.path.relpath(page, source)
    for n, s in enumerate(todo):
        if s.kind != "run":
            continue
        where = f"{rel}:{s.line}: $ {s.command.splitlines()[0]}"
        if n not in statuses:
            print(f"FAIL {where}: did not finish (bash stderr: {done.stderr.strip()[-300:]})")
            failures += 1
            continue
        missing = matches(s.output_lines(), outputs[n])
        if statuses[n] != s.status() or missing is not None:
            failures += 1
            why = (f"exit status {statuses[n]}, expected {s.status()}" if statuses[n] != s.status()
                   else f"no line matching '{missing}'")
            print(f"FAIL {where}: {why}; it printed:")
            for line in outputs[n][-40:]:
                print("    " + line)
        else:
            print(f"ok   {where}")
    print(f"{rel}: {len([s for s in todo if s.kind == 'run'])} commands, {failures} failed, {took:.1f} s")
    if keep:
        print(f"scratch directory kept: {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failures else 0


def sh(text):
    return "'" + text.replace("'", "'\\''") + "'"


SELF_TEST_PAGES = {
    # page text -> the exit status run_page must return
    "<!-- haec-file: a.txt -->\n```\nhello world\n```\n\n<!-- haec-run -->\n```console\n"
    "$ cat a.txt\nhello ... world\n$ export X=1\n$ echo $X; \\\n  echo two\n1\ntwo\n"
    "$ false\n(exit status 1)\n```\n": 0,
    "<!-- haec-run -->\n```console\n$ echo one\nother\n```\n": 1,   # output that does not appear
    "<!-- haec-run -->\n```console\n$ echo a; echo b\nb\na\n```\n": 1,  # lines out of order
    "<!-- haec-run -->\n```console\n$ false\n```\n": 1,              # an unexpected exit status
    "no runnable block\n": 2,
}


def self_test(source, build):
    """Shows that the runner passes what it must and fails what it must."""
    wrong = []
    with tempfile.TemporaryDirectory() as d:
        for n, (text, want) in enumerate(SELF_TEST_PAGES.items()):
            page = os.path.join(d, f"page{n}.md")
            with open(page, "w") as f:
                f.write(text)
            got = run_page(page, source, build, False)
            if got != want:
                wrong.append(f"page {n}: exit {got}, expected {want}")
    print("self-test " + ("FAILED: " + "; ".join(wrong) if wrong else "passed"))
    return 1 if wrong else 0


def main():
    if sys.argv[1:2] == ["--self-test"] and len(sys.argv) == 4:
        return self_test(os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3]))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--keep", action="store_true", help="keep the scratch directory")
    ap.add_argument("page")
    a = ap.parse_args()
    return run_page(os.path.abspath(a.page), os.path.abspath(a.source), os.path.abspath(a.build), a.keep)


if __name__ == "__main__":
    sys.exit(main())
