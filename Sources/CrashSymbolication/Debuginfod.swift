import CrashReportFormat
import CrashReporterSupport

/// Debug files from debuginfod servers (`GET SERVER/buildid/BUILDID/debuginfo`), asked after the
/// local debug directories, as gdb and elfutils ask them, with elfutils' settings:
///
/// - `DEBUGINFOD_URLS`: the servers, separated by spaces, asked in order;
/// - `DEBUGINFOD_TIMEOUT`: seconds that one image's lookup may take, all servers and redirects
///   together (90 when unset or 0);
/// - `DEBUGINFOD_MAXSIZE`: the largest file accepted, in bytes (1 GiB when unset or 0; the file
///   is held in memory before it is written);
/// - the cache of elfutils' client (``DebuginfodCache``), hits and misses alike.
///
/// Only the build id is sent. A file is kept only when its own build id is the one asked for.
/// A server that cannot be reached, answers with another status or sends something else
/// leaves one note and is not asked again by this process for the cache's miss time (600 s by
/// default), so a server that is down costs at most one timeout. See docs/symbolication.md.
public struct Debuginfod: Sendable {
    public static let defaultTimeout = Duration.seconds(90)
    public static let defaultMaxSize = 1 << 30

    /// The servers, in the order they are asked, without a trailing `/`.
    public var servers: [String]
    public var timeout: Duration
    public var maxSize: Int
    var cache: DebuginfodCache?
    let fetcher: any DebugFileFetcher
    /// By server: until when (Unix seconds) it is not asked again after a failure. Shared by
    /// the copies of one client.
    let resting = WaitableState<[String: Double]>([:])

    /// The client `environment` describes; nil when `DEBUGINFOD_URLS` names no server. A value of
    /// `DEBUGINFOD_TIMEOUT` or `DEBUGINFOD_MAXSIZE` that is not a number is an error.
    package init?(environment: [String: String], fetcher: any DebugFileFetcher) throws(SettingError) {
        let settings = EnvironmentSettings(environment)
        let servers = settings.list(.debuginfodURLs, separator: " ").flatMap { $0.split(separator: "\t") }
            .map { $0.hasSuffix("/") ? String($0.dropLast()) : String($0) }.filter { !$0.isEmpty }
        guard !servers.isEmpty else { return nil }
        let seconds = try settings.seconds(.debuginfodTimeout) ?? 0
        let maxSize = try settings.count(.debuginfodMaxSize) ?? 0
        self.servers = servers
        self.timeout = seconds > 0 ? .seconds(seconds) : Self.defaultTimeout
        self.maxSize = maxSize > 0 ? maxSize : Self.defaultMaxSize
        self.cache = DebuginfodCache.root(settings).map(DebuginfodCache.init(root:))
        self.fetcher = fetcher
    }

    /// What looking up one image's debug file found.
    struct Found {
        /// The file in the cache, its build id checked.
        var path: String?
        var notes: [String] = []
    }

    /// The debug file for `image` from the cache, else from the first server that has it.
    func debugFile(for image: CrashReport.Image) -> Found {
        var found = Found()
        let buildID = image.buildID.lowercased()
        guard buildID.count > 2, buildID.allSatisfy(\.isHexDigit) else { return found }
        let label = "\(image.name.isEmpty ? "an image" : image.name) (build id \(buildID))"
        guard let cache else {
            found.notes.append("debuginfod: no cache directory (no home directory to put it in); not asked")
            return found
        }
        switch cache.entry(buildID: buildID) {
        case .file(let path):
            found.path = path
            return found
        case .miss:
            found.notes.append(
                "debuginfod: no debug file for \(label) (a miss cached less than \(Int(cache.missSeconds)) s ago)")
            return found
        case .none:
            break
        }
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var everyServerMissed = true
        for server in servers {
            let now = Timestamp.now().seconds
            if let until = resting.withLock({ $0[server] }), until > now {
                everyServerMissed = false
                continue
            }
            let remaining = deadline - clock.now
            guard remaining > .zero else {
                found.notes.append(
                    "debuginfod: \(label) not looked up on \(server): the \(timeout.inSeconds) s were spent")
                return found
            }
            let url = "\(server)/buildid/\(buildID)/\(DebuginfodCache.debuginfo)"
            switch fetcher.fetch(url, maxBytes: maxSize, timeout: remaining) {
            case .notFound:
                continue
            case .failed(let reason):
                everyServerMissed = false
                rest(server, cache: cache)
                found.notes.append(
                    "debuginfod: \(server): \(reason); not asked again for \(Int(cache.missSeconds)) s")
            case .file(let bytes):
                everyServerMissed = false
                switch keep(bytes, buildID: buildID, in: cache) {
                case .success(let path):
                    found.path = path
                    return found
                case .failure(let refusal):
                    rest(server, cache: cache)
                    found.notes.append("debuginfod: \(server) sent \(refusal.reason) for \(label); ignored, not cached")
                }
            }
        }
        if everyServerMissed {
            found.notes.append("debuginfod: no debug file for \(label) on \(servers.joined(separator: " "))")
            do { try cache.recordMiss(buildID: buildID) } catch {
                found.notes.append("debuginfod: the miss could not be cached: \(error)")
            }
        }
        return found
    }

    private func rest(_ server: String, cache: DebuginfodCache) {
        let until = Timestamp.now().seconds + cache.missSeconds
        resting.withLock { $0[server] = until }
    }

    /// Writes `bytes` to the cache when they are an ELF file with `buildID`; else the reason.
    private func keep(_ bytes: [UInt8], buildID: String, in cache: DebuginfodCache) -> Result<String, Refusal> {
        let staged: String
        do { staged = try cache.stage(bytes, buildID: buildID) } catch {
            return .failure(Refusal("a file that could not be cached (\(error))"))
        }
        let reason: String
        do {
            let file = try ELFImageFile.inspect(path: staged)
            if file.buildID == buildID {
                do { return .success(try cache.commit(staged, buildID: buildID)) } catch {
                    cache.discard(staged, buildID: buildID)
                    return .failure(Refusal("a file that could not be cached (\(error))"))
                }
            }
            reason = file.buildID.isEmpty ? "a file without a build id" : "a file with build id \(file.buildID)"
        } catch {
            reason = error == .notELF ? "a file that is not ELF" : "a file that cannot be read as ELF"
        }
        cache.discard(staged, buildID: buildID)
        return .failure(Refusal(reason))
    }

    private struct Refusal: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }
}

extension Debuginfod: Equatable {
    /// The same servers, limits and cache (the fetcher and the servers' rest times aside).
    public static func == (lhs: Debuginfod, rhs: Debuginfod) -> Bool {
        lhs.servers == rhs.servers && lhs.timeout == rhs.timeout && lhs.maxSize == rhs.maxSize
            && lhs.cache == rhs.cache
    }
}
