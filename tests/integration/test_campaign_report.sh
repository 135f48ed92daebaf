#!/usr/bin/env bash
# haec campaign report: PNG plots and report/index.html from a 4-run campaign (2 cluster sizes x
# 2 mappings of the shipped lu_like trace, with energy), loaded in headless Chromium: a screenshot,
# every image decoded, no console error. Skips (exit 77) where Chromium is not installed.
source "$(dirname "$0")/common.sh"
chromium=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chromium" ] || { echo "SKIP: chromium is not installed (scripts/install-deps.sh installs it)"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
cp -r "$source_dir/examples/campaigns/lu_like16" .
cat > small.json <<'JSON'
{
  "trace": "lu_like16/trace.txt",
  "run": {"power": true},
  "axes": {"platform": ["cluster:2,preset=taurus", "cluster:4,preset=taurus"], "map": ["block-xyz", "xyz"]}
}
JSON
"$haec" campaign run small.json --out c --jobs 2 2> run.err || { cat run.err; fail "campaign failed"; }
"$haec" campaign report c > report.out || fail "report failed"
for png in time_vs_nodes energy_vs_nodes pareto; do
  [ -s "c/report/$png.png" ] || fail "no $png.png"
  grep -q "src=\"$png.png\"" c/report/index.html || fail "index.html does not show $png.png"
done
grep -q "<h2>Per mapping</h2>" c/report/index.html && grep -q "<h2>Per link model</h2>" c/report/index.html ||
  fail "tables missing"
[ "$(grep -c '<td>block-xyz</td>' c/report/index.html)" -ge 1 ] || fail "no block-xyz row"
[ "$(ls c | grep -c 'report.tmp')" -eq 0 ] || fail "staging directory left"

# Chromium: a screenshot of the page, then the page again with a probe that reports how many images
# it holds and how many did not decode; no other console message may appear.
flags=(--headless --no-sandbox --disable-gpu --enable-logging=stderr --v=0 --virtual-time-budget=5000)
timeout 120 "$chromium" "${flags[@]}" --window-size=1200,2400 --screenshot="$work/shot.png" \
  "file://$work/c/report/index.html" > shot.out 2> shot.err || fail "chromium screenshot failed: $(tail -3 shot.err)"
[ "$(stat -c %s shot.png)" -gt 20000 ] || fail "screenshot too small ($(stat -c %s shot.png) bytes)"
probe='<script>window.addEventListener("load",()=>{const i=[...document.images];const b=i.filter(x=>!(x.complete&&x.naturalWidth>0));console.log("PROBE images "+i.length+" broken "+b.length+" "+b.map(x=>x.src).join(" "));});</script>'
PROBE="$probe" /usr/bin/python3 -c 'import os, sys; sys.stdout.write(open(sys.argv[1]).read().replace("</body>", os.environ["PROBE"] + "</body>"))' \
  c/report/index.html > c/report/probe.html
timeout 120 "$chromium" "${flags[@]}" --dump-dom "file://$work/c/report/probe.html" > dom.out 2> probe.err ||
  fail "chromium failed: $(tail -3 probe.err)"
grep -q '"PROBE images 3 broken 0 "' probe.err || fail "broken images: $(grep CONSOLE probe.err)"
others=$(grep 'CONSOLE' probe.err | grep -v 'PROBE images' || true)
[ -z "$others" ] || fail "console messages: $others"
echo "report ok: 3 plots, tables, screenshot $(stat -c %s shot.png) bytes, no broken image, no console error"
