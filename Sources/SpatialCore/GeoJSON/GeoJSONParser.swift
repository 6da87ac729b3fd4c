/// The GeoJSON reader's engine: it walks the JSON bytes once and builds the typed model (or the
/// columnar point form) directly, through a ``FeatureSink``, with no intermediate JSON tree for
/// the GeoJSON structure. Properties are read as ``JSONValue``s with interned member names.
///
/// Members may come in any order. Where an object's meaning depends on its `type` and `type` is
/// not its first member, the reader looks ahead for `type` (checking the JSON of the members it
/// steps over) and then reads the object from its start.
struct GeoJSONParser {
    var s: JSONScanner
    /// Property names, numbered once for the whole input.
    var propertyKeys = KeyTable()
    /// Distinct ordered sets of property names.
    var shapes = ShapeTable()
    /// Whether an invalid feature is skipped (and reported) rather than ending the read.
    let skipInvalidFeatures: Bool
    /// The features skipped so far: their input index and failure.
    var skipped: [ReadFailure] = []
    /// The index the next feature of the input gets.
    var nextFeatureIndex = 0
    /// Property name numbers of the properties object being read (when it departs from the
    /// expected shape).
    var keyScratch: [Int32] = []
    /// The opening bytes of the last Feature (through its second member's name) and of the last
    /// Point geometry (through `"coordinates":`), and the bytes between a Feature member's value
    /// and the next member's value (`,"geometry":`), by member: stepped over when they repeat.
    var featureHead = ByteTemplate()
    var pointHead = ByteTemplate()
    var afterMember = [ByteTemplate](repeating: ByteTemplate(), count: Key.allCases.count)
    /// The byte templates around the values of properties objects, by shape number, and where
    /// they lie in the object being learned from.
    var memberTemplates: [MemberTemplates?] = []
    var templateMarks: [Int] = []

    init(_ bytes: UnsafeBufferPointer<UInt8>, options: GeoJSONReader.Options) {
        s = JSONScanner(bytes, maxDepth: options.maxDepth)
        skipInvalidFeatures = options.skipInvalidFeatures
    }

    // MARK: Documents

    /// Reads a whole GeoJSON text: a FeatureCollection, a Feature or a bare geometry.
    mutating func parseDocument<Sink: FeatureSink>(into sink: inout Sink) throws(ReadFailure) {
        try expectObject(what: "a GeoJSON text must be an object (a FeatureCollection, Feature or geometry)")
        let start = s.pos
        let found = try determineType()
        if found.type == .featureCollection {
            try enterObject(found)
            var first = !found.entered
            var sawFeatures = false
            while let key = try nextMember(&first) {
                if key == .features {
                    try parseFeatures(into: &sink)
                    sawFeatures = true
                } else {
                    try s.skipValue()
                }
            }
            if !sawFeatures {
                throw ReadFailure(geo: .missingMember, at: start, "a FeatureCollection needs a \"features\" array")
            }
        } else {
            s.recover(at: start, depth: 0)
            try readFeature(into: &sink, recovery: .skipValue) { (p: inout GeoJSONParser, sink: inout Sink, parts: inout Sink.Parts) throws(ReadFailure) in
                try p.parseFeatureOrGeometry(into: &sink, parts: &parts)
            }
        }
        try s.expectEnd()
    }

    /// Reads newline-delimited GeoJSON: one Feature (or bare geometry) per line; blank lines and a
    /// leading record separator (U+001E, RFC 8142) are allowed. With `skipInvalidFeatures`, a line
    /// that is not valid JSON is skipped too.
    mutating func parseNewlineDelimited<Sink: FeatureSink>(into sink: inout Sink) throws(ReadFailure) {
        let inputEnd = s.end
        var lineStart = s.pos
        while lineStart < inputEnd {
            var lineEnd = lineStart
            while lineEnd < inputEnd && s.base[lineEnd] != 0x0A { lineEnd += 1 }
            s.end = lineEnd
            s.pos = lineStart
            if s.skipWhitespace() == 0x1E { s.pos += 1 }
            _ = s.skipWhitespace()
            if s.pos < lineEnd {
                try readFeature(into: &sink, recovery: .resume(at: lineEnd)) { (p: inout GeoJSONParser, sink: inout Sink, parts: inout Sink.Parts) throws(ReadFailure) in
                    try p.expectObject(what: "each line must hold a GeoJSON Feature or geometry object")
                    try p.parseFeatureOrGeometry(into: &sink, parts: &parts)
                    try p.s.expectEnd()
                }
            }
            s.end = inputEnd
            lineStart = lineEnd + 1
        }
    }

