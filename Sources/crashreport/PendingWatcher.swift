import CrashReporterSupport
import Glibc

/// An inotify watch on a `pending/` folder for reports renamed into it (`IN_MOVED_TO`) or
/// written in place (`IN_CLOSE_WRITE`). The folder may not exist yet, or be removed and made
/// again: `ensureWatch` sets the watch again whenever it is not set.
final class PendingWatcher {
    /// What ended a wait.
    enum Wake: Equatable {
        case report
        case timeout
        case stop
    }

    let folder: String
    private let descriptor: Int32
    private var watch: Int32 = -1

    init(folder: String) {
        self.folder = folder
        descriptor = inotify_init1(Int32(IN_CLOEXEC) | Int32(IN_NONBLOCK))
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Whether the folder is watched now.
    var isWatching: Bool { watch >= 0 }

    /// Sets the watch when it is not set; false when it cannot be (no inotify, no folder).
    @discardableResult
    func ensureWatch() -> Bool {
        guard descriptor >= 0 else { return false }
        if watch < 0 {
            let mask = UInt32(IN_MOVED_TO) | UInt32(IN_CLOSE_WRITE) | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF)
            watch = inotify_add_watch(descriptor, folder, mask | UInt32(IN_ONLYDIR))
        }
        return watch >= 0
    }

    /// Waits up to `timeout` seconds for a report to arrive or `stopDescriptor` to become
    /// readable. A watch lost on the way (the folder was removed) is noted, for `ensureWatch`.
    func wait(timeout: Double, stopDescriptor: Int32) -> Wake {
        var fds = [pollfd(fd: stopDescriptor, events: Int16(POLLIN), revents: 0)]
        if watch >= 0 { fds.append(pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)) }
        let milliseconds = Int32(Swift.min(Swift.max(timeout, 0) * 1000, Double(Int32.max)).rounded(.up))
        let ready = (try? SystemCall.run("poll") { poll(&fds, nfds_t(fds.count), milliseconds) }) ?? 0
        if fds[0].revents != 0 { return .stop }
        guard ready > 0, fds.count > 1, fds[1].revents != 0 else { return .timeout }
        return drain() ? .report : .timeout
    }

    /// Reads the queued events; true when one names a report (or events were lost).
    private func drain() -> Bool {
        var arrived = false
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            // Non-blocking: EAGAIN once the queue is empty ends the loop, as the end of events does.
            let chunk = try? SystemCall.run("read") {
                buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            }
            guard let count = chunk, count > 0 else { break }
            buffer.withUnsafeBytes { bytes in
                var offset = 0
                let header = MemoryLayout<inotify_event>.size
                while offset + header <= count {
                    let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                    let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let nameBytes = bytes[(offset + header)..<Swift.min(offset + header + length, count)]
                    let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                    if mask & (UInt32(IN_IGNORED) | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF)) != 0 {
                        watch = -1
                    }
                    if mask & UInt32(IN_Q_OVERFLOW) != 0 || name.hasSuffix(StateLayout.Suffix.report) { arrived = true }
                    offset += header + length
                }
            }
        }
        if watch < 0 { arrived = true }
        return arrived
    }
}
