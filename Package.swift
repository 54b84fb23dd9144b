// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "swift-crash-reporter",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "CrashReporter", targets: ["CrashReporter"]),
        .library(name: "CrashReport", targets: ["CrashReport"]),
        .library(name: "Tracking", targets: ["Tracking"]),
        .library(name: "TrackingTestKit", targets: ["TrackingTestKit"]),
        .executable(name: "crashreport", targets: ["crashreport"]),
        .executable(name: "crash-test", targets: ["CrashTest"]),
        .executable(name: "crash-reporter-benchmarks", targets: ["Benchmarks"]),
        .executable(name: "crash-collector", targets: ["crash-collector"]),
    ],
    targets: [
        // Everything that runs inside the signal handler. See docs/signal-safety.md.
        .target(
            name: "CCrashReporter",
            path: "CShims",
            cSettings: [.define("_GNU_SOURCE")],
            linkerSettings: [.linkedLibrary("z")]
        ),
        // Shared helpers of every module (JSON, files, time, environment, threads): no Foundation.
        .target(name: "CrashReporterSupport"),
        // zlib's inflate, for reading reports (the reader never links the handler's C target).
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        .target(name: "CrashReport", dependencies: ["CZlib"]),
        .target(name: "CrashReporter", dependencies: ["CCrashReporter", "CrashReport"]),
        .executableTarget(name: "crashreport", dependencies: ["CrashReport"]),
        .target(name: "Tracking", dependencies: ["CrashReporter"]),
        .target(name: "TrackingTestKit", dependencies: ["Tracking"]),

        // The example service and the C functions it crashes in.
        .target(name: "CCrashTestSupport", path: "Examples/CrashTest/CSupport"),
        .executableTarget(
            name: "CrashTest",
            dependencies: ["CrashReporter", "CCrashTestSupport", "Tracking"],
            path: "Examples/CrashTest/Sources"
        ),

        // The local ingestion server: reports, Sentry envelopes, analytics events. See docs/collector.md.
        .executableTarget(name: "crash-collector", dependencies: ["CrashReport"]),
        .testTarget(
            name: "CrashCollectorTests", dependencies: ["CrashReport", "crash-collector"], exclude: ["Fixtures"]),

        .executableTarget(
            name: "Benchmarks",
            dependencies: ["CrashReporter", "CCrashReporter", "CrashReport", "Tracking"],
            path: "Benchmarks/Sources"
        ),

        .testTarget(name: "CrashReporterTests", dependencies: ["CrashReporter", "CCrashReporter", "CrashReport"]),
        .testTarget(name: "CrashReportTests", dependencies: ["CrashReport", "crashreport"]),
        .testTarget(name: "IntegrationTests", dependencies: ["CrashReport"], exclude: ["Support"]),
        .testTarget(name: "CrashReporterSupportTests", dependencies: ["CrashReporterSupport"]),
        .testTarget(name: "TrackingTests", dependencies: ["Tracking", "TrackingTestKit", "CCrashReporter"]),
    ]
)
