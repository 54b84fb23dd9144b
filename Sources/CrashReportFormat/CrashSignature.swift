/// What makes two crashes "the same crash": the signal and the top frames in the app's own
/// code (the main executable), by symbol when one is known and by offset in the image
/// otherwise. Frames in libc or the Swift runtime are left out: every fatalError goes
/// through the same runtime functions.
public struct CrashSignature: Hashable, Sendable, CustomStringConvertible {
    public var signal: String
    public var frames: [String]

    public init(signal: String, frames: [String]) {
        self.signal = signal
        self.frames = frames
    }

    /// The signature of `report`, using `symbols` (keyed by frame index) where present.
    public init(report: CrashReport, symbols: [Int: [FrameSymbol]] = [:], depth: Int = 3) {
        signal = report.crash.signal.name
        var frames: [String] = []
        for (index, frame) in report.crash.frames.enumerated() where frames.count < depth {
            guard let image = report.image(of: frame), image.main else { continue }
            if let symbol = symbols[index]?.last {
                frames.append(symbol.function)
            } else if let offset = image.offset(of: frame.lookupAddress) {
                frames.append("\(image.name)+0x\(String(offset, radix: 16))")
            }
        }
        if frames.isEmpty, let first = report.crash.frames.first {
            // No frame in the app: fall back to where it crashed.
            let image = report.image(of: first)
            let offset = image?.offset(of: first.lookupAddress).map { "+0x\(String($0, radix: 16))" } ?? ""
            frames.append("\(image?.name ?? "???")\(offset)")
        }
        self.frames = frames
    }

    public var description: String { ([signal] + frames).joined(separator: " | ") }
}
