"""The manual's reference pages, generated from the code's own tables.

  cli           every command and option: `haec --help-json` (the CLI11 definitions themselves)
  settings      every haec/... setting: `haec settings --format json` (the table the suite
                declares its SimGrid flags from and validates with)
  result-files  every result file and its columns: the files real runs write (sampled by
                result_files.py), described by docs/reference/result_files.json

Each function returns Markdown. Anything that cannot be generated stops the build with one line.
"""
import json
import os
import subprocess

import result_files

DOCS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(DOCS)


class GenerationError(Exception):
    pass


def default_build_dir():
    return os.environ.get("HAEC_BUILD_DIR", os.path.join(REPO, "build"))


def haec(build, *args):
    exe = os.path.join(build, "bin", "haec")
    if not os.access(exe, os.X_OK):
        raise GenerationError(f"{exe}: no haec executable; build first (scripts/build.sh) or set HAEC_BUILD_DIR")
    done = subprocess.run([exe, *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise GenerationError(f"haec {' '.join(args)}: exit {done.returncode}: {done.stderr.strip()}")
    return done.stdout


def cell(text):
    """A Markdown table cell: one line, pipes escaped."""
    return " ".join(str(text).split()).replace("|", "\\|")


def code(text):
    text = str(text)
    fence = "``" if "`" in text else "`"
    pad = " " if "`" in text else ""
    return f"{fence}{pad}{text}{pad}{fence}" if text else ""


# ---------------------------------------------------------------- command line

def option_label(o):
    if o["positional"]:
        return code(o["positional"].upper())
    names = ", ".join(code(n) for n in o["names"])
    return names if o["flag"] else names + " " + code(o["type"] or "VALUE")


def command_section(cmd, depth, out):
    out.append("#" * depth + " " + cmd["command"])
    out.append("")
    out.append(cmd["description"].replace("\n", " ").strip())
    out.append("")
    if cmd["manual_page"] not in ("index", "reference/cli"):
        out.append(f"How to use it: [{cmd['manual_title']}](../{cmd['manual_page']}.md).")
        out.append("")
    options = cmd["options"]
    if options:
        out.append("| option | default | description |")
        out.append("|---|---|---|")
        for o in options:
            required = " (required)" if o["required"] and not o["positional"] else ""
            out.append(f"| {option_label(o)} | {cell(code(o['default']))} | {cell(o['description'])}{required} |")
        out.append("")
    if cmd["passes_extra_arguments"]:
        out.append("Every other argument is passed on unchanged.")
        out.append("")
    for sub in cmd["subcommands"]:
        command_section(sub, min(depth + 1, 4), out)


def cli(build):
    tree = json.loads(haec(build, "--help-json"))
    out = []
    out.append(f"{cell(tree['description'])}. Every command ends its `--help` with the manual page to read.")
    out.append("")
    for sub in tree["subcommands"]:
        command_section(sub, 2, out)
    return "\n".join(out)


# ---------------------------------------------------------------- settings

def settings(build):
    rows = json.loads(haec(build, "settings", "--format", "json"))
    groups = {}
    for r in rows:
        parts = r["key"].split("/")
        group = "/".join(parts[:2]) if len(parts) > 2 else "haec"
        groups.setdefault(group, []).append(r)
    out = []
    for group in sorted(groups, key=lambda g: (g != "haec", g)):
        title = "General" if group == "haec" else group + "/..."
        out.append(f"## {title}")
        out.append("")
        out.append("| key | default | description |")
        out.append("|---|---|---|")
        for r in groups[group]:
            text = r["description"].rstrip(".") + "."
            if r["set_by_option_only"]:
                text += f" Set by `haec run {r['option']}` only." if r["option"] else " Set by `haec run` only."
            elif r["option"]:
                text += f" `haec run {r['option']}` sets it."
            if r["needs_text"]:
                text += f" Needs {r['needs_text']}."
            out.append(f"| {code(r['key'])} | {cell(code(r['default']))} | {cell(text)} |")
        out.append("")
    return "\n".join(out)


# ---------------------------------------------------------------- result files

def result_files_page(build):
    try:
        return result_files.page(build, os.path.join(DOCS, "reference", "result_files.json"), REPO)
    except result_files.SampleError as e:
        raise GenerationError(str(e)) from e


GENERATORS = {"cli": cli, "settings": settings, "result-files": result_files_page}
_cache = {}


def generate(name, build):
    if name not in GENERATORS:
        raise GenerationError(f"% haec-generated: {name}: unknown generator; use one of {', '.join(GENERATORS)}")
    if (name, build) not in _cache:
        _cache[(name, build)] = GENERATORS[name](os.path.abspath(build))
    return _cache[(name, build)]
