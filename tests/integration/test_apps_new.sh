#!/usr/bin/env bash
# stencil_imbalance and bt_like (apps/README.md) under `haec run`: hand-computed message counts,
# compute per rank and simulated times; bit-identical reruns in flops mode; the same field for
# any decomposition of one domain (halo exchange), over-decomposed (64 ranks on 16 nodes) too;
# the border imbalance priced by the power plugin as busy time (idle 50/25/0 %, thesis 002
# Table 9.2); the moving hotspot's symmetry; the OpenMPI builds agree; bad arguments fail in one line.
# Usage: test_apps_new.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
BUILD=${1:?usage: $0 BUILD_DIR SOURCE_DIR}
SRC=${2:?usage: $0 BUILD_DIR SOURCE_DIR}
HAEC=$BUILD/bin/haec
ST=$BUILD/bin/stencil_imbalance
BT=$BUILD/bin/bt_like
PY=/usr/bin/python3
fail() { echo "FAIL: $*" >&2; exit 1; }
for f in "$HAEC" "$ST" "$BT"; do [[ -x $f ]] || fail "$f not built"; done

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
TAURUS16=cluster:16,preset=taurus # 2.3 Gf nodes

# run NAME HAEC-RUN-ARGS... : haec run into $TMP/NAME, must succeed.
# Flops mode: only the injected flops cost simulated time (apps/cost_injection.h); real mode measures.
run() {
  local name=$1
  shift
  local flops=(--cfg smpi/simulate-computation:no)
  [[ " $* " == *" --mode real "* ]] && flops=()
  "$HAEC" run -q --out "$TMP/$name" "${flops[@]}" "$@" > "$TMP/$name.log" 2>&1 || { cat "$TMP/$name.log" >&2; fail "haec run $name"; }
}
# final NAME APP: the app's last line ("APP iterations=..."), exactly one.
final() {
  local n
  n=$(grep -c "^$2 iterations=" "$TMP/$1/stdout.txt" || true)
  [[ $n == 1 ]] || { cat "$TMP/$1/stdout.txt" >&2; fail "$1: $n final lines"; }
  grep "^$2 iterations=" "$TMP/$1/stdout.txt"
}
val() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<< "$2"; }
# near A B RELTOL WHAT
near() {
  "$PY" -c "import sys; a,b,t=map(float,sys.argv[1:4]); sys.exit(0 if abs(a-b)<=t*abs(b) else 1)" "$1" "$2" "$3" ||
    fail "$4: $1, expected $2 (rel. tol. $3)"
}

# ---- 1. stencil_imbalance defaults, 16 ranks / 100 iterations, twice: bit-identical -------------
run st_a --platform $TAURUS16 -np 16 -- "$ST" --iters 100 --report
run st_b --platform $TAURUS16 -np 16 -- "$ST" --iters 100 --report
a=$(final st_a stencil_imbalance)
b=$(final st_b stencil_imbalance)
[[ $a == "$b" ]] || fail "flops mode not reproducible: '$a' vs '$b'"
cmp -s <(grep makespan_s "$TMP/st_a/summary.json") <(grep makespan_s "$TMP/st_b/summary.json") ||
  fail "makespan_s differs between identical runs"
grep -qx '# stencil_imbalance ranks=16 grid=4x4 block=128x128 halo=2 pattern=ondes3d mode=flops cost=smpi_execute_flops iterations=100 flops_per_cell=70000' \
  "$TMP/st_a/stdout.txt" || fail "header: $(head -1 "$TMP/st_a/stdout.txt")"
