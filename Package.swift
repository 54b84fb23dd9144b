// swift-tools-version:6.0
import PackageDescription

// The outside packages' products, each used by a few targets: which, and why, in
// docs/decisions/0108-the-tools-use-swift-argument-parser-from-the-root-package.md and
// docs/decisions/0114-the-integration-products-live-in-the-root-package.md.
let argumentParser: Target.Dependency = .product(name: "ArgumentParser", package: "swift-argument-parser")
let logging: Target.Dependency = .product(name: "Logging", package: "swift-log")
let serviceLifecycle: Target.Dependency = .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")

// Linux only (glibc, /proc, ELF, the signal ABI), so no Apple platform is declared: SwiftPM's
// `platforms` names minimum Apple versions, and none of them builds this package.
// The targets form layers, listed from the top down: each depends only on targets listed below
// it. README.md ("Layout") draws them; docs/decisions/README.md ("Layers and dependencies") says
// why they are cut where they are.
let package = Package(
    name: "swift-crash-reporter",
    products: [
        // What a service links: start(), breadcrumbs, consent, next-launch delivery.
        .library(name: "CrashReporter", targets: ["CrashReporter"]),
        // What a library links to track events: no crash handler, nothing but the support module.
        .library(name: "Tracking", targets: ["Tracking"]),
        .library(name: "TrackingTestKit", targets: ["TrackingTestKit"]),
        // Integrations: swift-log lines as breadcrumbs (and the package's diagnostics as log lines);
        // delivery as a swift-service-lifecycle service.
        .library(name: "CrashReporterLogging", targets: ["CrashReporterLogging"]),
        .library(name: "CrashReporterLifecycle", targets: ["CrashReporterLifecycle"]),
        // The analytics backend for an events API, for services that ask for consent.
        .library(name: "TrackingEventsAPI", targets: ["TrackingEventsAPI"]),
        // Reading reports: the model, the reader, the renderers.
        .library(name: "CrashReportFormat", targets: ["CrashReportFormat"]),
        .executable(name: "crashreport", targets: ["crashreport"]),
        .executable(name: "crash-collector", targets: ["crash-collector"]),
        .executable(name: "crash-test", targets: ["CrashTest"]),
        .executable(name: "crash-reporter-benchmarks", targets: ["Benchmarks"]),
    ],
    dependencies: [
        // The command-line tools' parser, help and shell completions; no library target depends
        // on it (docs/decisions/0108-the-tools-use-swift-argument-parser-from-the-root-package.md).
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        // Only the integrations use these; CrashReporter and Tracking never do
        // (docs/decisions/0114-the-integration-products-live-in-the-root-package.md).
        .package(url: "https://github.com/apple/swift-log.git", from: "1.14.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.0.0"),
    ],
    targets: [
        // MARK: Tools: the review CLI and the local receiver (which owns the receiver-only parsers).
        .executableTarget(
            name: "crashreport",
            dependencies: [
                "CrashReportDelivery", "CrashSymbolication", "CrashReportSentry", "CrashReportFormat",
                "CrashReporterSupport", argumentParser,
            ]
        ),
        .executableTarget(
            name: "crash-collector",
            dependencies: [
                "CrashCollectorParsers", "CrashReportDelivery", "CrashReporterHTTP", "CrashSymbolication",
                "CrashReportSentry", "CrashReportFormat", "CrashReporterSupport", "Tracking", argumentParser,
            ]
        ),
        // The collector's parsers of what clients send (HTTP requests, Sentry envelopes, events
        // batches): a library of their own so that the fuzz targets (Fuzz/) link them too. HTTP
        // messages are CrashReporterHTTP's, the client's model
        // (docs/decisions/0081-one-http-message-model-in-crashreporterhttp.md).
        .target(
            name: "CrashCollectorParsers",
            dependencies: ["CrashReporterHTTP", "CrashReportFormat", "CrashReporterSupport", "Tracking"]),

        // MARK: Integrations with the server-side ecosystem, each in a product of its own.
        .target(
            name: "CrashReporterLogging",
            dependencies: ["CrashReporter", "Tracking", logging]
        ),
        .target(
            name: "CrashReporterLifecycle",
            dependencies: [
                "CrashReporter", serviceLifecycle,
            ]
        ),

        // MARK: The service's entry point: recording (start, options, consent, breadcrumbs) and the
        // next-launch worker that runs delivery. See
        // docs/decisions/0002-crashreporter-sits-above-delivery-only-it-links-the-handler.md.
        .target(
            name: "CrashReporter",
            dependencies: [
                "CCrashReporter", "Tracking", "CrashReportDelivery", "CrashSymbolication", "CrashReporterSupport",
            ]
        ),

        // MARK: Delivery: transports, retry policy, the pending-report store; the analytics provider.
        .target(
            name: "CrashReportDelivery",
            dependencies: [
                "CrashReportSentry", "CrashSymbolication", "CrashReportFormat", "CrashReporterHTTP",
                "CrashReporterSupport",
            ]
        ),
        .target(name: "TrackingEventsAPI", dependencies: ["Tracking", "CrashReporterSupport", "CrashReporterHTTP"]),

        // MARK: HTTP: the Foundation-free client of crash delivery and the events API, and TLS from the
        // system's libssl, loaded with dlopen only when an https request is made. See
        // docs/decisions/0077-tls-is-the-systems-openssl-loaded-on-the-first-https-request.md.
        .target(name: "CrashReporterHTTP", dependencies: ["CCrashReporterTLS", "CrashReporterSupport"]),
        .target(name: "CCrashReporterTLS", cSettings: [.define("_GNU_SOURCE")]),

        // MARK: Processing: symbolication (ELF, DWARF, the standard library's demangler), Sentry's formats.
        .target(name: "CrashSymbolication", dependencies: ["CrashReportFormat", "CrashReporterSupport"]),
        .target(name: "CrashReportSentry", dependencies: ["CrashReportFormat", "CrashReporterSupport"]),

        // MARK: Report format: the model, the reader (gzip + JSON), the schema and its validator.
        .target(
            name: "CrashReportFormat", dependencies: ["CZlib", "CrashReporterSupport"],
            plugins: ["EmbedReportSchema"]),
        // docs/report.schema.json, the schema's one copy, as a Swift string for the module above.
        .plugin(name: "EmbedReportSchema", capability: .buildTool()),
        // zlib's inflate for the reader, which never links the handler's C target.
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),

        // MARK: Recording core: everything that runs inside the signal handler. See docs/signal-safety.md.
        .target(
            name: "CCrashReporter",
            path: "CShims",
            cSettings: [.define("_GNU_SOURCE")],
            linkerSettings: [.linkedLibrary("z")]
        ),

        // MARK: Façade: track(), events, the provider protocol, the breadcrumb-sink hook. Only the
        // support module below it: no Foundation, no Dispatch, no C target. Above it, its test kit
        // (a provider that records what it is given), a product of its own.
        .target(name: "TrackingTestKit", dependencies: ["Tracking", "CrashReporterSupport"]),
        .target(name: "Tracking", dependencies: ["CrashReporterSupport"]),

        // MARK: Support: each small shared helper once (JSON, files, time, environment, ids, threads),
        // with `package` access only, and no Foundation.
        .target(name: "CrashReporterSupport"),

        // MARK: Examples and benchmarks.
        .target(name: "CCrashTestSupport", path: "Examples/CrashTest/CSupport"),
        .executableTarget(
            name: "CrashTest",
            dependencies: ["CrashReporter", "CCrashReporter", "CCrashTestSupport", "Tracking", "TrackingEventsAPI"],
            path: "Examples/CrashTest/Sources"
        ),
        .executableTarget(
            name: "Benchmarks",
            dependencies: [
                "CrashReporter", "CCrashReporter", "CrashReportFormat", "CrashSymbolication", "Tracking",
                "TrackingEventsAPI", "CrashReporterLogging", logging, "CrashReportDelivery", "CrashReportSentry",
                "CrashReporterSupport", "CrashReporterHTTP",
            ],
            path: "Benchmarks/Sources"
        ),

        // MARK: Tests: one target per module, plus integration tests that crash real processes.
        // Shared by the test targets: fixtures, loopback servers (the Python scripts in Scripts/),
        // test certificates.
        .target(
            name: "TestSupport", dependencies: ["CrashReportFormat", "Tracking", "CrashReporterSupport"],
            path: "Tests/TestSupport",
            exclude: ["Scripts"]
        ),
        .testTarget(name: "TrackingTests", dependencies: ["Tracking", "TrackingTestKit", "TestSupport"]),
        // TrackingEventsAPI as a service's own file sees it: no @testable import, and a server
        // stack's HTTP names (stand-ins, ServerFrameworkNames) imported beside it.
        .target(name: "ServerFrameworkNames", path: "Tests/ServerFrameworkNames"),
        .testTarget(
            name: "TrackingEventsAPIUsageTests",
            dependencies: ["TrackingEventsAPI", "Tracking", "TestSupport", "ServerFrameworkNames"]),
        .testTarget(
            name: "TrackingEventsAPITests",
            dependencies: [
                "TrackingEventsAPI", "Tracking", "TrackingTestKit", "TestSupport", "CrashReporterSupport",
                "CrashReporterHTTP",
            ]),
        // The C core's own tests: the handler's pieces called directly, no Swift layer between.
        .testTarget(name: "CCrashReporterTests", dependencies: ["CCrashReporter"]),
        // The TelemetryDeck and PostHog providers against a loopback receiver and the vendors'
        // official Python clients (child processes; a venv made on first use).
        .testTarget(
            name: "TrackingVendorTests",
            dependencies: ["TrackingEventsAPI", "Tracking", "TestSupport", "CrashReporterSupport"]),
        .testTarget(
            name: "CrashReporterTests",
            dependencies: ["CrashReporter", "CCrashReporter", "CrashReportFormat", "Tracking", "TestSupport"]),
        .testTarget(name: "CrashReportFormatTests", dependencies: ["CrashReportFormat", "TestSupport"]),
        .testTarget(
            name: "CrashSymbolicationTests",
            dependencies: ["CrashSymbolication", "CrashReportFormat", "CrashReporterSupport", "TestSupport"]
        ),
        .testTarget(
            name: "CrashReportSentryTests",
            dependencies: ["CrashReportSentry", "CrashReportFormat", "CrashReporterSupport", "TestSupport"]
        ),
        .testTarget(
            name: "CrashReportDeliveryTests",
            dependencies: [
                "CrashReportDelivery", "CrashReportFormat", "CrashReportSentry", "CrashReporterHTTP",
                "CrashReporterSupport", "TestSupport",
            ]
        ),
        .testTarget(
            name: "CrashReportToolTests",
            dependencies: [
                "crashreport", "CrashReportFormat", "CrashReporter", "CrashReportDelivery", "TestSupport",
                argumentParser,
            ]
        ),
        .testTarget(
            name: "CrashCollectorTests",
            dependencies: [
                "crash-collector", "CrashCollectorParsers", "CrashReporterHTTP", "CrashReportFormat",
                "CrashReporterSupport", "TestSupport", argumentParser,
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "CrashReportFormat", "CrashReportDelivery", "CrashSymbolication", "crash-collector",
                "CrashCollectorParsers", "TestSupport",
            ]
        ),
        .testTarget(
            name: "CrashReporterHTTPTests", dependencies: ["CrashReporterHTTP", "TestSupport"], exclude: ["Support"]),
        .testTarget(name: "CrashReporterSupportTests", dependencies: ["CrashReporterSupport", "TestSupport"]),
        .testTarget(
            name: "CrashReporterLoggingTests",
            dependencies: [
                "CrashReporterLogging", "CrashReporter", "CCrashReporter", "Tracking", "TestSupport",
                logging,
            ]
        ),
        .testTarget(
            name: "CrashReporterLifecycleTests",
            dependencies: [
                "CrashReporterLifecycle", "CrashReporter", "CrashReportFormat", "TestSupport",
                serviceLifecycle,
                logging,
            ]
        ),
    ]
)

