/// Read-only access to the input boxes while building: four columns with a common stride (1 for
/// separate min/max buffers, 4 for one interleaved array), so the build reads the caller's memory
/// directly instead of copying it first.
@usableFromInline
internal struct BoxSource {
    @usableFromInline let minX: UnsafePointer<Double>
    @usableFromInline let minY: UnsafePointer<Double>
    @usableFromInline let maxX: UnsafePointer<Double>
    @usableFromInline let maxY: UnsafePointer<Double>
    @usableFromInline let stride: Int
    @usableFromInline let count: Int

    @inlinable init(
        minX: UnsafePointer<Double>, minY: UnsafePointer<Double>, maxX: UnsafePointer<Double>,
        maxY: UnsafePointer<Double>, stride: Int, count: Int
    ) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
        self.stride = stride
        self.count = count
    }

    /// Box `i` as `SIMD4(minX, minY, maxX, maxY)`; `i` is asserted in range in debug builds.
    @inline(__always) func box(_ i: Int) -> SIMD4<Double> {
        assert(i >= 0 && i < count)
        let k = i &* stride
        return SIMD4(minX[k], minY[k], maxX[k], maxY[k])
    }
}

extension PackedRTree {
    /// Sorts the items by Hilbert value and packs the nodes, reading the boxes from `source`.
    @usableFromInline internal init(building source: BoxSource, layout: RTreeLayout) throws(IndexError) {
        let n = layout.count
        let nodeSize = layout.nodeSize
        let total = layout.numNodes
        // The bounds, with the same comparisons as flatbush's add(); NaN is refused first.
        let (minX, minY, maxX, maxY) = try Self.bounds(of: source)
        var keys = ContiguousArray<UInt64>()
        // The gather below reads each box from the caller's columns. Staging the boxes
        // interleaved first (one 32-byte read per item) was 6% faster on this machine, but held
        // 32 MB more per 1M boxes at the peak (75 MB against 45): not kept.
        let parallel = Parallelism(n >= ParallelPair.threshold)
        if n > nodeSize {
            var width = maxX - minX
            if width == 0 || width.isNaN { width = 1 }
            var height = maxY - minY
            if height == 0 || height.isNaN { height = 1 }
            let hilbertMax = Double((1 << 16) - 1)
            let sx = hilbertMax / width
            let sy = hilbertMax / height
            let x0 = minX, y0 = minY
            keys = ContiguousArray<UInt64>(filling: n) { keys in
                func hilbertKeys(_ range: Range<Int>) {
                    for i in range {
                        let b = source.box(i)
                        let cx = (b.x + b.z) / 2
                        let cy = (b.y + b.w) / 2
                        let value = Hilbert.value(Hilbert.toInt32(sx * (cx - x0)), Hilbert.toInt32(sy * (cy - y0)))
                        keys[i] = UInt64(value) << 32 | UInt64(i)
                    }
                }
                ParallelPair.halves(of: n, parallel: parallel, hilbertKeys)
            }
            keys.withUnsafeMutableBufferPointer { HilbertSorter(keys: $0, nodeSize: nodeSize).sort() }
        }
        // Every slot is written below (items and their parents by `gather`, the rest by
        // `packAboveFirstParents`).
        // No huge-page hint (`LargeBuffer`) on these arrays: measured build after build on 1M boxes,
        // hinted ones took twice as long to fault in (the gather about 40 ms against 18 ms).
        var indices = ContiguousArray<UInt32>(filling: total) { _ in }
        let bounds = SIMD4(minX, minY, maxX, maxY)
        let boxes = ContiguousArray<Double>(filling: total * 4) { boxes in
            indices.withUnsafeMutableBufferPointer { indices in
                if n == 0 {
                    // Nothing to pack.
                } else if n <= nodeSize {
                    // One node: the items as given; the root box covers everything and points at
                    // the first item.
                    for i in 0 ..< n {
                        indices[i] = UInt32(truncatingIfNeeded: i)
                        let b = source.box(i)
                        for lane in 0 ..< 4 { boxes[4 &* i &+ lane] = b[lane] }
                    }
                    let p = 4 * n
                    boxes[p] = bounds.x
                    boxes[p + 1] = bounds.y
                    boxes[p + 2] = bounds.z
                    boxes[p + 3] = bounds.w
                    indices[n] = 0
                } else {
                    // The items in Hilbert order with their parents, two runs of whole nodes on
                    // the two cores; then the levels above.
                    keys.withUnsafeBufferPointer { keys in
                        let parents = layout.levelBounds[0]
                        func gather(_ range: Range<Int>) {
                            var node = range.lowerBound
                            while node < range.upperBound {
                                let end = Swift.min(node &+ nodeSize, range.upperBound)
                                var lo = SIMD2(Double.infinity, Double.infinity)
                                var hi = SIMD2(-Double.infinity, -Double.infinity)
                                for i in node ..< end {
                                    let from = Int(truncatingIfNeeded: keys[i] & 0xFFFF_FFFF)
                                    indices[i] = UInt32(truncatingIfNeeded: from)
                                    let b = source.box(from)
                                    boxes[4 &* i] = b.x
                                    boxes[4 &* i &+ 1] = b.y
                                    boxes[4 &* i &+ 2] = b.z
                                    boxes[4 &* i &+ 3] = b.w
                                    if i == node {
                                        lo = SIMD2(b.x, b.y)
                                        hi = SIMD2(b.z, b.w)
                                    } else {
                                        // `packAboveFirstParents`'s comparisons, in its order.
                                        lo = SIMD2(jsMin(lo.x, b.x), jsMin(lo.y, b.y))
                                        hi = SIMD2(jsMax(hi.x, b.z), jsMax(hi.y, b.w))
                                    }
                                }
                                let p = parents &+ 4 &* (node / nodeSize)
                                indices[p >> 2] = UInt32(truncatingIfNeeded: 4 &* node)
                                boxes[p] = lo.x
                                boxes[p &+ 1] = lo.y
                                boxes[p &+ 2] = hi.x
                                boxes[p &+ 3] = hi.y
                                node = end
                            }
                        }
                        let middle = n / 2 / nodeSize * nodeSize
                        ParallelPair.run(parallel: parallel, { gather(0 ..< middle) }, { gather(middle ..< n) })
                    }
                    Self.packAboveFirstParents(boxes: boxes, indices: indices, levelBounds: layout.levelBounds, nodeSize: nodeSize)
                }
            }
        }
        self.init(boxes: boxes, indices: indices, layout: layout)
    }

