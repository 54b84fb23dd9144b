/// What makes two crashes "the same crash": the signal and the top frames in the app's own
/// code (the main executable), by symbol when one is known and by offset in the image
/// otherwise. Frames in libc or the Swift runtime are left out: every fatalError goes
/// through the same runtime functions.
///
/// Snapshots and hangs have no signal and their stacks are wherever each thread happened to
/// be, so theirs is the kind and what names the occasion: `snapshot | <reason>`,
/// `hang | <late heartbeat's name>` (the reason when the hang names no heartbeat).
public struct CrashSignature: Hashable, Sendable, CustomStringConvertible {
    /// The signal's name (`SIGSEGV`), or the report's kind (`snapshot`, `hang`).
    public var signal: String
    /// The app's innermost frames for a crash; the reason or heartbeat name otherwise.
    public var frames: [String]

    public init(signal: String, frames: [String]) {
        self.signal = signal
        self.frames = frames
    }

    /// The signature of `report`, using `symbols` (the crash's, by frame index) where present.
    public init(report: CrashReport, symbols: ReportSymbols = ReportSymbols(), depth: Int = 3) {
        guard let crash = report.crash else {
            signal = report.kind.rawValue
            let reason = report.snapshot?.reason ?? ""
            let name = report.kind == .hang ? report.snapshot?.heartbeat?.name ?? reason : reason
            frames = name.isEmpty ? [] : [name]
            return
        }
        signal = crash.signal.name
        var frames: [String] = []
        for (index, frame) in crash.frames.enumerated() where frames.count < depth {
            guard let image = report.image(of: frame), image.main else { continue }
            if let symbol = symbols.crash[index]?.last {
                frames.append(symbol.function)
            } else if let offset = image.offset(of: frame.lookupAddress) {
                frames.append("\(image.name)+0x\(String(offset, radix: 16))")
            }
        }
        if frames.isEmpty, let first = crash.frames.first {
            // No frame in the app: fall back to where it crashed.
            let image = report.image(of: first)
            let offset = image?.offset(of: first.lookupAddress).map { "+0x\(String($0, radix: 16))" } ?? ""
            frames.append("\(image?.name ?? "???")\(offset)")
        }
        self.frames = frames
    }

    public var description: String { ([signal] + frames).joined(separator: " | ") }
}
