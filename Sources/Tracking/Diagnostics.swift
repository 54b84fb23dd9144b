import CrashReporterSupport

#if DEBUG
    import Glibc
#endif

/// How much one of the package's diagnostics matters: the one level type of the façade, its
/// providers and the crash reporter (`CrashReporterDiagnostic.Level` is this type).
public enum DiagnosticLevel: String, Sendable, Equatable {
    /// Worth knowing; nothing went wrong (a report delivered after retries).
    case info
    /// Something was lost or put off and the package went on (an event dropped).
    case warning
    /// Something the package was asked to do failed (a state directory it cannot write).
    case error
}

/// The package's own diagnostics (an event dropped, a report not delivered, a state directory
/// that cannot be written), one route for the façade, its providers and the crash reporter.
/// They go to the handler a service set (`CrashReporter.setDiagnosticHandler`, which the
/// swift-log integration calls); until then the newest 32 are kept for it, and debug builds
/// also print the warnings and errors on standard error (`[swift-crash-reporter] warning: …`).
package enum Diagnostics {
    package typealias Level = DiagnosticLevel

    package typealias Handler = @Sendable (Level, String) -> Void

    private struct Route {
        var handler: Handler?
        var early: [(Level, String)] = []
    }

    private static let kept = 32
    private static let route = Lock(Route())

    package static func report(_ text: String, level: Level = .warning) {
        let handler = route.withLock { route -> Handler? in
            if let handler = route.handler { return handler }
            route.early.append((level, text))
            if route.early.count > kept { route.early.removeFirst() }
            return nil
        }
        if let handler {
            handler(level, text)
        } else if level != .info {
            printInDebugBuilds(level, text)
        }
    }

    /// Sends every later diagnostic to `handler`, and the ones kept so far first.
    package static func setHandler(_ handler: @escaping Handler) {
        let early = route.withLock { route in
            route.handler = handler
            defer { route.early = [] }
            return route.early
        }
        for (level, text) in early { handler(level, text) }
    }

    @inline(__always)
    private static func printInDebugBuilds(_ level: Level, _ text: String) {
        #if DEBUG
            let line = Array("[swift-crash-reporter] \(level.rawValue): \(text)\n".utf8)
            // One write(2) per message, so lines of concurrent messages do not interleave;
            // a short write is finished, an interrupted one retried, a failed one dropped.
            line.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let written = try? SystemCall.run("write") {
                        write(STDERR_FILENO, raw.baseAddress! + offset, raw.count - offset)
                    }
                    guard let written else { return }
                    offset += written
                }
            }
        #endif
    }
}
