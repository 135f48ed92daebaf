# Timing helpers the whole-process benchmarks share (sourced, run in the benchmark's work directory).
# measure NAME COMMAND...: runs COMMAND (output discarded) and appends "wall cpu" to NAME.times,
# CPU = user + system of the command and its children (bash's time).
measure() {
  local name=$1 TIMEFORMAT='%R %U %S'
  shift
  { time "$@" > /dev/null 2>&1; } 2> t.txt
  awk '{print $1, $2 + $3}' t.txt >> "$name.times"
}
# median: of the numbers on stdin, one per line.
median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
# col NAME C: the median of column C (1 wall, 2 CPU) of NAME.times.
col() { awk -v c="$2" '{print $c}' "$1.times" | median; }
