#!/usr/bin/env bash
# Resilient link models (DOR_r, PNC_r, NCD_r) in real SMPI runs:
#  1. loss-free: every message of an uncontended ping-pong takes exactly Eq. (1)-(2) with the
#     resilient packet layout plus d_mpi, checked to 1 ps by the independent verifier
#     (tests/verify/verify_messages.py), for each protocol, both presets, HAEC box and torus;
#  2. under loss (p = 0.01 per link): times rise above the loss-free ones, and for the largest
#     messages NCD_r <= PNC_r <= DOR_r; the summary names preset, mode and loss;
#  3. loss from the links' bit error rate: a HAEC box whose wireless links have a BER slows exactly
#     the messages that cross wireless links;
#  4. sampled mode: same seed -> bit-identical messages.csv in replay; another seed differs; the
#     mean of the sampled times is near the expected-mode mean.
source "$(dirname "$0")/common.sh"
verify=(/usr/bin/python3 "$source_dir/tests/verify/verify_messages.py")
fail() { echo "FAIL: $*"; exit 1; }

pingpong() { # out platform np model extra...
  local out="$1" platform="$2" np="$3" model="$4"; shift 4
  "$haec" run --platform "$platform" --link "$model" --messages -np "$np" --out "$out" --quiet "$@" -- \
    "$build/bin/pingpong" 1048576 1
}

# 1. Loss-free reduction to Eq. (1)-(2), to the picosecond.
for model in dor_r pnc_r ncd_r; do
  pingpong "free-$model" haec-box:2x2x2 8 "$model" --cfg haec/link/loss:0
  echo -n "loss-free $model physical: "; "${verify[@]}" "free-$model" --network-times
done
pingpong free-paper torus:4x4x2,link-bw=9.375GBps,link-lat=1.27us 8 pnc_r --map random --seed 2 \
  --cfg haec/link/loss:0 --cfg haec/link/preset:paper --cfg haec/link/window:16
echo -n "loss-free pnc_r paper s_w=16: "; "${verify[@]}" free-paper --network-times

# 2. Under loss.
for model in dor_r pnc_r ncd_r; do
  pingpong "lossy-$model" torus:4x4x2 8 "$model" --cfg haec/link/loss:0.01
done
/usr/bin/python3 - <<'PY'
import csv, json, sys
def sizes(d):
    return {int(r["bytes"]): float(r["mean_transfer_s"]) for r in csv.DictReader(open(d + "/msg_sizes.csv"))}
free = sizes("free-dor_r")
t = {m: sizes("lossy-" + m) for m in ("dor_r", "pnc_r", "ncd_r")}
big = max(t["dor_r"])
d, p, n = (t[m][big] for m in ("dor_r", "pnc_r", "ncd_r"))
print(f"p=0.01, {big} B: DOR_r {d*1e6:.2f} us, PNC_r {p*1e6:.2f} us, NCD_r {n*1e6:.2f} us")
if not (n <= p <= d):
    sys.exit("FAIL: expected NCD_r <= PNC_r <= DOR_r for the largest message")
if not d > p * 1.001:
    sys.exit("FAIL: DOR_r should be clearly slower than PNC_r under loss")
s = json.load(open("lossy-ncd_r/summary.json"))
lp = s["link_params"]
if s["link_model"] != "ncd_r" or lp["preset"] != "physical" or lp["mode"] != "expected" or lp["loss"] != 0.01:
    sys.exit(f"FAIL: summary does not name the model's setup: {s['link_model']} {lp}")
PY
# The lossy times exceed the loss-free model: the verifier must reject them.
if "${verify[@]}" lossy-dor_r > /dev/null 2>&1; then fail "a lossy run passed the loss-free verifier"; fi

# 3. Loss from the links' BER: only routes with wireless hops slow down.
pingpong ber haec-box:2x2x2,wireless-ber=1e-6 8 dor_r
pingpong nober haec-box:2x2x2 8 dor_r
/usr/bin/python3 - <<'PY'
import csv, json, sys
def rows(d):
    return list(csv.DictReader(open(d + "/messages.csv")))
plat = json.load(open("ber/platform.json"))
a, b = rows("ber"), rows("nober")
if len(a) != len(b):
    sys.exit("FAIL: the two runs sent different messages")
slower = same = 0
for x, y in zip(a, b):
    tx, ty = float(x["model_time"]), float(y["model_time"])
    if x["src_node"] == x["dst_node"]:
        continue
    if tx > ty:
        slower += 1
    elif tx == ty:
        same += 1
    else:
        sys.exit(f"FAIL: a BER made a message faster: {x}")
# 8 ranks on 2x2x2: rank 0's peers on the other board (z differs) cross a wireless link.
if slower == 0 or same == 0:
    sys.exit(f"FAIL: expected wireless routes slower and optical ones unchanged: {slower} slower, {same} same")
print(f"BER 1e-6 on wireless links: {slower} messages slower, {same} (optical only) unchanged")
PY

# 4. Sampled mode: replay determinism and seeds.
"$haec" trace record --platform torus:4x4x2 -np 16 --out bt.trace --quiet --cfg smpi/simulate-computation:no -- "$build/bin/bt_like" --iters 4 > /dev/null
replay() { # out extra...
  local out="$1"; shift
  "$haec" run --platform torus:4x4x2 --link dor_r --replay bt.trace -np 16 --messages --out "$out" --quiet \
    --cfg haec/link/loss:0.02 "$@"
}
replay s1 --cfg haec/link/mode:sampled --cfg haec/link/seed:7
replay s2 --cfg haec/link/mode:sampled --cfg haec/link/seed:7
replay s3 --cfg haec/link/mode:sampled --cfg haec/link/seed:8
replay e1
cmp -s s1/messages.csv s2/messages.csv || fail "sampled mode with one seed is not bit-identical in replay"
if cmp -s s1/messages.csv s3/messages.csv; then fail "another seed gave the same sampled times"; fi
/usr/bin/python3 - <<'PY'
import csv, sys
def model(d):
    return [float(r["model_time"]) for r in csv.DictReader(open(d + "/messages.csv")) if r["src_node"] != r["dst_node"]]
s, e = model("s1"), model("e1")
ms, me = sum(s) / len(s), sum(e) / len(e)
spread = len(set(s))
print(f"sampled mean {ms*1e6:.3f} us vs expected mean {me*1e6:.3f} us over {len(s)} messages, {spread} distinct times")
if spread < 10:
    sys.exit("FAIL: sampled times do not vary")
if abs(ms - me) > 0.05 * me:
    sys.exit("FAIL: sampled mean is more than 5 % off the expected mean")
PY
echo "resilient runs: OK"
