# Shared by the integration tests: tests/integration/test_*.sh BUILD_DIR [SOURCE_DIR]
# (ctest passes both). Sourced at the top of a test: strict mode, the usual paths, a scratch
# directory that is removed on exit and is the working directory, and fail/skip.
set -euo pipefail
build="$(cd "$1" && pwd)"
source_dir="$(cd "${2:-$(dirname "${BASH_SOURCE[0]}")/../..}" && pwd)"
haec="$build/bin/haec"
py="${HAEC_PYTHON:-/usr/bin/python3}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*"; exit 77; } # ctest's SKIP_RETURN_CODE
