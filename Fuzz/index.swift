// libFuzzer entry: index deserialization and queries on what reads (see FuzzBodies.index). Built by Scripts/fuzz.sh.
// With SPATIALCORE_WRITE_SEEDS=DIR in the environment the binary writes the seed corpus to DIR and exits.
import Foundation

@_cdecl("LLVMFuzzerInitialize")
public func fuzzIndexInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>) -> CInt {
    if let dir = ProcessInfo.processInfo.environment["SPATIALCORE_WRITE_SEEDS"] {
        for (i, seed) in FuzzBodies.indexSeeds().enumerated() {
            FileManager.default.createFile(atPath: "\(dir)/seed\(i)", contents: Data(seed))
        }
        exit(0)
    }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIndex(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzBodies.index(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
