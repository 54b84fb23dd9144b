/// Everything crash-test can measure, as one exhaustive enum: a call site
/// cannot misspell an event or forget a parameter. The names and parameters each case maps to
/// are in `CrashTestEvent+TrackingEvent.swift`, and nowhere else.
///
/// The tracker adds two events of its own when the analytics choice changes:
/// `analytics_opted_in` after a grant and `analytics_opted_out` as the farewell of a revocation.
enum CrashTestEvent {
    /// The process started the given command.
    case appLaunched(command: Command)
    /// `run` finished step `index` (0-based) of its work.
    case stepCompleted(index: Int)
    /// `--note TEXT` was given. The text is sent as it is on purpose, scrubbed like every
    /// parameter: it is how the tests plant personal data. A real service would send
    /// `hasNote: true` or a length, never text a user typed.
    case noteAdded(text: String)
    /// `crash KIND` is about to crash the process.
    case crashRequested(kind: CrashKind)
    /// `run` is about to exit normally after its steps and its delivery pass.
    case runFinished(steps: Int, reportsDelivered: Int)
    /// `consent crash-reporting on|off` changed the crash-reporting choice.
    case crashReportingChanged(enabled: Bool)
    /// `serve` is still up: one per tick.
    case heartbeat(sequence: Int)

    /// The commands that track `app_launched`.
    enum Command: String {
        case run
        case crash
        case serve
    }
}
