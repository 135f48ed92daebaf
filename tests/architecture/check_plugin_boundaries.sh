#!/usr/bin/env bash
# Plugins talk through the core only (docs/ARCHITECTURE.md). Fails when
#   - a plugin's file includes a header of another plugin's adapter (plugins/<other>/*.hpp),
#   - a plugin's model (plugins/*/model) includes SimGrid or the core's adapter API (run.hpp,
#     events.hpp): models stay pure,
#   - a plugin adapter's object files use a symbol another plugin's adapter defines.
# Usage: check_plugin_boundaries.sh SOURCE_DIR BUILD_DIR      (the check)
#        check_plugin_boundaries.sh --self-test               (shows that each rule can fail)
set -uo pipefail

# check_includes ROOT: the include rules over ROOT/plugins/*; prints one line per violation.
check_includes() {
  local root=$1 bad=0 plugin file other header
  for plugin in "$root"/plugins/*/; do
    plugin=$(basename "$plugin")
    while IFS= read -r file; do
      while IFS= read -r header; do
        for other in "$root"/plugins/*/; do
          other=$(basename "$other")
          [ "$other" = "$plugin" ] && continue
          if [ -e "$root/plugins/$other/$header" ]; then
            echo "${file#$root/}: includes $header, the adapter of plugin $other"
            bad=1
          fi
        done
      done < <(sed -nE 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]+)".*/\1/p' "$file")
    done < <(find "$root/plugins/$plugin" -name '*.cpp' -o -name '*.hpp' | sort)
    while IFS= read -r file; do
      if grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*(<(simgrid|xbt|smpi)/|"(run|events)\.hpp")' "$file" > /dev/null; then
        echo "${file#$root/}: a model includes SimGrid or the core's adapter API"
        bad=1
      fi
    done < <(find "$root/plugins/$plugin/model" -name '*.cpp' -o -name '*.hpp' 2> /dev/null | sort)
  done
  return $bad
}

# check_symbols OBJECTS_ROOT: OBJECTS_ROOT/<plugin>/*.o per plugin; prints one line per symbol a
# plugin uses that another plugin defines.
check_symbols() {
  local objs=$1 bad=0 plugin other sym
  for plugin in "$objs"/*/; do
    plugin=$(basename "$plugin")
    for other in "$objs"/*/; do
      other=$(basename "$other")
      [ "$other" = "$plugin" ] && continue
      while IFS= read -r sym; do
        echo "plugin $plugin uses $(c++filt "$sym") of plugin $other"
        bad=1
      done < <(comm -12 <(nm -u "$objs/$plugin"/*.o | awk 'NF >= 2 {print $NF}' | sort -u) \
                        <(nm --defined-only --extern-only "$objs/$other"/*.o | awk 'NF >= 2 {print $NF}' | sort -u))
    done
  done
  return $bad
}

self_test() {
  local t
  t=$(mktemp -d)
  trap 'rm -rf "$t"' RETURN
  mkdir -p "$t/src/plugins/a/model" "$t/src/plugins/b/model" "$t/objs/a" "$t/objs/b"
  echo 'int a_total();' > "$t/src/plugins/a/a_adapter.hpp"
  printf '#include "a_adapter.hpp"\nint b() { return a_total(); }\n' > "$t/src/plugins/b/b_adapter.cpp"
  printf '#include <simgrid/s4u.hpp>\n' > "$t/src/plugins/b/model/pure.hpp"
  local out
  out=$(check_includes "$t/src") && { echo "FAIL: the include check passed a violation"; return 1; }
  grep -q "plugins/b/b_adapter.cpp: includes a_adapter.hpp, the adapter of plugin a" <<< "$out" ||
    { echo "FAIL: include check: $out"; return 1; }
  grep -q "plugins/b/model/pure.hpp: a model includes SimGrid" <<< "$out" || { echo "FAIL: model check: $out"; return 1; }
  echo 'int a_total() { return 1; }' | c++ -x c++ -c -o "$t/objs/a/a.o" -
  echo 'int a_total(); int b() { return a_total(); }' | c++ -x c++ -c -o "$t/objs/b/b.o" -
  out=$(check_symbols "$t/objs") && { echo "FAIL: the symbol check passed a violation"; return 1; }
  grep -q "plugin b uses a_total() of plugin a" <<< "$out" || { echo "FAIL: symbol check: $out"; return 1; }
  echo "self-test: each rule reports its violation"
}

if [ "${1:-}" = "--self-test" ]; then
  self_test
  exit $?
fi
src="$(cd "${1:?usage: $0 SOURCE_DIR BUILD_DIR}" && pwd)"
build="$(cd "${2:?usage: $0 SOURCE_DIR BUILD_DIR}" && pwd)"
status=0
check_includes "$src" || status=1
# The adapters' object files, per plugin (plugins/<name>/CMakeLists.txt: haec_<name>_plugin).
objs=$(mktemp -d)
trap 'rm -rf "$objs"' EXIT
for dir in "$build"/plugins/*/CMakeFiles/haec_*_plugin.dir; do
  [ -d "$dir" ] || continue
  plugin=$(basename "$(dirname "$(dirname "$dir")")")
  mkdir -p "$objs/$plugin"
  find "$dir" -name '*.o' -exec cp {} "$objs/$plugin/" \;
done
[ "$(ls "$objs" | wc -l)" -ge 4 ] || { echo "FAIL: fewer than 4 plugins' object files under $build/plugins"; exit 1; }
check_symbols "$objs" || status=1
[ $status -eq 0 ] && echo "plugin boundaries: $(ls "$objs" | tr '\n' ' ')talk through the core only"
exit $status
