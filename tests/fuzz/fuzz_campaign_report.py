#!/usr/bin/env python3
"""Fuzzes `haec campaign report` (scripts/campaign_report.py) with Hypothesis (Debian: python3-hypothesis).

Each example is a campaign directory: a results.csv made of a header (ours, mutated, or none), rows
of cells drawn from what breaks CSV readers and plots (empty, text, NaN, inf, huge, negative and
fractional numbers, quotes, commas, line breaks, '$', non-UTF-8 bytes, ragged rows), or raw
bytes; and sometimes a `report` already there (a file, a link, a directory). The report either
writes report/index.html, or raises its one-line BadInput (status 2 or 3) and leaves no report and
no staging directory. Anything else (another exception, a traceback, two lines, a staging
directory left) is a finding: Hypothesis shrinks it and this script prints it.

    fuzz_campaign_report.py [--seconds 600] [--report-module scripts/campaign_report.py]

Prints the examples run, how many reached a complete report, the findings; exits 1 on a finding.
"""
import argparse
import collections
import contextlib
import csv
import importlib.util
import io
import os
import re
import shutil
import sys
import tempfile
import time
import traceback

try:
    import hypothesis.configuration
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import strategies as st
except ImportError:
    print("SKIP: python3-hypothesis is not installed (scripts/install-deps.sh installs it)")
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))


