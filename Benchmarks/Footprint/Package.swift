// swift-tools-version:6.0
import PackageDescription

// What linking the crash reporter costs a SwiftNIO service: the same small HTTP server built twice,
// once plain and once with `CrashReporter.start` first thing in `main`, measured side by side by
// `footprint` (scripts/bench.sh runs it). A package of its own so that the root package does not
// depend on SwiftNIO.
let package = Package(
    name: "footprint",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "swift-crash-reporter", path: "../.."),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.60.0"),
    ],
    targets: [
        .target(
            name: "FootprintService",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .executableTarget(name: "plain-service", dependencies: ["FootprintService"]),
        .executableTarget(
            name: "reporter-service",
            dependencies: ["FootprintService", .product(name: "CrashReporter", package: "swift-crash-reporter")]
        ),
        .executableTarget(name: "footprint"),
    ]
)
