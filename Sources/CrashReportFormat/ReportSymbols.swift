/// What a symbolicator found for a report's frames (see ``FrameSymbol``): for `crash.frames`,
/// and for each thread's frames, each by frame index. The crashing thread's frames are both
/// `crash.frames` and `threads[0].frames`; a symbolicator fills in both. A thread's async frames
/// (``CrashReport/CapturedThread/asyncFrames``) have their own map, ``asyncFrames``.
public struct ReportSymbols: Sendable, Equatable {
    /// `crash.frames`' symbols, by frame index.
    public var crash: [Int: [FrameSymbol]]
    /// By index in `threads`, then by frame index in that thread's `frames`.
    public var threads: [Int: [Int: [FrameSymbol]]]
    /// By index in `threads`, then by index in that thread's `asyncFrames`: each resume point's
    /// function, looked up at the address itself (an entry, not a return address).
    public var asyncFrames: [Int: [Int: [FrameSymbol]]]

    /// Symbols of the crash's frames, of each thread's frames and of each thread's async frames,
    /// by index (none by default).
    public init(
        crash: [Int: [FrameSymbol]] = [:], threads: [Int: [Int: [FrameSymbol]]] = [:],
        asyncFrames: [Int: [Int: [FrameSymbol]]] = [:]
    ) {
        self.crash = crash
        self.threads = threads
        self.asyncFrames = asyncFrames
    }

    /// The symbols of `threads[index]`, by frame index (empty when there are none).
    public subscript(thread index: Int) -> [Int: [FrameSymbol]] { threads[index] ?? [:] }

    /// The symbols of `threads[index]`'s async frames, by index in `asyncFrames`.
    public subscript(asyncFramesOf index: Int) -> [Int: [FrameSymbol]] { asyncFrames[index] ?? [:] }

    /// Nothing was symbolicated.
    public var isEmpty: Bool {
        crash.isEmpty && threads.values.allSatisfy(\.isEmpty) && asyncFrames.values.allSatisfy(\.isEmpty)
    }
}
