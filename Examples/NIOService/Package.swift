// swift-tools-version:6.0
import PackageDescription

// A small SwiftNIO HTTP/1.1 service that uses the crash reporter as a real service would: the
// reporter first, swift-log lines as breadcrumbs, a breadcrumb per request through the tracking
// façade, and routes that crash in each way a handler can. A package of its own, so that the
// root package does not depend on SwiftNIO. See docs/example-nio.md.
let package = Package(
    name: "nio-service",
    dependencies: [
        .package(name: "swift-crash-reporter", path: "../.."),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.65.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.14.0"),
    ],
    targets: [
        .executableTarget(
            name: "nio-service",
            dependencies: [
                .product(name: "CrashReporter", package: "swift-crash-reporter"),
                .product(name: "CrashReporterLogging", package: "swift-crash-reporter"),
                .product(name: "Tracking", package: "swift-crash-reporter"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Sources/NIOService"
        )
    ]
)
