extension PackedRTree {
    /// Calls `body` with the id of every box that intersects or touches the query box (bounds
    /// inclusive), in flatbush 4's traversal order. A node that lies wholly inside the query hands
    /// over its items in one sweep of the leaf level, without testing them. No allocation for
    /// trees of the usual node sizes (the traversal stack lives on the stack).
    ///
    /// - Complexity: O(log n + k) typical for k results.
    @inlinable
    public func forEachIntersecting(
        minX: Double, minY: Double, maxX: Double, maxY: Double, _ body: (Int) -> Void
    ) {
        guard count > 0 else { return }
        let nodeSize = self.nodeSize
        let numItems4 = count * 4
        let levels = levelBounds.count
        // Each visited node pushes at most nodeSize children; one pending block per level.
        let capacity = 2 * (levels * nodeSize + 2)
        let query = SIMD4(maxX, maxY, -minX, -minY)
        boxes.withUnsafeBufferPointer { boxes in
            indices.withUnsafeBufferPointer { indices in
                levelBounds.withUnsafeBufferPointer { levelBounds in
                    withUnsafeTemporaryAllocation(of: Int.self, capacity: capacity) { stack in
                        var top = 0
                        var nodeIndex = boxes.count - 4
                        var level = levels - 1
                        var contained = false
                        while true {
                            let end = Swift.min(nodeIndex + nodeSize * 4, levelBounds[level])
                            if contained {
                                // The subtree's items are one contiguous run of the leaf level.
                                var pos = nodeIndex
                                var l = level
                                var span = (end - nodeIndex)
                                while l > 0 {
                                    pos = Int(indices[pos >> 2])
                                    span *= nodeSize
                                    l -= 1
                                }
                                let leafEnd = Swift.min(pos + span, numItems4)
                                while pos < leafEnd {
                                    body(Int(indices[pos >> 2]))
                                    pos += 4
                                }
                            } else {
                                let isNode = nodeIndex >= numItems4
                                var pos = nodeIndex
                                while pos < end {
                                    let box = SIMD4(boxes[pos], boxes[pos + 1], boxes[pos + 2], boxes[pos + 3])
                                    // Intersects: minX ≤ x1, minY ≤ y1, x0 ≤ maxX, y0 ≤ maxY.
                                    let sides = SIMD4(box.x, box.y, -box.z, -box.w)
                                    if any(sides .> query) {
                                        pos += 4
                                        continue
                                    }
                                    let index = Int(indices[pos >> 2])
                                    if isNode {
                                        let inside = minX <= box.x && minY <= box.y && maxX >= box.z && maxY >= box.w
                                        stack[top] = index | (inside ? 1 : 0)
                                        stack[top + 1] = level - 1
                                        top += 2
                                    } else {
                                        body(index)
                                    }
                                    pos += 4
                                }
                            }
                            if top == 0 { break }
                            level = stack[top - 1]
                            let entry = stack[top - 2]
                            top -= 2
                            contained = entry & 1 == 1
                            nodeIndex = entry & ~1
                        }
                    }
                }
            }
        }
    }

    /// The ids of the boxes that intersect or touch the query box, in flatbush 4's order, keeping
    /// those for which `filter` (when given) returns `true`.
    ///
    /// - Complexity: O(log n + k) typical for k results.
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
    public func search(
        minX: Double, minY: Double, maxX: Double, maxY: Double, filter: ((Int) -> Bool)? = nil,
        into result: inout [Int]
    ) {
        if let filter {
            forEachIntersecting(minX: minX, minY: minY, maxX: maxX, maxY: maxY) { if filter($0) { result.append($0) } }
        } else {
            forEachIntersecting(minX: minX, minY: minY, maxX: maxX, maxY: maxY) { result.append($0) }
        }
    }
}