# Halo messages: 2 layers x 128 cells x 8 B = 2048 B; 48 directed neighbour pairs in a 4x4 grid,
# two exchanges per iteration plus the initial one: 48 x (2 x 100 + 1) = 9648.
"$PY" - "$TMP/st_a/msg_sizes.csv" <<'EOF' || fail "stencil halo messages"
import csv, sys
rows = {int(r["bytes"]): int(r["count"]) for r in csv.DictReader(open(sys.argv[1]))}
assert rows.get(2048) == 9648, rows
EOF
# Default imbalance: border faces dominate (every corner above every interior rank), geology and
# drift make ranks of the same kind differ; the summary line agrees with the per-rank lines.
"$PY" - "$TMP/st_a/stdout.txt" <<'EOF' || fail "default imbalance statistics"
import re, sys
text = open(sys.argv[1]).read()
ranks = [(int(f), float(c)) for f, c in re.findall(r"^rank=\d+ coords=\S+ border_faces=(\d) geology=\S+ compute_flops=(\S+)$", text, re.M)]
assert len(ranks) == 16, ranks
m = re.search(r"^stencil_imbalance compute_flops min=(\S+) max=(\S+) mean=(\S+) max_over_min=(\S+)$", text, re.M)
lo, hi, mean, ratio = map(float, m.groups())
fl = [c for _, c in ranks]
assert abs(lo - min(fl)) <= 1e-6 * lo and abs(hi - max(fl)) <= 1e-6 * hi and abs(mean - sum(fl) / 16) <= 1e-6 * mean
assert ratio > 1.3, ratio
corners = [c for f, c in ranks if f == 2]
inner = [c for f, c in ranks if f == 0]
assert len(corners) == 4 and len(inner) == 4 and min(corners) > max(inner)
assert len(set(round(c, -3) for c in corners)) == 4, corners  # geology/drift differ per rank
print(f"default imbalance: min {lo:.4e} max {hi:.4e} mean {mean:.4e} max/min {ratio:.4f}")
EOF
echo "ok: stencil_imbalance defaults reproducible (16 ranks x 100 iterations)"

# ---- 2. border only, hand-computed, with the power plugin's busy times --------------------------
# 20 iterations x 16384 cells x 70000 flops = 2.29376e10 flops x (1 + 0.5 faces): interior 1,
# edges 1.5, corners 2. Corners bound the run: 20 x 2 x 1.14688e9 / 2.3e9 = 19.945739 s.
run st_border --platform $TAURUS16 -np 16 --power -- "$ST" --iters 20 --geology 0 --drift 0 --border 0.5 --report
line=$(final st_border stencil_imbalance)
t=$(val time_s "$line")
"$PY" -c "import sys; t=float(sys.argv[1]); e=40*1.14688e9/2.3e9; sys.exit(0 if e <= t <= e*1.001 else 1)" "$t" ||
  fail "border-only time_s $t, expected 19.945739 s + communication (< 0.1 %)"
grep -qx 'stencil_imbalance compute_flops min=2.293760e+10 max=4.587520e+10 mean=3.440640e+10 max_over_min=2.000000' \
  "$TMP/st_border/stdout.txt" || fail "border-only statistics: $(grep compute_flops\ min "$TMP/st_border/stdout.txt")"
"$PY" - "$TMP/st_border" <<'EOF' || fail "busy/idle per host"
import csv, re, sys
d = sys.argv[1]
hosts = [l.strip() for l in open(d + "/hostfile") if l.strip()]
flops = {int(r): (int(f), float(c)) for r, f, c in re.findall(r"^rank=(\d+) coords=\S+ border_faces=(\d) geology=\S+ compute_flops=(\S+)$", open(d + "/stdout.txt").read(), re.M)}
rows = {r["host"]: r for r in csv.DictReader(open(d + "/hosts.csv"))}
expect_idle = {0: 50.0, 1: 25.0, 2: 0.0}
for rank, (faces, f) in flops.items():
    h = rows[hosts[rank]]
    busy = float(h["busy_s"])
    assert abs(busy * 2.3e9 - f) <= 1e-6 * f, (rank, busy, f)         # injected flops = busy time
    assert abs(float(h["idle_pct"]) - expect_idle[faces]) < 1.0, (rank, h["idle_pct"])
EOF
echo "ok: border imbalance hand-computed; busy = injected flops; idle 50/25/0 % (Table 9.2 shape)"

