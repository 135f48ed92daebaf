#!/usr/bin/env bash
# The independent verifier (tests/verify/verify_messages.py) on result directories written by hand,
# with model times worked out by hand from docs/MODELS.md §3.1: it accepts them, and it rejects a model
# time 2 ps off, a wrong hop count, a routing option it must honour, and a wrong derived parameter.
# Needs only the source dir ($2); the build dir ($1) is not used.
source "$(dirname "$0")/common.sh"
verify=("$py" "$source_dir/tests/verify/verify_messages.py")

fail() { echo "FAIL: $*"; exit 1; }
expect() { # expected-exit dir [options...]: run the verifier and compare its exit status
  local want="$1" dir="$2"; shift 2
  local got=0
  "${verify[@]}" "$dir" "$@" > out.txt 2>&1 || got=$?
  if [ "$got" != "$want" ]; then
    cat out.txt
    fail "verifier on $dir $* exited $got, expected $want"
  fi
  echo "ok (exit $got): $dir $* -> $(tail -1 out.txt)"
}

# ---------------------------------------------------------------------------------------------
# haec-box 4x4x4, torus boards, aligned wireless, DOR, physical units.
#   optical  : 31.25e9 B/s, 10 ns  -> d_h = 100 + 288/31.25e9 (9.216) + 10 + 100  = 219.216 ns
#   wireless : 12.5e9 B/s, 100 ns  -> d_h = 100 + 288/12.5e9 (23.04) + 100 + 100  = 323.04 ns
#   DOR: L_p = 284 B, d_s = d_r = 200 ns, d_a = d_i = 50 ns.
#   tt(x) = d_s + sum d_h + (x-1) max d_h + (h-1) d_i + d_r;  ack = sum (d_h + d_a)
# 1. node-1-2-3 -> itself, 1000 B: h = 0, T = (200 + 200)/2                            = 200 ns
# 2. node-0-0-0 -> node-3-0-0, 0 B: x wraps (3 forward, 1 back): 1 optical hop; n_p = 1
#    tt(1) = 200 + 219.216 + 200 = 619.216; ack = 269.216                          T = 888.432 ns
# 3. node-0-0-0 -> node-2-1-1, 1420 B: x tie (2 either way) 2 + y 1 optical + 1 wireless = 4 hops;
#    n_p = 5, n_w = 1, n_r = 0. sum d_h = 3*219.216 + 323.04 = 980.688, max = 323.04
#    tt(5) = 200 + 980.688 + 4*323.04 + 3*50 + 200 = 2822.848; ack = 980.688 + 4*50 = 1180.688
#    no partial window: T = 2822.848 + 1180.688                                       = 4003.536 ns
# 4. node-1-1-0 -> node-1-1-3, 100000 B: 3 wireless hops; n_p = 353, n_w = 70, n_r = 3
#    tt(x) = 200 + 969.12 + (x-1)*323.04 + 100 + 200: tt(5) = 2761.28, tt(3) = 2115.2
#    ack = 969.12 + 150 = 1119.12
#    T = 70*2761.28 + 2115.2 + 71*1119.12 = 193289.6 + 2115.2 + 79457.52           = 274862.32 ns
mkdir box
cat > box/platform.json <<'EOF'
{
  "board": "torus",
  "dims": [4, 4, 4],
  "format": "haec-platform",
  "kind": "haec-box",
  "links": {
    "optical": {"bandwidth_Bps": 31250000000.0, "ber": 1e-12, "latency_s": 1e-08},
    "wireless": {"bandwidth_Bps": 12500000000.0, "ber": 1e-08, "latency_s": 1e-07}
  },
  "loopback": {"bandwidth_Bps": 100000000000.0, "latency_s": 1e-08},
  "node": {"cores": 8, "speeds_flops": [1000000000.0]},
  "spec": "haec-box:4x4x4",
  "version": 1,
  "wireless": "aligned"
}
EOF
cat > box/summary.json <<'EOF'
{"link_model": "dor",
 "link_params": {"packet_size": 288, "d_out": 1e-07, "d_in": 1e-07, "d_p": 6.25e-10, "window": 5,
                 "window_id": 4, "ff_symbol": 1, "units": "physical", "partial_window": "no-partial",
                 "smpi_envelope": 16, "payload": 284, "d_s": 2e-07, "d_r": 2e-07, "d_a": 5e-08}}
EOF
cat > box/messages.csv <<'EOF'
src_rank,dst_rank,src_node,dst_node,bytes,hops,start,end,model_time
0,1,node-1-2-3,node-1-2-3,1000,0,0,2e-07,2e-07
2,3,node-0-0-0,node-3-0-0,0,1,0.001,0.001000888432,8.88432e-07
4,5,node-0-0-0,node-2-1-1,1420,4,0.002,0.002004003536,4.003536e-06
6,7,node-1-1-0,node-1-1-3,100000,3,0.003,0.00327486232,0.00027486232
EOF
expect 0 box
expect 0 box --network-times
grep -q "^4 messages checked" out.txt || fail "expected 4 messages checked"

