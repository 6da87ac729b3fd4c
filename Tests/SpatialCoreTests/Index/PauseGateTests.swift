import Dispatch
import Testing
@testable import SpatialCore

/// The gate a build closes around its two-core passes and its background sorts wait at: it
/// opens when the last section ends, `pass()` waits only while it is closed, and a sort that
/// passes it gives the layout of a sort that does not.
@Suite("Index: pause gate")
struct PauseGateTests {
    /// A finish signal from work started on another thread.
    final class Finished: @unchecked Sendable {
        let semaphore = DispatchSemaphore(value: 0)
        /// Whether the work finished within `seconds`.
        func within(_ seconds: Double) -> Bool {
            semaphore.wait(timeout: .now() + seconds) == .success
        }
    }

    @Test("sections nest: the gate opens when the last one ends")
    func nestedSections() {
        let gate = PauseGate()
        #expect(!gate.isClosed)
        gate.pass()  // open: returns at once
        gate.close()
        gate.close()
        #expect(gate.isClosed)
        gate.open()
        #expect(gate.isClosed)
        gate.open()
        #expect(!gate.isClosed)
        gate.pass()
    }

    @Test("background work waits at a closed gate and goes on once it opens")
    func passWaitsWhileClosed() {
        let gate = PauseGate()
        gate.close()
        let finished = Finished()
        DispatchQueue.global().async {
            gate.pass()
            finished.semaphore.signal()
        }
        let early = finished.within(0.2)
        #expect(!early, "passed a closed gate")
        gate.open()
        if !early { #expect(finished.within(30), "still waiting after the gate opened") }
    }

    @Test("a two-core section closes the gate for its pieces only; a one-core one never does",
          arguments: [false, true])
    func sectionsCloseTheGate(parallel: Bool) {
        let gate = PauseGate()
        let closedDuring = UnsafeMutableBufferPointer<Bool>.allocate(capacity: 3)
        defer { closedDuring.deallocate() }
        ParallelPair.forEach(3, parallel: Parallelism(parallel, yielding: gate)) { i in closedDuring[i] = gate.isClosed }
        #expect(Array(closedDuring) == [parallel, parallel, parallel])
        #expect(!gate.isClosed)
        // A section whose condition fails runs on one core, gate open.
        ParallelPair.run(parallel: Parallelism(parallel, yielding: gate).when(false),
                         { closedDuring[0] = gate.isClosed }, { closedDuring[1] = gate.isClosed })
        #expect(!closedDuring[0] && !closedDuring[1])
    }

    @Test("a sort that passes the gate lays the tree out as one that does not",
          arguments: [0, 1, 16, 17, 18, 5_000, 70_001])
    func sameLayout(count n: Int) {
        var rng = TestLCG(seed: UInt32(n + 5))
        let ids = ContiguousArray((0 ..< n).map { UInt32($0 * 7 % Swift.max(n, 1)) })
        // Many equal coordinates too: the selection's ties follow its swaps.
        let coords = ContiguousArray((0 ..< 2 * n).map { _ in rng.below(4) == 0 ? 0.5 : rng.next53() })
        let direct = KDTree<Double>(levelIDs: ids, coords: coords, nodeSize: 16)
        let passing = KDTree<Double>(levelIDs: ids, coords: coords, nodeSize: 16, passing: PauseGate())
        #expect(passing.ids == direct.ids)
        #expect(passing.coords == direct.coords)
    }

    @Test("a sort with ranges to split does not finish while the gate is closed")
    func sortWaitsAtTheGate() {
        var rng = TestLCG(seed: 99)
        // Small enough to be sorted well within the wait below were the gate not kept.
        let n = 2_000
        let ids = ContiguousArray((0 ..< n).map { UInt32($0) })
        let coords = ContiguousArray((0 ..< 2 * n).map { _ in rng.next53() })
        let gate = PauseGate()
        gate.close()
        let finished = Finished()
        final class Result: @unchecked Sendable { var tree: KDTree<Double>? = nil }
        let result = Result()
        DispatchQueue.global().async {
            result.tree = KDTree<Double>(levelIDs: ids, coords: coords, nodeSize: 16, passing: gate)
            finished.semaphore.signal()
        }
        let early = finished.within(0.2)
        #expect(!early, "the sort went past a closed gate")
        gate.open()
        if !early { #expect(finished.within(60), "the sort did not go on after the gate opened") }
        let direct = KDTree<Double>(levelIDs: ids, coords: coords, nodeSize: 16)
        #expect(result.tree?.ids == direct.ids)
        #expect(result.tree?.coords == direct.coords)
    }
}
