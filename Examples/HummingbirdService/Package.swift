// swift-tools-version:6.1
import PackageDescription

// A small Hummingbird 2 service that uses the crash reporter as an async Swift service would:
// the reporter first, swift-log lines as breadcrumbs, and routes whose handlers await a chain of
// async functions before they crash, block a thread of the concurrency pool, or ask for a
// snapshot. A package of its own, so that the root package does not depend on Hummingbird. See
// docs/example-hummingbird.md.
let package = Package(
    name: "hummingbird-service",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "swift-crash-reporter", path: "../.."),
        // Without Hummingbird's default trait (swift-configuration support, unused here): about
        // 20,000 lines less to compile
        // (docs/decisions/0119-the-example-services-are-packages-of-their-own.md).
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.0.0", traits: []),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.14.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.100.0"),
    ],
    targets: [
        .executableTarget(
            name: "hummingbird-service",
            dependencies: [
                .product(name: "CrashReporter", package: "swift-crash-reporter"),
                .product(name: "CrashReporterLogging", package: "swift-crash-reporter"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Sources/HummingbirdService"
        )
    ]
)
