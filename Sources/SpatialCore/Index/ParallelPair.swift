import Dispatch

/// Runs independent pieces of build work on the machine's two cores and waits for all of them.
/// Used only where the pieces touch disjoint memory, so the result is identical to running them
/// one after the other. A ``Parallelism`` may name background work that steps aside while the
/// pieces run on both cores (a ``PauseGate``, closed for the section).
@usableFromInline
internal enum ParallelPair {
    /// Below this many items the thread hand-off costs more than it saves.
    @usableFromInline static var threshold: Int { 1 << 16 }

    /// Runs `first` and `second` concurrently when `parallel` is enabled, else in order.
    @inlinable static func run(parallel: Parallelism, _ first: () -> Void, _ second: () -> Void) {
        forEach(2, parallel: parallel) { i in if i == 0 { first() } else { second() } }
    }

    /// Calls `body` with the two halves of `0 ..< count`, `0 ..< count / 2` then `count / 2 ..< count`,
    /// concurrently when `parallel` is enabled. `body` must write only memory of its own half.
    @inlinable static func halves(of count: Int, parallel: Parallelism, _ body: (Range<Int>) -> Void) {
        run(parallel: parallel, { body(0 ..< count / 2) }, { body(count / 2 ..< count) })
    }

    /// Calls `body` with every index in `0 ..< count`, spread over both cores when `parallel`
    /// is enabled (each core takes the next index as it finishes one, so list long tasks first),
    /// else in order on the calling thread. `body` must write only memory of its own index.
    /// While the pieces run on both cores, the gate `parallel` names (if any) is closed, so that
    /// the background work behind it steps aside.
    @inlinable static func forEach(_ count: Int, parallel: Parallelism, _ body: (Int) -> Void) {
        guard parallel.isEnabled && count > 1 else {
            for i in 0 ..< count { body(i) }
            return
        }
        parallel.yielding?.close()
        defer { parallel.yielding?.open() }
        withoutActuallyEscaping(body) { body in
            let work = UnsafeTask(body: body)
            DispatchQueue.concurrentPerform(iterations: count) { i in work.body(i) }
        }
    }

    /// A task per index, handed to the worker threads. Each index writes its own memory.
    @usableFromInline
    struct UnsafeTask: @unchecked Sendable {
        @usableFromInline let body: (Int) -> Void
        @inlinable init(body: @escaping (Int) -> Void) { self.body = body }
    }
}

/// Whether a piece of build work may use both cores (``ParallelPair``) and, when it does, which
/// background work steps aside meanwhile (a ``PauseGate`` closed for the section). A Boolean
/// literal is a parallelism without a gate.
@usableFromInline
struct Parallelism: Sendable, ExpressibleByBooleanLiteral {
    /// Whether the work may split over the two cores.
    @usableFromInline let isEnabled: Bool
    /// The gate closed while the work runs on both cores, if any.
    @usableFromInline let yielding: PauseGate?

    /// Both cores when `isEnabled`; `yielding`: the gate of the background work to pause. O(1).
    @inlinable init(_ isEnabled: Bool, yielding: PauseGate? = nil) {
        self.isEnabled = isEnabled
        self.yielding = yielding
    }

    /// Both cores when `value`, without a gate (`parallel: false` at a call site). O(1).
    @inlinable init(booleanLiteral value: Bool) {
        self.init(value)
    }

    /// The same gate, enabled only when this is and `condition` holds. O(1).
    @inlinable func when(_ condition: Bool) -> Parallelism {
        Parallelism(isEnabled && condition, yielding: yielding)
    }
}
