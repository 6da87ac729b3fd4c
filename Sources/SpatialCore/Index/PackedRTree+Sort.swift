/// flatbush's partial quicksort of items by Hilbert value: ranges that fall within one node are
/// left unsorted, since order inside a node does not matter to the tree. It reproduces flatbush
/// 4.6's pivots (median of three) and swaps exactly, so the layout and bytes are identical, but it
/// moves 8-byte keys (`value << 32 | item`) instead of whole boxes; the boxes are gathered once at
/// the end. Unsafe code is fenced here; subscripts are bounds-checked in debug builds.
internal struct HilbertSorter {
    /// `hilbertValue << 32 | originalPosition` per item.
    let keys: UnsafeMutableBufferPointer<UInt64>
    let nodeSize: Int

    /// Sorts `0 ..< keys.count`. A large input is first partitioned breadth-first into pieces,
    /// each round's pieces partitioned on both cores; the pieces are then sorted on both cores,
    /// the longest first. Pieces are disjoint ranges and each is partitioned exactly as the
    /// sequential sort would, so the result is the same.
    func sort() {
        let n = keys.count
        guard n > 1 else { return }
        guard n >= ParallelPair.threshold else {
            sortRange(left: 0, right: n - 1)
            return
        }
        // Partition until there are enough pieces for the two cores to share evenly: the first
        // split of a Hilbert-keyed input can be as uneven as 1 : 3.
        var pieces: [ClosedRange<Int>] = [0 ... n - 1]
        var rounds = 0
        while pieces.count < Self.pieces && rounds < 8 {
            rounds += 1
            var split = [ClosedRange<Int>?](repeating: nil, count: 2 * pieces.count)
            split.withUnsafeMutableBufferPointer { split in
                ParallelPair.forEach(pieces.count, parallel: true) { i in
                    let piece = pieces[i]
                    guard let j = withScratch({ partition(left: piece.lowerBound, right: piece.upperBound, scratch: $0) })
                    else { return }
                    if piece.lowerBound <= j { split[2 * i] = piece.lowerBound ... j }
                    if j + 1 <= piece.upperBound { split[2 * i + 1] = j + 1 ... piece.upperBound }
                }
            }
            pieces = split.compactMap { $0 }
        }
        pieces.sort { $0.count > $1.count }
        ParallelPair.forEach(pieces.count, parallel: true) { i in
            sortRange(left: pieces[i].lowerBound, right: pieces[i].upperBound)
        }
    }

    /// How many pieces a large sort is split into before they are shared between the cores.
    static var pieces: Int { 16 }

    /// Sorts `left ... right` with an explicit stack. O(n log n) expected.
    func sortRange(left: Int, right: Int) {
        withScratch { scratch in
            var stack: [(Int, Int)] = [(left, right)]
            stack.reserveCapacity(128)
            while let (l, r) = stack.popLast() {
                guard let j = partition(left: l, right: r, scratch: scratch) else { continue }
                stack.append((j + 1, r))
                stack.append((l, j))
            }
        }
    }

    /// The block size of the branch-free partition scans.
    static var block: Int { 64 }

