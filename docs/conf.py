# Sphinx configuration of the haec-smpi manual (pages in Markdown, read by MyST).
# Build: cmake --build build --target docs (or sphinx-build -W -b html docs build/docs/html).
# The reference pages are generated while building from the haec executable of the build
# directory (HAEC_BUILD_DIR, default build/): see _ext/haec_reference.py.
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "_ext"))


def _project_version():
    """The version of CMakeLists.txt's project() line, so the manual and the code agree."""
    top = os.path.join(os.path.dirname(__file__), "..", "CMakeLists.txt")
    with open(top, encoding="utf-8") as f:
        m = re.search(r"project\(\s*\w+\s+VERSION\s+([0-9.]+)", f.read())
    return m.group(1) if m else "unknown"


project = "haec-smpi"
author = "the haec-smpi developers"
copyright = "the haec-smpi developers"
version = release = _project_version()

extensions = ["myst_parser", "haec_docs"]
source_suffix = {".md": "markdown"}
root_doc = "index"
# results/ holds measurement logs that pages include; incoming/ holds pages not yet merged.
exclude_patterns = ["results/**", "incoming/**", "tests/**", "_ext/**", "README.md"]

myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence", "deflist"]

html_theme = "alabaster"
html_title = f"haec-smpi {release} manual"
html_static_path = ["_static"]
html_css_files = ["haec.css"]
html_theme_options = {
    "description": "Time and energy of MPI applications on machines that do not exist yet",
    "fixed_sidebar": False,
    "page_width": "1200px",
    "sidebar_width": "260px",
}
html_sidebars = {"**": ["about.html", "navigation.html", "relations.html", "searchbox.html"]}
html_show_sourcelink = False
# "--routing" stays two hyphens (option names), not an en dash.
smartquotes = False
# Build dates would make two builds of the same sources differ.
html_last_updated_fmt = None
