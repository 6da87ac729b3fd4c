internal import SpatialCorePrefetch

/// Loads asked for ahead: the one place the library reaches the prefetch instruction (through the
/// `SpatialCorePrefetch` C target, since Swift cannot emit it). A prefetch never faults and never
/// changes a result; it only starts loading a cache line so that a later read finds it there.
enum Prefetch {
    /// Starts loading the cache line that holds `p`, without waiting for it. O(1).
    @inline(__always)
    static func line<T>(_ p: UnsafePointer<T>) {
        spatialcore_prefetch(p)
    }

    /// Calls `body(k)` for every `k` of `part`, in order; when `reach` > 0, first calls
    /// `ask(k)` before each `body(k)` for which `k + reach` is still in `part`, so that `ask` can
    /// start the loads of step `k + reach` (or of any step up to it). `reach` 0: `body` only, with
    /// no extra instruction in the loop. O(|part|).
    @inline(__always)
    static func forEach(_ part: Range<Int>, reach: Int, ask: (Int) -> Void, _ body: (Int) -> Void) {
        var k = part.lowerBound
        if reach > 0 {
            while k &+ reach < part.upperBound {
                ask(k)
                body(k)
                k &+= 1
            }
        }
        while k < part.upperBound {
            body(k)
            k &+= 1
        }
    }
}