# ---- 3. uniform: every rank the same, time = iterations x cells x flops / speed ----------------
run st_uni --platform $TAURUS16 -np 16 -- "$ST" --iters 10 --pattern uniform --report
line=$(final st_uni stencil_imbalance)
t=$(val time_s "$line")
"$PY" -c "import sys; t=float(sys.argv[1]); e=10*1.14688e9/2.3e9; sys.exit(0 if e <= t <= e*1.001 else 1)" "$t" ||
  fail "uniform time_s $t, expected 4.986435 s + communication"
grep -q 'max_over_min=1.000000$' "$TMP/st_uni/stdout.txt" || fail "uniform pattern is not uniform"
echo "ok: uniform pattern"

# ---- 4. hotspot: at iteration 0 the hot point is at (0.8, 0.5), nearest to ranks 13 and 14
# (centres (0.875, 0.375), (0.875, 0.625)): 1.14688e9 x (1 + 2 exp(-0.02125 / (2 x 0.15^2))).
# It circles the centre once per period; over whole periods the 4x4 grid's symmetry gives equal
# totals to the 4 corners and to the 4 interior ranks, and the interior is hotter.
run st_hot0 --platform $TAURUS16 -np 16 -- "$ST" --iters 1 --pattern hotspot --geology 0 --report
run st_hot --platform $TAURUS16 -np 16 -- "$ST" --iters 40 --drift-period 20 --pattern hotspot --geology 0 --report
"$PY" - "$TMP/st_hot0/stdout.txt" "$TMP/st_hot/stdout.txt" <<'EOF' || fail "hotspot pattern"
import math, re, sys
def ranks(path):
    return [(int(r), int(f), float(c)) for r, f, c in re.findall(r"^rank=(\d+) coords=\S+ border_faces=(\d) geology=\S+ compute_flops=(\S+)$", open(path).read(), re.M)]
snap = ranks(sys.argv[1])
hot = 1.14688e9 * (1 + 2 * math.exp(-0.02125 / (2 * 0.15**2)))
top = sorted(snap, key=lambda x: -x[2])[:2]
assert sorted(r for r, _, _ in top) == [13, 14], top
assert all(abs(c - hot) <= 1e-6 * hot for _, _, c in top), (top, hot)
tot = ranks(sys.argv[2])
corners = [c for _, f, c in tot if f == 2]
inner = [c for _, f, c in tot if f == 0]
for group in (corners, inner):
    assert max(group) - min(group) <= 1e-9 * max(group), group
assert inner[0] > 1.2 * corners[0], (inner, corners)
EOF
echo "ok: hotspot pattern"

# ---- 5. one domain, any decomposition: same checksum (the halos are right); 64 ranks on 16 nodes
run d2_4 --platform $TAURUS16 -np 4 -- "$ST" --iters 10 --size 4096            # 2x2 of 64^2
run d2_16 --platform $TAURUS16 -np 16 -- "$ST" --iters 10 --size 1024          # 4x4 of 32^2
run d2_64 --platform $TAURUS16,cores=1 -np 64 --oversubscribe -- "$ST" --iters 10 --size 256   # 8x8 of 16^2, 4 per node
run d3_8 --platform $TAURUS16 -np 8 -- "$ST" --iters 10 --dims 3 --size 4096   # 2x2x2 of 16^3
run d3_64 --platform $TAURUS16,cores=1 -np 64 --oversubscribe -- "$ST" --iters 10 --dims 3 --size 512 # 4x4x4 of 8^3
grep -q ' grid=8x8 block=16x16 ' "$TMP/d2_64/stdout.txt" || fail "64-rank 2-D header"
grep -q ' grid=4x4x4 block=8x8x8 ' "$TMP/d3_64/stdout.txt" || fail "64-rank 3-D header"
[[ $(grep -c . "$TMP/d2_64/hostfile") == 64 && $(sort -u "$TMP/d2_64/hostfile" | wc -l) == 16 ]] ||
  fail "64 ranks should share 16 nodes"
