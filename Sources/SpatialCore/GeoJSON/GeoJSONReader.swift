/// Reads GeoJSON (RFC 7946, read liberally where real files differ) from UTF-8 bytes into the
/// typed model or the columnar point form, in one pass over the bytes.
///
/// Accepted: a `FeatureCollection`, a single `Feature` or a bare geometry (which becomes one
/// feature with no id and no properties); newline-delimited GeoJSON through `read(ndjson:)`.
/// Members in any order; `bbox` and foreign members (`crs`, `name`, …) are checked as JSON and
/// ignored. Feature `id` a number or a string (`null`: no id); `properties` an object or `null`
/// (empty); `geometry` an object or `null`, and a missing `geometry` reads as `null`. Positions
/// hold two or more numbers: longitude, latitude, then an altitude that is kept (``Position``)
/// and further values that are dropped. Empty arrays of positions, lines or polygons are
/// accepted (a Point needs its position); ring closure and minimum vertex counts are not checked.
/// Longitudes are kept as read (wrapping is the indexes' business).
///
/// Errors (``GeoJSONError``, with offset, line:column and feature index): broken JSON, truncated
/// input, wrong member types, missing or unknown `type`, a missing `coordinates` / `geometries`
/// / `features` member, a position with fewer than two numbers or a non-number in it, a number
/// that is not finite, a latitude outside −90 … 90, nesting deeper than ``Options/maxDepth``.
/// With ``Options/skipInvalidFeatures``, a feature with an error that leaves the JSON readable is
/// left out and listed in the result's report instead (by its input index: the features after
/// it move up in the result).
public struct GeoJSONReader: Sendable {
    /// How to read.
    public struct Options: Hashable, Sendable {
        /// Skip (and report) invalid features instead of failing. Broken JSON still fails, except
        /// in newline-delimited input, where the broken line is skipped.
        public var skipInvalidFeatures: Bool
        /// The deepest nesting of arrays and objects allowed, at most ``JSONReader/maximumDepth``
        /// (see ``JSONReader``).
        public var maxDepth: Int

        /// Options; by default invalid features are errors and nesting is limited to 512. O(1).
        public init(skipInvalidFeatures: Bool = false, maxDepth: Int = JSONReader.defaultMaxDepth) {
            self.skipInvalidFeatures = skipInvalidFeatures
            self.maxDepth = maxDepth
        }
    }

    /// How this reader reads.
    public var options: Options

    /// A reader with these options. O(1).
    public init(options: Options = Options()) {
        self.options = options
    }

    /// The features of a GeoJSON text. O(bytes).
    public func read<Bytes: Collection>(_ bytes: Bytes) throws(GeoJSONError) -> FeatureCollection
    where Bytes.Element == UInt8 {
        try run(bytes, FeatureListSink(), { (p: inout GeoJSONParser, sink: inout FeatureListSink) throws(ReadFailure) in
            try p.parseDocument(into: &sink)
        }, finish: { _, sink, report in FeatureCollection(features: sink.features, report: report) }).get()
    }

    /// The features of newline-delimited GeoJSON (one Feature or geometry per line). O(bytes).
    public func read<Bytes: Collection>(ndjson bytes: Bytes) throws(GeoJSONError) -> FeatureCollection
    where Bytes.Element == UInt8 {
        try run(bytes, FeatureListSink(), { (p: inout GeoJSONParser, sink: inout FeatureListSink) throws(ReadFailure) in
            try p.parseNewlineDelimited(into: &sink)
        }, finish: { _, sink, report in FeatureCollection(features: sink.features, report: report) }).get()
    }

    /// The point features of a GeoJSON text in columnar form (see ``PointFeatures``). O(bytes).
    public func readPoints<Bytes: Collection>(_ bytes: Bytes) throws(GeoJSONError) -> PointFeatures
    where Bytes.Element == UInt8 {
        try run(bytes, PointFeaturesBuilder(), { (p: inout GeoJSONParser, sink: inout PointFeaturesBuilder) throws(ReadFailure) in
            try p.parseDocument(into: &sink)
        }, finish: { p, sink, report in sink.build(keys: p.propertyKeys, shapes: p.shapes, report: report) }).get()
    }

    /// The point features of newline-delimited GeoJSON in columnar form. O(bytes).
    public func readPoints<Bytes: Collection>(ndjson bytes: Bytes) throws(GeoJSONError) -> PointFeatures
    where Bytes.Element == UInt8 {
        try run(bytes, PointFeaturesBuilder(), { (p: inout GeoJSONParser, sink: inout PointFeaturesBuilder) throws(ReadFailure) in
            try p.parseNewlineDelimited(into: &sink)
        }, finish: { p, sink, report in sink.build(keys: p.propertyKeys, shapes: p.shapes, report: report) }).get()
    }

    /// Runs `body` over the bytes with a parser and a sink, and `finish` on the outcome; failures
    /// become public errors, with line and column.
    private func run<Bytes: Collection, Sink: FeatureSink, Output>(
        _ bytes: Bytes, _ sink: Sink, _ body: (inout GeoJSONParser, inout Sink) throws(ReadFailure) -> Void,
        finish: (GeoJSONParser, Sink, GeoJSONReadReport) -> Output
    ) -> Result<Output, GeoJSONError> where Bytes.Element == UInt8 {
        JSONReader.withContiguousBytes(bytes) { buffer in
            var parser = GeoJSONParser(buffer, options: options)
            var sink = sink
            do throws(ReadFailure) {
                try body(&parser, &sink)
            } catch {
                return .failure(error.geoJSONError(in: buffer))
            }
            // In input order: one pass counts the lines of all of them.
            var cursor = TextCursor()
            let skipped = parser.skipped.map {
                SkippedFeature(index: $0.featureIndex ?? 0, error: $0.geoJSONError(in: buffer, cursor: &cursor))
            }
            return .success(finish(parser, sink, GeoJSONReadReport(skipped: skipped)))
        }
    }
}

/// Shorthands for ``GeoJSONReader``.
public enum GeoJSON {
    /// The features of a GeoJSON text (see ``GeoJSONReader``). O(bytes).
    public static func read<Bytes: Collection>(_ bytes: Bytes, options: GeoJSONReader.Options = .init())
        throws(GeoJSONError) -> FeatureCollection where Bytes.Element == UInt8
    {
        try GeoJSONReader(options: options).read(bytes)
    }

    /// The features of newline-delimited GeoJSON. O(bytes).
    public static func read<Bytes: Collection>(ndjson bytes: Bytes, options: GeoJSONReader.Options = .init())
        throws(GeoJSONError) -> FeatureCollection where Bytes.Element == UInt8
    {
        try GeoJSONReader(options: options).read(ndjson: bytes)
    }

    /// The point features of a GeoJSON text in columnar form. O(bytes).
    public static func readPoints<Bytes: Collection>(_ bytes: Bytes, options: GeoJSONReader.Options = .init())
        throws(GeoJSONError) -> PointFeatures where Bytes.Element == UInt8
    {
        try GeoJSONReader(options: options).readPoints(bytes)
    }
}
