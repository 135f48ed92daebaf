#!/bin/sh
# compiler_header.sh CC CFLAGS: build_info.h naming the compiler and its version, as some codes'
# Makefiles generate (the compiler command arrives as one argument and is run as one word).
cc="$1"
version=$("$cc" --version 2>/dev/null | head -n 1) || exit 1
[ -n "$version" ] || { echo "compiler_header.sh: '$cc --version' printed nothing" >&2; exit 1; }
printf '#define BUILD_COMPILER "%s"\n#define BUILD_COMPILER_VERSION "%s"\n#define BUILD_CFLAGS "%s"\n' \
  "$cc" "$version" "$2" > build_info.h