    /// Reads the object at `pos` as one feature of the output: a Feature, or a bare geometry
    /// (which becomes a feature with no id and no properties).
    private mutating func parseFeatureOrGeometry<Sink: FeatureSink>(
        into sink: inout Sink, parts: inout Sink.Parts
    ) throws(ReadFailure) {
        let start = s.pos
        let depth = s.depth
        let found = try determineType()
        s.recover(at: start, depth: depth)
        switch found.type {
        case .feature: try parseFeature(into: &sink, parts: &parts)
        case .featureCollection:
            throw ReadFailure(geo: .unexpectedType, at: found.offset, "a FeatureCollection cannot stand here")
        default: try sink.readBareGeometry(into: &parts, &self)
        }
    }

    /// Reads the `features` array at the next value.
    private mutating func parseFeatures<Sink: FeatureSink>(into sink: inout Sink) throws(ReadFailure) {
        var b = s.skipWhitespace()
        guard b == UInt8(ascii: "[") else {
            throw try wrongType(what: "\"features\" must be an array of Feature objects")
        }
        try s.enterContainer()
        b = s.skipWhitespace()
        if b == UInt8(ascii: "]") {
            s.pos += 1
            s.depth -= 1
            return
        }
        while true {
            try readFeature(into: &sink, recovery: .skipValue) { (p: inout GeoJSONParser, sink: inout Sink, parts: inout Sink.Parts) throws(ReadFailure) in
                try p.expectObject(what: "each element of \"features\" must be a Feature object")
                try p.parseFeature(into: &sink, parts: &parts)
            }
            b = s.skipWhitespace()
            if b == UInt8(ascii: ",") {
                s.pos += 1
                continue
            }
            guard b == UInt8(ascii: "]") else { throw s.failure(.expectedCommaOrEnd, at: s.pos) }
            s.pos += 1
            s.depth -= 1
            return
        }
    }

    /// How reading goes on after an invalid feature, when invalid features are skipped.
    enum Recovery {
        /// Step over the feature's JSON value (impossible when the JSON itself is broken).
        case skipValue
        /// Go on at this offset (the next line of newline-delimited input), whatever the error.
        case resume(at: Int)
    }

    /// Runs `body` on the feature at the next value, giving it the next feature index, and
    /// commits it to the sink. A failure gets that index; with `skipInvalidFeatures` it is
    /// recorded instead and reading goes on as `recovery` says.
    @inline(__always) private mutating func readFeature<Sink: FeatureSink>(
        into sink: inout Sink, recovery: Recovery,
        _ body: (inout GeoJSONParser, inout Sink, inout Sink.Parts) throws(ReadFailure) -> Void
    ) throws(ReadFailure) {
        let index = nextFeatureIndex
        nextFeatureIndex += 1
        _ = s.skipWhitespace()
        let start = s.pos
        let depth = s.depth
        var parts = sink.newParts()
        do throws(ReadFailure) {
            try body(&self, &sink, &parts)
            sink.commit(consume parts)
        } catch {
            var failure = error
            failure.featureIndex = index
            guard skipInvalidFeatures else { throw failure }
            sink.discard(parts)
            skipped.append(failure)
            switch recovery {
            case .skipValue:
                guard failure.isRecoverable else { throw failure }
                s.recover(at: start, depth: depth)
                do throws(ReadFailure) {
                    // A feature skipped for a non-finite number word is stepped over too.
                    try s.skipValue(nonFinite: true)
                } catch {
                    var failure = error
                    failure.featureIndex = index
                    throw failure
                }
            case .resume(let offset):
                s.recover(at: offset, depth: depth)
            }
        }
    }

    // MARK: Features

    /// Reads the Feature object at `pos`: `type` must be `"Feature"`; `geometry`, `properties` and
    /// `id` go to the sink; other members are checked and ignored.
    mutating func parseFeature<Sink: FeatureSink>(into sink: inout Sink, parts: inout Sink.Parts) throws(ReadFailure) {
        let start = s.pos
        var first = true
        var type: GeoType?
        var typeOffset = start
        var members = 0
        var previous: Key?
        if let key = featureHead.skip(&s) {
            // The same opening bytes as a feature before: `{"type":"Feature","<key>":`.
            try s.enterContainer()
            s.pos = start + featureHead.count
            type = .feature
            first = false
            members = 2  // `type` and `key`: nothing more to learn from this feature
            try readFeatureMember(key, into: &sink, parts: &parts)
            previous = key
        } else {
            try s.enterContainer()
        }
        while true {
            // The next member: over learned bytes (`,"geometry":` after `properties`) when they
            // repeat, else token by token.
            let key: Key
            if let previous, let next = afterMember[previous.rawValue].skip(&s) {
                s.pos += afterMember[previous.rawValue].count
                key = next
            } else {
                let separator = s.pos
                let firstMember = first
                guard let next = try nextMember(&first) else { break }
                key = next
                if let previous, !firstMember { afterMember[previous.rawValue].learn(from: s, start: separator, key: key) }
            }
            members += 1
            if key == .type {
                typeOffset = s.pos
                type = try parseTypeValue()
            } else {
                if members == 2 && type == .feature { featureHead.learn(from: s, start: start, key: key) }
                try readFeatureMember(key, into: &sink, parts: &parts)
            }
            previous = key
        }
        guard let type else {
            throw ReadFailure(geo: .missingType, at: start, "a feature needs \"type\": \"Feature\"")
        }
        guard type == .feature else {
            throw ReadFailure(geo: .unexpectedType, at: typeOffset, "expected a Feature, found a \(type.name)")
        }
    }

