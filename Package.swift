// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "SpatialCore",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "SpatialCore", targets: ["SpatialCore"]),
        .executable(name: "spatial-bench", targets: ["spatial-bench"]),
        .executable(name: "spatial", targets: ["spatial"]),
    ],
    targets: [
        .target(name: "SpatialCorePrefetch"),
        .target(name: "SpatialCore", dependencies: ["SpatialCorePrefetch"]),
        .executableTarget(name: "spatial-bench", dependencies: ["SpatialCore"]),
        .executableTarget(name: "spatial", dependencies: ["SpatialCore"]),
        .testTarget(name: "SpatialCoreTests", dependencies: ["SpatialCore", "spatial"]),
    ],
    swiftLanguageModes: [.v6]
)
