import Foundation
import Testing

/// The layers as a user meets them: what the manifest lets each module reach, and what a program
/// that links a product actually loads. The linking tests build small packages of their own that
/// depend on this one by path, as a user's package would.
@Suite("Layers and what they link")
struct LayeringTests {
    // MARK: The manifest

    /// The manifest as `swift package dump-package` evaluates it: the targets in their order,
    /// each one's dependencies by name (targets, products of other packages, build plugins), and
    /// which targets are tests, examples or benchmarks (by type, or by a path under `Tests/`,
    /// `Examples/`, `Benchmarks/` or `Fuzz/`).
    static func manifest() async throws -> ManifestLayers {
        // A scratch path of its own: the package's .build is locked by the `swift test` running us.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("dump-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let result = try await ChildProcess.runSwiftPM(
            [
                "package", "--package-path", Binaries.packageRoot.path, "--scratch-path",
                scratch.path, "dump-package",
            ],
            environment: ProcessInfo.processInfo.environment, timeout: 120)
        try #require(result.exitCode == 0, "dump-package failed: \(result.stderr)")
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let targets = try #require(manifest["targets"] as? [[String: Any]])
        var layers = ManifestLayers(order: [], edges: [:], clients: [])
        for target in targets {
            let name = try #require(target["name"] as? String)
            let dependencies = target["dependencies"] as? [[String: Any]] ?? []
            let plugins = target["pluginUsages"] as? [[String: Any]] ?? []
            layers.order.append(name)
            layers.edges[name] = (dependencies + plugins).compactMap { dependency in
                ((dependency["byName"] ?? dependency["target"] ?? dependency["product"] ?? dependency["plugin"])
                    as? [Any])?.first as? String
            }
            let path = target["path"] as? String ?? ""
            if target["type"] as? String == "test"
                || ["Tests/", "Examples/", "Benchmarks/", "Fuzz/"].contains(where: path.hasPrefix)
            {
                layers.clients.insert(name)
            }
        }
        return layers
    }

    /// Each target's dependencies by name (targets, and products of other packages).
    static func targetDependencies() async throws -> [String: [String]] {
        try await manifest().edges
    }

    /// `name` and everything it reaches.
    static func closure(of name: String, in graph: [String: [String]]) -> Set<String> {
        var seen: Set<String> = [name]
        var queue = [name]
        while let next = queue.popLast() {
            for dependency in graph[next] ?? [] where seen.insert(dependency).inserted {
                queue.append(dependency)
            }
        }
        return seen
    }

    @Test("the manifest lists its layers top down: no target below one it depends on, no edge up")
    func manifestOrder() async throws {
        let manifest = try await Self.manifest()
        #expect(manifest.order.count > 20 && !manifest.clients.isEmpty, "read \(manifest.order)")
        #expect(manifest.violations() == [])

        // Planted on the real manifest: an edge from the bottom layer up to the façade...
        var upward = manifest
        upward.edges["CrashReporterSupport", default: []].append("Tracking")
        let support = position(of: "CrashReporterSupport", in: manifest)
        let tracking = position(of: "Tracking", in: manifest)
        #expect(
            upward.violations() == [
                "CrashReporterSupport (target \(support)) depends on Tracking (target \(tracking)), listed above it"
            ])
        // ...and TrackingTestKit listed below the support module it depends on.
        var misordered = manifest
        misordered.order.removeAll { $0 == "TrackingTestKit" }
        misordered.order.insert(
            "TrackingTestKit", at: try #require(misordered.order.firstIndex(of: "CrashReporterSupport")) + 1)
        #expect(
            misordered.violations().contains {
                $0.hasPrefix("TrackingTestKit (target") && $0.contains("depends on CrashReporterSupport")
            })
    }

    /// A target's place in the manifest, counted from 1.
    private func position(of target: String, in manifest: ManifestLayers) -> Int {
        (manifest.order.firstIndex(of: target) ?? -1) + 1
    }

    @Test("the layering rule fails on a planted upward edge, a planted misordering and an edge into the tests")
    func plantedLayers() {
        let sound = ManifestLayers(
            order: ["tool", "delivery", "format", "support", "tool-tests"],
            edges: [
                "tool": ["delivery", "format", "support", "ArgumentParser"], "delivery": ["format", "support"],
                "format": ["support"], "tool-tests": ["tool", "support"],
            ],
            clients: ["tool-tests"])
        #expect(sound.violations() == [])

        var upward = sound
        upward.edges["support"] = ["delivery"]
        #expect(upward.violations() == ["support (target 4) depends on delivery (target 2), listed above it"])

        var misordered = sound
        misordered.order = ["tool", "format", "delivery", "support", "tool-tests"]
        #expect(misordered.violations() == ["delivery (target 3) depends on format (target 2), listed above it"])

        var intoTests = sound
        intoTests.edges["format", default: []].append("tool-tests")
        #expect(intoTests.violations() == ["format depends on tool-tests, which is outside the layers"])

        var cycle = sound
        cycle.edges["support"] = ["format"]
        #expect(cycle.violations() == ["support (target 4) depends on format (target 3), listed above it"])
    }

    @Test("the façade reaches nothing of the crash handler, and the tools never link the handler")
    func manifestLayers() async throws {
        let graph = try await Self.targetDependencies()
        let tracking = Self.closure(of: "Tracking", in: graph)
        #expect(tracking.isSubset(of: ["Tracking", "CrashReporterSupport"]), "Tracking reaches \(tracking.sorted())")
        for tool in ["crashreport", "crash-collector"] {
            let reached = Self.closure(of: tool, in: graph)
            #expect(!reached.contains("CCrashReporter"), "\(tool) reaches the signal handler")
            #expect(!reached.contains("CrashReporter"), "\(tool) reaches the service's entry point")
        }
        for module in ["CrashReportFormat", "CrashSymbolication", "CrashReportSentry", "CrashReportDelivery"] {
            #expect(!Self.closure(of: module, in: graph).contains("CCrashReporter"), "\(module) reaches the handler")
        }
        // Each outside package is its users' alone (and the tests' and benchmarks'): the recording
        // core, the façade, the format and delivery import none.
        let measuring: Set<String> = ["Benchmarks"]
        for (dependency, users) in [
            ("ArgumentParser", ["crashreport", "crash-collector"]), ("Logging", ["CrashReporterLogging"]),
            ("ServiceLifecycle", ["CrashReporterLifecycle"]),
        ] {
            let found = Set(
                graph.keys.filter {
                    !$0.hasSuffix("Tests") && !measuring.contains($0) && (graph[$0] ?? []).contains(dependency)
                })
            #expect(found == Set(users), "\(dependency) is used by \(found.sorted())")
            for module in [
                "CrashReporter", "CCrashReporter", "Tracking", "TrackingEventsAPI", "CrashReportFormat",
                "CrashReportDelivery",
            ] {
                #expect(!Self.closure(of: module, in: graph).contains(dependency), "\(module) reaches \(dependency)")
            }
        }
    }

    // MARK: What a program loads

    /// A user's package next to this one: `tracks-only` imports only Tracking, `service` starts
    /// the crash reporter and the analytics provider as the README says.
    static func userPackage() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("layering-\(UUID().uuidString)")
        let sources = root.appendingPathComponent("Sources")
        for name in ["tracks-only", "service"] {
            try FileManager.default.createDirectory(
                at: sources.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        let manifest = """
            // swift-tools-version:6.0
            import PackageDescription
            let package = Package(
                name: "user",
                dependencies: [.package(name: "swift-crash-reporter", path: "\(Binaries.packageRoot.path)")],
                targets: [
                    .executableTarget(
                        name: "tracks-only",
                        dependencies: [.product(name: "Tracking", package: "swift-crash-reporter")]),
                    .executableTarget(
                        name: "service",
                        dependencies: [
                            .product(name: "CrashReporter", package: "swift-crash-reporter"),
                            .product(name: "TrackingEventsAPI", package: "swift-crash-reporter"),
                        ]),
                ]
            )
            """
        try manifest.write(to: root.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try Binaries.inheritMirrors(into: root)
        try """
        import Tracking

        struct Opened: TrackingEvent { var name: String { "library_opened" } }
        track(Opened())
        """.write(to: sources.appendingPathComponent("tracks-only/main.swift"), atomically: true, encoding: .utf8)
        try """
        import CrashReporter
        import Tracking
        import TrackingEventsAPI

        try CrashReporter.start(Options(appName: "layering"))
        let state = StateDirectory.resolve(appName: "layering")
        TrackingSystem.bootstrap(Tracker(stateDirectory: state, providers: [EventsAPIProvider(stateDirectory: state)]))
        track(NamedEvent("service_started"))
        """.write(to: sources.appendingPathComponent("service/main.swift"), atomically: true, encoding: .utf8)
        return root
    }

    /// The shared libraries `binary` asks the dynamic linker for (`NEEDED` entries).
    static func needed(_ binary: URL) async throws -> [String] {
        let result = try await ChildProcess.run(
            ["/usr/bin/readelf", "-d", binary.path], environment: [:], timeout: 60)
        return result.stdout.split(separator: "\n").compactMap { line in
            guard line.contains("(NEEDED)"), let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]")
            else { return nil }
            return String(line[line.index(after: open)..<close])
        }
    }

    /// The symbols `binary` defines, by name.
    static func definedSymbols(_ binary: URL) async throws -> Set<String> {
        let result = try await ChildProcess.run(
            ["/usr/bin/nm", "--defined-only", binary.path], environment: [:], timeout: 60)
        return Set(result.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) })
    }

    static func build(_ package: URL) async throws -> URL {
        let environment = ProcessInfo.processInfo.environment
        let result = try await ChildProcess.runSwiftPM(
            ["build", "--package-path", package.path], environment: environment,
            timeout: 900)
        try #require(result.exitCode == 0, "swift build failed:\n\(result.stdout)\n\(result.stderr)")
        let path = try await ChildProcess.runSwiftPM(
            ["build", "--package-path", package.path, "--show-bin-path"],
            environment: environment, timeout: 120)
        return URL(fileURLWithPath: path.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Libraries a service must never load because of the reporter: Foundation (and its ICU
    /// data), FoundationNetworking's libcurl, libunwind, and the TLS library (loaded only when
    /// an https upload needs it).
    static let heavy = [
        "libFoundation", "libFoundationEssentials", "libFoundationInternationalization", "lib_FoundationICU",
        "libFoundationNetworking", "libcurl", "libunwind", "libssl", "libcrypto", "libdispatch",
    ]

    @Test(
        "a library that only tracks links nothing of the handler, crashreport no network stack, a service no Foundation"
    )
    func linkedLibraries() async throws {
        let package = try Self.userPackage()
        defer { try? FileManager.default.removeItem(at: package) }
        let bin = try await Self.build(package)

        let tracksOnly = bin.appendingPathComponent("tracks-only")
        let symbols = try await Self.definedSymbols(tracksOnly)
        #expect(
            !symbols.contains { $0.hasPrefix("scr_") }, "the C crash handler is linked into a tracking-only program")
        #expect(!symbols.contains("pthread_create"), "a tracking-only program interposes pthread_create")
        let tracksNeeded = try await Self.needed(tracksOnly)
        #expect(!tracksNeeded.contains { $0.hasPrefix("libz") }, "tracks-only needs \(tracksNeeded)")

        // The review CLI may use Foundation (it is a tool) but never the network stack or the handler.
        let tool = Binaries.debug("crashreport")
        let toolNeeded = try await Self.needed(tool)
        for library in ["libFoundationNetworking", "libcurl"] {
            #expect(!toolNeeded.contains { $0.hasPrefix(library + ".") }, "crashreport needs \(library)")
        }
        #expect(!(try await Self.definedSymbols(tool)).contains("scr_install"), "crashreport links the handler")

        let service = bin.appendingPathComponent("service")
        let serviceSymbols = try await Self.definedSymbols(service)
        for module in ["7Logging", "16ServiceLifecycle", "14ArgumentParser"] {
            #expect(
                !serviceSymbols.contains { $0.hasPrefix("$s\(module)") },
                "the service links \(module.drop { $0.isNumber })")
        }
        let serviceNeeded = try await Self.needed(service)
        for library in Self.heavy {
            #expect(!serviceNeeded.contains { $0.hasPrefix(library + ".") }, "the service needs \(library)")
        }
    }
}
