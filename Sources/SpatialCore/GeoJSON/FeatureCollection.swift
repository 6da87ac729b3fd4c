/// The features of a GeoJSON document, in input order, with the reader's report.
public struct FeatureCollection: Hashable, Sendable {
    /// The features read (a document that is a single `Feature` or a bare geometry gives one).
    public var features: [Feature]
    /// What the reader skipped (only with ``GeoJSONReader/Options/skipInvalidFeatures``).
    public var report: GeoJSONReadReport

    /// A collection from its parts. O(1).
    public init(features: [Feature] = [], report: GeoJSONReadReport = GeoJSONReadReport()) {
        self.features = features
        self.report = report
    }
}

/// What a GeoJSON reader met besides the features it returned.
public struct GeoJSONReadReport: Hashable, Sendable {
    /// The features left out because they were invalid, in input order.
    public var skipped: [SkippedFeature]

    /// The number of features left out. O(1).
    public var skippedCount: Int { skipped.count }

    /// A report from its parts. O(1).
    public init(skipped: [SkippedFeature] = []) {
        self.skipped = skipped
    }
}

/// A feature that a reader left out, and why.
public struct SkippedFeature: Hashable, Sendable {
    /// The 0-based index of the feature in the input (its position in `features`, or its record
    /// number in newline-delimited input).
    public var index: Int
    /// What is wrong with it.
    public var error: GeoJSONError

    /// A skipped feature from its parts. O(1).
    public init(index: Int, error: GeoJSONError) {
        self.index = index
        self.error = error
    }
}
