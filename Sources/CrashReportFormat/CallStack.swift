/// A stack as people and Sentry are shown it: in call order, innermost first, with a thread's
/// async frames (the functions awaiting the one that runs) right after the synchronous frame
/// whose context began the chain and before the executor's frames that ran the job
/// (``CrashReport/CapturedThread/callStack``), each frame's symbols by its index here, folded
/// into ``StackLine``s.
package struct CallStack: Sendable, Equatable {
    /// Innermost first; the awaiting functions have `trust == .async`.
    package var frames: [CrashReport.Frame]
    /// ``frames`` as shown, with one ``StackLine/asyncOmitted(count:)`` after the last async
    /// frame when the chain was longer than the report keeps.
    package var lines: [StackLine]
    /// By index in ``frames``.
    package var symbols: [Int: [FrameSymbol]]
    /// How many of ``frames`` are async frames.
    package var asyncCount: Int

    /// `frames` (innermost first, `omitted` frames left out before `frames[omittedAt]`) with
    /// `asyncFrames` after `frames[asyncAt]` (at the end when there is no such frame).
    package init(
        frames: [CrashReport.Frame], omitted: Int, omittedAt: Int, symbols: [Int: [FrameSymbol]],
        asyncFrames: [CrashReport.Frame] = [], asyncAt: Int = 0, asyncOmitted: Int = 0,
        asyncSymbols: [Int: [FrameSymbol]] = [:]
    ) {
        let hasChain = !asyncFrames.isEmpty || asyncOmitted > 0
        // Where the chain goes, and where it ends, in call order.
        let start = hasChain && asyncAt < frames.count ? asyncAt + 1 : frames.count
        let count = asyncFrames.count
        let end = start + count
        self.frames = Array(frames[..<start]) + asyncFrames + frames[start...]
        var merged: [Int: [FrameSymbol]] = [:]
        for (index, found) in symbols where frames.indices.contains(index) {
            merged[index < start ? index : index + count] = found
        }
        for (index, found) in asyncSymbols where asyncFrames.indices.contains(index) {
            merged[start + index] = found
        }
        self.symbols = merged
        asyncCount = count
        // The frames left out of a deep stack's middle stay where they were among the
        // synchronous frames: after the chain when they were after its frame.
        let gap = omittedAt < start ? omittedAt : omittedAt + count
        var lines = StackLine.lines(frames: self.frames, omitted: omitted, omittedAt: gap)
        if asyncOmitted > 0 {
            let after =
                lines.firstIndex { line in
                    switch line {
                    case .frame(let index, _): index >= end
                    case .omitted: gap >= end
                    case .repeats, .asyncOmitted: false
                    }
                } ?? lines.count
            lines.insert(.asyncOmitted(count: asyncOmitted), at: after)
        }
        self.lines = lines
    }

    /// The frame at `index` is an async frame (a resume point, looked up as it is).
    package func isAsync(_ index: Int) -> Bool { frames[index].trust == .async }
}

extension CrashReport {
    /// `threads[index]`'s stack in call order, with its symbols (see ``CallStack``).
    package func callStack(ofThread index: Int, symbols: ReportSymbols) -> CallStack {
        let thread = threads[index]
        return CallStack(
            frames: thread.frames, omitted: thread.framesOmitted, omittedAt: thread.framesOmittedAt,
            symbols: symbols[thread: index], asyncFrames: thread.asyncFrames, asyncAt: thread.asyncFramesAt,
            asyncOmitted: thread.asyncFramesOmitted, asyncSymbols: symbols[asyncFramesOf: index])
    }

    /// The crash's stack in call order (see ``CrashReport/Crash/callStack(in:symbols:)``); nil
    /// for a report without a crash.
    package func crashCallStack(symbols: ReportSymbols) -> CallStack? {
        crash?.callStack(in: self, symbols: symbols)
    }

    /// The index in `threads` of the crashing thread whose stack is `crash.frames` (the frame
    /// its async chain begins at is the same in both); nil when there is none.
    package var crashedThreadIndex: Int? {
        guard let crash else { return nil }
        return threads.firstIndex { thread in
            guard thread.crashed, thread.id == crash.thread.id, thread.frames.count == crash.frames.count else {
                return false
            }
            return !crash.frames.indices.contains(thread.asyncFramesAt)
                || thread.frames[thread.asyncFramesAt].ip == crash.frames[thread.asyncFramesAt].ip
        }
    }
}

extension CrashReport.Crash {
    /// `frames` in call order, with the async frames of `report`'s crashing thread when that
    /// thread's frames are these (``CrashReport/crashedThreadIndex``).
    package func callStack(in report: CrashReport, symbols: ReportSymbols) -> CallStack {
        let thread = report.crashedThreadIndex.map { report.threads[$0] }
        return CallStack(
            frames: frames, omitted: framesOmitted, omittedAt: framesOmittedAt, symbols: symbols.crash,
            asyncFrames: thread?.asyncFrames ?? [], asyncAt: thread?.asyncFramesAt ?? 0,
            asyncOmitted: thread?.asyncFramesOmitted ?? 0,
            asyncSymbols: report.crashedThreadIndex.map { symbols[asyncFramesOf: $0] } ?? [:])
    }
}