def load(path):
    spec = importlib.util.spec_from_file_location("campaign_report", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


NUMBERS = ["0", "1", "2", "4", "16", "0.001", "1e-9", "2.5", "-1", "-0.0", "nan", "NaN", "inf", "-inf", "1e301",
           "1e308", "1e309", "1e-320", "0x10", "1_000", " 3", "3 ", "", "abc"]
WORDS = ["done", "failed", "pending", "xyz", "block-xyz", "none", "dor", "cluster:2", "haec-box:2x2x2",
         "platform=cluster:2 np=4", "platform=fat-tree:2;4,4;1,2;1,2 seed=3", "$x^$", "_hidden", "a,b", 'q"q',
         "line\nbreak", "cr\rx", "\x00", "é", "\u2028", "\ufeff", "runs/a", "logs/a.log"]
cell = st.one_of(st.sampled_from(NUMBERS), st.sampled_from(WORDS), st.text(max_size=12),
                 st.floats(allow_nan=True, allow_infinity=True).map(repr), st.integers(-5, 10 ** 12).map(str))


@st.composite
def header(draw, fixed, clean):
    axes = draw(st.lists(st.sampled_from(["platform", "map", "np", "seed", "machine", "x y", "$a$", ""]),
                         max_size=3, unique=True))
    columns = fixed[:2] + axes + fixed[2:]
    mutation = "none" if clean else draw(st.sampled_from(["none"] * 4 + ["drop", "duplicate", "swap", "rename"]))
    if mutation == "drop" and len(columns) > 2:
        del columns[draw(st.integers(0, len(columns) - 1))]
    elif mutation == "duplicate":
        columns.insert(draw(st.integers(0, len(columns))), draw(st.sampled_from(columns)))
    elif mutation == "swap":
        i, j = draw(st.integers(0, len(columns) - 1)), draw(st.integers(0, len(columns) - 1))
        columns[i], columns[j] = columns[j], columns[i]
    elif mutation == "rename":
        columns[draw(st.integers(0, len(columns) - 1))] = draw(cell)
    return columns


PLAUSIBLE = {"status": ["done", "done", "done", "failed", "pending"], "ranks": ["1", "2", "4", "16"],
             "nodes": ["1", "2", "4", "8", "16", "256"], "nodes_used": ["1", "2", "4"],
             "makespan_s": ["0.001", "0.5", "3", "12.25", "1e-6", "2.291734"],
             "energy_j": ["", "0.5", "3.25", "1e3", "0"], "host_energy_j": ["", "0.25"], "link_energy_j": ["", "0.01"],
             "messages": ["", "4", "1200"], "bytes": ["", "8192"], "platform": ["cluster:2", "cluster:4", "haec-box:2x2x2",
             "fat-tree:2;4,4;1,2;1,2", "x.json"], "map": ["xyz", "block-xyz"], "machine": ["platform=cluster:2 np=4",
             "platform=haec-box:4x2x2 np=16", "map=xyz"], "np": ["2", "4", "16"], "seed": ["1", "2"],
             "mapping": ["xyz", "block-xyz", ""], "link_model": ["none", "dor", "pnc"], "transfer_hops": ["", "12"],
             "message_hops": ["", "3.5"], "pstate_switches": ["", "0", "7"], "migrations": ["", "2"],
             "governor": ["", "adagio"], "result_dir": ["runs/r", ""], "log": ["logs/r.log"]}


@st.composite
def row(draw, columns, index, clean):
    """Plausible rows (a finished run with numbers where they belong); unless `clean`, some cells wild."""
    wild = not clean and draw(st.integers(0, 99)) < 15
    fields = []
    for c in columns:
        if (wild and draw(st.booleans())) or (not clean and draw(st.integers(0, 99)) < 3):
            fields.append(draw(cell))
        elif c == "run":
            fields.append(f"r-{index}")
        else:
            fields.append(draw(st.sampled_from(PLAUSIBLE.get(c, ["", "x"]))))
    length = "same" if clean else draw(st.sampled_from(["same"] * 30 + ["short", "long"]))
    if length == "short" and fields:
        fields = fields[:draw(st.integers(0, len(fields) - 1))]
    elif length == "long":
        fields += draw(st.lists(cell, min_size=1, max_size=3))
    return fields


@st.composite
def results_csv(draw, fixed):
    kind = draw(st.sampled_from(["csv"] * 16 + ["bytes", "mangled"]))
    if kind == "bytes":
        return draw(st.binary(max_size=400))
    clean = draw(st.booleans())  # half the files are ours, as haec campaign run writes them
    columns = draw(header(fixed, clean))
    rows = [draw(row(columns, i, clean)) for i in range(draw(st.integers(0, 8)))]
    text = io.StringIO()
    writer = csv.writer(text, lineterminator=draw(st.sampled_from(["\n", "\r\n", "\r"])))
    writer.writerow(columns)
    for r in rows:
        writer.writerow(r)
    data = text.getvalue().encode("utf-8", "surrogatepass")
    if kind == "mangled" and data:  # a stray byte, a cut, a BOM
        at = draw(st.integers(0, len(data)))
        data = draw(st.sampled_from([data[:at] + bytes([draw(st.integers(0x80, 0xff))]) + data[at:], data[:at],
                                     b"\xef\xbb\xbf" + data, data[:at] + b'"' + data[at:]]))
    return data


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--report-module", default=os.path.join(HERE, "..", "..", "scripts", "campaign_report.py"))
    parser.add_argument("--reasons", action="store_true", help="print the most frequent refusals")
    args = parser.parse_args()
    # Hypothesis keeps caches in ./.hypothesis: in a directory of its own, removed at the end.
    home = tempfile.mkdtemp(prefix="fuzz-report-hypothesis-")
    hypothesis.configuration.set_hypothesis_home_dir(home)
    try:
        return fuzz(args)
    finally:
        shutil.rmtree(home, ignore_errors=True)


def fuzz(args):
    report = load(args.report_module)
    counts = {"examples": 0, "reports": 0, "accepted": 0, "refused": 0}
    reasons = collections.Counter()  # the kinds of refusal, for --reasons
    findings = []

    @settings(max_examples=200, deadline=None, database=None, phases=[Phase.generate, Phase.shrink],
              suppress_health_check=list(HealthCheck))
    @given(data=results_csv(report.FIXED), existing=st.sampled_from([None] * 6 + ["file", "link", "dir"]),
           checks_only=st.integers(0, 3))
    def one_campaign(data, existing, checks_only):
        """The whole report for a quarter of the examples; the checks of results.csv alone (10 times
        faster than matplotlib) for the others."""
        counts["examples"] += 1
        work = tempfile.mkdtemp(prefix="fuzz-report-")
        try:
            with open(os.path.join(work, "results.csv"), "wb") as f:
                f.write(data)
            final = os.path.join(work, "report")
            if existing == "file":
                open(final, "w").close()
            elif existing == "link":
                os.symlink("/nonexistent", final)
            elif existing == "dir":
                os.makedirs(final)
            err = io.StringIO()
            try:
                with contextlib.redirect_stderr(err):
                    if checks_only:
                        report.read_rows(os.path.join(work, "results.csv"))
                        report.check_target(work)
                        counts["accepted"] += 1
                        return
                    index = report.report(work)
            except report.BadInput as e:
                counts["refused"] += 1
                line = str(e)
                reasons[re.sub(r"'[^']*'", "'.'", line.split(": ", 1)[-1])[:60]] += 1
                assert e.status in (2, 3), e.status
                assert "\n" not in report.one_line(line) and len(report.one_line(line)) <= 200, line
                assert not os.path.isfile(os.path.join(final, "index.html")) or existing == "dir", "a report was written"
            else:
                counts["reports"] += 1
                assert os.path.isfile(index), "no index.html"
                assert os.path.isdir(final) and not os.path.islink(final)
            left = [n for n in os.listdir(work) if ".tmp-" in n]
            assert not left, f"staging directory left: {left}"
        finally:
            shutil.rmtree(work, ignore_errors=True)

    start = time.monotonic()
    rounds = 0
    while time.monotonic() - start < args.seconds:
        rounds += 1
        try:
            one_campaign()
        except Exception as e:  # Hypothesis re-raises the shrunk finding, having printed its input
            findings.append(f"{type(e).__name__}: {e}")
            print(f"FINDING {len(findings)}:", "".join(traceback.format_exception(e)), file=sys.stderr)
    elapsed = time.monotonic() - start
    print(f"fuzz_campaign_report: {counts['examples']} examples in {elapsed:.0f} s ({rounds} rounds of 200): "
          f"{counts['reports']} complete reports, {counts['accepted']} accepted by the checks alone, "
          f"{counts['refused']} refused in one line, {len(findings)} findings")
    if args.reasons:
        for reason, n in reasons.most_common(12):
            print(f"  {n:7d}  {reason}")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
