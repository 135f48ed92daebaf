#!/usr/bin/env bash
# haec campaign run --executor slurm, for real: starts a single-node Slurm (Debian's slurm-wlm:
# slurmctld + slurmd, a local configuration in a temporary directory, its own ports, no munge),
# runs a 2-run campaign as a job array, checks results.csv against the local executor's, and that
# --executor slurm without a reachable controller is a one-line error (exit 2, nothing written).
# Skips (exit 77) with one line where Slurm is not installed or cannot start here.
set -euo pipefail
build="$(cd "$1" && pwd)"
source_dir="$(cd "$2" && pwd)"
haec="$build/bin/haec"
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
for tool in slurmctld slurmd sbatch squeue scontrol; do
  command -v "$tool" > /dev/null || [ -x "/usr/sbin/$tool" ] || skip "$tool is not installed (scripts/install-deps.sh installs slurm-wlm)"
done
[ "$(id -u)" -eq 0 ] || skip "a local slurmd must run as root here"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
cp -r "$source_dir/examples/campaigns/lu_like16" .
cat > small.json <<'JSON'
{"trace": "lu_like16/trace.txt", "run": {"power": true},
 "axes": {"platform": ["cluster:2,preset=taurus"], "map": ["block-xyz", "xyz"]}}
JSON

# Without a controller: one line, exit 2, no campaign directory.
export SLURM_CONF="$work/slurm/slurm.conf"
mkdir -p slurm/state slurm/spool
port=$((20000 + RANDOM % 20000))
status=0
host=$(hostname -s)
cat > "$SLURM_CONF" <<CONF
ClusterName=haectest
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmctldTimeout=5
MessageTimeout=3
AuthType=auth/none
CredType=cred/none
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$work/slurm/state
SlurmdSpoolDir=$work/slurm/spool
SlurmctldPidFile=$work/slurm/slurmctld.pid
SlurmdPidFile=$work/slurm/slurmd.pid
SlurmctldLogFile=$work/slurm/slurmctld.log
SlurmdLogFile=$work/slurm/slurmd.log
ProctrackType=proctrack/pgid
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
"$haec" campaign run small.json --out none --executor slurm 2> unreachable.err || status=$?
[ "$status" -eq 2 ] || fail "--executor slurm without Slurm: exit $status, expected 2"
[ "$(grep -c '' unreachable.err)" -eq 1 ] && grep -q "^haec: --executor slurm: no Slurm controller is reachable" unreachable.err ||
  fail "not one line: $(cat unreachable.err)"
[ ! -e none ] || fail "a campaign directory was written"

stop_slurm() {
  for d in slurmd slurmctld; do
    [ -s "$work/slurm/$d.pid" ] && kill "$(cat "$work/slurm/$d.pid")" 2> /dev/null || true
  done
  sleep 1
  rm -rf "$work"
}
trap stop_slurm EXIT
slurmctld -f "$SLURM_CONF" -i 2> slurmctld.err || skip "slurmctld cannot start: $(head -1 slurmctld.err)"
slurmd -f "$SLURM_CONF" 2> slurmd.err || skip "slurmd cannot start: $(head -1 slurmd.err)"
for _ in $(seq 1 30); do
  sinfo -h -o %T 2> /dev/null | grep -q idle && break
  sleep 1
done
sinfo -h -o %T | grep -q idle || skip "the local Slurm node did not become idle: $(tail -1 slurm/slurmd.log)"

"$haec" campaign run small.json --out s --executor slurm --jobs 2 2> slurm.err || { cat slurm.err; fail "slurm campaign failed"; }
[ -s s/slurm/array.sh ] && [ "$(grep -c '' s/slurm/commands.txt)" -eq 2 ] || fail "no array script or commands"
"$haec" campaign run small.json --out l --jobs 2 2> local.err || fail "local campaign failed"
cmp s/results.csv l/results.csv || fail "Slurm and local results differ: $(diff s/results.csv l/results.csv)"
[ "$(grep -c ',done,' s/results.csv)" -eq 2 ] || fail "not 2 finished runs: $(cat s/results.csv)"
"$haec" campaign run small.json --out s --executor slurm 2> again.err || fail "re-run failed"
grep -q "2 runs, 2 already finished" again.err || fail "re-run did not skip: $(cat again.err)"
echo "slurm ok: 2-run job array, results equal to the local executor's, re-run skips"
