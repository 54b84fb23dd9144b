/// One line of a stack as people and Sentry are shown it: a run of one frame repeated in a row
/// (the same `ip`: a recursion) is one line; a recursion through several functions (a cycle of
/// up to 8 frames repeated in a row) is its frames once and one line that says how many times
/// they repeat; the frames the report left out of the middle of a deep stack are one gap line
/// where they were.
package enum StackLine: Sendable, Equatable {
    /// `frames[index]`, the first of `count` frames in a row with its `ip` (1: not repeated).
    case frame(index: Int, count: Int)
    /// The `length` frames just before this line came `times` more times in a row after them.
    case repeats(length: Int, times: Int)
    /// `count` frames were left out here.
    case omitted(count: Int)
    /// The async context chain went on for `count` more frames than the report keeps
    /// (``CrashReport/CapturedThread/asyncFramesOmitted``); only ``CallStack`` makes this line.
    case asyncOmitted(count: Int)

    /// The longest cycle considered.
    static let longestCycle = 8

    /// The lines of `frames` (innermost first) with `omitted` frames left out before
    /// `frames[omittedAt]`. A run never spans the gap.
    package static func lines(frames: [CrashReport.Frame], omitted: Int, omittedAt: Int) -> [StackLine] {
        let gap = min(max(omittedAt, 0), frames.count)
        var lines: [StackLine] = []
        var index = 0
        while index < frames.count {
            if index == gap, omitted > 0 { lines.append(.omitted(count: omitted)) }
            let limit = index < gap ? gap : frames.count
            let (length, times) = cycle(in: frames, at: index, limit: limit)
            if length == 1 {
                lines.append(.frame(index: index, count: times))
                index += times
            } else {
                for offset in 0..<length { lines.append(.frame(index: index + offset, count: 1)) }
                lines.append(.repeats(length: length, times: times - 1))
                index += length * times
            }
        }
        if gap == frames.count, omitted > 0 { lines.append(.omitted(count: omitted)) }
        return lines
    }

    /// The cycle that starts at `frames[start]` and covers the most frames before `limit`: its
    /// length (1 to 8) and how many times it comes in a row (1: none). The shortest wins a tie.
    static func cycle(in frames: [CrashReport.Frame], at start: Int, limit: Int) -> (length: Int, times: Int) {
        var best = (length: 1, times: 1)
        for length in 1...longestCycle where start + 2 * length <= limit {
            var times = 1
            var next = start + length
            while next + length <= limit, (0..<length).allSatisfy({ frames[next + $0].ip == frames[start + $0].ip }) {
                times += 1
                next += length
            }
            if times > 1, length * times > best.length * best.times { best = (length, times) }
        }
        return best
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
