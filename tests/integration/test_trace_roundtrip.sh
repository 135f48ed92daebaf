#!/usr/bin/env bash
# haec trace export -> import -> replay gives the replay's makespan (1e-9 relative) for lu_like,
# ring_allreduce and stencil_imbalance, with and without --power-series, with ranks sharing nodes
# (8 ranks on cluster:4) or not (cluster:8); what cannot be carried is refused before writing; a
# moved trace (list names files relative to itself) replays to the same makespan.
source "$(dirname "$0")/common.sh"
makespan() { /usr/bin/python3 -c 'import json,sys; print(repr(json.load(open(sys.argv[1]))["makespan_s"]))' "$1/summary.json"; }
same() { # a b what
  /usr/bin/python3 -c 'import sys; a,b=float(sys.argv[1]),float(sys.argv[2]); sys.exit(0 if a > 0 and abs(a-b) <= 1e-9*a else 1)' "$1" "$2" ||
    { echo "FAIL: $3: $1 vs $2"; exit 1; }
}

record() { # name app args...
  local name=$1; shift
  "$haec" trace record --platform cluster:8 -np 8 --out "$name.txt" -- "$@" > /dev/null
  grep -q "^/" "$name.txt" && { echo "FAIL: $name.txt names absolute paths"; exit 1; } || true
}
record lu "$build/bin/lu_like" 2
record ring "$build/bin/ring_allreduce" 3
record stencil "$build/bin/stencil_imbalance" --iters 3 --size 4096

n=0
for t in lu ring stencil; do
  for nodes in 4 8; do
    for power in "" "--power --power-series"; do
      n=$((n + 1)); c="c$n"
      # shellcheck disable=SC2086
      "$haec" run --platform cluster:$nodes --replay $t.txt --events --messages $power --out $c.run --quiet
      "$haec" trace export $c.run --out $c.otf > /dev/null
      "$haec" trace import $c.otf/traces.otf2 --out $c.imp.txt > /dev/null
      [ "$(grep -c . $c.imp.txt)" -eq 8 ] || { echo "FAIL: $c: import has $(grep -c . $c.imp.txt) ranks, not 8"; exit 1; }
      # shellcheck disable=SC2086
      "$haec" run --platform cluster:$nodes --replay $c.imp.txt $power --out $c.rep --quiet
      a=$(makespan $c.run); b=$(makespan $c.rep)
      same "$a" "$b" "$t on cluster:$nodes ${power:-without power}: replay vs round trip"
      echo "$t cluster:$nodes ${power:-no-power}: $a -> $b"
    done
  done
done

# The allreduces and messages are in the archive as MPI records too (viewers).
otf2-print c4.otf/traces.otf2 > print.txt
[ "$(grep -c '^MPI_COLLECTIVE_END' print.txt)" -eq "$(cat lu.txt_files/rank-*.txt | grep -c ' allreduce ')" ] ||
  { echo "FAIL: allreduces missing from the archive"; exit 1; }
[ "$(grep -c '^MPI_SEND' print.txt)" -eq "$(cat lu.txt_files/rank-*.txt | grep -cE ' i?send ')" ] ||
  { echo "FAIL: sends missing from the archive"; exit 1; }

# A moved trace (list and files together) replays; so does the import's.
mkdir -p moved/deeper && mv lu.txt lu.txt_files moved/deeper/
"$haec" run --platform cluster:4 --replay moved/deeper/lu.txt --out mv.run --quiet
same "$(makespan c1.run)" "$(makespan mv.run)" "moved trace"
mv c1.imp.txt c1.imp.txt_files moved/
"$haec" run --platform cluster:4 --replay moved/c1.imp.txt --out mv2.run --quiet
same "$(makespan c1.run)" "$(makespan mv2.run)" "moved import"

# --- refused, one line, exit 2, nothing written
bad() { # pattern command...
  local pattern=$1; shift
  set +e; "$@" > /dev/null 2> err; local rc=$?; set -e
  [ $rc -eq 2 ] && [ "$(grep -c . err)" -eq 1 ] && grep -qE "^haec: .*$pattern" err ||
    { echo "FAIL: '$*' exit $rc: $(cat err)"; exit 1; }
}
# the trace moved since the run: its command.txt names the old place
bad "replayed trace .* is not there; name the trace this run replayed: --trace" "$haec" trace export c1.run --out x1
"$haec" trace export c1.run --out ok1 --trace moved/deeper/lu.txt > /dev/null
# another trace than the one replayed
bad "ring.txt_files/rank-0.txt:[0-9]+: .* is not rank 0's next call" "$haec" trace export c1.run --out x2 --trace ring.txt
# an emulation with ranks sharing nodes: messages without ranks
"$haec" run --platform cluster:4 -np 8 --events --messages --out emu --quiet -- "$build/bin/ring_allreduce" 3
bad "emu/messages.csv: [0-9]+ messages have no rank" "$haec" trace export emu --out x3
# an emulation's archive (regions only) is not a trace
"$haec" run --platform cluster:8 -np 8 --events --out emu8 --quiet -- "$build/bin/ring_allreduce" 3
"$haec" trace export emu8 --out emu8.otf > /dev/null
bad "was exported from an emulation" "$haec" trace import emu8.otf/traces.otf2 --out x4.txt
# an old list with absolute paths, moved
printf '/nonexistent/old.txt_files/rank-0.txt\n' > old.txt
bad "old.txt:1: trace file '/nonexistent/old.txt_files/rank-0.txt' does not exist; this list names absolute paths" \
  "$haec" run --platform cluster:2 --replay old.txt --out x5
for f in x1 x2 x3 x4.txt x4.txt_files x5; do [ ! -e $f ] || { echo "FAIL: $f left behind"; exit 1; }; done
echo "trace round trip ok: $n cases"