c4=$(val checksum "$(final d2_4 stencil_imbalance)")
near "$(val checksum "$(final d2_16 stencil_imbalance)")" "$c4" 1e-12 "2-D checksum, 16 ranks vs 4"
near "$(val checksum "$(final d2_64 stencil_imbalance)")" "$c4" 1e-12 "2-D checksum, 64 ranks vs 4"
c8=$(val checksum "$(final d3_8 stencil_imbalance)")
near "$(val checksum "$(final d3_64 stencil_imbalance)")" "$c8" 1e-12 "3-D checksum, 64 ranks vs 8"
# real mode: the cost is a real loop (measured), the field is the same
run d2_4r --platform $TAURUS16 -np 4 -- "$ST" --iters 10 --size 4096 --mode real --flops-per-cell 5
grep -q ' mode=real cost=real-loop ' "$TMP/d2_4r/stdout.txt" || fail "real mode header"
[[ $(val checksum "$(final d2_4r stencil_imbalance)") == "$c4" ]] || fail "real mode changed the field"
echo "ok: same field for 4/16/64 ranks (2-D) and 8/64 ranks (3-D), flops and real modes"

# ---- 6. bt_like --------------------------------------------------------------------------------
# 2x2x2: per dimension 4 rank pairs, each carrying 4 chunks forward (11760 B) and 4 back (1960 B)
# per iteration: 3 x 4 x 4 x 10 = 480 each; rare 204800 B at iteration 10: 12 pairs x 2 = 24.
# Time: a stage is 0.75 x 5e7 / 24 flops = 1.5625 ms at 1 Gf; a 2-rank pipeline of 4 chunks takes
# 2 x 4 + 2 stages per direction pair, so an iteration is 12.5 ms (rhs) + 3 x 10 x 1.5625 ms.
run bt_a --platform haec-box:2x2x2 -np 8 -- "$BT" --iters 10
run bt_b --platform haec-box:2x2x2 -np 8 -- "$BT" --iters 10
a=$(final bt_a bt_like)
[[ $a == "$(final bt_b bt_like)" ]] || fail "bt_like not reproducible"
[[ $(val messages_large "$a") == 480 && $(val messages_small "$a") == 480 && $(val messages_rare "$a") == 24 ]] ||
  fail "bt_like counts: $a"
"$PY" - "$TMP/bt_a/msg_sizes.csv" <<'EOF' || fail "bt_like msg_sizes.csv"
import csv, sys
rows = {int(r["bytes"]): int(r["count"]) for r in csv.DictReader(open(sys.argv[1]))}
assert rows.get(11760) == 480 and rows.get(1960) == 480 and rows.get(204800) == 24, rows
EOF
t=$(val time_s "$a")
"$PY" -c "import sys; t=float(sys.argv[1]); e=10*(0.0125+30*0.0015625); sys.exit(0 if e <= t <= e*1.001 else 1)" "$t" ||
  fail "bt_like time_s $t, expected 0.59375 s + communication"
# square 2-D: 4x4, 2 dims x 12 pairs x 4 chunks x 10 = 960; rare every 5th: 24 pairs x 2 x 2 = 96
run bt_2d --platform haec-box:4x4x1 -np 16 -- "$BT" --iters 10 --dims 2 --rare-every 5
l=$(final bt_2d bt_like)
[[ $(val messages_large "$l") == 960 && $(val messages_small "$l") == 960 && $(val messages_rare "$l") == 96 ]] ||
  fail "bt_like 2-D counts: $l"
echo "ok: bt_like counts, time, reproducible"

