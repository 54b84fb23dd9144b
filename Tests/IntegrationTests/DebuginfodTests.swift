import CrashReportFormat
import Foundation
import TestSupport
import Testing

/// A stripped release `crash-test` crashes; its debug file and the C library's (`libc6-dbg`) are
/// served by a real `debuginfod`, and `crashreport show` and the collector name the frames with
/// nothing but `DEBUGINFOD_URLS`; the files land in elfutils' cache, which elfutils' own
/// `debuginfod-find` then reads. Servers that are down, silent, redirecting in a circle, without
/// the file, or sending another build's file or too large a one each leave one note, end within
/// the timeout, and cache nothing wrong.
@Suite("Debug files from debuginfod")
struct DebuginfodTests {
    static let enabled =
        StrippedBinaryTests.hasRelease && DebuginfodServer.isInstalled
        && FileManager.default.fileExists(atPath: SystemDebugFilesTests.directory + "/.build-id")

    /// A stripped release crash-test that crashed once, its debug file kept aside.
    struct Scene {
        var sandbox: CrashSandbox
        var report: String
        var main: CrashReport.Image
        var libc: CrashReport.Image
        var debugFile: URL
    }

    static func scene() async throws -> Scene {
        let sandbox = try CrashSandbox(binary: Binaries.releaseCrashTest)
        let served = try sandbox.scratch("served")
        let debugFile = served.appendingPathComponent("crash-test.debug")
        try await StrippedBinaryTests.binutils(["objcopy", "--only-keep-debug", sandbox.binary.path, debugFile.path])
        try await StrippedBinaryTests.binutils(["strip", "--strip-all", sandbox.binary.path])
        let crashed = try await sandbox.crash("segfault")
        #expect(crashed.signal == SIGSEGV, "\(crashed.stderr)")
        let file = try #require(sandbox.reports.first).path
        let report = try ReportDecoding.decode(file: file)
        let main = try #require(report.images.first { $0.main })
        let libc = try #require(report.images.first { $0.name == "libc.so.6" })
        return Scene(sandbox: sandbox, report: file, main: main, libc: libc, debugFile: debugFile)
    }

    /// The cache entry of a build id in elfutils' layout.
    static func cached(_ cache: URL, _ buildID: String) -> URL {
        cache.appendingPathComponent("\(buildID)/debuginfo")
    }

