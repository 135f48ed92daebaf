"""Sphinx extension of the haec-smpi manual.

A page line `% haec-generated: NAME` is replaced, when Sphinx reads the page, by the Markdown that
haec_reference.generate(NAME) produces from the code's own tables (the haec executable's
--help-json and `settings --format json`, and the files real runs write). Such pages are read
again on every build, so the reference always describes the executable it was built from.
"""
import re

import haec_reference

MARKER = re.compile(r"^% haec-generated: ([a-z-]+)[ \t]*$", re.M)


def _expand(app, docname, source):
    text = source[0]
    if not MARKER.search(text):
        return
    app.env.haec_generated_docs = getattr(app.env, "haec_generated_docs", set()) | {docname}
    source[0] = MARKER.sub(lambda m: haec_reference.generate(m.group(1), app.config.haec_build_dir), text)


def _always_outdated(app, env, added, changed, removed):
    return sorted(getattr(env, "haec_generated_docs", set()) - set(removed))


def setup(app):
    app.add_config_value("haec_build_dir", haec_reference.default_build_dir(), "env")
    app.connect("source-read", _expand)
    app.connect("env-get-outdated", _always_outdated)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