    /// The total bounds of the boxes as flatbush's `add()` accumulates them, or the first NaN.
    /// Large inputs are scanned as two halves on two threads; the halves are merged so that, as
    /// in one pass, the first of equal extremes (such as `0.0` before `-0.0`) is kept. O(n).
    static func bounds(of source: BoxSource) throws(IndexError) -> (Double, Double, Double, Double) {
        struct Partial {
            var minX = Double.infinity, minY = Double.infinity
            var maxX = -Double.infinity, maxY = -Double.infinity
            var firstNaN = -1
        }
        func scan(_ range: Range<Int>) -> Partial {
            var p = Partial()
            for i in range {
                let b = source.box(i)
                if b.x.isNaN || b.y.isNaN || b.z.isNaN || b.w.isNaN {
                    p.firstNaN = i
                    return p
                }
                if b.x < p.minX { p.minX = b.x }
                if b.y < p.minY { p.minY = b.y }
                if b.z > p.maxX { p.maxX = b.z }
                if b.w > p.maxY { p.maxY = b.w }
            }
            return p
        }
        let n = source.count
        var first = Partial(), second = Partial()
        ParallelPair.run(parallel: Parallelism(n >= ParallelPair.threshold),
            { first = scan(0 ..< n / 2) }, { second = scan(n / 2 ..< n) })
        if first.firstNaN >= 0 { throw .invalidCoordinate(index: first.firstNaN) }
        if second.firstNaN >= 0 { throw .invalidCoordinate(index: second.firstNaN) }
        if second.minX < first.minX { first.minX = second.minX }
        if second.minY < first.minY { first.minY = second.minY }
        if second.maxX > first.maxX { first.maxX = second.maxX }
        if second.maxY > first.maxY { first.maxY = second.maxY }
        return (first.minX, first.minY, first.maxX, first.maxY)
    }

