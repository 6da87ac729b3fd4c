// libFuzzer entry: the expression parser and evaluator (see FuzzBodies.expression). Built by Scripts/fuzz.sh.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExpression(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzBodies.expression(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
