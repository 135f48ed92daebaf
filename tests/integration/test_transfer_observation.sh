#!/usr/bin/env bash
# How the core observes network transfers (core/transfers.cpp). Without a link model a recording
# run sees each transfer at its completion, its hosts read from SimGrid's network action
# (core/network_action_view.hpp); with the factor callbacks (a link model, per-message routes, or
# --cfg=haec/transfer-observation:callbacks) each announcement rides on its own network action.
# Before, completions were matched to announcements by (start, size) only.
# 1. Every transfer is attributed to its own hosts, both ways: rank 0 sends two equal messages at
#    the same instant, first to a host behind a 10x slower link, then to a fast one (matched by
#    (start, size), first in first out, the fast completion went to the slow host).
# 2. On lu_like (16 ranks, two per host: equal loopback and network transfers start together),
#    both ways give the same messages.csv, line for line, the same per-pair table and totals, and
#    every check passed.
source "$(dirname "$0")/common.sh"

# 1. Two hosts on fast links, one behind a slow one; one transfer to each, started together.
cat > star.xml <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="z" routing="Full">
    <host id="a" speed="1Gf"/> <host id="fast" speed="1Gf"/> <host id="slow" speed="1Gf"/>
    <link id="l_a" bandwidth="1GBps" latency="1us"/>
    <link id="l_fast" bandwidth="1GBps" latency="1us"/>
    <link id="l_slow" bandwidth="100MBps" latency="1us"/>
    <route src="a" dst="fast"><link_ctn id="l_a"/><link_ctn id="l_fast"/></route>
    <route src="a" dst="slow"><link_ctn id="l_a"/><link_ctn id="l_slow"/></route>
    <route src="fast" dst="slow"><link_ctn id="l_fast"/><link_ctn id="l_slow"/></route>
  </zone>
</platform>
XML
printf 'a\nfast\nslow\n' > star.hosts
mkdir star
printf '0 init\n0 isend 2 5 50000 0\n0 isend 1 5 50000 0\n0 waitall\n0 finalize\n' > star/0 # slow host first
for r in 1 2; do printf '%d init\n%d irecv 0 5 50000 0\n%d waitall\n%d finalize\n' $r $r $r $r > star/$r; done
printf 'star/0\nstar/1\nstar/2\n' > star.txt
# The duration of the transfer of `pair` (src_rank,dst_rank) in run directory $1's messages.csv.
duration() { awk -F, -v p="$2" 'NR > 1 && $1 "," $2 == p { printf "%.9g\n", $8 - $7 }' "$1/messages.csv"; }
for way in auto callbacks; do
  "$haec" run --platform star.xml --hostfile star.hosts -np 3 --replay star.txt --messages -q \
    --cfg haec/transfer-observation:$way --out "star-$way" || fail "$way: the run failed"
done
for way in auto callbacks; do
  fast=$(duration "star-$way" 0,1)
  slow=$(duration "star-$way" 0,2)
  [ -n "$fast" ] && [ -n "$slow" ] || fail "$way: messages.csv lacks a transfer 0->1 or 0->2"
  awk -v f="$fast" -v s="$slow" 'BEGIN { exit !(s > 5 * f) }' ||
    fail "$way: the transfer to the slow host took ${slow}s, to the fast one ${fast}s: hosts not attributed"
  echo "$way: 0->slow ${slow}s, 0->fast ${fast}s"
done

# 2. lu_like: the same transfers both ways.
record_lu16_trace
for way in auto callbacks; do
  "$haec" run --platform cluster.xml --hostfile hostfile --oversubscribe -np 16 --replay trace/lu.txt --messages -q \
    --cfg haec/transfer-observation:$way --out "lu-$way" || fail "$way: the lu_like replay failed"
  cut -d, -f1-6 "lu-$way/transfer_pairs.csv" | sort > "lu-$way.pairs" # rows follow the nodes in order of first sight
  grep -q '"result": "failed"' "lu-$way/summary.json" && fail "$way: a check failed"
  grep -q '"network_sent_equals_received": {' "lu-$way/summary.json" || fail "$way: no network check"
done
n=$(($(wc -l < lu-auto/messages.csv) - 1))
[ "$n" -gt 1000 ] || fail "only $n transfers"
cmp -s lu-auto/messages.csv lu-callbacks/messages.csv || fail "messages.csv differs between the two ways"
cmp -s lu-auto.pairs lu-callbacks.pairs || fail "per-pair transfer counts or bytes differ"
for key in messages bytes transfer_hops makespan_s; do
  a=$(grep "\"$key\"" lu-auto/summary.json) b=$(grep "\"$key\"" lu-callbacks/summary.json)
  [ -n "$a" ] && [ "$a" = "$b" ] || fail "summary $key: '$a' against '$b'"
done
echo "lu_like: $n transfers, the same both ways; checks passed"
