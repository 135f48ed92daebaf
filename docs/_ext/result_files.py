"""The reference of result files, from what the code really writes.

Small real runs (SAMPLES) write every kind of result file into a scratch directory; their file
names, CSV headers and JSON keys are what the page lists. docs/reference/result_files.json says
what each file, column and key means. Both must agree: a file, column or key the runs wrote that
the catalogue does not describe, or one the catalogue describes that no run wrote (unless marked
"sampled": false with the reason), stops the build, naming it.
"""
import csv
import json
import os
import re
import shutil
import subprocess
import tempfile


class SampleError(Exception):
    pass


def _lu16(repo):
    return os.path.join(repo, "examples", "campaigns", "lu_like16", "trace.txt")


def _annotated_trace(repo, work):
    """The lu_like16 trace with a hardware-counter annotation before every computation, as
    `haec trace record --counters` writes them (a replay of it writes counters.csv)."""
    src_dir = os.path.dirname(_lu16(repo))
    dst = os.path.join(work, "counted")
    os.makedirs(dst)
    with open(_lu16(repo)) as f:
        names = [line.strip() for line in f if line.strip()]
    with open(os.path.join(dst, "trace.txt"), "w") as f:
        f.write("\n".join(names) + "\n")
    for name in names:
        with open(os.path.join(src_dir, name)) as f, open(os.path.join(dst, name), "w") as g:
            for line in f:
                parts = line.split()
                if len(parts) >= 3 and parts[1] == "compute":
                    flops = float(parts[2])
                    g.write(f"# {parts[0]} haec_counters PAPI_TOT_INS={int(flops * 2)} PAPI_L3_TCM={int(flops / 100)}\n")
                g.write(line)
    return os.path.join(dst, "trace.txt")


def _campaign_file(repo, work):
    path = os.path.join(work, "campaign.json")
    with open(path, "w") as f:
        json.dump({"trace": _lu16(repo), "run": {"power": True},
                   "axes": {"platform": ["cluster:2,preset=taurus"], "map": ["block-xyz", "xyz"]}}, f)
    return path


# Names that depend on the platform: a pstate's column, a platform.json link type.
GLOBAL_PLACEHOLDERS = {r"re:^pstate\d+_s$": "pstate<N>_s", r"re:^links\.\w+$": "links.<type>",
                       r"re:^collective_algorithms\.\w+$": "collective_algorithms.<collective>"}

# A two-host SimGrid cluster whose hosts carry SimGrid's own power properties.
XML_CLUSTER = """<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="h" suffix="" radical="0-1" speed="1Gf,0.5Gf" core="2" bw="1.25GBps" lat="1.5us">
    <prop id="wattage_per_state" value="90:100:150,90:95:120"/>
    <prop id="wattage_off" value="10"/>
  </cluster>
</platform>
"""


# Each sample: (group, directory it writes, the haec arguments, placeholders). A placeholder maps
# a value that depends on the sample (a host, an event, an axis) to the name the catalogue uses.
def samples(repo, build, work):
    lu16 = _lu16(repo)
    xml = os.path.join(work, "cluster.xml")
    with open(xml, "w") as f:
        f.write(XML_CLUSTER)
    return [
        ("run", "replay", ["run", "--platform", "haec-box:2x2x2", "--link", "dor", "--replay", lu16,
                           "--power-series", "--governor", "ondemand", "--messages", "--events",
                           "--snapshot-period", "1ms", "-q"], {}),
        ("run", "emulation", ["run", "--platform", xml, "-np", "2", "--power", "-q", "--",
                              os.path.join(build, "bin", "pingpong")], {}),
        ("run", "counters", ["run", "--platform", "haec-box:2x2x2", "--replay", _annotated_trace(repo, work), "-q"],
         {"re:PAPI_TOT_INS|PAPI_L3_TCM": "<EVENT>"}),
        ("run", "balance", ["run", "--platform", "cluster:4,cores=1", "--oversubscribe", "--replay", lu16,
                            "--balance", "greedy", "--every", "1", "--power", "-q"], {}),
        ("run", "resilient", ["run", "--platform", "haec-box:2x2x2", "--link", "pnc_r", "--replay", lu16,
                              "--governor", "lagrange", "-q"], {}),
        ("run", "routing", ["run", "--platform", "hierarchical:2x2x4,indirect=1", "--routing", "adaptive",
                            "--replay", lu16, "--governor", "performance", "--cfg", "smpi/allreduce:rdb", "-q"], {}),
        ("map", "map", ["map", "--platform", "haec-box:2x2x2", "-np", "16", "--map", "auto",
                        "--traffic", lu16], {}),
        ("campaign", "campaign", ["campaign", "run", _campaign_file(repo, work), "--jobs", "1"],
         {"platform": "<axis>", "map": "<axis>"}),
    ]


