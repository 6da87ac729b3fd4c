import Foundation

/// Lets background work step aside while the thread it serves runs pieces on both cores.
///
/// A build's query trees are sorted on a background thread while the build goes on; some of the
/// build's passes split their work over the two cores (``ParallelPair``). On a machine with two
/// cores those three threads share two: the half handed to a worker then waited behind the
/// trees' sort, and the build thread, its own half done, waited for it (`perf sched`, cities500:
/// the build thread slept 8–11 ms a build, nearly all of it in such waits). So the build closes
/// the gate around each two-core section, and the trees' sort passes the gate between ranges: it
/// waits there while the gate is closed, and goes on where it stopped once every section has
/// ended. Only where the background work runs
/// changes, never what it computes.
///
/// Closing never waits, and the background work never holds the gate, so a section cannot wait
/// for the work it pauses. Sections may nest or overlap: the gate opens when the last one ends.
///
/// - Complexity: O(1) for each call, plus the wait in ``pass()``.
@usableFromInline
final class PauseGate: @unchecked Sendable {
    // `closers` is read and written only with `condition` locked.
    private let condition = NSCondition()
    private var closers = 0

    @usableFromInline init() {}

    /// Starts a section: background work that reaches ``pass()`` waits until it ends. O(1).
    @usableFromInline func close() {
        condition.lock()
        closers += 1
        condition.unlock()
    }

    /// Ends a section started by ``close()``; the last to end lets waiting work go on. O(1).
    @usableFromInline func open() {
        condition.lock()
        assert(closers > 0, "a pause gate opened more often than it was closed")
        closers -= 1
        if closers == 0 { condition.broadcast() }
        condition.unlock()
    }

    /// Returns at once when no section is running; otherwise waits until none is. Called by the
    /// background work at points where stopping costs nothing. O(1) plus the wait.
    @usableFromInline func pass() {
        condition.lock()
        while closers > 0 { condition.wait() }
        condition.unlock()
    }

    /// Whether a section is running (for tests). O(1).
    var isClosed: Bool {
        condition.lock()
        defer { condition.unlock() }
        return closers > 0
    }
}
