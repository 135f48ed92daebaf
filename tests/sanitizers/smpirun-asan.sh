#!/usr/bin/env bash
# smpirun for programs and libraries built with AddressSanitizer (build-asan, docs/SANITIZERS.md).
# Reached through build-asan/sanitizers/smpirun (smpirun_launcher.c), which scripts/test-asan.sh
# puts first in PATH so that tests calling smpirun directly run under ASan unchanged:
#  - the ASan runtime must be the simulator's first library and SimGrid's programs are not linked
#    with it: the caller's LD_PRELOAD moves into -wrapper (the simulator only) behind the runtime;
#  - ASan aborts on the RTLD_DEEPBIND dlopen of SMPI's default privatization: use mmap unless the
#    caller chose -no-privatize (a caller's later --cfg=smpi/privatization still wins);
#    HAEC_ASAN_PRIVATIZATION=no instead: SimGrid 3.32's mmap privatization dereferences a null
#    region when an actor that is not an MPI rank yields (smpi_switch_data_segment);
#  - thread contexts: ASan cannot follow the raw/boost/ucontext stack switches.
set -euo pipefail
self_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
real=""
for c in $(type -ap smpirun); do
  case "$(dirname "$(readlink -f "$c")")" in
    "$self_dir" | */sanitizers) ;; # ourselves (the launcher lives in build-asan/sanitizers)
    *) real="$c"; break ;;
  esac
done
[ -n "$real" ] || { echo "smpirun-asan.sh: no real smpirun in PATH" >&2; exit 127; }
asan="${HAEC_ASAN_RUNTIME:-$(gcc -print-file-name=libasan.so)}"
pre="${HAEC_CALLER_PRELOAD-${LD_PRELOAD:-}}"
unset LD_PRELOAD HAEC_CALLER_PRELOAD

args=("$@")
wrapped=no
privatize=(--cfg=smpi/privatization:"${HAEC_ASAN_PRIVATIZATION:-mmap}")
for i in "${!args[@]}"; do
  case "${args[$i]}" in
    -no-privatize) privatize=() ;;
    -wrapper)
      wrapped=yes
      w="${args[$((i + 1))]}"
      # The runtime goes first: haec run puts it there itself; `env LD_PRELOAD=X ...` gets it
      # in front of X; any other wrapper gets it in front of itself.
      if [[ "$w" == *"$asan"* ]]; then
        :
      elif [[ "$w" == "env LD_PRELOAD="* ]]; then
        w="env LD_PRELOAD=$asan${pre:+:$pre}:${w#env LD_PRELOAD=}"
      else
        w="env LD_PRELOAD=$asan${pre:+:$pre} $w"
      fi
      args[$((i + 1))]="$w" ;;
  esac
done
extra=(--cfg=contexts/factory:thread "${privatize[@]}")
[ "$wrapped" = no ] && extra=(-wrapper "env LD_PRELOAD=$asan${pre:+:$pre}" "${extra[@]}")
exec "$real" "${extra[@]}" "${args[@]}"