# Variants of the box directory: edit one thing, expect a verdict.
variant() { # name sed-expression file
  rm -rf "$1"; cp -r box "$1"; sed -i "$2" "$1/$3"
  cmp -s "box/$3" "$1/$3" && fail "variant $1 did not change $3"
  return 0
}
variant late2ps 's/,4.003536e-06$/,4.003538e-06/' messages.csv          # model_time + 2 ps
expect 1 late2ps
grep -q "line 4: node-0-0-0 -> node-2-1-1" out.txt || fail "offender line 4 not named"
variant late05ps 's/,4.003536e-06$/,4.0035365e-06/' messages.csv       # + 0.5 ps: within 1 ps
expect 0 late05ps
expect 1 late05ps --tolerance 1e-13
variant hops 's/^4,5,node-0-0-0,node-2-1-1,1420,4,/4,5,node-0-0-0,node-2-1-1,1420,5,/' messages.csv
expect 1 hops
grep -q "hops 5, the route has 4" out.txt || fail "wrong hop count not reported"
variant samenode 's/^0,1,node-1-2-3,node-1-2-3,1000,0,/0,1,node-1-2-3,node-1-2-3,1000,1,/' messages.csv
expect 1 samenode
variant network 's/,0.002004003536,/,0.002004003539,/' messages.csv     # end 3 ps late
expect 0 network                                                        # model times only
expect 1 network --network-times
# A mesh board does not wrap: message 2 takes 3 optical hops there.
variant meshboard 's/"board": "torus"/"board": "mesh"/' platform.json
expect 1 meshboard
grep -q "hops 1, the route has 3" out.txt || fail "mesh board route not used"
# Full wireless: message 3 goes straight to node-2-1-1 in 1 wireless hop.
variant fullwireless 's/"wireless": "aligned"/"wireless": "full"/' platform.json
expect 1 fullwireless
grep -q "hops 4, the route has 1" out.txt || fail "full wireless route not used"
# The literal Eq. (2) charges message 3 a partial window tt(0) and a second ack.
variant literal 's/"no-partial"/"seed-literal"/' summary.json
expect 1 literal
variant ds 's/"d_s": 2e-07/"d_s": 3e-07/' summary.json
expect 1 ds
grep -q "link_params.d_s" out.txt || fail "wrong d_s not reported"

# Unreadable or uncheckable input: exit 2.
variant nomodel 's/"link_model": "dor"/"link_model": "none"/' summary.json
expect 2 nomodel
variant badnode 's/node-3-0-0/node-4-0-0/' messages.csv                  # outside the 4x4x4 grid
expect 2 badnode
mkdir empty && cp box/summary.json box/platform.json empty/ && head -1 box/messages.csv > empty/messages.csv
expect 2 empty
expect 2 does-not-exist

# ---------------------------------------------------------------------------------------------
# cluster of 4 (older draft of platform.json: link_types list), PNC, byte-slip units.
#   cable 1.25e9 B/s, 1.5 us, byte-slip: s_p/(8 b) = 288/10e9 = 28.8 ns
#   d_h = 100 + 28.8 + 1500 + 100 = 1728.8 ns; 2 hops; ack = 2*(1728.8 + 50) = 3557.6
#   PNC: L_p = 279, d_s = 203.125, d_r = 215.625
#   tt(x) = 418.75 + 2*1728.8 + (x-1)*1728.8 + 50 = 3926.35 + (x-1)*1728.8; tt(5) = 10841.55
# 1. node-2 -> node-2, 64 B:                         T = (203.125 + 215.625)/2      = 209.375 ns
# 2. node-0 -> node-3, 1500 B: n_p = 6, n_w = 1, n_r = 1: 10841.55 + 3926.35 + 2*3557.6 = 21883.1 ns
# 3. node-1 -> node-0, 1395 B: n_p = 5, n_r = 0:      10841.55 + 3557.6               = 14399.15 ns
mkdir cl
cat > cl/platform.json <<'EOF'
{"kind": "cluster", "dims": [4, 1, 1],
 "link_types": [{"name": "cable", "bandwidth": 1250000000.0, "latency": 1.5e-06, "ber": 0}]}
EOF
cat > cl/summary.json <<'EOF'
{"link_model": "pnc",
 "link_params": {"packet_size": 288, "d_out": 1e-07, "d_in": 1e-07, "d_p": 6.25e-10, "window": 5,
                 "window_id": 4, "ff_symbol": 1, "units": "byte-slip", "partial_window": "no-partial"}}
EOF
cat > cl/messages.csv <<'EOF'
src_rank,dst_rank,src_node,dst_node,bytes,hops,start,end,model_time
0,1,node-2,node-2,64,0,1,1.000000209375,2.09375e-07
2,3,node-0,node-3,1500,2,0,2.18831e-05,2.18831e-05
4,5,node-1,node-0,1395,2,0.5,0.50001439915,1.439915e-05
EOF
expect 0 cl --network-times
rm -rf clphys && cp -r cl clphys && sed -i 's/"byte-slip"/"physical"/' clphys/summary.json
expect 1 clphys                                   # physical units: 201.6 ns more per hop and packet
echo "verifier self-test passed"
