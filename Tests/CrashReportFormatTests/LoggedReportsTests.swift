import CrashReportFormat
import Foundation
import TestSupport
import Testing

/// `LoggedReports`, the reader of the report lines a crash writes to stderr, on lines made here the
/// way CShims/stderr_copy.c makes them (the integration tests read the handler's own).
@Suite struct LoggedReportsTests {
    static let id = "5fba68a6-cf26-42d7-a7cc-020af897218f"
    static let other = "0c1d6a0e-3b7e-4f39-9d4b-8e5e8c3f0a11"

    static func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// The report lines of `bytes`, as the handler writes them.
    static func lines(_ bytes: [UInt8], id: String = id) -> [String] {
        let parts = stride(from: 0, to: bytes.count, by: LoggedReportLine.partBytes).map {
            Array(bytes[$0..<min($0 + LoggedReportLine.partBytes, bytes.count)])
        }
        return parts.enumerated().map { index, part in
            let header = "\(id) \(index + 1)/\(parts.count)"
            var crc = Array(header.utf8).withUnsafeBytes { Gzip.crc32(0, $0) }
            crc = part.withUnsafeBytes { Gzip.crc32(crc, $0) }
            let payload = Data(part).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_")
            return "crash-reporter-data:1 \(header) \(String(format: "%08x", crc)) \(payload)"
        }
    }

    static func find(_ text: String) -> [LoggedReport] { LoggedReports.find(in: Array(text.utf8)) }

    @Test func plainLinesWithOtherOutputCRLFAndEveryPaddingComeBackWhole() {
        for count in [1, 2, 3, 2999, 3000, 3001, 7001] {
            let report = Self.bytes(count, seed: UInt64(count))
            let text =
                "starting\r\n" + Self.lines(report).map { "2026-12-04T16:10:49Z app[1]: \($0)\r\n" }.joined()
                + "Fatal error: boom\n"
            #expect(Self.find(text) == [LoggedReport(id: Self.id, state: .whole(report))], "\(count) bytes")
        }
    }

    @Test func dockerJSONPiecesAndCRIPartialLinesAreJoined() throws {
        let report = Self.bytes(7000, seed: 1)
        let lines = Self.lines(report)
        var docker: [String] = []
        for line in lines {
            let cut = line.index(line.startIndex, offsetBy: 100)
            for (piece, end) in [(String(line[..<cut]), ""), (String(line[cut...]), "\n")] {
                let object = ["log": piece + end, "stream": "stderr", "time": "2026-12-04T16:10:49.1Z"]
                docker.append(String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self))
            }
            docker.append(#"{"log":"other output\n","stream":"stdout"}"#)
        }
        #expect(Self.find(docker.joined(separator: "\n")) == [LoggedReport(id: Self.id, state: .whole(report))])

        let cri = lines.map { line -> String in
            let cut = line.index(line.startIndex, offsetBy: line.count / 2)
            return "2026-12-04T16:10:49.1Z stderr P \(line[..<cut])\n2026-12-04T16:10:49.1Z stdout F hello\n"
                + "2026-12-04T16:10:49.2Z stderr F \(line[cut...])"
        }
        #expect(Self.find(cri.joined(separator: "\n")) == [LoggedReport(id: Self.id, state: .whole(report))])
    }

    @Test func severalReportsInterleavedAndRepeatedKeepTheirOrder() {
        let first = Self.bytes(6500, seed: 2)
        let second = Self.bytes(100, seed: 3)
        let a = Self.lines(first)
        let b = Self.lines(second, id: Self.other)
        let text = [a[0], b[0], a[1], a[0], a[2]].joined(separator: "\n")
        #expect(
            Self.find(text) == [
                LoggedReport(id: Self.id, state: .whole(first)), LoggedReport(id: Self.other, state: .whole(second)),
            ])
    }

    @Test func aMissingLineIsIncompleteAndADamagedOneDamaged() {
        let lines = Self.lines(Self.bytes(9500, seed: 4))
        let missing = [lines[0], lines[2]].joined(separator: "\n")
        #expect(Self.find(missing) == [LoggedReport(id: Self.id, state: .incomplete(missing: [2, 4], count: 4))])

        var changed = Array(lines[1].utf8)
        changed[200] = changed[200] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let damaged = [lines[0], String(decoding: changed, as: UTF8.self), lines[2], lines[3]].joined(separator: "\n")
        #expect(
            Self.find(damaged) == [LoggedReport(id: Self.id, state: .damaged("line 2 has a wrong checksum or is cut"))])
        // The same line whole further on repairs it (a log that holds it twice).
        #expect(Self.find(damaged + "\n" + lines[1]).first?.state == .whole(Self.bytes(9500, seed: 4)))

        let cut = String(lines[3].dropLast(5))
        let cutText = [lines[0], lines[1], lines[2], cut].joined(separator: "\n")
        #expect(
            Self.find(cutText) == [LoggedReport(id: Self.id, state: .damaged("line 4 has a wrong checksum or is cut"))])
    }

    @Test func linesThatDisagreeAreDamagedAndNoiseIsNothing() {
        let four = Self.lines(Self.bytes(9500, seed: 5))
        let two = Self.lines(Self.bytes(4000, seed: 6))
        let mixed = [four[0], two[1]].joined(separator: "\n")
        #expect(Self.find(mixed).first?.state == .damaged("its lines disagree on the number of lines"))
        #expect(Self.find("crash-reporter-data:1 not-an-id 1/1 00000000 AAAA\ncrash-reporter-data:1 ").isEmpty)
        #expect(LoggedReports.find(in: Self.bytes(50_000, seed: 7)).isEmpty)
    }
}
