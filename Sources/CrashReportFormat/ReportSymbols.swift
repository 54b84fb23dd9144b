/// What a symbolicator found for a report's frames (see ``FrameSymbol``): for `crash.frames`,
/// and for each thread's frames, each by frame index. The crashing thread's frames are both
/// `crash.frames` and `threads[0].frames`; a symbolicator fills in both.
public struct ReportSymbols: Sendable, Equatable {
    /// `crash.frames`' symbols, by frame index.
    public var crash: [Int: [FrameSymbol]]
    /// By index in `threads`, then by frame index in that thread's `frames`.
    public var threads: [Int: [Int: [FrameSymbol]]]

    public init(crash: [Int: [FrameSymbol]] = [:], threads: [Int: [Int: [FrameSymbol]]] = [:]) {
        self.crash = crash
        self.threads = threads
    }

    /// The symbols of `threads[index]`, by frame index (empty when there are none).
    public subscript(thread index: Int) -> [Int: [FrameSymbol]] { threads[index] ?? [:] }

    /// Nothing was symbolicated.
    public var isEmpty: Bool { crash.isEmpty && threads.values.allSatisfy(\.isEmpty) }
}