    /// Reads the value of a Feature member other than `type`.
    @inline(__always) private mutating func readFeatureMember<Sink: FeatureSink>(
        _ key: Key, into sink: inout Sink, parts: inout Sink.Parts
    ) throws(ReadFailure) {
        switch key {
        case .geometry: try sink.readGeometry(into: &parts, &self)
        case .properties: try sink.readProperties(into: &parts, &self)
        case .id: sink.setID(try parseID(), in: &parts)
        default: try s.skipValue()
        }
    }

    /// Reads a feature's `id` value: a number or a string (`null` reads as no id).
    private mutating func parseID() throws(ReadFailure) -> FeatureID? {
        let b = s.skipWhitespace()
        switch b {
        case UInt8(ascii: "\""): return .string(try s.parseString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try s.parseNumber())
        case UInt8(ascii: "n"):
            _ = try s.parseLiteral()  // null: no id
            return nil
        default: throw try wrongType(what: "\"id\" must be a string or a number")
        }
    }

    // MARK: Objects and members

    /// The known member names; everything else is a foreign member.
    enum Key: Int, CaseIterable {
        case type, features, geometry, properties, id, coordinates, geometries, other
    }

    /// Fails unless the next value is an object (checking that it is JSON first).
    mutating func expectObject(what: @autoclosure () -> String) throws(ReadFailure) {
        if s.skipWhitespace() != UInt8(ascii: "{") { throw try wrongType(what: what()) }
    }

    /// The failure for a member value of the wrong JSON type at `pos`: the value's own JSON error
    /// if it is not JSON at all, else `.wrongMemberType` saying `what`.
    mutating func wrongType(what: String, kind: GeoJSONError.Kind = .wrongMemberType) throws(ReadFailure) -> ReadFailure {
        let offset = s.pos
        try s.skipValue()
        return ReadFailure(geo: kind, at: offset, what)
    }

    /// Steps to the next member of the object being read: returns its name with `pos` on its
    /// value, or `nil` after the closing brace. `first` is true right after the opening brace.
    @inline(__always) mutating func nextMember(_ first: inout Bool) throws(ReadFailure) -> Key? {
        var b = s.skipWhitespace()
        if b == UInt8(ascii: "}") {
            s.pos += 1
            s.depth -= 1
            return nil
        }
        if !first {
            guard b == UInt8(ascii: ",") else { throw s.failure(.expectedCommaOrEnd, at: s.pos) }
            s.pos += 1
            b = s.skipWhitespace()
        }
        first = false
        guard b == UInt8(ascii: "\"") else { throw s.failure(.expectedKey, at: s.pos) }
        let raw = try s.scanString()
        let key = raw.hasEscapes ? s.withUnescapedBytes(raw) { GeoJSONParser.key($0) }
            : GeoJSONParser.key(UnsafeBufferPointer(start: s.base + raw.start, count: raw.end - raw.start))
        b = s.skipWhitespace()
        guard b == UInt8(ascii: ":") else { throw s.failure(.expectedColon, at: s.pos) }
        s.pos += 1
        return key
    }

    /// The known member name with these bytes, or `.other`.
    @inline(__always) static func key(_ name: UnsafeBufferPointer<UInt8>) -> Key {
        @inline(__always) func equals(_ word: StaticString) -> Bool {
            bytesEqual(name.baseAddress!, word.utf8Start, count: word.utf8CodeUnitCount)
        }
        switch name.count {
        case 2: return equals("id") ? .id : .other
        case 4: return equals("type") ? .type : .other
        case 8: return equals("geometry") ? .geometry : equals("features") ? .features : .other
        case 10: return equals("properties") ? .properties : equals("geometries") ? .geometries : .other
        case 11: return equals("coordinates") ? .coordinates : .other
        default: return .other
        }
    }

    /// Where an object's `type` was found.
    struct FoundType {
        var type: GeoType
        /// The offset of the `type` value.
        var offset: Int
        /// True when `type` was the first member: the object is open and its first member read.
        /// False: `pos` is back on the opening brace.
        var entered: Bool
    }