    static func size(_ url: URL) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int
    }

    @Test(
        "a real debuginfod names the stripped binary's frames in show and on the collector's page; the cache serves the next run",
        .enabled(if: enabled, "needs the release crash-test, debuginfod and libc6-dbg (scripts/ensure-deps.sh)"))
    func realServer() async throws {
        let scene = try await Self.scene()
        defer { scene.sandbox.remove() }
        let served = scene.debugFile.deletingLastPathComponent()
        let libcDebug = try #require(SystemDebugFilesTests.libcDebugFile(buildID: scene.libc.buildID))
        try FileManager.default.copyItem(atPath: libcDebug, toPath: served.appendingPathComponent("libc.debug").path)
        let server = try await DebuginfodServer(
            serving: served, buildIDs: [scene.main.buildID, scene.libc.buildID],
            scratch: try scene.sandbox.scratch("debuginfod"))

        // No debug directory, no cache path: elfutils' place under $HOME.
        let cache = scene.sandbox.home.appendingPathComponent(".cache/debuginfod_client")
        let shown = try await scene.sandbox.crashreport(["show", scene.report], ["DEBUGINFOD_URLS": server.url])
        #expect(shown.exitCode == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("crashBySegfault()"), "\(shown.stdout)\n\(shown.stderr)")
        #expect(shown.stdout.contains("Crashes.swift:"), "lines from the served debug file: \(shown.stdout)")
        let libcRows = shown.stdout.split(separator: "\n").filter { $0.contains("libc.so.6+0x") }
        #expect(!libcRows.isEmpty, "\(shown.stdout)")
        // A thread ending at the crash may stand in a function inlined at its address.
        for row in libcRows {
            #expect(SystemDebugFilesTests.namesItsFunction(row), "a libc frame without a name: \(row)")
        }
        // The binary's debug file was asked for by build id and kept as elfutils keeps it; libc's
        // came from the system's debug directory, searched first.
        for image in [scene.main] {
            let entry = Self.cached(cache, image.buildID)
            #expect((Self.size(entry) ?? 0) > 0, "\(image.name) is not in the cache at \(entry.path)")
        }
        #expect(!shown.stderr.contains("debuginfod: http"), "no server trouble: \(shown.stderr)")

        // The collector, with a cache of its own, names them on its report page.
        let collectorHome = try scene.sandbox.scratch("collector-home")
        let collector = try await CollectorChild(
            data: try scene.sandbox.scratch("collector-data"), home: scene.sandbox.home,
            environment: [
                "DEBUGINFOD_URLS": server.url,
                "DEBUGINFOD_CACHE_PATH": collectorHome.appendingPathComponent("cache").path,
            ])
        let id = try scene.sandbox.onlyPendingID()
        let run = try await scene.sandbox.deliver(["CRASH_REPORTER_URL": collector.reportsURL])
        #expect(run.exitCode == 0, "\(run.stderr)")
        let page = try await collector.get("/reports/\(id)")
        #expect(page.status == 200)
        #expect(page.text.contains("crashBySegfault()"), "named on the collector's page:\n\(page.text)")
        let stopped = try await collector.stop()
        #expect(stopped.exitCode == 0, "\(stopped.stderr)")

        // The server gone, the cache answers, for this tool and for elfutils' own client.
        try await server.stop()
        let delivered = scene.sandbox.state.appendingPathComponent("delivered/\(id).crash").path
        let again = try await scene.sandbox.crashreport(["show", delivered], ["DEBUGINFOD_URLS": server.url])
        #expect(again.exitCode == 0, "\(again.stderr)")
        #expect(again.stdout.contains("crashBySegfault()"), "from the cache: \(again.stdout)\n\(again.stderr)")
        #expect(!again.stderr.contains("refused"), "the stopped server was not asked: \(again.stderr)")
        let found = try await ChildProcess.run(
            ["/usr/bin/debuginfod-find", "debuginfo", scene.main.buildID],
            environment: [
                "PATH": "/usr/bin:/bin", "DEBUGINFOD_URLS": server.url, "DEBUGINFOD_CACHE_PATH": cache.path,
            ])
        #expect(found.exitCode == 0, "debuginfod-find: \(found.stderr)")
        #expect(found.stdout.contains(Self.cached(cache, scene.main.buildID).path), "\(found.stdout)")
    }

    @Test(
        "servers down, silent, without the file, or sending another build's file: one note each, nothing cached wrong",
        .enabled(if: enabled, "needs the release crash-test, debuginfod and libc6-dbg (scripts/ensure-deps.sh)"))
    func misbehavingServers() async throws {
        let scene = try await Self.scene()
        defer { scene.sandbox.remove() }
        let scratch = try scene.sandbox.scratch("stubs")
        let buildID = scene.main.buildID

        func show(_ server: String, cache: String) async throws -> ChildProcess.Result {
            let shown = try await scene.sandbox.crashreport(
                ["show", scene.report],
                ["DEBUGINFOD_URLS": server, "DEBUGINFOD_CACHE_PATH": cache, "DEBUGINFOD_TIMEOUT": "2"])
            // Shown all the same, with the raw offsets; ended by itself, not by the test's kill.
            #expect(shown.exitCode == 0, "\(server): \(shown.status) \(shown.stderr)")
            #expect(shown.stdout.contains("crash-test+0x"), "\(shown.stdout)")
            #expect(!shown.stdout.contains("crashBySegfault()"), "\(shown.stdout)")
            return shown
        }
        func notes(_ result: ChildProcess.Result, about server: String) -> [Substring] {
            result.stderr.split(separator: "\n").filter { $0.hasPrefix("note: debuginfod: \(server):") }
        }

        // Down, and silent: one note for the server, whatever the number of images; no entry.
        let down = "http://127.0.0.1:\(closedPort())"
        let downCache = scratch.appendingPathComponent("cache-down")
        let refused = try await show(down, cache: downCache.path)
        #expect(notes(refused, about: down).count == 1, "\(refused.stderr)")
        #expect(notes(refused, about: down).first?.contains("refused") == true, "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: Self.cached(downCache, buildID).path))

        let silentLog = scratch.appendingPathComponent("silent.log").path
        let silent = try PythonServer(script: "debuginfod_stub.py", arguments: ["silent", silentLog])
        defer { silent.stop() }
        let silentURL = "http://127.0.0.1:\(silent.port)"
        let silentCache = scratch.appendingPathComponent("cache-silent")
        let timedOut = try await show(silentURL, cache: silentCache.path)
        #expect(notes(timedOut, about: silentURL).count == 1, "\(timedOut.stderr)")
        #expect(notes(timedOut, about: silentURL).first?.contains("timed out") == true, "\(timedOut.stderr)")
        #expect(!FileManager.default.fileExists(atPath: Self.cached(silentCache, buildID).path))

        // Redirects in a circle: the fetcher gives up after 8, with one note.
        let circleLog = scratch.appendingPathComponent("circle.log").path
        let circle = try PythonServer(script: "debuginfod_stub.py", arguments: ["circle", circleLog])
        defer { circle.stop() }
        let circleURL = "http://127.0.0.1:\(circle.port)"
        let circling = try await show(circleURL, cache: scratch.appendingPathComponent("cache-circle").path)
        #expect(notes(circling, about: circleURL).count == 1, "\(circling.stderr)")
        #expect(notes(circling, about: circleURL).first?.contains("more than 8 redirects") == true)

        // Without the file: a note per image, and a miss in elfutils' form (an empty file) that
        // the next run trusts without asking.
        let missingLog = scratch.appendingPathComponent("missing.log").path
        let missing = try PythonServer(script: "debuginfod_stub.py", arguments: ["missing", missingLog])
        defer { missing.stop() }
        let missingURL = "http://127.0.0.1:\(missing.port)"
        let missCache = scratch.appendingPathComponent("cache-missing")
        let missed = try await show(missingURL, cache: missCache.path)
        #expect(
            missed.stderr.contains("no debug file for crash-test (build id \(buildID)) on \(missingURL)"),
            "\(missed.stderr)")
        #expect(Self.size(Self.cached(missCache, buildID)) == 0, "the miss is cached as an empty file")
        let asked = try String(contentsOfFile: missingLog, encoding: .utf8)
        #expect(asked.contains("/buildid/\(buildID)/debuginfo"), "\(asked)")
        let missedAgain = try await show(missingURL, cache: missCache.path)
        #expect(missedAgain.stderr.contains("(a miss cached less than 600 s ago)"), "\(missedAgain.stderr)")
        #expect(try String(contentsOfFile: missingLog, encoding: .utf8) == asked, "the cached miss asked nobody")

        // The service's worker asks no server unless told to, even with DEBUGINFOD_URLS set.
        let worker = [
            "SENTRY_DSN": "http://key@127.0.0.1:\(closedPort())/1", "CRASH_REPORTER_RETRY_BASE_SECONDS": "0",
            "DEBUGINFOD_URLS": missingURL,
            "DEBUGINFOD_CACHE_PATH": scratch.appendingPathComponent("cache-worker").path,
        ]
        let quiet = try await scene.sandbox.deliver(worker)
        #expect(quiet.exitCode == 0, "\(quiet.stderr)")
        #expect(try String(contentsOfFile: missingLog, encoding: .utf8) == asked, "the worker asked a server")
        // The failed upload set the report's next attempt about a second ahead: the next run
        // looks at it (and symbolicates it) only once that time has come.
        try await Task.sleep(for: .seconds(1.5))
        let optedIn = try await scene.sandbox.deliver(worker.merging(["CRASH_REPORTER_DEBUGINFOD": "1"]) { $1 })
        #expect(optedIn.exitCode == 0, "\(optedIn.stderr)")
        let askedByWorker = try String(contentsOfFile: missingLog, encoding: .utf8).dropFirst(asked.count)
        #expect(askedByWorker.contains("/buildid/\(buildID)/debuginfo"), "opted in: \(askedByWorker)")

        // Another build's file (a small ELF file with a build id of its own): refused, and
        // neither it nor a miss is cached.
        let otherBuild = scratch.appendingPathComponent("other-build").path
        try FileManager.default.copyItem(atPath: "/usr/bin/true", toPath: otherBuild)
        let wrong = try PythonServer(script: "debuginfod_stub.py", arguments: ["file", otherBuild])
        defer { wrong.stop() }
        let wrongURL = "http://127.0.0.1:\(wrong.port)"
        let wrongCache = scratch.appendingPathComponent("cache-wrong")
        let refusedFile = try await show(wrongURL, cache: wrongCache.path)
        let wrongNotes = refusedFile.stderr.split(separator: "\n").filter { $0.contains("\(wrongURL) sent a file") }
        #expect(wrongNotes.count == 1, "\(refusedFile.stderr)")
        // The first image asked for meets it; the server is not asked again for the others.
        #expect(wrongNotes.first?.contains("ignored, not cached") == true, "\(refusedFile.stderr)")
        let leftovers = (try? FileManager.default.subpathsOfDirectory(atPath: wrongCache.path)) ?? []
        #expect(leftovers.filter { !$0.hasPrefix("cache_") }.isEmpty, "nothing cached: \(leftovers)")

        // Larger than DEBUGINFOD_MAXSIZE: refused while it is read, with one note.
        let large = try await scene.sandbox.crashreport(
            ["show", scene.report],
            [
                "DEBUGINFOD_URLS": wrongURL, "DEBUGINFOD_CACHE_PATH": wrongCache.path,
                "DEBUGINFOD_MAXSIZE": "1000",
            ])
        #expect(large.exitCode == 0, "\(large.stderr)")
        #expect(notes(large, about: wrongURL).count == 1, "\(large.stderr)")
        #expect(notes(large, about: wrongURL).first?.contains("larger than 1000 bytes") == true, "\(large.stderr)")
    }
}
