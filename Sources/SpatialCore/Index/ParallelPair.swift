import Dispatch

/// Runs independent pieces of build work on the machine's two cores and waits for all of them.
/// Used only where the pieces touch disjoint memory, so the result is identical to running them
/// one after the other.
@usableFromInline
internal enum ParallelPair {
    /// Below this many items the thread hand-off costs more than it saves.
    @usableFromInline static var threshold: Int { 1 << 16 }

    /// Runs `first` and `second` concurrently when `parallel` is true, else in order.
    @inlinable static func run(parallel: Bool, _ first: () -> Void, _ second: () -> Void) {
        forEach(2, parallel: parallel) { i in if i == 0 { first() } else { second() } }
    }

    /// Calls `body` with the two halves of `0 ..< count`, `0 ..< count / 2` then `count / 2 ..< count`,
    /// concurrently when `parallel` is true. `body` must write only memory of its own half.
    @inlinable static func halves(of count: Int, parallel: Bool, _ body: (Range<Int>) -> Void) {
        run(parallel: parallel, { body(0 ..< count / 2) }, { body(count / 2 ..< count) })
    }

    /// Calls `body` with every index in `0 ..< count`, spread over both cores when `parallel`
    /// is true (each core takes the next index as it finishes one, so list long tasks first),
    /// else in order on the calling thread. `body` must write only memory of its own index.
    @inlinable static func forEach(_ count: Int, parallel: Bool, _ body: (Int) -> Void) {
        guard parallel && count > 1 else {
            for i in 0 ..< count { body(i) }
            return
        }
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
