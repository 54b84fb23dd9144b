/// What a report is about, in one line for a message or an exception's value: the same words
/// in the Sentry event and the OTLP log record.
extension CrashReport {
    /// The message of a report that is not a crash: a snapshot's or hang's reason, or for a hang
    /// without one the late heartbeat (`heartbeat "db" was late`), an abnormal exit's class.
    package var headline: String {
        if let abnormal = abnormalExit {
            return "Abnormal exit (\(abnormal.exitClass.rawValue)): \(abnormal.exitClass.summary)"
        }
        if let reason = snapshot?.reason, !reason.isEmpty { return reason }
        if let heartbeat = snapshot?.heartbeat { return "heartbeat \"\(heartbeat.name)\" was late" }
        return kind.title
    }
}

extension CrashReport.Crash {
    /// What went wrong, most specific first: the runtime's message, the `Swift runtime
    /// failure: …` frame a symbolicator found (`symbols`, the crash's by frame index), or what
    /// the signal means.
    package func problem(symbols: [Int: [FrameSymbol]]) -> String {
        if let message, !message.isEmpty { return message }
        if let failure = symbols[0]?.first(where: { $0.function.hasPrefix(RuntimeFrames.failurePrefix) }) {
            return failure.function
        }
        return signal.meaning
    }
}

extension CrashReport.Signal {
    /// What the signal means: `Segmentation fault (SEGV_MAPERR) at 0x10`.
    package var meaning: String {
        let meaning =
            switch name {
            case "SIGSEGV": "Segmentation fault"
            case "SIGBUS": "Bus error"
            case "SIGABRT": "Aborted"
            case "SIGILL": "Illegal instruction"
            case "SIGTRAP": "Trace/breakpoint trap"
            case "SIGFPE": "Floating-point exception"
            default: name
            }
        return "\(meaning) (\(codeName)) at \(address.hex)"
    }
}
