import Foundation

/// The shape of a query in view points.
enum SceneQueryShape {
    case point(SIMD2<Double>)
    case rect(ScreenBox)
    /// Footprints within `distance` of the point.
    case near(SIMD2<Double>, distance: Double)
}

extension Scene {
    /// The features drawn under a view point, topmost layer first and, within a layer, the
    /// feature drawn last first. A feature drawn by two layers appears once per layer.
    ///
    /// - Parameters:
    ///   - point: the view point (origin top-left, y down).
    ///   - styleLayerIdentifiers: the layers to query; `nil` means all, an empty set none; unknown
    ///     ids are ignored.
    ///   - predicate: an expression evaluated on each candidate at the camera's zoom (`true` keeps
    ///     it; an error drops it).
    /// - Complexity: per queried layer, O(log n + k) for k features whose footprint bound reaches
    ///   the point.
    public func visibleFeatures(
        at point: CGPoint, styleLayerIdentifiers: Set<String>? = nil, predicate: Expression? = nil
    ) -> [VisibleFeature] {
        query(.point(SIMD2(Double(point.x), Double(point.y))), styleLayerIdentifiers, predicate)
    }

    /// The features whose footprint touches a view rectangle, in the order of
    /// ``visibleFeatures(at:styleLayerIdentifiers:predicate:)``.
    /// - Complexity: per queried layer, O(log n + k) for k features near the rectangle.
    public func visibleFeatures(
        in rect: CGRect, styleLayerIdentifiers: Set<String>? = nil, predicate: Expression? = nil
    ) -> [VisibleFeature] {
        query(.rect(ScreenBox(rect)), styleLayerIdentifiers, predicate)
    }

    /// The features whose footprint lies within `distance` points of a view point, nearest first
    /// (ties: topmost layer first, then the feature drawn last). ``VisibleFeature/distance`` is
    /// the distance to the footprint (0 when the point is on it). Rank by ground distance with
    /// ``VisibleFeature/groundDistance(from:)``.
    /// - Complexity: per queried layer, O(log n + k) for k features near the point, plus
    ///   O(k log k) to sort.
    public func nearestFeatures(
        to point: CGPoint, within distance: Double, styleLayerIdentifiers: Set<String>? = nil,
        predicate: Expression? = nil
    ) -> [VisibleFeature] {
        guard distance >= 0, distance.isFinite else { return [] }
        let found = query(.near(SIMD2(Double(point.x), Double(point.y)), distance: distance), styleLayerIdentifiers, predicate)
        return found.enumerated().sorted { a, b in
            a.element.distance != b.element.distance ? a.element.distance < b.element.distance : a.offset < b.offset
        }.map(\.element)
    }

