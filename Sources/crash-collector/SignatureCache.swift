import CrashReportFormat
import CrashReporterSupport
import CrashSymbolication

/// Crash signatures made once per distinct stack. Naming a report's frames costs tens of
/// milliseconds, and the reports that arrive most often (a crash loop, one bug in many
/// processes) carry the same stack of the same build again and again; the signature depends
/// only on what ``key(of:)`` keeps, so those reuse the first one's.
final class SignatureCache: Sendable {
    let symbolicator: Symbolicator
    private let known = Lock<[String: CrashSignature]>([:])
    /// Distinct stacks remembered at most; the memory is dropped all at once past it.
    static let capacity = 4096

    init(symbolicator: Symbolicator) {
        self.symbolicator = symbolicator
    }

    /// `report`'s signature (docs/grouping.md), by the names this machine's binaries give.
    func signature(of report: CrashReport) -> CrashSignature {
        let key = Self.key(of: report)
        if let hit = known.withLock({ $0[key] }) { return hit }
        let made = CrashSignature(report: report, symbols: symbolicator.symbolicate(report))
        known.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll() }
            entries[key] = made
        }
        return made
    }

    /// What a signature is made from: the kind, the signal, the message, a snapshot's reason and
    /// heartbeat, and each frame of the crash's stack in call order (with the crashing thread's
    /// async frames, marked) as its image's build id and offset, which name the same function on
    /// every machine with that binary.
    static func key(of report: CrashReport) -> String {
        var parts = [report.kind.rawValue, report.crash?.signal.name ?? "", report.crash?.message ?? ""]
        parts.append(report.snapshot?.reason ?? "")
        parts.append(report.snapshot?.heartbeat?.name ?? "")
        parts.append(report.abnormalExit?.exitClass.rawValue ?? "")
        for frame in report.crashCallStack(symbols: ReportSymbols())?.frames ?? [] {
            if frame.trust == .async { parts.append("async") }
            guard let image = report.image(of: frame), let offset = image.offset(of: frame.lookupAddress) else {
                parts.append("?")
                continue
            }
            parts.append("\(image.buildID)+\(String(offset, radix: 16))")
        }
        return parts.joined(separator: "\u{1f}")
    }
}
