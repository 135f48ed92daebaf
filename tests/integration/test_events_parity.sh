#!/usr/bin/env bash
# events.csv in emulation and in replay agree call by call (issue: an MPI call's entry was taken
# before SMPI charged the computation that precedes it, so compute time showed as MPI time): for
# programs whose calls map one to one onto trace actions (pingpong: Send/Recv; halo_put: window
# calls, Put, Allreduce), every rank's enter and exit times of the emulation equal those of the
# replay of its recording within 1e-12 s.
source "$(dirname "$0")/common.sh"

compare() { # name
  /usr/bin/python3 - "em_$1/events.csv" "rep_$1/events.csv" "$1" <<'EOF'
import csv, sys
def load(path):
    per_rank = {}
    for row in csv.DictReader(open(path)):
        per_rank.setdefault(row["rank"], []).append((row["event"], float(row["time"]), row["site"].split("@")[0]))
    return per_rank
em, rep, name = load(sys.argv[1]), load(sys.argv[2]), sys.argv[3]
worst = 0.0
for rank, events in em.items():
    other = rep.get(rank, [])
    if len(events) != len(other):
        sys.exit("FAIL: %s rank %s: %d events in emulation, %d in replay" % (name, rank, len(events), len(other)))
    for (kind, t, site), (kind2, t2, site2) in zip(events, other):
        if kind != kind2:
            sys.exit("FAIL: %s rank %s: %s %s against %s %s" % (name, rank, kind, site, kind2, site2))
        worst = max(worst, abs(t - t2))
        if abs(t - t2) > 1e-12:
            sys.exit("FAIL: %s rank %s: %s of %s at %r s in emulation, %s at %r s in replay"
                     % (name, rank, kind, site, t, site2, t2))
print("events %s: %d ranks, max |emulation - replay| = %.3g s" % (name, len(em), worst))
EOF
}

run() { # name "run options" app args...
  local name=$1 opts=$2; shift 2
  # shellcheck disable=SC2086
  "$haec" trace record $opts --events --out "t/$name.txt" --keep-run "em_$name" -- "$@" > /dev/null
  # shellcheck disable=SC2086
  "$haec" run $opts --events --replay "t/$name.txt" --out "rep_$name" --quiet
  compare "$name"
}

run pingpong "--platform cluster:3 -np 3" "$build/bin/pingpong" 1024 2
run halo "--platform haec-box:2x2x2 -np 8 --link dor" "$build/bin/halo_put" 6 16
echo PASS
