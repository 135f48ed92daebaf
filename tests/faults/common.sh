# Shared by the fault-injection tests: tests/faults/test_*.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
BUILD="$(cd "$1" && pwd)"
SRC="$(cd "$2" && pwd)"
HAEC="$BUILD/bin/haec"
FAULTS="$BUILD/bin/fault_cases"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
cd "$TMP"
fail() { echo "FAIL: $*" >&2; exit 1; }

# run_expect STATUS PATTERN CMD...: runs CMD, checks its exit status and that the first line of
# stderr starts "haec: " and matches PATTERN (grep -E); stderr is left in $TMP/err.
run_expect() {
  local want=$1 pattern=$2
  shift 2
  "$@" > "$TMP/out" 2> "$TMP/err"
  local got=$?
  [[ $got == "$want" ]] || { cat "$TMP/err" >&2; fail "exit $got, want $want: $*"; }
  head -1 "$TMP/err" | grep -q "^haec: " || { cat "$TMP/err" >&2; fail "first stderr line is not 'haec: ...': $*"; }
  head -1 "$TMP/err" | grep -qE -- "$pattern" || { cat "$TMP/err" >&2; fail "error does not match /$pattern/: $*"; }
}

# What is in the working directory (the test's files excepted).
listing() { find . -mindepth 1 -maxdepth 1 ! -name out ! -name err | sort; }

# Processes of session SID that are still running (zombies waiting for an init that does not reap
# them are dead: they are not counted).
live_in_session() { ps -eo sid=,stat=,pid=,args= | awk -v s="$1" '$1 == s && $2 !~ /^Z/'; }
