import CrashReportFormat
import Foundation
import Testing

/// The whole story with nothing faked: `crash-test` crashes for real, the next launch uploads
/// what it left to a real `crash-collector` process, and the collector stores, lists, groups
/// and shows it symbolicated. Everything on 127.0.0.1, in temporary directories.
@Suite("End to end: crash-test and the real collector", .serialized)
struct EndToEndCollectorTests {
    let binary = Binaries.crashTest(build: "debug")

    /// A collector, and a sandbox whose service crashed once with `kind` and left `id`.
    struct Scene {
        var sandbox: CrashSandbox
        var collector: CollectorChild
        var crash: ChildProcess.Result
        var id: String
        var parts: (CrashSandbox, CollectorChild, ChildProcess.Result, String) { (sandbox, collector, crash, id) }
    }

    /// The collector's $HOME is the sandbox's, as on a developer's machine where the collector
    /// and the service run as the same user: the report's `~/bin/crash-test` is found there.
    /// The caller removes the sandbox.
    func scene(
        crash kind: String = "segfault", build: String = "debug", collectorArguments: [String] = []
    ) async throws -> Scene {
        let sandbox = try CrashSandbox(binary: Binaries.crashTest(build: build))
        let collector = try await CollectorChild(
            data: sandbox.scratch("collector"), home: sandbox.home, arguments: collectorArguments)
        let crash = try await sandbox.crash(kind)
        return Scene(sandbox: sandbox, collector: collector, crash: crash, id: try sandbox.onlyPendingID())
    }

    func expectCleanStop(_ collector: CollectorChild) async throws {
        let stopped = try await collector.stop()
        #expect(stopped.exitCode == 0, "the collector must stop cleanly: \(stopped.stderr)")
    }

    @Test(
        "plain transport: stored once, listed with its signal, shown symbolicated, grouped on the page",
        arguments: ["segfault", "fatal-error"])
    func plainTransport(kind: String) async throws {
        let (sandbox, collector, crashed, id) = try await scene(crash: kind).parts
        defer { sandbox.remove() }
        #expect(crashed.signal == (kind == "segfault" ? SIGSEGV : CrashExpectation.trapSignal))

        let run = try await sandbox.deliver(["CRASH_REPORTER_URL": collector.reportsURL])
        #expect(run.exitCode == 0)
        #expect(run.stdout.contains("crash-test: delivered 1, rejected 0, kept for retry 0"), "\(run.stdout)")
        #expect(sandbox.names(in: "pending").isEmpty)
        #expect(sandbox.names(in: "delivered") == ["\(id).crash"])
        #expect(collector.files("reports") == ["\(id).crash"])

        let listed = try await collector.storedReports()
        try #require(listed.count == 1)
        #expect(listed[0]["id"] as? String == id)
        #expect(listed[0]["signal"] as? String == (kind == "segfault" ? "SIGSEGV" : CrashExpectation.trapSignalName))
        #expect(listed[0]["app"] as? String == "crash-test")

        let function = kind == "segfault" ? "crashBySegfault()" : "crashByFatalError()"
        let shown = try await collector.get("/reports/\(id)?format=text")
        #expect(shown.status == 200)
        #expect(shown.text.hasPrefix("Crash report \(id)"))
        #expect(shown.text.contains(function), "symbolicated on the collector's machine:\n\(shown.text)")
        if kind == "fatal-error" {
            // The message is the first thing after the header, before the signal and frames.
            let sections = shown.text.components(separatedBy: "\n\n")
            #expect(sections.count > 2 && sections[1].contains("Fatal error: crash-test fatal error on purpose"))
        }
        // A second look is served from the kept view, and is the same.
        #expect(try await collector.get("/reports/\(id)?format=text").text == shown.text)
        let html = try await collector.get("/reports/\(id)")
        #expect(html.status == 200)
        #expect(html.text.contains("<tr class=\"frame in-app\">"), "the app's frames are highlighted")
        #expect(html.text.contains("<span class=\"fn\">\(function)</span>"))

        let page = try await collector.get("/")
        #expect(page.status == 200)
        let signature = try #require(listed[0]["signature"] as? String)
        #expect(signature.contains(" | \(function) | "), "grouped by names: \(signature)")
        #expect(page.text.contains("\">\(function) — "), "the group's title is where it crashed")
        let groups = try JSONSerialization.jsonObject(with: Data(try await collector.get("/api/groups").text.utf8))
        let key = try #require((groups as? [[String: Any]])?.first?["key"] as? String)
        #expect(page.text.contains("href=\"/groups/\(key)\""))
        #expect(try await collector.get("/groups/\(key)").text.contains("href=\"/reports/\(id)\""))
        try await expectCleanStop(collector)
    }

