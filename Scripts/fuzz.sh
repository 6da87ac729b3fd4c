#!/usr/bin/env bash
# Builds and runs the libFuzzer targets (SwiftPM cannot pass -sanitize=fuzzer without unsafeFlags,
# so this calls swiftc directly on the library sources, the shared fuzz bodies and the entry
# Fuzz/Entry.swift, compiled once as one module; the target is chosen when the binary runs).
#
#   Scripts/fuzz.sh build                   -> .build/fuzz/spatialcore-fuzz (every target)
#   Scripts/fuzz.sh run TARGET SECONDS      -> fuzzes from the committed seeds (Fuzz/corpus/TARGET)
#                                              and past findings (Fuzz/regressions/TARGET) into a
#                                              working corpus .build/fuzz/corpus-TARGET; exits non-zero
#                                              on a crash, leaving the input in .build/fuzz/artifacts-TARGET/
#   Scripts/fuzz.sh replay TARGET FILE...   -> runs the target once on each file (to reproduce a finding)
# Targets: index, expression, geojson, style (see Fuzz/Entry.swift). A target with a dictionary
# (Fuzz/TARGET.dict, the words its format is made of) runs with it.
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/fuzz
bin="$out/spatialcore-fuzz"
targets=" index expression geojson style "
mkdir -p "$out"

build() {
    local sources
    sources=$(find Sources/SpatialCore -name '*.swift' | sort)
    # shellcheck disable=SC2086
    swiftc -sanitize=fuzzer,address -O -parse-as-library -module-name SpatialCoreFuzz \
        -D SPATIALCORE_FUZZ -j 2 -num-threads 2 -I Sources/SpatialCorePrefetch/include \
        $sources Tests/SpatialCoreTests/Reliability/FuzzBodies.swift Fuzz/Entry.swift \
        -o "$bin" 2> >(grep -v "Cannot export local symbol" >&2)
}

check() {
    [[ "$targets" == *" $1 "* ]] || { echo "unknown fuzz target '$1' (targets:$targets)" >&2; exit 2; }
    [ -x "$bin" ] || build
}

run() {
    local target=$1 seconds=$2
    shift 2
    check "$target"
    local corpus="$out/corpus-$target" artifacts="$out/artifacts-$target/"
    mkdir -p "$corpus" "$artifacts" "Fuzz/regressions/$target"
    local dict=()
    [ -f "Fuzz/$target.dict" ] && dict=(-dict="Fuzz/$target.dict")
    SPATIALCORE_FUZZ_TARGET="$target" "$bin" "$corpus" "Fuzz/corpus/$target" "Fuzz/regressions/$target" \
        -max_total_time="$seconds" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$artifacts" -print_final_stats=1 "${dict[@]}" "$@"
}

replay() {
    local target=$1
    shift
    check "$target"
    SPATIALCORE_FUZZ_TARGET="$target" "$bin" "$@"
}

case "${1:-}" in
build) build ;;
run) run "$2" "$3" "${@:4}" ;;
replay) replay "$2" "${@:3}" ;;
*) echo "usage: $0 build | run TARGET SECONDS [libFuzzer options] | replay TARGET FILE..." >&2; exit 2 ;;
esac