// MARK: Fuzz targets (Fuzz/, docs/fuzzing.md): one libFuzzer entry point per parser, over the
// package's own modules. They exist only in the fuzz build (scripts/fuzz.sh sets
// CRASH_REPORTER_FUZZ=1 and builds with -sanitize=fuzzer,address), so ordinary builds and tests
// never compile them.
if Context.environment["CRASH_REPORTER_FUZZ"] == "1" {
    let fuzzTargets: [(name: String, dependencies: [Target.Dependency])] = [
        ("FuzzReportReader", ["CrashReportFormat", "CrashReporterSupport"]),
        ("FuzzHTTPRequest", ["CrashCollectorParsers"]),
        ("FuzzSentryEnvelope", ["CrashCollectorParsers", "CrashReporterSupport"]),
        ("FuzzEventsBatch", ["CrashCollectorParsers", "CrashReporterSupport", "Tracking"]),
        ("FuzzOTLPLogs", ["CrashCollectorParsers", "CrashReporterSupport"]),
        ("FuzzSentryDSN", ["CrashReportSentry"]),
        ("FuzzRetryHeaders", ["CrashReportSentry", "CrashReporterSupport"]),
        ("FuzzScrubber", ["Tracking"]),
        ("FuzzJSONWriter", ["CCrashReporter", "CrashReporterSupport"]),
        ("FuzzLoggedReports", ["CrashReportFormat"]),
    ]
    package.targets += fuzzTargets.map { target in
        .executableTarget(name: target.name, dependencies: target.dependencies, path: "Fuzz/Targets/\(target.name)")
    }
}
