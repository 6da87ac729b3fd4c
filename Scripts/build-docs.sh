#!/usr/bin/env bash
# Builds the DocC documentation of SpatialCore with the toolchain's own `docc` (no plugin):
# symbol graphs from the compiler, then `docc convert` of Sources/SpatialCore/SpatialCore.docc.
#
#   Scripts/build-docs.sh [OUTPUT.doccarchive]      (default .build/SpatialCore.doccarchive)
#
# Fails on any DocC warning (a broken symbol link, an unknown article). Uses its own build
# folder (.build/docs) so that the symbol-graph flags never invalidate the ordinary build.
# Set DOCC to use another docc; HOSTING_BASE_PATH for a static site under a sub-path.
set -euo pipefail
cd "$(dirname "$0")/.."

output="${1:-.build/SpatialCore.doccarchive}"
docc="${DOCC:-}"
if [[ -z "$docc" ]]; then
    docc="$(command -v docc || true)"
    [[ -z "$docc" ]] && docc="$(xcrun --find docc 2>/dev/null || true)"
    [[ -z "$docc" ]] && docc="$(dirname "$(command -v swift)")/docc"
fi
[[ -x "$docc" ]] || { echo "build-docs: docc not found (set DOCC)" >&2; exit 1; }

graphs=.build/docs/symbol-graphs
# A fresh build path: an up-to-date build would emit no symbol graphs.
rm -rf .build/docs
mkdir -p "$graphs"
swift build --build-path .build/docs --target SpatialCore \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs" \
    -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public

args=(convert Sources/SpatialCore/SpatialCore.docc
    --additional-symbol-graph-dir "$graphs"
    --fallback-display-name SpatialCore
    --fallback-bundle-identifier SpatialCore
    --output-path "$output"
    --warnings-as-errors)
if [[ -n "${HOSTING_BASE_PATH:-}" ]]; then
    args+=(--transform-for-static-hosting --hosting-base-path "$HOSTING_BASE_PATH")
fi
"$docc" "${args[@]}"
echo "build-docs: wrote $output"
