#!/usr/bin/python3
"""Write haec's manual pages (roff, section 1) from its command tree.

    man_pages.py HAEC OUT_DIR VERSION

Runs HAEC --help-json (tools/haec/cli_reference.cpp): the same command tree the manual's
reference page is built from. One page per command with its own options or
subcommands: haec.1 (the list of commands), haec-run.1, haec-trace.1 (its subcommands in one
page), haec-cc.1 (also what the one-word compiler haec-cc runs), ... Standard library only."""
import json
import os
import subprocess
import sys

ONE_WORD = {"haec cc", "haec cxx", "haec f77", "haec fc"}


def roff(text):
    """Text safe in a roff body line: one paragraph (roff fills it to the terminal's width), with
    backslashes, the hyphens of options, a leading dot or quote escaped."""
    text = " ".join(text.split()).replace("\\", "\\e").replace("-", "\\-")
    return "\\&" + text if text[:1] in (".", "'") else text


def page_name(command):
    return command["command"].replace(" ", "-")


def option_lines(option):
    names = ", ".join(option["names"]) or option["positional"]
    if not option["flag"]:
        names += " " + (option["type"] or "VALUE")
    text = option["description"]
    if option["default"] not in ("", "[]") and not option["flag"]:
        text += " (default: %s)" % option["default"]
    if option["required"]:
        text += " (required)"
    return [".TP", "\\fB%s\\fR" % roff(names), roff(text)]


def command_section(command):
    """The options of one command, or its arguments when it passes them on."""
    lines = []
    for option in command["options"]:
        lines += option_lines(option)
    if command["passes_extra_arguments"]:
        lines += [".TP", "\\fIARGS\\fR", "passed on unchanged (see the description)"]
    return lines


def manual_reference(command):
    return [".SH SEE ALSO", roff("The manual: %s (docs/%s.md of the source; in an installation, "
                                 "share/doc/haec-smpi/html/%s.html when it was built)."
                                 % (command["manual_title"], command["manual_page"], command["manual_page"])),
            roff("Every option: Reference > Command line (docs/reference/cli.md).")]


def page(command, version):
    name = page_name(command)
    summary = command["description"].removeprefix(name + ": ")  # the root's starts with "haec: "
    lines = ['.TH "%s" 1 "" "haec-smpi %s" "haec-smpi"' % (name.upper(), version), ".SH NAME",
             "%s \\- %s" % (roff(name), roff(summary.splitlines()[0].rstrip(".")))]
    usage = command["command"] + (" COMMAND [OPTIONS]" if command["subcommands"] else " [OPTIONS]")
    if command["passes_extra_arguments"]:
        usage += " ARGS"
    lines += [".SH SYNOPSIS", "\\fB%s\\fR" % roff(usage)]
    if command["command"] in ONE_WORD:
        lines += [".br", "\\fB%s\\fR" % roff(name + " ARGS")]
    lines += [".SH DESCRIPTION", roff(summary) + "."]
    if name == "haec":
        lines += [".PP", roff("Each command has its own page (below) and its --help.")]
    if command["command"] in ONE_WORD:
        lines += [".PP", roff("%s is the same command in one word (a link to haec), for build systems that "
                              "take one compiler command: CC=haec-cc, CMAKE_C_COMPILER=haec-cc, ..." % name)]
    if command["options"] or command["passes_extra_arguments"]:
        lines += [".SH OPTIONS"] + command_section(command)
    for sub in command["subcommands"]:
        if command["command"] == "haec":
            continue
        lines += [".SH %s" % roff(sub["command"].upper()), roff(sub["description"]) + "."]
        lines += command_section(sub)
    if command["command"] == "haec":
        lines += [".SH COMMANDS"]
        for sub in command["subcommands"]:
            lines += [".TP", "\\fB%s\\fR(1)" % roff(page_name(sub)), roff(sub["description"])]
    return "\n".join(lines + manual_reference(command)) + "\n"


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: man_pages.py HAEC OUT_DIR VERSION")
    tree = json.loads(subprocess.run([sys.argv[1], "--help-json"], check=True, capture_output=True, text=True).stdout)
    out = os.path.join(sys.argv[2], "man1")
    os.makedirs(out, exist_ok=True)
    for command in [tree] + tree["subcommands"]:
        with open(os.path.join(out, page_name(command) + ".1"), "w") as f:
            f.write(page(command, sys.argv[3]))


if __name__ == "__main__":
    main()
