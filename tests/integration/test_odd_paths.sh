#!/usr/bin/env bash
# Every path a user gives works, in every subcommand: a directory with a blank, non-ASCII letters,
# pattern characters and a name starting with a dash ("d x/é -y [1]"), for inputs and outputs of
# haec cc, run (emulation and replay), trace record/check/repair/export/import, map, platform,
# calibrate power, campaign run/report. smpirun splits words at blanks: haec passes them another
# way (smpirun_words.hpp) and the results still land where asked. A program's arguments arrive
# whole (blanks, '*', an empty one, one starting with --cfg=). The same replay in a plain
# directory gives the same summary.json figures, bit for bit.
source "$(dirname "$0")/common.sh"

odd="$work/d x/é -y [1]"
mkdir -p "$odd"
cat > "$odd/args src.c" <<'EOF'
#include <mpi.h>
#include <stdio.h>
int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0)
    for (int i = 1; i < argc; ++i)
      printf("arg[%d]=<%s>\n", i, argv[i]);
  if (rank == 0 && argc > 1 && argv[1][0] == 'S') // "S": spin until killed (the SIGKILL check below)
    for (volatile unsigned long i = 0;; ++i) {
    }
  int token = rank;
  MPI_Allreduce(MPI_IN_PLACE, &token, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
EOF
"$haec" cc "$odd/args src.c" -o "$odd/my prog" > cc.out 2>&1 || { cat cc.out; fail "haec cc with blanks in its paths"; }
[ -x "$odd/my prog" ] || fail "haec cc wrote no program"

# run (emulation): the program and the result directory under the odd path, odd arguments.
"$haec" run --quiet -np 2 --platform cluster:2 --out "$odd/r s" -- "$odd/my prog" "a b" '*' '' '--cfg=x:y' '-z' 'é ü' \
  2> run.err || { cat run.err; fail "haec run into '$odd/r s'"; }
[ -s "$odd/r s/summary.json" ] || fail "no summary.json in the odd result directory"
printf 'arg[1]=<a b>\narg[2]=<*>\narg[3]=<>\narg[4]=<--cfg=x:y>\narg[5]=<-z>\narg[6]=<é ü>\n' > want.txt
grep '^arg\[' "$odd/r s/stdout.txt" > got.txt || true
cmp want.txt got.txt || { cat got.txt; fail "the program's arguments did not arrive whole"; }
ls "$odd" | grep -q tmp- && fail "a staging directory was left in $odd"

# command.txt is a line a user can paste: run again as it is, it gives the same figures.
cp "$odd/r s/summary.json" first.json && rm "$odd/r s/summary.json"
(cd / && bash -c "$(cat "$odd/r s/command.txt")" > "$work/pasted.out" 2>&1) || { cat pasted.out; fail "command.txt did not run: $(cat "$odd/r s/command.txt")"; }
grep -q '^arg\[1\]=<a b>$' pasted.out || { cat pasted.out; fail "pasted command.txt: the arguments did not arrive whole"; }
for f in messages bytes; do # emulated times vary from run to run; what was sent does not
  a=$("$py" -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$odd/r s/summary.json" $f)
  b=$("$py" -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' first.json $f)
  [ "$a" = "$b" ] || fail "command.txt gave $f $a, the run $b"
done

# A comma in a path (SimGrid splits --cfg values at commas too) and one in a program argument.
"$haec" run --quiet -np 2 --platform cluster:2 --out "$odd/c,d" -- "$odd/my prog" "x,y" 2> comma.err ||
  { cat comma.err; fail "haec run into a directory with a comma"; }
grep -q '^arg\[1\]=<x,y>$' "$odd/c,d/stdout.txt" || fail "the argument with a comma did not arrive whole"

# A run killed by SIGKILL leaves neither its staging directory nor the private directory of the
# words it passed to smpirun (haec-words-*, in TMPDIR).
mkdir tmpd
TMPDIR="$work/tmpd" "$haec" run --quiet -np 2 --platform cluster:2 --out "$odd/killed" -- "$odd/my prog" S "a b" 2> killed.err &
victim=$!
for _ in $(seq 1 100); do ls tmpd | grep -q haec-words && break; sleep 0.1; done
ls tmpd | grep -q haec-words || fail "no private directory appeared in TMPDIR (the check would prove nothing)"
sleep 0.5
kill -KILL $victim
wait $victim 2> /dev/null || true
for _ in $(seq 1 50); do { [ -z "$(ls tmpd)" ] && ! ls "$odd" | grep -q killed; } && break; sleep 0.1; done
[ -z "$(ls tmpd)" ] || fail "a SIGKILLed run left $(ls tmpd) in TMPDIR"
ls "$odd" | grep -q killed && fail "a SIGKILLed run left $(ls "$odd" | grep killed)"

# trace record, check, replay (relative output name starting with a dash, from inside the odd dir)
(cd "$odd" && "$haec" trace record -np 2 --platform cluster:2 --out=-t.trace -- "./my prog" "x y" > ../rec.out 2> ../rec.err) ||
  { cat "$work/d x/rec.err"; fail "haec trace record --out=-t.trace"; }
[ -s "$odd/-t.trace" ] || fail "no trace recorded"
"$haec" trace check "$odd/-t.trace" > check.out || fail "haec trace check of the odd trace"
"$haec" run --quiet --platform cluster:2 --replay "$odd/-t.trace" --out "$odd/replay out" 2> replay.err ||
  { cat replay.err; fail "haec run --replay of a trace in an odd path"; }
mkdir plain && cp -r "$odd/-t.trace" "$odd/-t.trace_files" plain/
sed -i "s#$odd/##" plain/-t.trace 2> /dev/null || true
(cd plain && "$haec" run --quiet --platform cluster:2 --replay=-t.trace --out=../plain-out 2> ../plain.err) ||
  { cat plain.err; fail "plain replay"; }
for f in makespan_s messages bytes; do
  a=$("$py" -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$odd/replay out/summary.json" $f)
  b=$("$py" -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' plain-out/summary.json $f)
  [ "$a" = "$b" ] || fail "$f differs: odd path $a, plain $b"
done

# trace repair, export and import
"$haec" trace repair "$odd/-t.trace" --out "$odd/fixed t.trace" > repair.out 2>&1 || { cat repair.out; fail "trace repair"; }
"$haec" run --quiet --events --platform cluster:2 --replay "$odd/-t.trace" --out "$odd/ev out" 2> ev.err ||
  { cat ev.err; fail "replay with --events"; }
"$haec" trace export "$odd/ev out" --out "$odd/otf2 x" > export.out 2>&1 || { cat export.out; fail "trace export"; }
"$haec" trace import "$odd/otf2 x/traces.otf2" --out "$odd/imp t.trace" > import.out 2>&1 || { cat import.out; fail "trace import"; }
"$haec" trace check "$odd/imp t.trace" > /dev/null || fail "the imported trace does not check"

# map, platform, a platform file with a blank in a run
"$haec" map --platform haec-box:2x2x2 --map min-md --traffic "$odd/-t.trace" -np 2 --out "$odd/map o" > map.out ||
  fail "haec map into an odd directory"
[ -s "$odd/map o/hostfile" ] || fail "no hostfile from haec map"
"$haec" platform haec-box:2x2x2 --out "$odd/p l.json" > /dev/null || fail "haec platform --out with a blank"
"$haec" run --quiet -np 2 --platform "$odd/p l.json" --hostfile "$odd/map o/hostfile" --out "$odd/pf" -- "$odd/my prog" 2> pf.err ||
  { cat pf.err; fail "haec run with a platform file and a hostfile in odd paths"; }

# calibrate power: manifest, logs and output directory in the odd path
log() { { echo "time,watts"; echo "0,$2"; for t in $(seq 2 17); do echo "$t,$1"; done; echo "18,$2"; echo "20,$2"; } > "$odd/$3"; }
log 92.75 60 "idle 0.csv"; log 114.62 60 "one 0.csv"; log 174.38 60 "all 0.csv"
printf 'pstate,load,file\n0,idle,%s\n0,one,%s\n0,all,%s\n' "$odd/idle 0.csv" "$odd/one 0.csv" "$odd/all 0.csv" > "$odd/m f.csv"
mkdir empty-root
"$haec" calibrate power "$odd/m f.csv" --cores 12 --sysfs-root empty-root --no-plot --out "$odd/fit o" > cal.out ||
  fail "haec calibrate power with odd paths"
[ -s "$odd/fit o/host_properties.xml" ] || fail "no host_properties.xml"

# campaign: file, trace and output all under the odd path; then its report
cat > "$odd/c f.json" <<'EOF'
{"trace": "-t.trace", "run": {"power": true}, "axes": {"platform": ["cluster:2", "cluster:3"]}}
EOF
"$haec" campaign run "$odd/c f.json" --out "$odd/camp o" --jobs 2 2> camp.err || { cat camp.err; fail "campaign in an odd path"; }
[ "$(grep -c ',done,' "$odd/camp o/results.csv")" -eq 2 ] || fail "campaign results: $(cat "$odd/camp o/results.csv")"
"$haec" campaign report "$odd/camp o" > report.out 2> report.err || { cat report.err; fail "campaign report in an odd path"; }
[ -s "$odd/camp o/report/index.html" ] || fail "no report"
echo "odd paths ok: cc, run, record, check, replay (same figures), repair, export, import, map, platform, calibrate, campaign, report"
