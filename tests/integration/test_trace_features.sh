#!/usr/bin/env bash
# Every feature of the trace format through haec trace record, haec trace check and haec run
# --replay (libs/trace/README.md), with a test program per feature in C and in Fortran
# (tests/trace_programs): communicators (split with MPI_UNDEFINED, dup, create, create_group,
# split_type, Cartesian create/sub, free) and every collective on them, blocking and not;
# MPI_IN_PLACE in blocking and non-blocking collectives; buffered, synchronous and cancelled
# point-to-point calls and a rank's sendrecv with itself; dynamic and shared windows, request-based
# transfers and windows on split communicators. Each recording's emulation prints "No Errors";
# its trace passes the check from another directory than its own (relative rank files), and the
# replay reproduces the recording run's makespan (1e-12 relative) and its number of network
# messages (the communicator constructors' own messages included). One-rank traces replay from
# anywhere too. Every trace shows the actions its feature needs. A rank's sendrecv with itself is
# recorded whatever status SimGrid reports.
source "$(dirname "$0")/common.sh"
field() { $py -c 'import json,sys; print(repr(json.load(open(sys.argv[1]))[sys.argv[2]]))' "$1/summary.json" "$2"; }
same() { $py -c 'import sys; a,b=float(sys.argv[1]),float(sys.argv[2]); sys.exit(0 if abs(a-b) <= 1e-12*max(a,b) else 1)' "$1" "$2"; }

roundtrip() { # name ranks program args...
  local name=$1 np=$2 program=$3; shift 3
  [ -x "$build/bin/$program" ] || skip "$program was not built (no Fortran compiler?)"
  "$haec" trace record --platform "cluster:$np" -np "$np" --out "t/$name" --keep-run "em_$name" \
    -- "$build/bin/$program" "$@" > /dev/null || fail "$name: the recording failed"
  [ -n "${any_output:-}" ] || grep -q "No Errors" "em_$name/stdout.txt" || fail "$name: the program's checks failed in emulation"
  mkdir -p elsewhere
  (cd elsewhere && "$haec" trace check "../t/$name" > /dev/null) || fail "$name: haec trace check refuses the trace"
  (cd elsewhere && "$haec" run --platform "cluster:$np" -np "$np" --replay "../t/$name" --out "../rep_$name" --quiet) ||
    fail "$name: the replay failed"
  local e r em rm
  e=$(field "em_$name" makespan_s); r=$(field "rep_$name" makespan_s)
  em=$(field "em_$name" messages); rm=$(field "rep_$name" messages)
  same "$e" "$r" || fail "$name: recording run $e s, replay $r s"
  [ "$em" = "$rm" ] || fail "$name: recording run $em network messages, replay $rm"
  echo "round trip $name: $e s, $em messages"
}
has() { # name rank regex: rank's file holds a line matching regex
  grep -Eq "^$2 $3\$" "t/$1_files/rank-$2.txt" || fail "$1: no line '$2 $3' in rank $2's trace"
}
hasnt() {
  ! grep -Eq "^$2 $3\$" "t/$1_files/rank-$2.txt" || fail "$1: a line '$2 $3' in rank $2's trace"
}

roundtrip comms 4 trace_comms 3
roundtrip comms3 3 trace_comms 2
roundtrip inplace 4 trace_inplace
roundtrip p2p 4 trace_p2p_modes
roundtrip p2p_odd 5 trace_p2p_modes 300000
roundtrip p2p_one 1 trace_p2p_modes
roundtrip rma 4 trace_rma_windows
roundtrip comms_f 4 trace_comms_f
roundtrip inplace_f 4 trace_inplace_f
roundtrip p2p_f 4 trace_p2p_modes_f
roundtrip rma_f 4 trace_rma_windows_f
# A rank's MPI_Sendrecv with itself alone, on two ranks: recorded as what the caller named, whatever
# status SimGrid reports (3.32 and a stock 4.1 name rank + 1 there: the program then prints
# "(wrong)"; test_sendrecv_self_status.sh tests the SimGrid patch that fixes it).
any_output=1 roundtrip self 2 sendrecv_self_status

