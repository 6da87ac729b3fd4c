/// flatbush's partial quicksort of items by Hilbert value (boxes and indices moved alongside):
/// ranges that fall within one node are left unsorted, since order inside a node does not matter
/// to the tree. Reproduces flatbush 4's pivots and swaps so that the layout and bytes are
/// identical. Unsafe code is fenced here; subscripts are bounds-checked in debug builds.
internal struct HilbertSorter {
    let values: UnsafeMutableBufferPointer<UInt32>
    let boxes: UnsafeMutableBufferPointer<Double>
    let indices: UnsafeMutableBufferPointer<UInt32>
    let nodeSize: Int

    /// Sorts `0 ..< values.count` with an explicit stack. O(n log n) expected.
    func sort() {
        var stack: [(Int, Int)] = [(0, values.count - 1)]
        while let (left, right) = stack.popLast() {
            if right - left <= nodeSize && left / nodeSize >= right / nodeSize { continue }
            // Median of three (first, middle, last), chosen exactly as flatbush 4.6 does.
            let a = values[left], b = values[(left + right) >> 1], c = values[right]
            let pivot = (a > b) != (a > c) ? a : (b < a) != (b < c) ? b : c
            var i = left - 1
            var j = right + 1
            while true {
                repeat { i += 1 } while values[i] < pivot
                repeat { j -= 1 } while values[j] > pivot
                if i >= j { break }
                swapItems(i, j)
            }
            stack.append((j + 1, right))
            stack.append((left, j))
        }
    }

    @inline(__always) func swapItems(_ i: Int, _ j: Int) {
        let v = values[i]
        values[i] = values[j]
        values[j] = v
        let k = 4 * i, m = 4 * j
        let a = boxes[k], b = boxes[k + 1], c = boxes[k + 2], d = boxes[k + 3]
        boxes[k] = boxes[m]
        boxes[k + 1] = boxes[m + 1]
        boxes[k + 2] = boxes[m + 2]
        boxes[k + 3] = boxes[m + 3]
        boxes[m] = a
        boxes[m + 1] = b
        boxes[m + 2] = c
        boxes[m + 3] = d
        let e = indices[i]
        indices[i] = indices[j]
        indices[j] = e
    }
}
