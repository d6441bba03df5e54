#!/usr/bin/env bash
# The tree is formatted by its .clang-format with Debian's clang-format-14 (the CTest test
# `Formatting`, so CI fails on unformatted code). To format: scripts/check-format.sh --fix.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format-14 >/dev/null || { echo "check-format: clang-format-14 is not installed (scripts/install-deps.sh)"; exit 1; }
mode=(--dry-run --Werror)
if [ "${1:-}" = "--fix" ]; then mode=(-i); fi
git ls-files -z --cached --others --exclude-standard '*.cpp' '*.hpp' | xargs -0 clang-format-14 "${mode[@]}"
