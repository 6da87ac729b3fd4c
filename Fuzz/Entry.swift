// The libFuzzer entry of every fuzz target, built once by Scripts/fuzz.sh into .build/fuzz/spatialcore-fuzz.
// SPATIALCORE_FUZZ_TARGET (set by `Scripts/fuzz.sh run TARGET`) picks the body in FuzzBodies:
//   index       index deserialization (k-d trees of Double and Float, packed R-tree), then queries
//   expression  expression parser (every purpose), then evaluation
//   geojson     GeoJSON reader (document, NDJSON, columnar points), then clustering
//   style       style-document loader (Scene(styleData:)), then scene queries
// With SPATIALCORE_WRITE_SEEDS=DIR in the environment the binary writes the index seed corpus to DIR and exits.
import Foundation

enum FuzzTarget: String {
    case index, expression, geojson, style
}

let fuzzTarget: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["SPATIALCORE_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        fatalError("SPATIALCORE_FUZZ_TARGET is '\(name)': index, expression, geojson or style")
    }
    return target
}()

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>) -> CInt {
    if let dir = ProcessInfo.processInfo.environment["SPATIALCORE_WRITE_SEEDS"] {
        for (i, seed) in FuzzBodies.indexSeeds().enumerated() {
            _ = FileManager.default.createFile(atPath: "\(dir)/seed\(i)", contents: Data(seed))
        }
        exit(0)
    }
    _ = fuzzTarget  // fail at start, not on the first input, when the target is not set
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    switch fuzzTarget {
    case .index: FuzzBodies.index(bytes)
    case .expression: FuzzBodies.expression(bytes)
    case .geojson: FuzzBodies.geojson(bytes)
    case .style: FuzzBodies.style(bytes)
    }
    return 0
}
