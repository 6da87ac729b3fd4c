#!/usr/bin/env bash
# Builds and runs the libFuzzer targets in Fuzz/<target>.swift (SwiftPM cannot pass
# -sanitize=fuzzer without unsafeFlags, so this calls swiftc directly on the library sources,
# the shared fuzz bodies and the target's entry file, compiled as one module).
#
#   Scripts/fuzz.sh build TARGET            -> .build/fuzz/TARGET
#   Scripts/fuzz.sh run TARGET SECONDS      -> fuzzes from the committed seeds (Fuzz/corpus/TARGET)
#                                              and past findings (Fuzz/regressions/TARGET) into a
#                                              working corpus .build/fuzz/corpus-TARGET; exits non-zero
#                                              on a crash, leaving the input in .build/fuzz/artifacts-TARGET/
# Targets: expression, index, geojson (style once the scene lands).
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/fuzz
mkdir -p "$out"

build() {
    local target=$1
    local sources
    sources=$(find Sources/SpatialCore -name '*.swift' | sort)
    # shellcheck disable=SC2086
    swiftc -sanitize=fuzzer,address -O -parse-as-library -module-name SpatialCoreFuzz \
        -D SPATIALCORE_FUZZ -j 2 -num-threads 2 \
        $sources Tests/SpatialCoreTests/Reliability/FuzzBodies.swift "Fuzz/$target.swift" \
        -o "$out/$target" 2> >(grep -v "Cannot export local symbol" >&2)
}

run() {
    local target=$1 seconds=$2
    shift 2
    [ -x "$out/$target" ] || build "$target"
    local corpus="$out/corpus-$target" artifacts="$out/artifacts-$target/"
    mkdir -p "$corpus" "$artifacts" "Fuzz/regressions/$target"
    "$out/$target" "$corpus" "Fuzz/corpus/$target" "Fuzz/regressions/$target" \
        -max_total_time="$seconds" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$artifacts" -print_final_stats=1 "$@"
}

case "${1:-}" in
build) build "$2" ;;
run) run "$2" "$3" "${@:4}" ;;
*) echo "usage: $0 build TARGET | run TARGET SECONDS [libFuzzer options]" >&2; exit 2 ;;
esac