    @Test("CRASH_REPORTER_URL set to the collector's base URL, as the demo prints it, delivers the report")
    func baseURL() async throws {
        let (sandbox, collector, _, id) = try await scene().parts
        defer { sandbox.remove() }
        let run = try await sandbox.deliver(["CRASH_REPORTER_URL": "http://127.0.0.1:\(collector.port)/"])
        #expect(run.stdout.contains("crash-test: delivered 1, rejected 0, kept for retry 0"), "\(run.stdout)")
        #expect(sandbox.names(in: "rejected").isEmpty)
        #expect(collector.files("reports") == ["\(id).crash"])
        #expect(try await collector.storedReports().first?["id"] as? String == id)
        // The front page is still the front page.
        #expect(try await collector.get("/").text.contains("crashBySegfault() — SIGSEGV"))
        try await expectCleanStop(collector)
    }

    @Test(
        "release build: the Swift runtime failure the collector finds in the debug info is shown first",
        .enabled(if: Binaries.crashTestBuilds.contains("release")))
    func runtimeFailureFirst() async throws {
        let (sandbox, collector, crashed, id) = try await scene(crash: "force-unwrap", build: "release").parts
        defer { sandbox.remove() }
        #expect(crashed.signal == CrashExpectation.trapSignal)
        let run = try await sandbox.deliver(["CRASH_REPORTER_URL": collector.reportsURL])
        #expect(run.stdout.contains("crash-test: delivered 1"), "\(run.stdout)")
        let shown = try await collector.get("/reports/\(id)?format=text")
        #expect(shown.status == 200)
        // -O code traps without calling the runtime: no message in the report, only the reason
        // the compiler left in the debug info, which the collector reads from the binary.
        let sections = shown.text.components(separatedBy: "\n\n")
        #expect(
            sections.count > 2
                && sections[1] == "Swift runtime failure: Unexpectedly found nil while unwrapping an Optional value",
            "\(shown.text)")
        #expect(shown.text.contains("crashByForceUnwrap()"))
        try await expectCleanStop(collector)
    }

    @Test("Sentry transport: a native fatal event with its frames oldest first and its images; a wrong key is 401")
    func sentryTransport() async throws {
        let key = "e2e0sentry0key0f00d"
        let (sandbox, collector, _, id) = try await scene(collectorArguments: ["--sentry-key", key]).parts
        defer { sandbox.remove() }
        let run = try await sandbox.deliver(["SENTRY_DSN": "http://\(key)@127.0.0.1:\(collector.port)/42"])
        #expect(run.exitCode == 0)
        #expect(run.stdout.contains("crash-test: delivered 1, rejected 0, kept for retry 0"), "\(run.stdout)")

        let eventID = id.replacingOccurrences(of: "-", with: "").lowercased()
        try #require(collector.files("events-sentry") == ["\(eventID).json"])
        let stored = try Data(contentsOf: collector.data.appendingPathComponent("events-sentry/\(eventID).json"))
        let event = try #require(try JSONSerialization.jsonObject(with: stored) as? [String: Any])
        #expect(event["event_id"] as? String == eventID)
        #expect(event["level"] as? String == "fatal")
        #expect(event["platform"] as? String == "native")
        let exception = try #require(((event["exception"] as? [String: Any])?["values"] as? [[String: Any]])?.first)
        #expect(exception["type"] as? String == "SIGSEGV")
        #expect((exception["mechanism"] as? [String: Any])?["type"] as? String == "signalhandler")

        // Frames oldest first: the distinct addresses are the report's frames reversed (a frame
        // with inlined calls is several Sentry frames with one address), with function names.
        let report = try ReportDecoding.decode(file: sandbox.state.appendingPathComponent("delivered/\(id).crash").path)
        let frames = try #require((exception["stacktrace"] as? [String: Any])?["frames"] as? [[String: Any]])
        var addresses: [UInt64] = []
        for frame in frames {
            let address = try #require((frame["instruction_addr"] as? String).flatMap(Address.init(hex:))?.rawValue)
            if addresses.last != address { addresses.append(address) }
        }
        #expect(addresses == (report.crash?.frames ?? []).reversed().map(\.ip.rawValue))
        let functions = frames.map { $0["function"] as? String ?? "" }
        let crashing = try #require(functions.lastIndex { $0.contains("crashBySegfault()") }, "\(functions)")
        let caller = try #require(functions.lastIndex { $0.contains("CrashKind.perform()") }, "\(functions)")
        #expect(caller < crashing, "the caller comes before the crashing function: \(functions)")
        #expect(frames.last?["instruction_addr"] as? String == frames[crashing]["instruction_addr"] as? String)

        let images = try #require((event["debug_meta"] as? [String: Any])?["images"] as? [[String: Any]])
        #expect(!images.isEmpty)
        #expect(images.allSatisfy { $0["type"] as? String == "elf" && !($0["code_id"] as? String ?? "").isEmpty })
        let mainBuildID = try #require(report.images.first { $0.main }?.buildID.lowercased())
        #expect(images.contains { $0["code_id"] as? String == mainBuildID })

        // The same service with a wrong key: 401, which is final; the report is set aside.
        let wrong = try CrashSandbox(binary: binary)
        defer { wrong.remove() }
        _ = try await wrong.crash("segfault")
        let wrongID = try wrong.onlyPendingID()
        let refused = try await wrong.deliver(["SENTRY_DSN": "http://not\(key)@127.0.0.1:\(collector.port)/42"])
        #expect(refused.exitCode == 0)
        #expect(refused.stdout.contains("crash-test: delivered 0, rejected 1, kept for retry 0"), "\(refused.stdout)")
        #expect(wrong.names(in: "rejected") == ["\(wrongID).crash"])
        let note =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: wrong.state.appendingPathComponent("rejected/\(wrongID).reason")))
            as? [String: Any]
        #expect(note?["status"] as? Int == 401)
        #expect(collector.files("events-sentry") == ["\(eventID).json"], "nothing stored for the wrong key")
        try await expectCleanStop(collector)
    }

    @Test("the collector restarted between attempts: connection refused keeps the report, the next run delivers it")
    func collectorRestarted() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let data = try sandbox.scratch("collector")
        let first = try await CollectorChild(data: data, home: sandbox.home)
        let port = first.port
        let environment = ["CRASH_REPORTER_URL": first.reportsURL, "CRASH_REPORTER_RETRY_BASE_SECONDS": "0"]
        _ = try await sandbox.crash("segfault")
        let before = try sandbox.onlyPendingID()
        #expect(try await sandbox.deliver(environment).stdout.contains("delivered 1"))
        try await expectCleanStop(first)

        _ = try await sandbox.crash("abort")
        let during = try sandbox.onlyPendingID()
        let refused = try await sandbox.deliver(environment)
        #expect(refused.exitCode == 0, "a collector that is down must not hurt the service: \(refused.stderr)")
        #expect(refused.stdout.contains("delivered 0, rejected 0, kept for retry 1"), "\(refused.stdout)")
        #expect(sandbox.names(in: "pending") == ["\(during).crash"])

        let second = try await CollectorChild(data: data, home: sandbox.home, port: port)
        let delivered = try await sandbox.deliver(environment)
        #expect(
            delivered.stdout.contains("crash-test: delivered 1, rejected 0, kept for retry 0"), "\(delivered.stdout)")
        #expect(sandbox.names(in: "pending").isEmpty)
        #expect(sandbox.names(in: "delivered") == [before, during].sorted().map { "\($0).crash" })
        let ids = try await second.storedReports().compactMap { $0["id"] as? String }
        #expect(ids.sorted() == [before, during].sorted(), "the restarted collector kept the first one too")
        try await expectCleanStop(second)
    }

    @Test("the same report delivered twice is stored once; the duplicate answer still counts as delivered")
    func duplicateDelivery() async throws {
        let (sandbox, collector, _, id) = try await scene().parts
        defer { sandbox.remove() }
        #expect(try await sandbox.deliver(["CRASH_REPORTER_URL": collector.reportsURL]).stdout.contains("delivered 1"))
        // As if the client had died after the upload and before moving the file.
        try FileManager.default.copyItem(
            at: sandbox.state.appendingPathComponent("delivered/\(id).crash"),
            to: sandbox.pending.appendingPathComponent("\(id).crash"))
        let again = try await sandbox.deliver(["CRASH_REPORTER_URL": collector.reportsURL])
        #expect(again.stdout.contains("crash-test: delivered 1, rejected 0, kept for retry 0"), "\(again.stdout)")
        #expect(sandbox.names(in: "pending").isEmpty)
        #expect(sandbox.names(in: "delivered") == ["\(id).crash"])
        #expect(collector.files("reports") == ["\(id).crash"])
        #expect(try await collector.storedReports().count == 1)
        try await expectCleanStop(collector)
    }

    @Test("a damaged pending file never reaches the collector; it is set aside in rejected/ with its reason")
    func damagedFile() async throws {
        let (sandbox, collector, _, good) = try await scene().parts
        defer { sandbox.remove() }
        let original = try Data(contentsOf: sandbox.pending.appendingPathComponent("\(good).crash"))
        let truncated = "00000000-0000-4000-8000-00000000000a"
        let garbage = "00000000-0000-4000-8000-00000000000b"
        try original.prefix(original.count / 2).write(to: sandbox.pending.appendingPathComponent("\(truncated).crash"))
        try Data("not a report at all".utf8).write(to: sandbox.pending.appendingPathComponent("\(garbage).crash"))

        let run = try await sandbox.deliver(["CRASH_REPORTER_URL": collector.reportsURL])
        #expect(run.exitCode == 0)
        #expect(run.stdout.contains("crash-test: delivered 1, rejected 2, kept for retry 0"), "\(run.stdout)")
        #expect(sandbox.names(in: "rejected") == ["\(truncated).crash", "\(garbage).crash"])
        for id in [truncated, garbage] {
            let note = try String(
                contentsOf: sandbox.state.appendingPathComponent("rejected/\(id).reason"), encoding: .utf8)
            #expect(note.contains("damaged report"), "\(id): \(note)")
        }
        #expect(collector.files("reports") == ["\(good).crash"], "only the good report was sent")
        #expect(try await collector.storedReports().compactMap { $0["id"] as? String } == [good])
        try await expectCleanStop(collector)
    }
}

extension CrashExpectation {
    static var trapSignalName: String { trapSignal == SIGILL ? "SIGILL" : "SIGTRAP" }
}
