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
