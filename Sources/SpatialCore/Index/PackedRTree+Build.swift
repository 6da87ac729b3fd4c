extension PackedRTree {
    /// Sorts the items (the first `count` boxes of `storage`) by Hilbert value and packs the nodes.
    @usableFromInline internal init(building storage: ContiguousArray<Double>, layout: RTreeLayout) {
        var boxes = storage
        let n = layout.count
        let nodeSize = layout.nodeSize
        var indices = ContiguousArray<UInt32>(repeating: 0, count: layout.numNodes)
        guard n > 0 else {
            self.init(boxes: boxes, indices: indices, layout: layout)
            return
        }
        boxes.withUnsafeMutableBufferPointer { boxes in
            indices.withUnsafeMutableBufferPointer { indices in
                var minX = Double.infinity, minY = Double.infinity
                var maxX = -Double.infinity, maxY = -Double.infinity
                for i in 0..<n {
                    indices[i] = UInt32(truncatingIfNeeded: i)
                    // The same comparisons as flatbush's add(), so NaN-free bounds agree exactly.
                    if boxes[4 * i] < minX { minX = boxes[4 * i] }
                    if boxes[4 * i + 1] < minY { minY = boxes[4 * i + 1] }
                    if boxes[4 * i + 2] > maxX { maxX = boxes[4 * i + 2] }
                    if boxes[4 * i + 3] > maxY { maxY = boxes[4 * i + 3] }
                }
                if n <= nodeSize {
                    // One node: no sorting, the root box covers everything.
                    let p = 4 * n
                    boxes[p] = minX
                    boxes[p + 1] = minY
                    boxes[p + 2] = maxX
                    boxes[p + 3] = maxY
                    return
                }
                var width = maxX - minX
                if width == 0 || width.isNaN { width = 1 }
                var height = maxY - minY
                if height == 0 || height.isNaN { height = 1 }
                let hilbertMax = Double((1 << 16) - 1)
                let sx = hilbertMax / width
                let sy = hilbertMax / height
                var keys = [UInt64](repeating: 0, count: n)
                keys.withUnsafeMutableBufferPointer { keys in
                    let boxesIn = UnsafeBufferPointer(boxes)
                    func hilbertKeys(_ range: Range<Int>) {
                        for i in range {
                            let cx = (boxesIn[4 &* i] + boxesIn[4 &* i &+ 2]) / 2
                            let cy = (boxesIn[4 &* i &+ 1] + boxesIn[4 &* i &+ 3]) / 2
                            let value = Hilbert.value(Hilbert.toInt32(sx * (cx - minX)), Hilbert.toInt32(sy * (cy - minY)))
                            keys[i] = UInt64(value) << 32 | UInt64(i)
                        }
                    }
                    let half = n / 2
                    ParallelPair.run(parallel: n >= ParallelPair.threshold, { hilbertKeys(0 ..< half) }, { hilbertKeys(half ..< n) })
                    HilbertSorter(keys: keys, nodeSize: nodeSize).sort()
                    // Gather the items' boxes into sorted order.
                    let original = Array(boxes[0 ..< 4 * n])
                    original.withUnsafeBufferPointer { original in
                        func gather(_ range: Range<Int>) {
                            for i in range {
                                let from = Int(truncatingIfNeeded: keys[i] & 0xFFFF_FFFF)
                                indices[i] = UInt32(truncatingIfNeeded: from)
                                boxes[4 &* i] = original[4 &* from]
                                boxes[4 &* i &+ 1] = original[4 &* from &+ 1]
                                boxes[4 &* i &+ 2] = original[4 &* from &+ 2]
                                boxes[4 &* i &+ 3] = original[4 &* from &+ 3]
                            }
                        }
                        ParallelPair.run(parallel: n >= ParallelPair.threshold, { gather(0 ..< half) }, { gather(half ..< n) })
                    }
                }
                Self.pack(boxes: boxes, indices: indices, levelBounds: layout.levelBounds, nodeSize: nodeSize)
            }
        }
        self.init(boxes: boxes, indices: indices, layout: layout)
    }

    /// Packs parent nodes bottom-up: each run of `nodeSize` consecutive boxes of a level gets one
    /// parent holding their union and the offset of the first.
    static func pack(
        boxes: UnsafeMutableBufferPointer<Double>, indices: UnsafeMutableBufferPointer<UInt32>,
        levelBounds: [Int], nodeSize: Int
    ) {
        var pos = levelBounds[0]
        var readPos = 0
        for level in 0..<(levelBounds.count - 1) {
            let end = levelBounds[level]
            while readPos < end {
                let nodeIndex = readPos
                var nodeMinX = boxes[readPos], nodeMinY = boxes[readPos + 1]
                var nodeMaxX = boxes[readPos + 2], nodeMaxY = boxes[readPos + 3]
                readPos += 4
                var j = 1
                while j < nodeSize && readPos < end {
                    // Math.min / Math.max semantics on non-NaN values (NaN is rejected on build).
                    nodeMinX = Swift.min(nodeMinX, boxes[readPos])
                    nodeMinY = Swift.min(nodeMinY, boxes[readPos + 1])
                    nodeMaxX = Swift.max(nodeMaxX, boxes[readPos + 2])
                    nodeMaxY = Swift.max(nodeMaxY, boxes[readPos + 3])
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
        guard value.isFinite else { return 0 }
        let t = value.rounded(.towardZero)
        if t >= -2_147_483_648 && t <= 2_147_483_647 { return Int32(t) }
        let m = t.truncatingRemainder(dividingBy: 4_294_967_296)
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
