/// The id of a cluster: the integer supercluster puts in `cluster_id`.
///
/// It encodes where the cluster was formed: `(i << 5) + (z + 1) + N`, with `i` the position of its
/// first item in level `z + 1`, `z` the zoom it was formed at and `N` the number of input features,
/// so cluster ids never collide with point indices (`0 ..< N`).
public struct ClusterID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The integer as it appears in properties and JSON.
    public let rawValue: Int

    /// An id from its integer. Any integer is accepted; an index answers an id it did not produce
    /// with ``ClusterError/noCluster(_:)``. O(1).
    @inlinable public init(rawValue: Int) { self.rawValue = rawValue }

    /// The id of the cluster formed at `zoom` around the item at `originIndex` of level `zoom + 1`,
    /// in an index built from `featureCount` features. O(1).
    @inlinable public init(originIndex: Int, zoom: Int, featureCount: Int) {
        rawValue = (originIndex << 5) + (zoom + 1) + featureCount
    }

    /// The position of the cluster's first item in its origin level, and that level's zoom
    /// (the zoom the cluster was formed at, plus one); `nil` when the integer cannot be a cluster
    /// id for `featureCount` features. O(1).
    @inlinable public func origin(featureCount: Int) -> (index: Int, zoom: Int)? {
        let (v, overflow) = rawValue.subtractingReportingOverflow(featureCount)
        guard !overflow, v >= 0 else { return nil }
        return (v >> 5, v % 32)
    }

    /// Orders ids by their integer. O(1).
    @inlinable public static func < (lhs: ClusterID, rhs: ClusterID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The integer as text. O(1).
    public var description: String { String(rawValue) }
}
