import CrashReportFormat
import CrashReporterSupport
import Foundation
import Testing

@testable import CrashSymbolication

/// The debuginfod client without sockets: its settings, elfutils' cache (hits, misses and their
/// expiry), the build-id check and the notes, with a fetcher that answers as told and counts
/// what it is asked. `/usr/bin/true` and `/usr/bin/false` stand in for two builds' files.
@Suite("debuginfod client")
struct DebuginfodClientTests {
    /// Answers every URL with `answer`, and records the URLs.
    final class ScriptedFetcher: DebugFileFetcher {
        let answer: DebugFileFetch
        let asked = Lock<[String]>([])
        init(_ answer: DebugFileFetch) { self.answer = answer }
        func fetch(_ url: String, maxBytes: Int, timeout: Duration) -> DebugFileFetch {
            asked.withLock { $0.append(url) }
            return answer
        }
    }

    static func buildID(of path: String) throws -> String {
        try ELFImageFile.inspect(path: path).buildID
    }

    static func image(_ name: String, buildID: String) -> CrashReport.Image {
        CrashReport.Image(name: name, path: "/nonexistent/\(name)", base: 0, size: 0, buildID: buildID, main: true)
    }

    static func scratch() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("debuginfod-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func client(_ fetcher: ScriptedFetcher, cache: String, servers: String = "http://a/ http://b")
        throws -> Debuginfod
    {
        try #require(
            try Debuginfod(
                environment: ["DEBUGINFOD_URLS": servers, "DEBUGINFOD_CACHE_PATH": cache], fetcher: fetcher))
    }

    @Test("settings: the servers in order, elfutils' defaults, a bad number refused, none without servers")
    func settings() throws {
        let fetcher = ScriptedFetcher(.notFound)
        #expect(try Debuginfod(environment: [:], fetcher: fetcher) == nil)
        #expect(try Debuginfod(environment: ["DEBUGINFOD_URLS": "  "], fetcher: fetcher) == nil)
        let client = try #require(
            try Debuginfod(
                environment: ["DEBUGINFOD_URLS": "https://one/  http://two:8002/", "HOME": "/home/u"],
                fetcher: fetcher))
        #expect(client.servers == ["https://one", "http://two:8002"])
        #expect(client.timeout == .seconds(90) && client.maxSize == 1 << 30)
        #expect(client.cache?.root == "/home/u/.cache/debuginfod_client")
        let xdg = try #require(
            try Debuginfod(
                environment: [
                    "DEBUGINFOD_URLS": "http://a", "XDG_CACHE_HOME": "/x", "DEBUGINFOD_TIMEOUT": "5",
                    "DEBUGINFOD_MAXSIZE": "1000",
                ], fetcher: fetcher))
        #expect(xdg.cache?.root == "/x/debuginfod_client")
        #expect(xdg.timeout == .seconds(5) && xdg.maxSize == 1000)
        #expect(throws: SettingError.self) {
            _ = try Debuginfod(
                environment: ["DEBUGINFOD_URLS": "http://a", "DEBUGINFOD_TIMEOUT": "soon"], fetcher: fetcher)
        }
    }

    @Test("a file with the asked build id is cached in elfutils' layout and read from there next time")
    func hit() throws {
        let cache = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let wanted = try Self.buildID(of: "/usr/bin/true")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "/usr/bin/true")))
        let fetcher = ScriptedFetcher(.file(bytes))
        let client = try Self.client(fetcher, cache: cache)
        let found = client.debugFile(for: Self.image("true", buildID: wanted))
        #expect(found.path == "\(cache)/\(wanted)/debuginfo", "\(found.notes)")
        #expect(found.notes.isEmpty)
        #expect(fetcher.asked.withLock { $0 } == ["http://a/buildid/\(wanted)/debuginfo"])
        #expect(client.debugFile(for: Self.image("true", buildID: wanted)).path == found.path)
        #expect(fetcher.asked.withLock { $0.count } == 1, "the second lookup is the cache's")
    }

    @Test("another build's file is refused and nothing is cached; the server is not asked again")
    func wrongBuild() throws {
        let cache = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let wanted = try Self.buildID(of: "/usr/bin/true")
        let other = try Self.buildID(of: "/usr/bin/false")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "/usr/bin/false")))
        let fetcher = ScriptedFetcher(.file(bytes))
        let client = try Self.client(fetcher, cache: cache, servers: "http://a")
        let found = client.debugFile(for: Self.image("true", buildID: wanted))
        #expect(found.path == nil)
        #expect(
            found.notes == [
                "debuginfod: http://a sent a file with build id \(other) for true (build id \(wanted)); ignored, not cached"
            ])
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache).isEmpty)
        let next = client.debugFile(for: Self.image("false", buildID: other))
        #expect(next.path == nil && next.notes.isEmpty, "\(next.notes)")
        #expect(fetcher.asked.withLock { $0.count } == 1)
    }

    @Test("a 404 from every server is cached as an empty file, trusted for cache_miss_s, then asked again")
    func miss() throws {
        let cache = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let wanted = try Self.buildID(of: "/usr/bin/true")
        let fetcher = ScriptedFetcher(.notFound)
        let client = try Self.client(fetcher, cache: cache)
        let found = client.debugFile(for: Self.image("true", buildID: wanted))
        #expect(found.path == nil)
        #expect(found.notes == ["debuginfod: no debug file for true (build id \(wanted)) on http://a http://b"])
        let entry = "\(cache)/\(wanted)/debuginfo"
        #expect(FileSystem.size(entry) == 0)
        #expect(fetcher.asked.withLock { $0.count } == 2)
        let cached = client.debugFile(for: Self.image("true", buildID: wanted))
        let note = "debuginfod: no debug file for true (build id \(wanted)) (a miss cached less than 600 s ago)"
        #expect(cached.notes == [note])
        #expect(fetcher.asked.withLock { $0.count } == 2)
        // elfutils' setting, shortened: the miss has expired.
        try Data("0\n".utf8).write(to: URL(fileURLWithPath: "\(cache)/cache_miss_s"))
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -10)], ofItemAtPath: entry)
        _ = client.debugFile(for: Self.image("true", buildID: wanted))
        #expect(fetcher.asked.withLock { $0.count } == 4)
    }

    @Test("a server that fails leaves one note and is not asked for the other images")
    func failure() throws {
        let cache = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let fetcher = ScriptedFetcher(.failed("connection refused by a port 80"))
        let client = try Self.client(fetcher, cache: cache, servers: "http://a")
        let first = client.debugFile(for: Self.image("one", buildID: "aa11"))
        let second = client.debugFile(for: Self.image("two", buildID: "bb22"))
        #expect(first.notes == ["debuginfod: http://a: connection refused by a port 80; not asked again for 600 s"])
        #expect(second.notes.isEmpty && second.path == nil)
        #expect(fetcher.asked.withLock { $0.count } == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache).isEmpty, "a failure is not a miss")
    }
}