# ---- 7. OpenMPI builds: warning-free, same numbers as under SMPI -------------------------------
if command -v mpicc > /dev/null && command -v mpirun > /dev/null; then
  for app in stencil_imbalance bt_like; do
    mpicc -O2 -Wall -Wextra -Werror -o "$TMP/$app" "$SRC/apps/$app.c" -lm 2> "$TMP/$app.cc.log" ||
      { cat "$TMP/$app.cc.log" >&2; fail "mpicc $app"; }
  done
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_rmaps_base_oversubscribe=1
  MPIRUN=(timeout 120 mpirun --allow-run-as-root --oversubscribe)
  "${MPIRUN[@]}" -np 4 "$TMP/stencil_imbalance" --iters 10 --size 4096 --flops-per-cell 1 > "$TMP/o_st.out" 2> "$TMP/o_st.err" ||
    { cat "$TMP/o_st.err" >&2; fail "OpenMPI stencil_imbalance"; }
  grep -q ' cost=real-loop ' "$TMP/o_st.out" || fail "OpenMPI build should fall back to the real loop"
  near "$(val checksum "$(grep '^stencil_imbalance iterations=' "$TMP/o_st.out")")" "$c4" 1e-12 "OpenMPI stencil checksum"
  "${MPIRUN[@]}" -np 8 "$TMP/bt_like" --iters 10 --flops-per-iter 1000 > "$TMP/o_bt.out" 2> "$TMP/o_bt.err" ||
    { cat "$TMP/o_bt.err" >&2; fail "OpenMPI bt_like"; }
  o=$(grep '^bt_like iterations=' "$TMP/o_bt.out")
  near "$(val checksum "$o")" "$(val checksum "$a")" 1e-12 "OpenMPI bt_like checksum"
  [[ $(val messages_large "$o") == 480 && $(val messages_rare "$o") == 24 ]] || fail "OpenMPI bt_like counts: $o"
  # bad arguments: only rank 0 reports, in one line
  if "${MPIRUN[@]}" -np 4 "$TMP/stencil_imbalance" --iters 0 > /dev/null 2> "$TMP/o_bad.err"; then
    fail "OpenMPI stencil_imbalance --iters 0 succeeded"
  fi
  [[ $(grep -c '^stencil_imbalance: error: ' "$TMP/o_bad.err") == 1 ]] || { cat "$TMP/o_bad.err" >&2; fail "one error line expected"; }
  echo "ok: OpenMPI builds agree"
else
  echo "skip: OpenMPI part (no mpicc/mpirun)"
fi

# ---- 8. bad arguments: non-zero exit, one line naming the problem, no result directory ---------
bad() {
  local app=$1 pattern=$2
  shift 2
  if "$HAEC" run -q --platform cluster:4 -np 4 --out "$TMP/bad" -- "$BUILD/bin/$app" "$@" > "$TMP/bad.out" 2> "$TMP/bad.err"; then
    fail "$app $* succeeded"
  fi
  [[ $(wc -l < "$TMP/bad.err") == 1 ]] || { cat "$TMP/bad.err" >&2; fail "$app $*: one line expected"; }
  grep -q "$app: error: $pattern" "$TMP/bad.err" || { cat "$TMP/bad.err" >&2; fail "$app $*: expected '$pattern'"; }
  [[ ! -e $TMP/bad ]] || fail "$app $*: left a result directory"
}
bad stencil_imbalance "--iters must be an integer in \[1, " --iters 0
bad stencil_imbalance "--pattern must be ondes3d, hotspot or uniform, got 'sunny'" --pattern sunny
bad stencil_imbalance "--dims must be an integer in \[2, 3\], got '4'" --dims 4
bad stencil_imbalance "--geology must be a number in \[0, 1), got '1.5'" --geology 1.5
bad stencil_imbalance "--mode must be flops or real" --mode fast
bad stencil_imbalance "unknown option '--itres'" --itres 5
bad stencil_imbalance "--seed needs a value" --seed
bad bt_like "--iters must be an integer in \[1, " --iters 0
bad bt_like "--chunks must be an integer in \[1, 64\], got '0'" --chunks 0
bad bt_like "unknown option '--big'" --big 5
echo "ok: bad arguments"
echo PASS
