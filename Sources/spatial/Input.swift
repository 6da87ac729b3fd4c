import Foundation
import SpatialCore

/// A command-line failure: the one line printed on stderr and the process exit code.
struct CLIError: Error {
    /// Exit codes, as `spatial --help` documents them.
    enum Code: Int32 {
        /// The input could not be read or is not valid JSON / GeoJSON / style.
        case input = 1
        /// Bad command line: unknown subcommand or option, missing or malformed value.
        case usage = 2
        /// The input is fine but the thing asked for does not exist (unknown cluster id).
        case notFound = 3
    }
    var code: Code
    var message: String

    static func usage(_ m: String) -> CLIError { CLIError(code: .usage, message: m) }
    static func input(_ m: String) -> CLIError { CLIError(code: .input, message: m) }
}

/// Reading the input file (or stdin for `-`).
enum Input {
    /// The bytes of `path`, or of standard input for `-`.
    static func bytes(_ path: String) throws(CLIError) -> [UInt8] {
        if path == "-" {
            return [UInt8](FileHandle.standardInput.readDataToEndOfFile())
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .input("\(path): no such file")
        }
        guard !isDirectory.boolValue else { throw .input("\(path): is a directory") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .input("\(path): cannot be read")
        }
        return [UInt8](data)
    }

    /// The name used in messages.
    static func name(_ path: String) -> String { path == "-" ? "<stdin>" : path }

    /// The JSON document in `path`.
    static func json(_ path: String) throws(CLIError) -> JSONValue {
        let b = try bytes(path)
        do {
            return try TextJSONReader.parse(b)
        } catch {
            throw .input("\(name(path)): \(error)")
        }
    }

    /// The features of a GeoJSON FeatureCollection (or a single Feature) in `path`.
    static func features(_ path: String) throws(CLIError) -> [Feature] {
        let doc = try json(path)
        do {
            return try GeoJSONInput.features(doc)
        } catch {
            throw .input("\(name(path)): \(error.message)")
        }
    }
}

/// GeoJSON from a parsed ``JSONValue``: features, geometries and positions, with the location of
/// the first problem in the message.
enum GeoJSONInput {
    struct Problem: Error { var message: String }

    static func features(_ doc: JSONValue) throws(Problem) -> [Feature] {
        guard let type = doc["type"]?.stringValue else { throw Problem(message: "not GeoJSON: no \"type\" member") }
        switch type {
        case "FeatureCollection":
            guard let list = doc["features"]?.arrayValue else {
                throw Problem(message: "FeatureCollection without a \"features\" array")
            }
            var out: [Feature] = []
            out.reserveCapacity(list.count)
            for (k, f) in list.enumerated() {
                do {
                    out.append(try feature(f))
                } catch {
                    throw Problem(message: "features[\(k)]: \(error.message)")
                }
            }
            return out
        case "Feature":
            return [try feature(doc)]
        default:
            throw Problem(message: "expected a FeatureCollection or a Feature, found \"\(type)\"")
        }
    }

    static func feature(_ v: JSONValue) throws(Problem) -> Feature {
        guard v["type"]?.stringValue == "Feature" else { throw Problem(message: "not a Feature") }
        var id: FeatureID? = nil
        switch v["id"] {
        case .number(let n)?: id = .number(n)
        case .string(let s)?: id = .string(s)
        case nil, .null?: id = nil
        default: throw Problem(message: "id must be a number or a string")
        }
        var properties = JSONObject()
        switch v["properties"] {
        case .object(let o)?: properties = o
        case nil, .null?: break
        default: throw Problem(message: "properties must be an object or null")
        }
        let g: Geometry?
        switch v["geometry"] {
        case nil, .null?: g = nil
        case let gv?:
            do { g = try geometry(gv) } catch { throw Problem(message: "geometry: \(error.message)") }
        }
        return Feature(id: id, geometry: g, properties: properties)
    }

    static func geometry(_ v: JSONValue) throws(Problem) -> Geometry {
        guard let type = v["type"]?.stringValue else { throw Problem(message: "no \"type\"") }
        if type == "GeometryCollection" {
            guard let list = v["geometries"]?.arrayValue else { throw Problem(message: "no \"geometries\" array") }
            var gs: [Geometry] = []
            for g in list { gs.append(try geometry(g)) }
            return .geometryCollection(gs)
        }
        guard let c = v["coordinates"] else { throw Problem(message: "\(type) without \"coordinates\"") }
        switch type {
        case "Point": return .point(try position(c))
        case "MultiPoint": return .multiPoint(try positions(c))
        case "LineString": return .lineString(try positions(c))
        case "MultiLineString", "Polygon":
            guard let a = c.arrayValue else { throw Problem(message: "coordinates must be an array") }
            var rings: [[Position]] = []
            for r in a { rings.append(try positions(r)) }
            return type == "Polygon" ? .polygon(rings) : .multiLineString(rings)
        case "MultiPolygon":
            guard let a = c.arrayValue else { throw Problem(message: "coordinates must be an array") }
            var polys: [[[Position]]] = []
            for p in a {
                guard let rs = p.arrayValue else { throw Problem(message: "coordinates must be nested arrays") }
                var rings: [[Position]] = []
                for r in rs { rings.append(try positions(r)) }
                polys.append(rings)
            }
            return .multiPolygon(polys)
        default: throw Problem(message: "unknown geometry type \"\(type)\"")
        }
    }

    static func positions(_ v: JSONValue) throws(Problem) -> [Position] {
        guard let a = v.arrayValue else { throw Problem(message: "coordinates must be an array of positions") }
        var out: [Position] = []
        for p in a { out.append(try position(p)) }
        return out
    }

    static func position(_ v: JSONValue) throws(Problem) -> Position {
        guard let a = v.arrayValue, a.count >= 2, let lng = a[0].numberValue, let lat = a[1].numberValue else {
            throw Problem(message: "a position must be an array of at least two numbers")
        }
        return Position(longitude: lng, latitude: lat, altitude: a.count > 2 ? a[2].numberValue : nil)
    }

    /// The geometry as GeoJSON.
    static func json(_ g: Geometry) -> JSONValue {
        func pos(_ p: Position) -> JSONValue {
            var a: [JSONValue] = [.number(p.longitude), .number(p.latitude)]
            if let z = p.altitude { a.append(.number(z)) }
            return .array(a)
        }
        func line(_ ps: [Position]) -> JSONValue { .array(ps.map(pos)) }
        let coordinates: JSONValue
        switch g {
        case .point(let p): coordinates = pos(p)
        case .multiPoint(let ps), .lineString(let ps): coordinates = line(ps)
        case .multiLineString(let ls), .polygon(let ls): coordinates = .array(ls.map(line))
        case .multiPolygon(let ps): coordinates = .array(ps.map { .array($0.map(line)) })
        case .geometryCollection(let gs):
            return ["type": "GeometryCollection", "geometries": .array(gs.map(json))]
        }
        return ["type": .string(g.typeName), "coordinates": coordinates]
    }
}