    /// Packs the parent nodes above the first parent level, bottom-up (the gather writes the
    /// items and their parents): each run of `nodeSize` consecutive boxes of a level gets one
    /// parent holding their union and the offset of the first.
    static func packAboveFirstParents(
        boxes: UnsafeMutableBufferPointer<Double>, indices: UnsafeMutableBufferPointer<UInt32>,
        levelBounds: [Int], nodeSize: Int
    ) {
        guard levelBounds.count > 2 else { return }
        var pos = levelBounds[1]
        var readPos = levelBounds[0]
        for level in 1..<(levelBounds.count - 1) {
            let end = levelBounds[level]
            while readPos < end {
                let nodeIndex = readPos
                var nodeMinX = boxes[readPos], nodeMinY = boxes[readPos + 1]
                var nodeMaxX = boxes[readPos + 2], nodeMaxY = boxes[readPos + 3]
                readPos += 4
                var j = 1
                while j < nodeSize && readPos < end {
                    // Math.min / Math.max on non-NaN values (NaN is rejected on build).
                    nodeMinX = jsMin(nodeMinX, boxes[readPos])
                    nodeMinY = jsMin(nodeMinY, boxes[readPos + 1])
                    nodeMaxX = jsMax(nodeMaxX, boxes[readPos + 2])
                    nodeMaxY = jsMax(nodeMaxY, boxes[readPos + 3])
                    readPos += 4
                    j += 1
                }
                indices[pos >> 2] = UInt32(truncatingIfNeeded: nodeIndex)
                boxes[pos] = nodeMinX
                boxes[pos + 1] = nodeMinY
                boxes[pos + 2] = nodeMaxX
                boxes[pos + 3] = nodeMaxY
                pos += 4
            }
        }
    }
}

/// flatbush's Hilbert curve: the public-domain algorithm of threadlocalmutex.com, on JavaScript's
/// 32-bit integer semantics.
internal enum Hilbert {
    /// JavaScript's `value | 0` (ToInt32): truncation, modulo 2^32, NaN and infinities to 0.
    @inline(__always) static func toInt32(_ value: Double) -> Int32 {
        // In range (NaN fails both tests): the conversion truncates toward zero, as ToInt32 does.
        if value > -2_147_483_649 && value < 2_147_483_648 { return Int32(value) }
        guard value.isFinite else { return 0 }
        let m = value.rounded(.towardZero).truncatingRemainder(dividingBy: 4_294_967_296)
        return Int32(truncatingIfNeeded: Int64(m))
    }

    /// The Hilbert index of `(x, y)` on a 2^16 grid, as flatbush computes it (unsigned).
    @inline(__always) static func value(_ x: Int32, _ y: Int32) -> UInt32 {
        var a = x ^ y
        var b = 0xFFFF ^ a
        var c = 0xFFFF ^ (x | y)
        var d = x & (y ^ 0xFFFF)

        var A = a | (b >> 1)
        var B = (a >> 1) ^ a
        var C = c ^ ((c >> 1) ^ (b & (d >> 1)))
        var D = d ^ ((a & (c >> 1)) ^ (d >> 1))

        a = (A & (A >> 2)) ^ (B & (B >> 2))
        b = (A & (B >> 2)) ^ (B & ((A ^ B) >> 2))
        c = C ^ ((A & (C >> 2)) ^ (B & (D >> 2)))
        d = D ^ ((B & (C >> 2)) ^ ((A ^ B) & (D >> 2)))

        A = (a & (a >> 4)) ^ (b & (b >> 4))
        B = (a & (b >> 4)) ^ (b & ((a ^ b) >> 4))
        C = c ^ ((a & (c >> 4)) ^ (b & (d >> 4)))
        D = d ^ ((b & (c >> 4)) ^ ((a ^ b) & (d >> 4)))

        c = C ^ ((A & (C >> 8)) ^ (B & (D >> 8)))
        d = D ^ ((B & (C >> 8)) ^ ((A ^ B) & (D >> 8)))

        c ^= c >> 1
        d ^= d >> 1
        a = x ^ y
        b = d | (0xFFFF ^ (a | c))

        a = (a | (a &<< 8)) & 0x00FF_00FF
        a = (a | (a &<< 4)) & 0x0F0F_0F0F
        a = (a | (a &<< 2)) & 0x3333_3333
        a = (a | (a &<< 1)) & 0x5555_5555

        b = (b | (b &<< 8)) & 0x00FF_00FF
        b = (b | (b &<< 4)) & 0x0F0F_0F0F
        b = (b | (b &<< 2)) & 0x3333_3333
        b = (b | (b &<< 1)) & 0x5555_5555

        return UInt32(bitPattern: (b &<< 1) | a)
    }
}

/// JavaScript's `Math.min` of two non-NaN doubles: −0 is below +0 (`Swift.min` keeps the first of
/// two equal values), so node boxes come out bit for bit as flatbush writes them. O(1).
@inline(__always) func jsMin(_ a: Double, _ b: Double) -> Double {
    a == b ? Double(bitPattern: a.bitPattern | b.bitPattern) : (b < a ? b : a)
}

/// JavaScript's `Math.max` of two non-NaN doubles: +0 is above −0. O(1).
@inline(__always) func jsMax(_ a: Double, _ b: Double) -> Double {
    a == b ? Double(bitPattern: a.bitPattern & b.bitPattern) : (b > a ? b : a)
}
