// libFuzzer entry: the GeoJSON reader, then clustering (see FuzzBodies.geojson). Built by Scripts/fuzz.sh.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGeoJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzBodies.geojson(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
