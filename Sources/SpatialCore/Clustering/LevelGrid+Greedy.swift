/// The greedy step of one `.double` level, decided in cell order instead of level order.
///
/// Walking a level in order, the greedy step makes an item a *seed* when no earlier seed has taken
/// it, and a seed takes every untaken item within r. So an item is a seed exactly when no earlier
/// item within r of it is a seed (the lexicographically first maximal independent set of the
/// "within r" graph, in level order), and every other item is taken by the earliest seed within r
/// of it. Both facts involve only items within r of each other: they are settled while the grid is
/// scanned in cell order, so each item's block is read while it is in cache, and an item whose
/// earlier neighbours are not settled yet settles them first (an explicit stack, not recursion).
///
/// `LevelGrid.order` ranks the slots: it is the item's index in the level's active items, which
/// ascend with the level position.
extension LevelGrid {
    /// `owner` entry of a slot not settled yet.
    static let unsettled: Int32 = -3
    /// `owner` entry of a slot whose fate depends on the other half's (two-core pass only).
    static let deferred: Int32 = -4
    /// `owner` entry of a seed that takes no other item.
    static let lonelySeed: Int32 = -1
    /// `owner` entry of a seed that takes other items.
    static let seedWithMembers: Int32 = -2

    /// The mean number of items within r of an item (itself included), over `samples` slots
    /// spread evenly in cell order: how many items a seed takes, roughly. O(samples · block).
    func sampledNeighbourCount(radius r: Double, samples: Int = 1024) -> Double {
        let n = xy.count
        guard n > 0 else { return 0 }
        let r2 = r * r
        let step = Swift.max(1, n / samples)
        var seen = 0, within = 0
        xy.withUnsafeBufferPointer { xy in
            var k = 0
            while k < n {
                let q = xy[k]
                if let block = block(around: q, radius: r) {
                    for cy in block.rows {
                        for j in slots(row: cy, columns: block.columns.0, block.columns.1) {
                            let d = xy[j] - q
                            if d.x * d.x + d.y * d.y <= r2 { within += 1 }
                        }
                    }
                }
                seen += 1
                k += step
            }
        }
        return Double(within) / Double(seen)
    }

    /// Sets `owner[k]`, for every slot k, to the slot of the seed that takes it, or to
    /// ``lonelySeed`` or ``seedWithMembers`` for a seed. Within r means `d² ≤ r²` over the grid's
    /// coordinates; every block scanned reaches a hair beyond r, so that the relation is symmetric
    /// whatever the rounding of the cell bounds.
    ///
    /// `parallel`: the two halves of the slots are settled on the two cores, each touching only
    /// its own half; an item with an earlier neighbour in the other half (and whatever waits on
    /// it) is left for a last pass on one core. The result is the same.
    ///
    /// - Complexity: O(n + Σ block sizes + Σ k²) for the k earlier neighbours of each item that
    ///   are seeds or not yet settled when it is scanned (k is small: settled items drop out).
    func decideSeeds(radius r: Double, owner: UnsafeMutableBufferPointer<Int32>, parallel: Bool) {
        let n = xy.count
        precondition(owner.count == n)
        owner.update(repeating: Self.unsettled)
        if parallel && n > 1 {
            let mid = n / 2
            ParallelPair.run(parallel: true,
                             { settle(0 ..< mid, radius: r, owner: owner) },
                             { settle(mid ..< n, radius: r, owner: owner) })
            for k in 0 ..< n where owner[k] == Self.deferred { owner[k] = Self.unsettled }
        }
        settle(0 ..< n, radius: r, owner: owner)
    }

