import SpatialCore

/// The clustering subcommands: `clusters`, `children`, `leaves`, `expansion-zoom`, `tile`.
enum ClusterCommands {
    static let clusterOptionNames: Set<String> = [
        "radius", "extent", "min-zoom", "max-zoom", "min-points", "precision", "cluster-properties",
    ]

    /// The index over the features of `file`, built with the clustering options of `args`.
    static func index(_ args: Arguments, file: String) throws(CLIError) -> (ClusterIndex, [Feature]) {
        let defaults = ClusterOptions.default
        var precision = ClusterPrecision.double
        switch args.string("precision") {
        case nil, "double"?: break
        case "float32"?: precision = .float32
        case let p?: throw .usage("--precision takes double or float32, not '\(p)'")
        }
        let options: ClusterOptions
        do {
            options = try ClusterOptions(
                minZoom: try args.int("min-zoom") ?? defaults.minZoom,
                maxZoom: try args.int("max-zoom") ?? defaults.maxZoom,
                minPoints: try args.int("min-points") ?? defaults.minPoints,
                radius: try args.double("radius") ?? defaults.radius,
                extent: try args.double("extent") ?? defaults.extent,
                precision: precision)
        } catch let e as CLIError {
            throw e
        } catch {
            throw .usage("\(error)")
        }
        var expressions = ClusterPropertyExpressions()
        if let text = args.string("cluster-properties") {
            let json: JSONValue
            if text.hasPrefix("@") {
                json = try Input.json(String(text.dropFirst()))
            } else {
                do {
                    json = try JSONValue(parsing: text)
                } catch {
                    throw .usage("--cluster-properties: \(error)")
                }
            }
            do {
                expressions = try ClusterPropertyExpressions(jsonValue: json)
            } catch {
                throw .usage("--cluster-properties: \(error)")
            }
        }
        let features = try Input.features(file)
        do {
            let index = try ClusterIndex(features: features, options: options, clusterProperties: expressions)
            return (index, features)
        } catch {
            throw .input("\(Input.name(file)): \(error)")
        }
    }

    /// An item as a GeoJSON feature: a cluster with its properties and `cluster_id` as id, a point
    /// as the original feature with its id or its input index.
    static func feature(_ item: ClusterItem, _ features: [Feature]) -> JSONValue {
        switch item {
        case .cluster(let c):
            return [
                "type": "Feature", "id": .number(Double(c.id.rawValue)), "properties": .object(c.properties),
                "geometry": ["type": "Point", "coordinates": [.number(c.coordinate.longitude), .number(c.coordinate.latitude)]],
            ]
        case .point(let p):
            return pointFeature(index: p.index, features)
        }
    }

    static func pointFeature(index: Int, _ features: [Feature]) -> JSONValue {
        let f = features[index]
        let id = f.id?.jsonValue ?? .number(Double(index))
        let geometry = f.geometry.map(GeoJSONInput.json) ?? .null
        return ["type": "Feature", "id": id, "properties": .object(f.properties), "geometry": geometry]
    }

    static func collection(_ items: [JSONValue], zoom: Int? = nil) -> JSONValue {
        var o: JSONObject = ["type": "FeatureCollection"]
        if let zoom { o["zoom"] = .number(Double(zoom)) }
        o["features"] = .array(items)
        return .object(o)
    }

    static func clusterID(_ args: Arguments) throws(CLIError) -> ClusterID {
        let s = try args.required("cluster-id", "N")
        guard let v = Int(s) else { throw .usage("--cluster-id takes a whole number, not '\(s)'") }
        return ClusterID(rawValue: v)
    }

    static func notFound(_ e: ClusterError) -> CLIError {
        if case .noCluster = e { return CLIError(code: .notFound, message: "\(e)") }
        return .usage("\(e)")
    }

    // MARK: subcommands

