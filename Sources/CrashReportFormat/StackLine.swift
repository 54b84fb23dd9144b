/// One line of a stack as people and Sentry are shown it: a run of one frame repeated in a row
/// (the same `ip`: a recursion) is one line, and the frames the report left out of the middle of
/// a deep stack are one gap line where they were.
package enum StackLine: Sendable, Equatable {
    /// `frames[index]`, the first of `count` frames in a row with its `ip` (1: not repeated).
    case frame(index: Int, count: Int)
    /// `count` frames were left out here.
    case omitted(count: Int)

    /// The lines of `frames` (innermost first) with `omitted` frames left out before
    /// `frames[omittedAt]`. A run never spans the gap.
    package static func lines(frames: [CrashReport.Frame], omitted: Int, omittedAt: Int) -> [StackLine] {
        let gap = min(max(omittedAt, 0), frames.count)
        var lines: [StackLine] = []
        var index = 0
        while index < frames.count {
            if index == gap, omitted > 0 { lines.append(.omitted(count: omitted)) }
            let limit = index < gap ? gap : frames.count
            var end = index + 1
            while end < limit, frames[end].ip == frames[index].ip { end += 1 }
            lines.append(.frame(index: index, count: end - index))
            index = end
        }
        if gap == frames.count, omitted > 0 { lines.append(.omitted(count: omitted)) }
        return lines
    }
}

extension CrashReport.Crash {
    /// ``frames`` as shown (see ``StackLine``).
    package var stackLines: [StackLine] {
        StackLine.lines(frames: frames, omitted: framesOmitted, omittedAt: framesOmittedAt)
    }
}

extension CrashReport.CapturedThread {
    /// ``frames`` as shown (see ``StackLine``).
    package var stackLines: [StackLine] {
        StackLine.lines(frames: frames, omitted: framesOmitted, omittedAt: framesOmittedAt)
    }
}