    /// Finds the `type` of the object at `pos` (on its `{`). When `type` is the first member it
    /// is read in passing; otherwise the members before it are checked and stepped over, and
    /// `pos` returns to the brace.
    mutating func determineType() throws(ReadFailure) -> FoundType {
        let start = s.pos
        let depth = s.depth
        try s.enterContainer()
        var first = true
        var entered = true
        while let key = try nextMember(&first) {
            if key == .type {
                _ = s.skipWhitespace()
                let offset = s.pos
                let type = try parseTypeValue()
                if !entered {
                    s.pos = start
                    s.depth = depth
                }
                return FoundType(type: type, offset: offset, entered: entered)
            }
            entered = false
            try s.skipValue()
        }
        throw ReadFailure(geo: .missingType, at: start, "a GeoJSON object needs a \"type\" member")
    }

    /// Opens the object whose type was found, unless finding it already did.
    @inline(__always) mutating func enterObject(_ found: FoundType) throws(ReadFailure) {
        if !found.entered { try s.enterContainer() }
    }

    /// Reads a `type` value: a string naming a GeoJSON object.
    mutating func parseTypeValue() throws(ReadFailure) -> GeoType {
        guard s.skipWhitespace() == UInt8(ascii: "\"") else {
            throw try wrongType(what: "\"type\" must be a string")
        }
        let offset = s.pos
        let raw = try s.scanString()
        let type = raw.hasEscapes ? s.withUnescapedBytes(raw) { GeoType($0) }
            : GeoType(UnsafeBufferPointer(start: s.base + raw.start, count: raw.end - raw.start))
        guard let type else {
            throw ReadFailure(geo: .unknownType, at: offset, "unknown type \"\(s.makeString(raw))\"")
        }
        return type
    }
}

/// The GeoJSON object types (RFC 7946 §1.4).
enum GeoType: Equatable {
    case featureCollection, feature
    case point, multiPoint, lineString, multiLineString, polygon, multiPolygon, geometryCollection

    /// The type with this exact (case-sensitive) name.
    @inline(__always) init?(_ name: UnsafeBufferPointer<UInt8>) {
        @inline(__always) func equals(_ word: StaticString) -> Bool {
            bytesEqual(name.baseAddress!, word.utf8Start, count: word.utf8CodeUnitCount)
        }
        switch name.count {
        case 5 where equals("Point"): self = .point
        case 7 where equals("Feature"): self = .feature
        case 7 where equals("Polygon"): self = .polygon
        case 10 where equals("MultiPoint"): self = .multiPoint
        case 10 where equals("LineString"): self = .lineString
        case 12 where equals("MultiPolygon"): self = .multiPolygon
        case 15 where equals("MultiLineString"): self = .multiLineString
        case 17 where equals("FeatureCollection"): self = .featureCollection
        case 18 where equals("GeometryCollection"): self = .geometryCollection
        default: return nil
        }
    }

    /// The name as GeoJSON spells it.
    var name: String {
        switch self {
        case .featureCollection: "FeatureCollection"
        case .feature: "Feature"
        case .point: "Point"
        case .multiPoint: "MultiPoint"
        case .lineString: "LineString"
        case .multiLineString: "MultiLineString"
        case .polygon: "Polygon"
        case .multiPolygon: "MultiPolygon"
        case .geometryCollection: "GeometryCollection"
        }
    }

    /// Whether this is a geometry type.
    var isGeometry: Bool { self != .feature && self != .featureCollection }
}

/// Exact bytes learned from checked tokens — the opening of an object through the `:` after a
/// member name, or the `,` and member name between two members — that the reader expects to
/// see again. When the input repeats them, it holds the same tokens, so the reader steps over
/// them at once and goes on with the value of `key`.
struct ByteTemplate {
    private var bytes: [UInt8] = []
    /// The member whose value follows the template (`nil` until learned).
    private(set) var key: GeoJSONParser.Key?

    /// The template's length in bytes.
    var count: Int { bytes.count }

    /// The member that follows, when the input at the scanner's position starts with the
    /// template; the caller steps over the template.
    @inline(__always) func skip(_ s: inout JSONScanner) -> GeoJSONParser.Key? {
        let n = bytes.count
        guard let key, s.pos + n <= s.end else { return nil }
        let equal = bytes.withUnsafeBufferPointer { bytesEqual(s.base + s.pos, $0.baseAddress!, count: n) }
        return equal ? key : nil
    }

    /// Learns the template `start ..< s.pos` and the member it leads to. The bytes must be
    /// exactly the checked tokens the fast path stands for (`{`, the `type` member, `,`, the
    /// name of `key` and `:`; or `,`, the name and `:`), never a value the fast path would then
    /// not read.
    mutating func learn(from s: JSONScanner, start: Int, key: GeoJSONParser.Key) {
        let n = s.pos - start
        guard n <= 256 else { return }
        bytes = Array(UnsafeBufferPointer(start: s.base + start, count: n))
        self.key = key
    }
}
