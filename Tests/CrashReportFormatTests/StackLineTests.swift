import Testing

@testable import CrashReportFormat

@Suite("Stack lines: repeated frames folded, the omitted gap")
struct StackLineTests {
    static func frames(_ ips: [UInt64]) -> [CrashReport.Frame] {
        ips.map { CrashReport.Frame(ip: Address($0), sp: 0, trust: .cfi, image: 0) }
    }

    @Test func aRunOfOneIPIsOneLine() {
        let frames = Self.frames([1, 2, 2, 2, 3, 2])
        #expect(
            StackLine.lines(frames: frames, omitted: 0, omittedAt: 6) == [
                .frame(index: 0, count: 1), .frame(index: 1, count: 3), .frame(index: 4, count: 1),
                .frame(index: 5, count: 1),
            ])
    }

    @Test func aRecursionThroughSeveralFramesIsItsCycleOnceAndALineWithTheCount() {
        // Frame 0 (the faulting instruction), then a 3-frame cycle 5 times, then the way out.
        let frames = Self.frames([9] + Array(repeating: [1, 2, 3], count: 5).flatMap { $0 } + [7, 8])
        #expect(
            StackLine.lines(frames: frames, omitted: 0, omittedAt: frames.count) == [
                .frame(index: 0, count: 1), .frame(index: 1, count: 1), .frame(index: 2, count: 1),
                .frame(index: 3, count: 1), .repeats(length: 3, times: 4), .frame(index: 16, count: 1),
                .frame(index: 17, count: 1),
            ])
    }

    @Test func aCycleStopsAtTheGapAndTheShortestCycleWinsATie() {
        let frames = Self.frames([1, 2, 1, 2, 1, 2, 5, 5])
        #expect(
            StackLine.lines(frames: frames, omitted: 40, omittedAt: 4) == [
                .frame(index: 0, count: 1), .frame(index: 1, count: 1), .repeats(length: 2, times: 1),
                .omitted(count: 40), .frame(index: 4, count: 1), .frame(index: 5, count: 1),
                .frame(index: 6, count: 2),
            ])
        // [4,4,4,4] is a run of one frame, not a cycle of two.
        #expect(
            StackLine.lines(frames: Self.frames([4, 4, 4, 4]), omitted: 0, omittedAt: 4) == [.frame(index: 0, count: 4)]
        )
    }

    @Test func theGapIsWhereTheFramesWereLeftOutAndARunStopsThere() {
        let frames = Self.frames([1, 2, 2, 2, 9])
        #expect(
            StackLine.lines(frames: frames, omitted: 500, omittedAt: 3) == [
                .frame(index: 0, count: 1), .frame(index: 1, count: 2), .omitted(count: 500),
                .frame(index: 3, count: 1), .frame(index: 4, count: 1),
            ])
    }

    @Test func aGapAtEitherEndOrPastIt() {
        let frames = Self.frames([1, 2])
        #expect(
            StackLine.lines(frames: frames, omitted: 7, omittedAt: 0) == [
                .omitted(count: 7), .frame(index: 0, count: 1), .frame(index: 1, count: 1),
            ])
        let atEnd: [StackLine] = [.frame(index: 0, count: 1), .frame(index: 1, count: 1), .omitted(count: 7)]
        #expect(StackLine.lines(frames: frames, omitted: 7, omittedAt: 2) == atEnd)
        #expect(StackLine.lines(frames: frames, omitted: 7, omittedAt: 99) == atEnd)
        #expect(StackLine.lines(frames: [], omitted: 0, omittedAt: 0) == [])
        #expect(StackLine.lines(frames: frames, omitted: 0, omittedAt: 1).count == 2)
    }
}