    static func clusters(_ argv: [String], out: (String) -> Void) throws(CLIError) {
        let args = try Arguments(argv, known: clusterOptionNames.union(["zoom", "bbox"]))
        if args.wantsHelp { out(Help.clusters); return }
        let file = try args.file("clusters")
        try args.expectPositional(1, "clusters")
        let zoomText = try args.required("zoom", "Z or A-B")
        let bbox = try args.numbers("bbox", count: 4, form: "W,S,E,N (four numbers)") ?? [-180, -85, 180, 85]
        guard bbox[1] <= bbox[3] else { throw .usage("--bbox: south \(bbox[1]) is above north \(bbox[3])") }
        // A range is "A-B" with a dash after the first character.
        if let dash = zoomText.dropFirst().firstIndex(of: "-") {
            guard let a = Int(zoomText[..<dash]), let b = Int(zoomText[zoomText.index(after: dash)...]),
                a >= 0, b <= 30, a <= b
            else { throw .usage("--zoom A-B takes two whole zooms 0 ... 30 with A <= B, not '\(zoomText)'") }
            let (index, features) = try index(args, file: file)
            for z in a ... b {
                let items = index.clusters(west: bbox[0], south: bbox[1], east: bbox[2], north: bbox[3], zoom: Double(z))
                out(jsonText(collection(items.map { feature($0, features) }, zoom: z)))
            }
            return
        }
        guard let z = Double(zoomText), z.isFinite, z >= 0, z <= 30 else {
            throw .usage("--zoom takes a zoom 0 ... 30 or a range A-B, not '\(zoomText)'")
        }
        let (index, features) = try index(args, file: file)
        let items = index.clusters(west: bbox[0], south: bbox[1], east: bbox[2], north: bbox[3], zoom: z)
        out(jsonText(collection(items.map { feature($0, features) })))
    }

    static func children(_ argv: [String], out: (String) -> Void) throws(CLIError) {
        let args = try Arguments(argv, known: clusterOptionNames.union(["cluster-id"]))
        if args.wantsHelp { out(Help.children); return }
        let file = try args.file("children")
        try args.expectPositional(1, "children")
        let id = try clusterID(args)
        let (index, features) = try index(args, file: file)
        do {
            let items = try index.children(of: id)
            out(jsonText(collection(items.map { feature($0, features) })))
        } catch {
            throw notFound(error)
        }
    }

    static func leaves(_ argv: [String], out: (String) -> Void) throws(CLIError) {
        let args = try Arguments(argv, known: clusterOptionNames.union(["cluster-id", "limit", "offset"]))
        if args.wantsHelp { out(Help.leaves); return }
        let file = try args.file("leaves")
        try args.expectPositional(1, "leaves")
        let id = try clusterID(args)
        var limit: Int? = 10
        if args.string("limit") == "all" {
            limit = nil
        } else if let l = try args.int("limit") {
            guard l >= 0 else { throw .usage("--limit takes a whole number >= 0 or all, not '\(l)'") }
            limit = l
        }
        let offset = try args.int("offset") ?? 0
        guard offset >= 0 else { throw .usage("--offset takes a whole number >= 0, not '\(offset)'") }
        let (index, features) = try index(args, file: file)
        do {
            let points = try index.leaves(of: id, limit: limit, offset: offset)
            out(jsonText(collection(points.map { pointFeature(index: $0.index, features) })))
        } catch {
            throw notFound(error)
        }
    }

    static func expansionZoom(_ argv: [String], out: (String) -> Void) throws(CLIError) {
        let args = try Arguments(argv, known: clusterOptionNames.union(["cluster-id"]))
        if args.wantsHelp { out(Help.expansionZoom); return }
        let file = try args.file("expansion-zoom")
        try args.expectPositional(1, "expansion-zoom")
        let id = try clusterID(args)
        let (index, _) = try index(args, file: file)
        do {
            out(String(try index.expansionZoom(of: id)))
        } catch {
            throw notFound(error)
        }
    }

    static func tile(_ argv: [String], out: (String) -> Void) throws(CLIError) {
        let args = try Arguments(argv, known: clusterOptionNames)
        if args.wantsHelp { out(Help.tile); return }
        let file = try args.file("tile")
        guard args.positional.count >= 2 else { throw .usage("tile: missing Z/X/Y") }
        try args.expectPositional(2, "tile")
        let parts = args.positional[1].split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 3, let z = parts[0], let x = parts[1], let y = parts[2], z >= 0, z <= 30,
            x >= 0, y >= 0, x < 1 << z, y < 1 << z
        else {
            throw .usage("tile: Z/X/Y must be whole numbers with 0 <= Z <= 30 and 0 <= X, Y < 2^Z, not '\(args.positional[1])'")
        }
        let (index, _) = try index(args, file: file)
        let tile = index.tile(z: z, x: x, y: y)
        var list: [JSONValue] = []
        for f in tile?.features ?? [] {
            var o: JSONObject = ["type": 1, "geometry": [[.number(Double(f.x)), .number(Double(f.y))]]]
            o["tags"] = .object(f.tags)
            // As supercluster's getTile: a cluster's id, a point's own id, no id for a point without.
            if let id = f.id { o["id"] = id.jsonValue }
            list.append(.object(o))
        }
        let doc: JSONValue = [
            "z": .number(Double(z)), "x": .number(Double(x)), "y": .number(Double(y)), "features": .array(list),
        ]
        out(jsonText(doc))
    }
}