    func query(_ shape: SceneQueryShape, _ identifiers: Set<String>?, _ predicate: Expression?) -> [VisibleFeature] {
        var result: [VisibleFeature] = []
        if let identifiers, identifiers.isEmpty { return result }
        let camera = self.camera
        let zoom = camera.zoom
        let worldSize = camera.worldSize
        let center = camera.centerWorldPoint
        let rotation = SceneRotation(bearing: camera.bearing)
        // The query region in unit Mercator, before growing by a layer's reach.
        let lo: SIMD2<Double>, hi: SIMD2<Double>, extra: Double
        switch shape {
        case .point(let p):
            let q = camera.worldPoint(for: CGPoint(x: p.x, y: p.y)) / worldSize
            (lo, hi, extra) = (q, q, 0)
        case .near(let p, let d):
            let q = camera.worldPoint(for: CGPoint(x: p.x, y: p.y)) / worldSize
            (lo, hi, extra) = (q, q, d)
        case .rect(let r):
            guard r.minX.isFinite, r.minY.isFinite, r.maxX.isFinite, r.maxY.isFinite else { return result }
            var a = SIMD2(Double.infinity, .infinity), b = -a
            for c in [SIMD2(r.minX, r.minY), SIMD2(r.maxX, r.minY), SIMD2(r.minX, r.maxY), SIMD2(r.maxX, r.maxY)] {
                let w = camera.worldPoint(for: CGPoint(x: c.x, y: c.y)) / worldSize
                a = pointwiseMin(a, w)
                b = pointwiseMax(b, w)
            }
            (lo, hi, extra) = (a, b, 0)
        }
        guard lo.x.isFinite, lo.y.isFinite, hi.x.isFinite, hi.y.isFinite else { return result }
        // Only world copies near the view are drawn: the search never looks more than one world
        // beyond the view's own horizontal extent (this also keeps huge rectangles and huge
        // data-driven sizes from asking for millions of copies).
        var viewMinX = Double.infinity, viewMaxX = -Double.infinity
        for c in [CGPoint(x: 0, y: 0), CGPoint(x: camera.viewSize.width, y: 0), CGPoint(x: 0, y: camera.viewSize.height),
                  CGPoint(x: camera.viewSize.width, y: camera.viewSize.height)] {
            let x = camera.worldPoint(for: c).x / worldSize
            viewMinX = min(viewMinX, x)
            viewMaxX = max(viewMaxX, x)
        }
        viewMinX -= 1
        viewMaxX += 1
        var candidates: [(rank: Int32, copy: Int32)] = []
        for layerIndex in prepared.indices.reversed() {
            let prep = prepared[layerIndex]
            let layer = prep.layer
            guard prep.source >= 0, !prep.reach.isEmpty, layer.isShown(atZoom: zoom) else { continue }
            if let identifiers, !identifiers.contains(layer.id) { continue }
            let source = sources[prep.source]
            let level = source.level(atZoom: zoom)
            // Grown a little so that rounding never drops a candidate at the bound.
            let reach = (prep.reach[level] + extra) * (1 + 1e-9) + 1e-9
            let r = min(reach / worldSize, 8)
            let minX = max(lo.x - r, viewMinX), maxX = min(hi.x + r, viewMaxX), minY = lo.y - r, maxY = hi.y + r
            guard minX <= maxX else { continue }
            let tree = source.levelTrees[level]
            candidates.removeAll(keepingCapacity: true)
            // World copies: an item at x ∈ [0, 1] drawn in copy k sits at x + k.
            let firstCopy = Int((minX - 1).rounded(.up)), lastCopy = Int(maxX.rounded(.down))
            // The view spans at most √2 · Camera.maximumViewSide / 512 ≈ 181 worlds, so the copies
            // searched (the view's, one more world each side) never pass 256.
            assert(lastCopy - firstCopy <= 256, "more world copies than a valid camera shows")
            guard lastCopy >= firstCopy else { continue }
            for k in firstCopy...lastCopy {
                let dk = Double(k)
                switch shape {
                case .point, .near:
                    tree.forEachWithin(x: lo.x - dk, y: lo.y, radius: r) { candidates.append((Int32($0), Int32(k))) }
                case .rect:
                    tree.forEachInRange(minX: minX - dk, minY: minY, maxX: maxX - dk, maxY: maxY) {
                        candidates.append((Int32($0), Int32(k)))
                    }
                }
            }
            if candidates.isEmpty { continue }
            candidates.sort { $0.rank != $1.rank ? $0.rank > $1.rank : $0.copy < $1.copy }
            let slots = source.levelSlots[level]
            // One result per feature: the candidates of a feature's positions (consecutive ranks)
            // and copies are tested together; the first that counts (the nearest for `.near`)
            // gives the coordinate.
            var i = 0
            while i < candidates.count {
                let first = Int(slots[Int(candidates[i].rank)])
                let drawn = source.featureOfSlot[first]
                var j = i + 1
                while j < candidates.count && source.featureOfSlot[Int(slots[Int(candidates[j].rank)])] == drawn { j += 1 }
                let feature = source.features[first]
                let context = JSONObjectExpressionContext(
                    properties: feature.properties, zoom: zoom, featureID: feature.id,
                    geometryType: source.geometryTypes[first], images: prep.values.readsImages ? images : nil)
                if layer.filter?.evaluateFilter(context) ?? true {
                    var best = Double.infinity, bestSlot = first
                    for c in candidates[i..<j] {
                        let slot = Int(slots[Int(c.rank)])
                        let world = SIMD2(source.x[slot] + Double(c.copy), source.y[slot]) * worldSize
                        let p = camera.viewPoint(forOffset: world - center)
                        guard let fp = prep.footprint(
                            context, at: SIMD2(Double(p.x), Double(p.y)), geometryType: source.geometryTypes[slot],
                            rotation: rotation, images: images)
                        else { break }
                        var d = Double.infinity
                        switch shape {
                        case .point(let q): if fp.contains(q) { d = 0 }
                        case .rect(let box): if fp.intersects(box) { d = 0 }
                        case .near(let q, let within):
                            let dist = fp.distance(to: q)
                            if dist <= within { d = dist }
                        }
                        if d < best { (best, bestSlot) = (d, slot) }
                        if best == 0 { break }
                    }
                    if best.isFinite, predicate?.evaluateFilter(context) ?? true {
                        let cluster = source.clusterIDs[bestSlot]
                        result.append(VisibleFeature(
                            feature: feature, coordinate: source.coordinates[bestSlot], layerIdentifier: layer.id,
                            sourceIdentifier: source.id, clusterID: cluster >= 0 ? ClusterID(rawValue: cluster) : nil,
                            distance: best))
                    }
                }
                i = j
            }
        }
        return result
    }
}
