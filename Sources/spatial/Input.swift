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
            return try JSONValue(parsing: b)
        } catch {
            throw .input("\(name(path)): \(error)")
        }
    }

    /// The features of a GeoJSON FeatureCollection (or a single Feature) in `path`.
    static func features(_ path: String) throws(CLIError) -> [Feature] {
        let b = try bytes(path)
        do {
            return try GeoJSON.read(b).features
        } catch {
            throw .input("\(name(path)): \(error)")
        }
    }
}

/// Geometries as JSON values, for the documents the commands compose.
enum GeoJSONInput {
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

/// A value as compact JSON text with the library's writer (shortest numbers that read back).
func jsonText(_ value: JSONValue) -> String { value.jsonString() }
