import Tracking

/// Something the package wants the service's operators to know: a crash report it could not
/// deliver, a state directory it cannot write, a signal handler it found already installed, an
/// analytics event it dropped. Diagnostics never carry report contents: ids, paths, reasons.
public struct CrashReporterDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// `info`, `warning` or `error` (the façade's type, so that one level crosses every module).
    public typealias Level = DiagnosticLevel

    /// How much it matters.
    public var level: Level
    /// What happened, in one line: ids, paths and reasons, never report contents.
    public var message: String

    /// A diagnostic of `level` that says `message`.
    public init(_ level: Level, _ message: String) {
        self.level = level
        self.message = message
    }

    public var description: String { "\(level.rawValue): \(message)" }
}

extension CrashReporter {
    /// Where the package's diagnostics go (the swift-log integration, `CrashReporterLogging`,
    /// sends them to a `Logger`). Until one is set the newest 32 are kept and handed to it when
    /// it is, so that what `start` found reaches a log bootstrapped after it; debug builds also
    /// print them on standard error meanwhile. The handler runs on the thread that has something
    /// to say (the caller of `start`, the delivery worker, a tracking call), never in the signal
    /// handler.
    public static func setDiagnosticHandler(_ handler: @escaping @Sendable (CrashReporterDiagnostic) -> Void) {
        Diagnostics.setHandler { level, message in handler(CrashReporterDiagnostic(level, message)) }
    }
}