    /// Settles every unsettled slot of `part`, reading and writing `owner` only inside `part`;
    /// a slot that needs one outside it is marked ``deferred``, as is every slot waiting on a
    /// deferred one. With `part` = all slots nothing is deferred.
    private func settle(_ part: Range<Int>, radius r: Double, owner: UnsafeMutableBufferPointer<Int32>) {
        let r2 = r * r
        let lo = part.lowerBound, hi = part.upperBound
        // The earlier neighbours of every item on the stack that may still take it, as
        // (rank << 32 | slot); a frame is (slot, first entry, end).
        var lists = ScratchBuffer<UInt64>(capacity: 1024)
        var frames = ScratchBuffer<SIMD3<Int32>>(capacity: 64)
        defer {
            lists.deallocate()
            frames.deallocate()
        }
        xy.withUnsafeBufferPointer { xy in
            order.withUnsafeBufferPointer { order in
                for start in part where owner[start] == Self.unsettled {
                    var k = start
                    push: while true {
                        // k's earlier neighbours that may still take it become the top frame;
                        // settled non-seeds are left out (they take nothing).
                        let first = lists.count
                        let q = xy[k], rank = order[k]
                        var outside = false
                        if let block = block(around: q, radius: r) {
                            for cy in block.rows {
                                for j in slots(row: cy, columns: block.columns.0, block.columns.1) where order[j] < rank {
                                    let d = xy[j] - q
                                    guard d.x * d.x + d.y * d.y <= r2 else { continue }
                                    if j < lo || j >= hi {
                                        outside = true
                                    } else if owner[j] < 0 {
                                        lists.append(UInt64(order[j]) << 32 | UInt64(j))
                                    }
                                }
                            }
                        }
                        frames.append(SIMD3(Int32(k), Int32(first), Int32(lists.count)))
                        var deferring = outside
                        while !deferring && frames.count > 0 {
                            let top = frames.count - 1
                            let frame = frames[top]
                            let item = Int(frame[0])
                            // The earliest entry that is a seed or not settled yet.
                            var e = UInt64.max
                            for f in Int(frame[1]) ..< Int(frame[2]) {
                                let v = lists[f]
                                if v < e && owner[Int(truncatingIfNeeded: v & 0xffff_ffff)] < 0 { e = v }
                            }
                            if e != .max {
                                let j = Int(truncatingIfNeeded: e & 0xffff_ffff)
                                let o = owner[j]
                                if o == Self.unsettled {
                                    // Settle the earlier neighbour first, then look again.
                                    k = j
                                    continue push
                                }
                                if o == Self.deferred {
                                    deferring = true
                                    break
                                }
                                // The earliest seed within r takes the item.
                                owner[item] = Int32(j)
                                owner[j] = Self.seedWithMembers
                            } else {
                                owner[item] = Self.lonelySeed
                            }
                            lists.removeLast(toCount: Int(frame[1]))
                            frames.removeLast(toCount: top)
                        }
                        if deferring {
                            // An earlier neighbour lies in the other half, or waits on it: every
                            // item on the stack is left for the last pass.
                            for f in 0 ..< frames.count { owner[Int(frames[f][0])] = Self.deferred }
                            lists.removeAll()
                            frames.removeAll()
                        }
                        break
                    }
                }
            }
        }
    }
}

extension LevelGrid {
    /// For every slot of `part` (cell order): sets `action[order[k]]` to −2 for an item another
    /// seed takes, leaves it for a seed that takes nothing, and for a seed that takes items
    /// appends its group to `groups` and sets the entry to `firstIndex` + its index there.
    /// `owner` is ``decideSeeds(radius:owner:parallel:)``'s result. The centre is the seed's
    /// position times its count, plus each member's in ascending row order, over the total.
    ///
    /// - Complexity: O(|part|) plus a block scan and a sort per gathered seed.
    func gatherSeeds(_ part: Range<Int>, radius r: Double, owner: UnsafeBufferPointer<Int32>,
                     action: UnsafeMutableBufferPointer<Int32>, firstIndex: Int, into groups: inout SeedGroups) {
        // A member as (row << 32 | slot): sorting by it gives ascending row order.
        var found = ScratchBuffer<UInt64>(capacity: 256)
        defer { found.deallocate() }
        xy.withUnsafeBufferPointer { xy in
        order.withUnsafeBufferPointer { order in
        ids.withUnsafeBufferPointer { ids in
        weights.withUnsafeBufferPointer { weights in
            for k in part {
                let o = owner[k]
                if o >= 0 {
                    action[Int(order[k])] = -2
                    continue
                }
                guard o == Self.seedWithMembers else { continue }
                // The seed's members are within r of it: its block holds them all.
                found.removeAll()
                let q = xy[k]
                let seed = Int32(k)
                if let block = block(around: q, radius: r) {
                    for cy in block.rows {
                        for j in slots(row: cy, columns: block.columns.0, block.columns.1)
                        where owner[j] == seed || j == k {
                            found.append(UInt64(ids[j]) << 32 | UInt64(j))
                        }
                    }
                }
                let list = found.elements
                sortSmall(list)
                let n0 = Int(weights[k])
                var n = n0
                var w = q * Double(n0)
                for v in list {
                    groups.memberRows.append(UInt32(v >> 32))
                    let j = Int(v & 0xffff_ffff)
                    if j == k { continue }
                    let nb = Int(weights[j])
                    n += nb
                    w += xy[j] * Double(nb)
                }
                action[Int(order[k])] = Int32(firstIndex + groups.count)
                groups.total.append(Int32(n))
                groups.centre.append(w / Double(n))
                groups.memberEnd.append(Int32(groups.memberRows.count))
            }
        }
        }
        }
        }
    }
}
