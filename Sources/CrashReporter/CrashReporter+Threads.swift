import CCrashReporter
import CrashReporterSupport
import Tracking

extension CrashReporter {
    /// Gives the calling thread an alternate signal stack, so that a stack overflow on it still
    /// leaves a report. Threads started with `pthread_create` (Foundation's `Thread`, SwiftNIO's
    /// event loops, the concurrency pool) get one by themselves, and `start` gives one to every
    /// thread already running; a thread started another way (a raw `clone`, a foreign runtime's
    /// pool) calls this once, on itself. Returns false when the memory cannot be mapped.
    @discardableResult
    public static func prepareCurrentThread() -> Bool {
        scr_thread_prepare() == 0
    }

    /// Writes a snapshot of the running service: every thread's stack, the breadcrumbs and the
    /// images, as a crash report would, marked `snapshot` with `reason` (scrubbed before it
    /// leaves the machine). The service goes on: each thread stops only while it reads its own
    /// stack. Delivered by the running service like a crash report, without a restart. A request
    /// while a snapshot is being written joins it. Returns the report's id, or nil when the
    /// reporter is not started, the report could not be written, or it took longer than
    /// `timeout` (it may still appear).
    @discardableResult
    public static func snapshot(reason: String, timeout: Duration = .seconds(5)) -> String? {
        var id = [CChar](repeating: 0, count: 37)
        let waitMs = UInt32(clamping: Int((max(0, timeout.inSeconds) * 1000).rounded(.up)))
        let result = Scrubber.scrub(reason, maxBytes: 255).withCString { scr_snapshot($0, waitMs, &id) }
        guard result == Int32(SCR_OK) else { return nil }
        return String(decoding: id.prefix(36).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A heartbeat named `name` (scrubbed like a breadcrumb value): tick it from what must stay
    /// responsive (an event loop, a job queue). When it has not been ticked for
    /// `Options.hangTimeout`, the watchdog writes one `hang` report with every thread, naming the
    /// heartbeat and the thread that ticked it last, and no second one until it ticks again. Nil
    /// before `start` or when 64 heartbeats exist already.
    public static func heartbeat(_ name: String) -> Heartbeat? {
        guard scr_is_installed() != 0 else { return nil }
        let index = Scrubber.scrub(name, maxBytes: 63).withCString { scr_heartbeat_register($0) }
        return index >= 0 ? Heartbeat(index: index) : nil
    }

    /// The real-time signal through which every thread shows its stack to a report, nil before
    /// `start` or when none was free. A thread that blocks every signal still answers it (the
    /// reporter keeps it open in such a mask); one that blocks it by name is listed as not
    /// answering (docs/signal-safety.md).
    public static var captureSignal: Int32? {
        let signal = scr_capture_signal()
        return signal == 0 ? nil : signal
    }

    /// The signal that asks this service for a snapshot, nil when none is installed.
    public static var snapshotSignal: Int32? {
        let signal = scr_snapshot_signal()
        return signal == 0 ? nil : signal
    }
}

/// A watched heartbeat (`CrashReporter.heartbeat(_:)`). Copyable and `Sendable`: tick it from
/// any thread; the thread that ticks it is the one a hang report names.
public struct Heartbeat: Sendable {
    let index: Int32

    /// Says "still responsive": a few nanoseconds, wait-free, never blocks.
    @inline(__always)
    public func tick() {
        scr_heartbeat_tick(index)
    }

    /// Stops watching it (a service shutting the watched loop down on purpose).
    public func cancel() {
        scr_heartbeat_unregister(index)
    }
}
