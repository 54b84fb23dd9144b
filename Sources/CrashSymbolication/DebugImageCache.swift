import CrashReportFormat
import CrashReporterSupport

/// The files the symbolicator has opened (``DebugImage``), kept between reports so that a second
/// report of the same build costs only its own lookups: at most ``limit`` files, the least
/// recently used closed first, each known by its device, inode, size and modification time, so
/// that a file replaced at the same path is opened anew. Lookups run one at a time.
///
/// The service's worker empties it after each delivery pass (``Symbolicator/releaseCachedFiles()``):
/// nothing it read stays in the service. The tools keep it for as long as they run.
final class DebugImageCache: Sendable {
    static let shared = DebugImageCache(limit: 16)

    /// One file to look addresses up in.
    struct Request {
        var path: String
        var identity: ELFImageFile.Identity
        var addresses: [UInt64]
    }

    private struct Entry {
        var identity: ELFImageFile.Identity
        var image: DebugImage?
        var used: Int
    }

    private struct State: @unchecked Sendable {
        var entries: [String: Entry] = [:]
        var clock = 0
        var opened = 0
    }

    let limit: Int
    private let state = WaitableState(State())

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// For each request, the symbols at its addresses (``DebugImage/symbols(at:)``); an empty
    /// answer for a file that cannot be opened.
    func symbols(for requests: [Request]) -> [[UInt64: [FrameSymbol]]] {
        state.withLock { state in
            requests.map { request in
                state.clock += 1
                var entry = state.entries[request.path]
                if entry?.identity != request.identity {
                    entry = Entry(identity: request.identity, image: try? DebugImage(path: request.path), used: 0)
                    state.opened += 1
                }
                entry?.used = state.clock
                state.entries[request.path] = entry
                while state.entries.count > limit,
                    let oldest = state.entries.min(by: { $0.value.used < $1.value.used })
                {
                    state.entries[oldest.key] = nil
                }
                return entry?.image?.symbols(at: request.addresses) ?? [:]
            }
        }
    }

    /// How many files were opened, and how many whole units the open ones have read: what a
    /// test counts to show that a second report of the same build reads nothing whole again.
    var work: (opened: Int, unitReads: Int) {
        state.withLock { state in (state.opened, state.entries.values.reduce(0) { $0 + ($1.image?.unitReads ?? 0) }) }
    }

    /// Closes every file.
    func removeAll() {
        state.withLock { $0.entries = [:] }
    }
}