    /// Runs `body` with scratch room for two blocks of positions (on the stack).
    func withScratch<R>(_ body: (UnsafeMutableBufferPointer<Int>) -> R) -> R {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * Self.block) { body($0) }
    }

    /// One partition step of flatbush's sort, or nil when the range needs no sorting. Both
    /// partitions make Hoare's swaps without its unpredictable branches: ranges of up to 64
    /// items the bit-mask one, longer ranges the block one. (Measured on 1M uniform boxes: Hoare
    /// below 129 items and blocks above took 1.1–1.2× the time of blocks from 17 items, which
    /// took about 1.1× the time of this.)
    @inline(__always)
    func partition(left: Int, right: Int, scratch: UnsafeMutableBufferPointer<Int>) -> Int? {
        let keys = self.keys
        if right - left <= nodeSize && left / nodeSize >= right / nodeSize { return nil }
        let a = keys[left] >> 32, b = keys[(left + right) >> 1] >> 32, c = keys[right] >> 32
        let pivot = (a > b) != (a > c) ? a : (b < a) != (b < c) ? b : c
        // value < pivot  ⇔  key < pivot << 32;  value > pivot  ⇔  key ≥ (pivot + 1) << 32.
        let below = pivot << 32
        let above = pivot == 0xFFFF_FFFF ? UInt64.max : (pivot + 1) << 32
        if right - left < 64 {
            return maskPartition(left: left, right: right, below: below, above: above)
        }
        return blockPartition(left: left, right: right, below: below, above: above, scratch: scratch)
    }

    /// The same swaps as ``hoarePartition(left:right:below:above:)`` for a range of at most 64
    /// items: one branch-free pass sets a bit per position whose value is ≥ pivot (`ge`) or
    /// ≤ pivot (`le`), then each swap pairs the lowest `ge` bit with the highest `le` bit (the
    /// reasoning of ``blockPartition(left:right:below:above:scratch:)``, with the whole range as
    /// one block).
    @inline(__always)
    func maskPartition(left: Int, right: Int, below: UInt64, above: UInt64) -> Int {
        let keys = self.keys
        let m = right &- left &+ 1
        assert(m >= 1 && m <= 64)
        var ge: UInt64 = 0, le: UInt64 = 0
        var t = 0
        while t < m {
            let key = keys[left &+ t]
            ge |= UInt64(key >= below ? 1 : 0) &<< UInt64(t)
            le |= UInt64(key < above ? 1 : 0) &<< UInt64(t)
            t &+= 1
        }
        var lastA = Int.min
        while true {
            let a = ge == 0 ? Int.max : left &+ ge.trailingZeroBitCount
            let b = le == 0 ? Int.min : left &+ (63 &- le.leadingZeroBitCount)
            guard a < b else { return Swift.max(b, lastA) }
            keys.swapAt(a, b)
            lastA = a
            ge &= ge &- 1
            le &= ~(1 &<< UInt64(b &- left))
        }
    }

    /// Hoare's partition exactly as flatbush runs it: scan from the left for a value ≥ pivot,
    /// from the right for a value ≤ pivot, swap, until the scans cross; returns the final `j`.
    /// The reference the two branch-free partitions are tested against.
    @inline(__always)
    func hoarePartition(left: Int, right: Int, below: UInt64, above: UInt64) -> Int {
        let keys = self.keys
        var i = left &- 1
        var j = right &+ 1
        while true {
            repeat { i &+= 1 } while keys[i] < below
            repeat { j &-= 1 } while keys[j] >= above
            if i >= j { break }
            keys.swapAt(i, j)
        }
        return j
    }

    /// The same swaps as ``hoarePartition(left:right:below:above:)`` without its unpredictable
    /// branches. Hoare's k-th swap exchanges the k-th position from the left whose value is
    /// ≥ pivot (`A[k]`) with the k-th position from the right whose value is ≤ pivot (`B[k]`), as
    /// long as `A[k] < B[k]`; no scan reads a swapped position before that point. So the
    /// candidates can be listed a block at a time with branch-free scans and paired in order.
    /// Hoare's final `j` is `max(B[K+1], A[K])` after K swaps (`B[1]` when there are none).
    /// Reading ahead past the crossing point is harmless: such entries never pair.
    @inline(__always)
    func blockPartition(
        left: Int, right: Int, below: UInt64, above: UInt64, scratch: UnsafeMutableBufferPointer<Int>
    ) -> Int {
        let keys = self.keys
        let block = Self.block
        let aBuffer = scratch.baseAddress.unsafelyUnwrapped
        let bBuffer = aBuffer + block
        var aCount = 0, aNext = 0, bCount = 0, bNext = 0
        var leftScan = left, rightScan = right  // next positions to list
        var lastA = Int.min  // A[K] once a swap happened
        while true {
            if aNext == aCount {
                // List the next block of left candidates (value ≥ pivot).
                let end = Swift.min(leftScan &+ block, right &+ 1)
                aCount = 0
                aNext = 0
                var q = leftScan
                while q < end {
                    aBuffer[aCount] = q
                    aCount &+= keys[q] >= below ? 1 : 0
                    q &+= 1
                }
                leftScan = end
            }
            if bNext == bCount {
                // List the next block of right candidates (value ≤ pivot), descending.
                let end = Swift.max(rightScan &- block, left &- 1)
                bCount = 0
                bNext = 0
                var q = rightScan
                while q > end {
                    bBuffer[bCount] = q
                    bCount &+= keys[q] < above ? 1 : 0
                    q &-= 1
                }
                rightScan = end
            }
            // Whole batches of pairs while the last pair of the batch has not crossed (the
            // pairs before it then have not either: A ascends, B descends).
            let batch = Swift.min(aCount &- aNext, bCount &- bNext)
            if batch > 0 && aBuffer[aNext &+ batch &- 1] < bBuffer[bNext &+ batch &- 1] {
                for t in 0 ..< batch {
                    keys.swapAt(aBuffer[aNext &+ t], bBuffer[bNext &+ t])
                }
                lastA = aBuffer[aNext &+ batch &- 1]
                aNext &+= batch
                bNext &+= batch
                continue
            }
            let a = aNext < aCount ? aBuffer[aNext] : (leftScan > right ? Int.max : -1)
            let b = bNext < bCount ? bBuffer[bNext] : (rightScan < left ? Int.min : -1)
            if a == -1 || b == -1 { continue }  // an empty block: list the next one
            if a < b {
                keys.swapAt(a, b)
                lastA = a
                aNext &+= 1
                bNext &+= 1
                continue
            }
            return Swift.max(b, lastA)
        }
    }
}
