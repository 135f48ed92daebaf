#!/usr/bin/python3
"""Opens pages of the built manual in headless Chromium and fails on what a reader would see
broken: a console message or uncaught exception, a resource that failed to load, an image that
does not decode, a link to a page or file of the manual that does not exist (or to an anchor the
page lacks). It also takes a screenshot of each page (a PNG must come back).

    check_browser.py HTML_DIR OUT_DIR PAGE.html...     e.g. index.html tutorials/index.html

Chromium is driven through its DevTools protocol over a pipe (--remote-debugging-pipe: JSON
messages separated by NUL bytes on file descriptors 3 and 4), so nothing but Debian's chromium
and Python's standard library is needed. Besides the pages opened, every HTML file of the manual
is checked for links and images that do not resolve (without the browser). Exit status: 0 when
everything resolves and nothing was logged, 1 otherwise, 77 (skip) when Chromium is missing.
"""
import base64
import html.parser
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse


class Browser:
    """Headless Chromium over --remote-debugging-pipe."""

    def __init__(self, chromium, profile):
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()
        flags = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
                 "--disable-extensions", "--allow-file-access-from-files", "--hide-scrollbars",
                 f"--user-data-dir={profile}", "--remote-debugging-pipe", "--window-size=1280,1600"]
        # bash puts the pipe ends where Chromium expects them: it reads fd 3, writes fd 4.
        self.proc = subprocess.Popen(
            ["bash", "-c", f'exec "$0" "$@" 3<&{to_chrome_r} 4>&{from_chrome_w}', chromium] + flags,
            pass_fds=(to_chrome_r, from_chrome_w), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.buffer, self.next_id, self.events = b"", 0, []

    def _read_message(self, deadline):
        while b"\0" not in self.buffer:
            if time.time() > deadline:
                raise TimeoutError("Chromium did not answer")
            chunk = os.read(self.from_chrome, 65536)
            if not chunk:
                raise RuntimeError("Chromium closed its pipe: " + self.proc.stderr.read().decode()[-500:])
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def send(self, method, params=None, session=None, timeout=60):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_chrome, json.dumps(message).encode() + b"\0")
        deadline = time.time() + timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, method, session, timeout=60):
        deadline = time.time() + timeout
        for i, e in enumerate(self.events):
            if e.get("method") == method and e.get("sessionId") == session:
                return self.events.pop(i)
        while True:
            e = self._read_message(deadline)
            if e.get("method") == method and e.get("sessionId") == session:
                return e
            self.events.append(e)

    def close(self):
        try:
            self.send("Browser.close", timeout=10)
        except (RuntimeError, TimeoutError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


PROBE = """(() => {
  const links = Array.from(document.querySelectorAll('a[href]')).map(a => a.href);
  const images = Array.from(document.images).map(i => ({src: i.src, ok: i.complete && i.naturalWidth > 0}));
  return JSON.stringify({links, images, title: document.title, text: document.body.innerText.length});
})()"""


def browse(browser, url, shot):
    """Problems seen while loading one page in Chromium."""
    target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    for domain in ("Page", "Runtime", "Log", "Network"):
        browser.send(f"{domain}.enable", session=session)
    browser.events.clear()
    browser.send("Page.navigate", {"url": url}, session=session)
    browser.wait_for("Page.loadEventFired", session)
    time.sleep(0.5)  # late scripts (search index, highlighting) get to log too
    result = json.loads(browser.send("Runtime.evaluate", {"expression": PROBE, "returnByValue": True},
                                     session=session)["result"]["value"])
    png = base64.b64decode(browser.send("Page.captureScreenshot", {"format": "png"}, session=session)["data"])
    with open(shot, "wb") as f:
        f.write(png)
    problems = []
    if not png.startswith(b"\x89PNG") or len(png) < 10000:
        problems.append(f"the screenshot is not a page ({len(png)} bytes)")
    if result["text"] < 200:
        problems.append(f"the page shows almost no text ({result['text']} characters)")
    for e in browser.events:
        if e.get("sessionId") != session:
            continue
        p = e.get("params", {})
        if e["method"] == "Runtime.consoleAPICalled":
            args = " ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", []))
            problems.append(f"console.{p.get('type')}: {args}")
        elif e["method"] == "Runtime.exceptionThrown":
            problems.append("exception: " + p.get("exceptionDetails", {}).get("text", ""))
        elif e["method"] == "Log.entryAdded":
            entry = p.get("entry", {})
            problems.append(f"log {entry.get('level')}: {entry.get('text')} {entry.get('url', '')}")
        elif e["method"] == "Network.loadingFailed":
            problems.append(f"failed to load: {p.get('errorText')} ({p.get('type')})")
    problems += [f"image does not decode: {i['src']}" for i in result["images"] if not i["ok"]]
    browser.send("Target.closeTarget", {"targetId": target})
    return problems, result


class Refs(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.refs, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "a" and a.get("href"):
            self.refs.append(a["href"])
        if tag in ("img", "script") and a.get("src"):
            self.refs.append(a["src"])
        if tag == "link" and a.get("href"):
            self.refs.append(a["href"])


def parsed(path, cache={}):
    if path not in cache:
        p = Refs()
        with open(path, encoding="utf-8") as f:
            p.feed(f.read())
        cache[path] = p
    return cache[path]


def broken_refs(html_dir):
    """Links, images, scripts and style sheets of every page that point at nothing."""
    problems = []
    for root, _, files in os.walk(html_dir):
        for name in files:
            if not name.endswith(".html"):
                continue
            page = os.path.join(root, name)
            for ref in parsed(page).refs:
                url = urllib.parse.urlsplit(ref)
                if url.scheme and url.scheme != "file":
                    continue  # external sites are not checked offline
                target = os.path.normpath(os.path.join(os.path.dirname(page), urllib.parse.unquote(url.path))) \
                    if url.path else page
                where = os.path.relpath(page, html_dir)
                if not os.path.exists(target):
                    problems.append(f"{where}: {ref}: no such file")
                elif url.fragment and target.endswith(".html") and url.fragment not in parsed(target).ids:
                    problems.append(f"{where}: {ref}: no anchor '{url.fragment}' there")
    return problems


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        return 2
    html_dir, out_dir, pages = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), sys.argv[3:]
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("SKIP: chromium is not installed (scripts/install-deps.sh installs it)")
        return 77
    os.makedirs(out_dir, exist_ok=True)
    problems = [f"static check: {p}" for p in broken_refs(html_dir)]
    profile = tempfile.mkdtemp(prefix="haec-docs-chromium-")
    browser = Browser(chromium, profile)
    try:
        for page in pages:
            path = os.path.join(html_dir, page)
            if not os.path.isfile(path):
                problems.append(f"{page}: not built")
                continue
            shot = os.path.join(out_dir, page.replace("/", "_").replace(".html", ".png"))
            found, result = browse(browser, "file://" + urllib.parse.quote(path), shot)
            problems += [f"{page}: {p}" for p in found]
            print(f"{page}: '{result['title']}', {len(result['links'])} links, {len(result['images'])} images, "
                  f"screenshot {os.path.relpath(shot, out_dir)}")
    finally:
        browser.close()
        shutil.rmtree(profile, ignore_errors=True)
    for p in problems:
        print("FAIL " + p)
    print(f"{len(pages)} pages opened, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