def _run(build, work, group, label, args):
    out = os.path.join(work, label)
    cmd = [os.path.join(build, "bin", "haec")] + args[:1]
    if group == "campaign":
        cmd += args[1:3] + ["--out", out] + args[3:]
    else:
        cmd += args[1:] + ["--out", out] if "--" not in args else \
            args[1:args.index("--")] + ["--out", out] + args[args.index("--"):]
    done = subprocess.run(cmd, cwd=work, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise SampleError(f"sample run '{label}' failed (exit {done.returncode}): {' '.join(cmd)}: "
                          f"{done.stderr.strip()[-400:]}")
    return out


def _fields(path, kind, placeholders):
    """The names a file carries: a CSV's header, a JSON object's top-level keys."""
    def named(name):
        for value, placeholder in placeholders.items():
            if value.startswith("re:"):
                name = re.sub(value[3:], placeholder, name)
            elif name == value:
                return placeholder
        return name

    if kind == "csv":
        with open(path, newline="") as f:
            header = next(csv.reader(f), [])
        return [named(h) for h in header]
    if kind == "json":  # the top-level keys, and one level into objects ("mapping.strategy")
        with open(path) as f:
            data = json.load(f)
        if not isinstance(data, dict):
            return []
        keys = []
        for k, v in data.items():
            keys.append(named(k))
            if isinstance(v, dict):
                keys += [named(f"{k}.{sub}") for sub in v]
        return keys
    return []


def _kind(name):
    return "csv" if name.endswith(".csv") else "json" if name.endswith(".json") else "text"


def _written_files(root, group):
    """Relative paths of what a sample wrote; a campaign's run directories and logs are
    represented by one of each."""
    found = []
    for dirpath, dirnames, files in os.walk(root):
        dirnames.sort()
        rel_dir = os.path.relpath(dirpath, root)
        if group == "campaign" and rel_dir.split(os.sep)[0] in ("runs", "logs"):
            continue
        found += [os.path.normpath(os.path.join(rel_dir, f)) for f in sorted(files)]
    if group == "campaign":
        if os.path.isdir(os.path.join(root, "runs")):
            found.append("runs/<id>/")
        if os.path.isdir(os.path.join(root, "logs")):
            found.append("logs/<id>.log")
    return found


def collect(repo, build):
    """{group: {file: set of fields}} over every sample."""
    work = tempfile.mkdtemp(prefix="haec-docs-samples-")
    try:
        written = {}
        for group, label, args, placeholders in samples(repo, build, work):
            out = _run(build, work, group, label, args)
            for rel in _written_files(out, group):
                fields = written.setdefault(group, {}).setdefault(rel, set())
                path = os.path.join(out, rel)
                if os.path.isfile(path):
                    fields.update(_fields(path, _kind(rel), {**GLOBAL_PLACEHOLDERS, **placeholders}))
        return written
    finally:
        shutil.rmtree(work, ignore_errors=True)


def check(catalogue, written):
    problems = []
    for group in catalogue["groups"]:
        gid = group["id"]
        seen = written.get(gid, {})
        described = {f["name"]: f for f in group["files"]}
        for name in seen:
            if name not in described:
                problems.append(f"{gid}: {name} is written but not described")
        for name, entry in described.items():
            if name not in seen:
                if entry.get("sampled", True):
                    problems.append(f"{gid}: {name} is described but no sample run wrote it "
                                    "(add a sample, or mark it \"sampled\": false with \"why\")")
                continue
            fields = entry.get("columns") or entry.get("keys") or {}
            for field in sorted(seen[name]):
                if field not in fields:
                    problems.append(f"{gid}: {name}: {field} is written but not described")
            optional = set(entry.get("not_sampled_fields", []))
            for field in fields:
                if field not in seen[name] and field not in optional:
                    problems.append(f"{gid}: {name}: {field} is described but no sample run wrote it")
    return problems


def render(catalogue, written):
    out = []
    for group in catalogue["groups"]:
        out += [f"## {group['title']}", "", group["intro"], ""]
        for entry in group["files"]:
            out += [f"### {entry['name']}", "", f"*Written*: {entry['when']}.", "", entry["what"], ""]
            fields = entry.get("columns") or entry.get("keys")
            if not fields:
                continue
            heading = "column" if "columns" in entry else "key"
            out += [f"| {heading} | meaning |", "|---|---|"]
            for field, meaning in fields.items():
                out.append(f"| `{field}` | {' '.join(meaning.split()).replace('|', chr(92) + '|')} |")
            out.append("")
    return "\n".join(out)


def page(build, catalogue_path, repo):
    with open(catalogue_path) as f:
        catalogue = json.load(f)
    written = collect(repo, build)
    problems = check(catalogue, written)
    if problems:
        raise SampleError(f"{os.path.relpath(catalogue_path, repo)} does not match what haec writes: "
                          + "; ".join(problems))
    return render(catalogue, written)


def dump(build, repo):
    """What the samples wrote, for whoever updates the catalogue: python3 result_files.py BUILD."""
    for group, files in collect(repo, build).items():
        for name, fields in sorted(files.items()):
            print(f"{group}\t{name}\t{','.join(sorted(fields))}")


if __name__ == "__main__":
    import sys
    dump(os.path.abspath(sys.argv[1]), os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
