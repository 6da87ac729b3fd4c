/// Why and where GeoJSON could not be read: a typed error, never a crash.
///
/// `offset`, `line` and `column` locate the offending byte as in ``JSONParseError`` (1-based line
/// and column, the column in Unicode scalars). `featureIndex` is the 0-based index of the feature
/// in the input (its position in the `features` array, or its record number in newline-delimited
/// input) when the error lies inside one.
public struct GeoJSONError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public enum Kind: Hashable, Sendable {
        /// The input ends inside a value (or is empty).
        case truncated
        /// The text is not JSON; the associated kind says how (never `.truncated`, `.tooDeep` or
        /// `.nonFiniteNumber`, which have kinds of their own here).
        case invalidJSON(JSONParseError.Kind)
        /// A member has the wrong JSON type, e.g. `"features": {}`, `"properties": 3`,
        /// `"id": true`, or coordinates nested at the wrong depth for the geometry type.
        case wrongMemberType
        /// An object has no `type` member.
        case missingType
        /// `type` names no GeoJSON object (`"type": "Circle"`).
        case unknownType
        /// `type` names a GeoJSON object that is not allowed here (a `Point` in `features`, a
        /// `Feature` where a geometry belongs).
        case unexpectedType
        /// A required member is absent (`coordinates`, `geometries`, `features`).
        case missingMember
        /// A position with fewer than two numbers, or with an element that is not a number.
        case badPosition
        /// A number too large for a `Double`, or `NaN` / `Infinity`.
        case nonFiniteNumber
        /// A latitude outside −90 … 90.
        case latitudeOutOfRange
        /// Arrays and objects nested deeper than the reader's limit.
        case tooDeep
        /// A geometry other than `Point` (or `null`) where only points are accepted (the columnar
        /// ``PointFeatures`` form).
        case notAPoint

        /// Whether the JSON text itself is broken (so that no reader can find where the value
        /// with the error ends).
        var breaksJSON: Bool {
            switch self {
            case .truncated, .invalidJSON, .tooDeep: true
            default: false
            }
        }
    }

    /// What is wrong.
    public var kind: Kind
    /// The byte offset of the offending value from the start of the input.
    public var offset: Int
    /// The 1-based line of the offending value.
    public var line: Int
    /// The 1-based column (in Unicode scalars) of the offending value.
    public var column: Int
    /// The 0-based index of the feature that holds the error, when it lies inside one.
    public var featureIndex: Int?
    /// A sentence for people (which member, which type), without the location.
    public var message: String

    /// An error from its parts. O(1).
    public init(kind: Kind, offset: Int, line: Int, column: Int, featureIndex: Int?, message: String) {
        self.kind = kind
        self.offset = offset
        self.line = line
        self.column = column
        self.featureIndex = featureIndex
        self.message = message
    }

    /// The error as a sentence: where (line, column, byte offset, feature) and what. O(length of the sentence).
    public var description: String {
        let feature = featureIndex.map { " in feature \($0)" } ?? ""
        return "invalid GeoJSON at line \(line), column \(column) (byte \(offset))\(feature): \(message)"
    }

    /// Whether a reader that skips invalid features can step over this error: true for a
    /// well-formed JSON value that is not valid GeoJSON, false when the JSON text itself is broken.
    public var isRecoverable: Bool { !kind.breaksJSON }
}

/// A failure inside the readers, before its line and column are known: the public error types
/// are built from it at the API boundary, where the whole input is at hand.
struct ReadFailure: Error {
    var kind: GeoJSONError.Kind
    var offset: Int
    /// Extra words for people (for GeoJSON errors); empty for JSON syntax errors.
    var detail: String
    /// The index of the feature that holds the error, once known.
    var featureIndex: Int?

    init(_ kind: JSONParseError.Kind, at offset: Int) {
        switch kind {
        case .truncated: self.kind = .truncated
        case .tooDeep: self.kind = .tooDeep
        case .nonFiniteNumber: self.kind = .nonFiniteNumber
        default: self.kind = .invalidJSON(kind)
        }
        self.offset = offset
        self.detail = ""
    }

    init(geo kind: GeoJSONError.Kind, at offset: Int, _ detail: String) {
        self.kind = kind
        self.offset = offset
        self.detail = detail
    }

    /// The JSON kind of a failure that the JSON reader raised.
    var jsonKind: JSONParseError.Kind {
        switch kind {
        case .truncated: .truncated
        case .tooDeep: .tooDeep
        case .nonFiniteNumber: .nonFiniteNumber
        case .invalidJSON(let k): k
        default: .expectedValue  // not raised by the JSON reader
        }
    }

    func jsonError(in bytes: UnsafeBufferPointer<UInt8>) -> JSONParseError {
        let at = TextLocation.of(offset: offset, in: bytes)
        return JSONParseError(kind: jsonKind, offset: offset, line: at.line, column: at.column)
    }

    /// Whether a reader can step over the feature that holds this failure (see
    /// ``GeoJSONError/isRecoverable``).
    var isRecoverable: Bool { !kind.breaksJSON }

    func geoJSONError(in bytes: UnsafeBufferPointer<UInt8>) -> GeoJSONError {
        var cursor = TextCursor()
        return geoJSONError(in: bytes, cursor: &cursor)
    }

    /// The public error, its line and column counted on from `cursor` (failures in increasing
    /// offset order take one pass over the input).
    func geoJSONError(in bytes: UnsafeBufferPointer<UInt8>, cursor: inout TextCursor) -> GeoJSONError {
        let at = cursor.location(of: offset, in: bytes)
        let message: String
        switch kind {
        case .truncated: message = JSONParseError.Kind.truncated.message
        case .tooDeep: message = JSONParseError.Kind.tooDeep.message
        case .invalidJSON(let k): message = k.message
        case .nonFiniteNumber where detail.isEmpty: message = JSONParseError.Kind.nonFiniteNumber.message
        default: message = detail
        }
        return GeoJSONError(
            kind: kind, offset: offset, line: at.line, column: at.column, featureIndex: featureIndex,
            message: message)
    }
}
