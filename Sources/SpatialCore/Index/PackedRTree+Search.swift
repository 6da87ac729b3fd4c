extension PackedRTree {
    /// The most entries the search stack holds for a tree of `levels` levels (items included).
    ///
    /// Entries are child blocks. The root's scan pushes one; a scan of a node block pushes at most
    /// `nodeSize`, all one level down. Depth first, the entries of one level all come from the
    /// latest scan above it (an older scan's lie above the entry that starts a newer one, so they
    /// are used up first), and that scan's first popped entry is gone. So at most `nodeSize − 1`
    /// blocks wait at each of the `levels − 3` levels between the root's children and the items,
    /// while the last scan pushes `nodeSize` item blocks: `(levels − 3) · (nodeSize − 1) + nodeSize`,
    /// reached when every block on the first path is full. At node size 16 that is at most 106
    /// entries, for the largest tree (2^29 items): within `StackRoom`, so the stack never goes to
    /// the heap. O(1).
    @inlinable
    internal static func searchStackCapacity(levels: Int, nodeSize: Int) -> Int {
        Swift.max(1, (levels &- 3) &* (nodeSize &- 1) &+ nodeSize)
    }

    /// The search traversal of flatbush 4: depth first with an explicit stack, nodes wholly inside
    /// the query hand over their items as one run of the leaf level without testing them.
    ///
    /// Results go out in batches, in flatbush's order: `items` receives the ids found among one
    /// node's children (collected branch-free into a scratch buffer), `run` receives the raw ids of
    /// a contained subtree. No allocation at node size 16 whatever the tree's size, nor at other node
    /// sizes while `searchStackCapacity(levels:nodeSize:)` entries fit in `StackRoom`.
    @inlinable
    internal func traverse(
        minX: Double, minY: Double, maxX: Double, maxY: Double,
        items: (UnsafeBufferPointer<Int>) -> Void, run: (UnsafeBufferPointer<UInt32>) -> Void
    ) {
        guard count > 0 else { return }
        let nodeSize = self.nodeSize
        let numItems4 = count &* 4
        let levels = levelBounds.count
        let capacity = Self.searchStackCapacity(levels: levels, nodeSize: nodeSize)
        let query = SIMD4(maxX, maxY, -minX, -minY)
        boxes.withUnsafeBufferPointer { boxes in
            indices.withUnsafeBufferPointer { indices in
                levelBounds.withUnsafeBufferPointer { levelBounds in
                    withUnsafeTemporaryAllocation(of: Int.self, capacity: capacity) { stack in
                    withUnsafeTemporaryAllocation(of: Int.self, capacity: nodeSize) { scratch in
                        var top = 0
                        var nodeIndex = boxes.count &- 4
                        var level = levels &- 1
                        var contained = false
                        var touched: UInt8 = 0
                        while true {
                            let end = Swift.min(nodeIndex &+ nodeSize &* 4, levelBounds[level])
                            if contained {
                                // The subtree's items are one contiguous run of the leaf level.
                                var pos = nodeIndex
                                var l = level
                                var span = end &- nodeIndex
                                while l > 0 {
                                    pos = Int(indices[pos >> 2])
                                    span &*= nodeSize
                                    l &-= 1
                                }
                                let leafEnd = Swift.min(pos &+ span, numItems4)
                                run(UnsafeBufferPointer(rebasing: indices[(pos >> 2) ..< (leafEnd >> 2)]))
                            } else if nodeIndex >= numItems4 {
                                var pos = nodeIndex
                                while pos < end {
                                    let box = SIMD4(boxes[pos], boxes[pos &+ 1], boxes[pos &+ 2], boxes[pos &+ 3])
                                    // Intersects: x0 ≤ maxX, y0 ≤ maxY, minX ≤ x1, minY ≤ y1.
                                    if !any(SIMD4(box.x, box.y, -box.z, -box.w) .> query) {
                                        let inside = minX <= box.x && minY <= box.y && maxX >= box.z && maxY >= box.w
                                        let child = Int(indices[pos >> 2])
                                        if !inside {
                                            // Its children's boxes will be read: fetch them now.
                                            let childEnd = Swift.min(child &+ nodeSize &* 4, levelBounds[level &- 1])
                                            touched |= CacheTouch.lines(
                                                UnsafeRawPointer(boxes.baseAddress.unsafelyUnwrapped + child),
                                                bytes: (childEnd &- child) &* 8)
                                        }
                                        stack[top] = child | (inside ? 1 : 0) | (level &- 1) << 56
                                        top &+= 1
                                    }
                                    pos &+= 4
                                }
                            } else {
                                var pos = nodeIndex
                                var found = 0
                                while pos < end {
                                    let box = SIMD4(boxes[pos], boxes[pos &+ 1], boxes[pos &+ 2], boxes[pos &+ 3])
                                    let hit = !any(SIMD4(box.x, box.y, -box.z, -box.w) .> query)
                                    scratch[found] = Int(indices[pos >> 2])
                                    found &+= hit ? 1 : 0
                                    pos &+= 4
                                }
                                if found > 0 { items(UnsafeBufferPointer(rebasing: scratch[0 ..< found])) }
                            }
                            if top == 0 { break }
                            top &-= 1
                            let entry = stack[top]
                            level = entry >> 56
                            contained = entry & 1 == 1
                            nodeIndex = entry & (1 << 56 &- 2)
                        }
                        CacheTouch.keep(touched)
                    }
                    }
                }
            }
        }
    }

    /// Calls `body` with the id of every box that intersects or touches the query box (bounds
    /// inclusive), in flatbush 4's traversal order. No allocation for the usual node sizes.
    ///
    /// - Complexity: O(log n + k) typical for k results.
    @inlinable
    public func forEachIntersecting(
        minX: Double, minY: Double, maxX: Double, maxY: Double, _ body: (Int) -> Void
    ) {
        traverse(minX: minX, minY: minY, maxX: maxX, maxY: maxY,
            items: { for id in $0 { body(id) } }, run: { for id in $0 { body(Int(id)) } })
    }

    /// The ids of the boxes that intersect or touch the query box, in flatbush 4's order, keeping
    /// those for which `filter` (when given) returns `true`.
    ///
    /// - Complexity: O(log n + k) typical for k results.
    @inlinable
    public func search(
        minX: Double, minY: Double, maxX: Double, maxY: Double, filter: ((Int) -> Bool)? = nil
    ) -> [Int] {
        var result: [Int] = []
        search(minX: minX, minY: minY, maxX: maxX, maxY: maxY, filter: filter, into: &result)
        return result
    }

    /// Appends to `result` the ids of the boxes that intersect or touch the query box, in
    /// flatbush 4's order, keeping those for which `filter` (when given) returns `true`.
    ///
    /// - Complexity: O(log n + k) typical for k results.
    @inlinable
    public func search(
        minX: Double, minY: Double, maxX: Double, maxY: Double, filter: ((Int) -> Bool)? = nil,
        into result: inout [Int]
    ) {
        if let filter {
            forEachIntersecting(minX: minX, minY: minY, maxX: maxX, maxY: maxY) { if filter($0) { result.append($0) } }
        } else {
            traverse(minX: minX, minY: minY, maxX: maxX, maxY: maxY,
                items: { result.append(contentsOf: $0) }, run: { Self.append(widening: $0, to: &result) })
        }
    }

    /// Appends `run` widened to `Int`, a stack block at a time, so that each block goes in as
    /// one copy (a lazily mapped sequence would be appended element by element).
    @inlinable
    internal static func append(widening run: UnsafeBufferPointer<UInt32>, to result: inout [Int]) {
        // Grow geometrically: reserving exactly what each run needs would copy the whole result
        // once per run.
        let needed = result.count &+ run.count
        if result.capacity < needed { result.reserveCapacity(Swift.max(needed, 2 &* result.capacity)) }
        let block = StackRoom.capacity(of: Int.self)
        withUnsafeTemporaryAllocation(of: Int.self, capacity: block) { buffer in
            var start = 0
            while start < run.count {
                let end = Swift.min(start &+ block, run.count)
                var k = 0
                while start &+ k < end {
                    buffer[k] = Int(run[start &+ k])
                    k &+= 1
                }
                result.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0 ..< k]))
                start = end
            }
        }
    }
}
