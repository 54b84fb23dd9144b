// swift-tools-version:6.0
import PackageDescription

// A small Vapor 4 service that uses the crash reporter as a Vapor service would: the reporter
// first, swift-log lines as breadcrumbs, one breadcrumb per request naming the matched route's
// pattern (never the concrete path), delivery stopped on Vapor's shutdown, and routes that crash
// in an async handler, a synchronous handler, an EventLoopFuture chain, or block a thread of the
// concurrency pool. A package of its own, so that the root package does not depend on Vapor. See
// docs/example-vapor.md.
let package = Package(
    name: "vapor-service",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "swift-crash-reporter", path: "../.."),
        .package(url: "https://github.com/vapor/vapor.git", from: "4.100.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.14.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.65.0"),
    ],
    targets: [
        .executableTarget(
            name: "vapor-service",
            dependencies: [
                .product(name: "CrashReporter", package: "swift-crash-reporter"),
                .product(name: "CrashReporterLogging", package: "swift-crash-reporter"),
                .product(name: "Vapor", package: "vapor"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Sources/VaporService"
        )
    ]
)
