#!/usr/bin/env bash
# Runs one case of cases.txt: run_case.sh BUILD_DIR SOURCE_DIR CASE_NAME
set -uo pipefail
build="$(cd "$1" && pwd)"
here="$(cd "$2" && pwd)/tests/bad_inputs"
name="$3"
line=$(grep -E "^$name +\|" "$here/cases.txt")
[ -n "$line" ] || { echo "no case named $name"; exit 1; }
IFS='|' read -r _ status pattern command <<< "$line"
status=$(echo "$status" | xargs)
pattern=$(echo "$pattern" | sed -E 's/^ +| +$//g')
command=$(echo "$command" | sed -E 's/^ +| +$//g')

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -r "$here/data/." "$work/"
chmod -x "$work/not_executable.txt"
cd "$work"
export HAEC="$build/bin/haec" APP="$build/bin/pingpong"
# What the scratch directory holds before, apart from what the command itself creates on purpose.
setup=""
case "$command" in mkdir\ out\ \&\&*) setup="out";; esac
before=$( (find . -mindepth 1 | sort; [ -n "$setup" ] && echo "./$setup") | sort -u)
bash -c "$command" > stdout.log 2> stderr.log
got=$?
after=$(find . -mindepth 1 ! -name stdout.log ! -name stderr.log | sort)
fail() { echo "FAIL [$name]: $1"; echo "  command: $command"; echo "  stderr:"; sed 's/^/    /' stderr.log; exit 1; }
[ "$got" -ge 128 ] && fail "killed by signal $((got - 128))"
grep -qE "Sanitizer|runtime error:|Segmentation|Aborted|terminate called" stderr.log && fail "crash or sanitizer report"
[ "$got" -eq "$status" ] || fail "exit status $got, expected $status"
[ "$(grep -c . stderr.log)" -eq 1 ] || fail "stderr is not exactly one line"
grep -q "^haec: " stderr.log || fail "error does not start with 'haec: '"
# About 200 characters whatever the input quotes (text::error_line), "haec: " and a CLI hint aside.
[ "$(head -1 stderr.log | wc -m)" -le 241 ] || fail "error line of $(head -1 stderr.log | wc -m) characters, more than 240"
grep -qE -- "$pattern" stderr.log || fail "error does not match /$pattern/"
[ "$before" = "$after" ] || fail "files left behind: $(comm -13 <(echo "$before") <(echo "$after") | tr '\n' ' ')"
echo "ok [$name]: $(cat stderr.log)"