# Communicators: made with their trace-wide ids, SMPI's way (Cart_create: a create of its first
# ranks; Cart_sub: a split), collectives on them as our actions, SimGrid's on MPI_COMM_WORLD.
has comms 1 "haec_comm_dup 0 [0-9]+"
has comms 1 "haec_comm_split 0 [0-9]+ 1 3"           # rank 1: color 1, key size - rank
has comms 3 "haec_comm_create 0 [0-9]+ 2 2 3"        # the upper half, world ranks 2 3
has comms 0 "haec_comm_split_type 0 [0-9]+ 1 0"
has comms 2 "haec_comm_split 0 -1 -1 2"              # miniAMR's loop: MPI_UNDEFINED
has comms 0 "haec_reduce_scatter_block 0 2 1 0"
has comms 0 "haec_alltoallw [0-9]+( [0-9]+)+"
has comms 0 "haec_igatherv [0-9]+ [0-9]+ 2 1 1 [0-9]+( [0-9]+)+"
has comms 0 "haec_comm_free [0-9]+"
has comms 0 "bcast 1 3 1"                             # MPI_COMM_WORLD: SimGrid's action
has comms_f 3 "haec_comm_split 0 -1 -1 -3"
# MPI_IN_PLACE: the root's own count is what PMPI resolves it to (SimGrid's actions), -1 in ours.
has inplace 0 "gather 0 2 0 1 1"
has inplace 1 "gather 2 0 0 1 1"                  # a receive count not significant here: 0
has inplace 0 "haec_igather [0-9]+ 0 -1 1 2 1 0"
has inplace 2 "haec_ialltoall [0-9]+ 0 -1 1 2 1"
has inplace 0 "allgather 2 2 1 1"
has inplace_f 0 "haec_igather [0-9]+ 0 -1 1 2 1 0"
# Buffered and synchronous sends are ours, cancelled requests are gone, a rank's sendrecv with
# itself writes nothing (SMPI only copies).
has p2p 0 "haec_bsend 1 1 1048576 2"
has p2p 1 "haec_ibsend [0-9]+ 0 2 1048576 2"
has p2p 0 "haec_ssend 1 3 16 2"
has p2p 0 "haec_issend [0-9]+ 1 4 16 2"
has p2p 0 "haec_request_free [0-9]+"
hasnt p2p 0 "irecv .*"
hasnt p2p 0 "haec_issend [0-9]+ 1 97 .*"
hasnt p2p_one 0 "(isend|recv|sendRecv) .*"
hasnt self 1 "(send|isend|recv|irecv|sendRecv) .*"
has p2p_f 0 "haec_bsend 1 1 262144 0"
# One-sided: windows with their communicator, dynamic and shared windows, request-based transfers.
has rma 0 "haec_win_create_dynamic [0-9]+ 0"
has rma 0 "haec_win_attach [0-9]+ 128"
has rma 0 "haec_win_allocate_shared [0-9]+ 64 8 0"
has rma 0 "haec_rput [0-9]+ [0-9]+ 1 1 0 0 1 0"
has rma 0 "haec_rget_accumulate [0-9]+ [0-9]+ 1 1 0 1 0 16 1 0 1"
has rma 1 "haec_win_allocate [0-9]+ 256 8 0"
has rma 1 "haec_win_allocate [0-9]+ 32 8 [1-9][0-9]*"      # on the split half
has rma_f 0 "haec_rget [0-9]+ [0-9]+ 1 1 0 0 1 0"

# A one-rank trace replays from any directory (SMPI hands its only rank file over as written).
mkdir -p far/away
(cd far/away && "$haec" run --platform cluster:1 -np 1 --replay ../../t/p2p_one --out one --quiet) ||
  fail "a one-rank trace does not replay from another directory"
echo PASS
