#!/usr/bin/env bash
# haec trace export (result directory -> OTF2, read back with otf2-print) and haec trace import
# (an OTF2 archive written here with libotf2 by trace_otf2_gen.c -> TI trace, hand-computed lines,
# replayed), plus their bad inputs (one line, exit 2, nothing left behind).
source "$(dirname "$0")/common.sh"
command -v otf2-print > /dev/null || { echo "FAIL: otf2-print missing (apt install otf2-tools / libopen-trace-format2-dev)"; exit 1; }

# --- export: lu_like on one rank per node, with messages and power
"$haec" run --platform haec-box:2x2x1 --map xyz --link dor -np 4 --events --messages --power-series --out run --quiet \
  -- "$build/bin/lu_like" 2
"$haec" trace export run --out otf > export.out
otf2-print otf/traces.otf2 > print.txt 2> print.err
[ ! -s print.err ] || { echo "FAIL: otf2-print warns: $(head -2 print.err)"; exit 1; }
enters=$(grep -c ",enter," run/events.csv); leaves=$(grep -c ",exit," run/events.csv)
msgs=$(awk -F, 'NR>1 && $1>=0 && $2>=0' run/messages.csv | wc -l)
watts=$(($(grep -c . run/power.csv) - 1))
[ "$(grep -c "^ENTER " print.txt)" -eq "$enters" ] || { echo "FAIL: ENTER $(grep -c "^ENTER " print.txt) vs $enters"; exit 1; }
[ "$(grep -c "^LEAVE " print.txt)" -eq "$leaves" ] || { echo "FAIL: LEAVE count"; exit 1; }
[ "$msgs" -gt 0 ] && [ "$(grep -c "^MPI_SEND " print.txt)" -eq "$msgs" ] && [ "$(grep -c "^MPI_RECV " print.txt)" -eq "$msgs" ] ||
  { echo "FAIL: MPI_SEND/RECV $(grep -c "^MPI_SEND " print.txt) vs $msgs messages"; exit 1; }
[ "$(grep -c "^METRIC " print.txt)" -eq "$watts" ] || { echo "FAIL: METRIC $(grep -c "^METRIC " print.txt) vs $watts"; exit 1; }
# The first message: same bytes and start time (picosecond ticks) as messages.csv.
first=$(awk -F, 'NR>1 && $1>=0 && $2>=0 {print $1, $2, $5, $7; exit}' run/messages.csv)
read -r src dst bytes start <<< "$first"
ticks=$(/usr/bin/python3 -c "print(round($start * 1e12))")
grep -E "^MPI_SEND +$src +$ticks .*Receiver: $dst.*Length: $bytes" print.txt > /dev/null ||
  { echo "FAIL: first message ($first, $ticks ticks) not found"; grep "^MPI_SEND" print.txt | head -2; exit 1; }
otf2-print -G otf/traces.otf2 > defs.txt 2> defs.err
grep -q 'REGION .*Name: "MPI_Recv"' defs.txt || { echo "FAIL: region MPI_Recv not defined"; exit 1; }
grep -q 'METRIC_MEMBER .*Name: "power"' defs.txt || { echo "FAIL: power metric not defined"; exit 1; }
[ ! -s defs.err ] || { echo "FAIL: otf2-print warns: $(head -2 defs.err)"; exit 1; }

# --- import: hand-written archive
cc -O1 -o gen "$source_dir/tests/integration/trace_otf2_gen.c" $(pkg-config --cflags --libs otf2)
./gen arch
"$haec" trace import arch/traces.otf2 --out imp.txt --host-speed 2Gf > /dev/null
printf '0 init\n0 compute 2000000\n0 send 1 3 800 6\n0 compute 1800000\n0 allreduce 16 0 6\n0 finalize\n' > want0
printf '1 init\n1 compute 1000000\n1 recv 0 3 800 6\n1 compute 1600000.0000000002\n1 allreduce 16 0 6\n1 finalize\n' > want1
diff want0 imp.txt_files/rank-0.txt && diff want1 imp.txt_files/rank-1.txt || { echo "FAIL: imported TI differs"; exit 1; }
"$haec" run --platform cluster:2 --replay imp.txt --out rep --quiet
# rank 0 computes 2e6 + 1.8e6 flops on 2.3 Gf cluster hosts (1.6522 ms), plus a few us of messages
/usr/bin/python3 -c 'import json,sys; m=json.load(open("rep/summary.json"))["makespan_s"]; sys.exit(0 if 3.8e6/2.3e9 < m < 3.8e6/2.3e9 + 5e-5 else 1)' ||
  { echo "FAIL: replay of the import: $(grep makespan rep/summary.json)"; exit 1; }

# --- bad inputs
bad() { # pattern command...
  local pattern=$1; shift
  set +e; "$@" > /dev/null 2> err; local rc=$?; set -e
  [ $rc -eq 2 ] && [ "$(grep -c . err)" -eq 1 ] && grep -qE "^haec: .*$pattern" err ||
    { echo "FAIL: '$*' exit $rc: $(cat err)"; exit 1; }
}
./gen arch1 1
bad "event [0-9]+: communicator 'MPI_COMM_WORLD' does not span all 2 ranks" "$haec" trace import arch1/traces.otf2 --out x.txt
head -c 200 arch/traces.otf2 > cut.otf2
bad "cut.otf2" "$haec" trace import cut.otf2 --out y.txt
# Cut in the middle of a line (a fixed byte count could land on a line's end: events.csv of an
# emulation differs in length between runs, and then the error names no line).
cp -r run cut && rm -rf cut/otf
lines=$(head -c 2000 run/events.csv | grep -c '')
{ head -n $((lines - 1)) run/events.csv; sed -n "${lines}p" run/events.csv | head -c 5; } > cut/events.csv
bad "events.csv:[0-9]+: " "$haec" trace export cut --out z
[ ! -e x.txt ] && [ ! -e x.txt_files ] && [ ! -e y.txt ] && [ ! -e z ] || { echo "FAIL: partial output left"; ls; exit 1; }
echo "trace otf2 ok: $(cat export.out | head -1)"
