/// Reading JSON text into a ``JSONValue``: the general reader that GeoJSON properties, style
/// documents and expressions share.
///
/// It follows RFC 8259 strictly, with the choices of `JSON.parse` where the RFC leaves room:
/// - numbers become the `Double` nearest to the decimal text (`-0` stays negative zero); a number
///   too large for a `Double` (`1e400`) is an error (`.nonFiniteNumber`), as are `NaN` and
///   `Infinity`, which JSON lacks;
/// - strings are unescaped fully (`\uXXXX` and surrogate pairs); a lone surrogate escape, a raw
///   control character or malformed UTF-8 is an error;
/// - a repeated member name keeps its first position and its last value;
/// - a UTF-8 byte-order mark at the start is allowed; anything but white space after the value is
///   an error;
/// - arrays and objects may nest at most `maxDepth` deep (`.tooDeep` beyond, never a stack
///   overflow); a `maxDepth` above ``maximumDepth`` counts as ``maximumDepth``.
public enum JSONReader {
    /// The default nesting limit.
    public static let defaultMaxDepth = 512
    /// The highest nesting limit a reader accepts. Values nest in memory as deep as in the text,
    /// and freeing one (or reading GeoJSON geometry collections) recurses once a level: 1,024
    /// levels fit a thread's stack of 512 KiB (the default for secondary threads on Apple
    /// platforms) with room to spare; 100,000 overflowed an 8 MiB main thread.
    public static let maximumDepth = 1_024

    /// Runs `body` on the contiguous bytes of `bytes` (copying them only if the collection has no
    /// contiguous storage).
    static func withContiguousBytes<C: Collection, R>(
        _ bytes: C, _ body: (UnsafeBufferPointer<UInt8>) -> R
    ) -> R where C.Element == UInt8 {
        if let result = bytes.withContiguousStorageIfAvailable(body) { return result }
        return Array(bytes).withUnsafeBufferPointer(body)
    }

    /// The value in `bytes`, or the first error.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) -> Result<JSONValue, JSONParseError> {
        var scanner = JSONScanner(bytes, maxDepth: maxDepth)
        do throws(ReadFailure) {
            let value = try scanner.parseValue()
            try scanner.expectEnd()
            return .success(value)
        } catch {
            return .failure(error.jsonError(in: bytes))
        }
    }
}

extension JSONValue {
    /// Reads one JSON value from UTF-8 bytes (`[UInt8]`, `Data`, a slice …). O(bytes).
    /// - Throws: ``JSONParseError`` with the kind, byte offset, line and column of the first error.
    public init<Bytes: Collection>(parsing bytes: Bytes, maxDepth: Int = JSONReader.defaultMaxDepth)
        throws(JSONParseError) where Bytes.Element == UInt8
    {
        self = try JSONReader.withContiguousBytes(bytes) { JSONReader.parse($0, maxDepth: maxDepth) }.get()
    }

    /// Reads one JSON value from text. O(text).
    /// - Throws: ``JSONParseError`` with the kind, byte offset (in UTF-8), line and column.
    public init(parsing text: String, maxDepth: Int = JSONReader.defaultMaxDepth) throws(JSONParseError) {
        var text = text
        self = try text.withUTF8 { JSONReader.parse($0, maxDepth: maxDepth) }.get()
    }
}
