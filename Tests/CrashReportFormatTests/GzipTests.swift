import CrashReportFormat
import Foundation
import Testing

@Suite("Gzip")
struct GzipTests {
    /// `printf 'hello\n' | gzip -n`: what the system gzip writes must inflate.
    static let systemGzipHello: [UInt8] = [
        0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xcb, 0x48,
        0xcd, 0xc9, 0xc9, 0xe7, 0x02, 0x00, 0x20, 0x30, 0x3a, 0x36, 0x06, 0x00,
        0x00, 0x00,
    ]

    /// Text that compresses well but not trivially, reproducible without a random generator.
    static func sampleText(bytes: Int) -> [UInt8] {
        var text = ""
        var counter = 0
        while text.utf8.count < bytes {
            text += "frame \(counter) ip 0x\(String(counter &* 2_654_435_761 % 1_000_003, radix: 16))\n"
            counter += 1
        }
        return Array(text.utf8.prefix(bytes))
    }

    @Test func inflatesWhatSystemGzipWrote() throws {
        #expect(try Gzip.decompress(Data(Self.systemGzipHello)) == Array("hello\n".utf8))
    }

    @Test(arguments: [0, 1, 100, 70_000, 1 << 20])
    func roundTrips(size: Int) throws {
        let original = Self.sampleText(bytes: size)
        let compressed = try Gzip.compress(original)
        #expect(compressed.prefix(2) == [0x1f, 0x8b])
        #expect(try Gzip.decompress(compressed) == original)
        // Bytes that are not contiguous in memory (one copy is made of them) read the same.
        #expect(try Gzip.decompress(AnyCollection(compressed)) == original)
        #expect(try Gzip.compress(AnyCollection(original)) == compressed)
    }

    @Test func emptyInputIsEmpty() {
        #expect(throws: GzipError.empty) { try Gzip.decompress(Data()) }
    }

    @Test func foreignMagicIsNotGzip() {
        let png = Data([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])
        #expect(throws: GzipError.notGzip) { try Gzip.decompress(png) }
        #expect(throws: GzipError.notGzip) { try Gzip.decompress(Data("{}".utf8)) }
        #expect(throws: GzipError.notGzip) { try Gzip.decompress(Data([0x1f, 0x8c, 0, 0])) }
    }

    @Test func everyPrefixIsTruncated() throws {
        let compressed = try Gzip.compress(Data("a crash report, or something like one".utf8))
        for length in 1..<compressed.count {
            #expect(throws: GzipError.truncated, "prefix of \(length) bytes") {
                try Gzip.decompress(compressed.prefix(length))
            }
        }
    }

    @Test func longStreamCutAnywhereIsTruncated() throws {
        let compressed = try Gzip.compress(Self.sampleText(bytes: 300_000))
        for length in [11, 100, compressed.count / 2, compressed.count - 8, compressed.count - 1] {
            #expect(throws: GzipError.truncated, "prefix of \(length) bytes") {
                try Gzip.decompress(compressed.prefix(length))
            }
        }
    }

    @Test func flippedBytesAreCaught() throws {
        let original = Array("a crash report, or something like one".utf8)
        let compressed = try Gzip.compress(original)
        for position in 0..<compressed.count {
            var damaged = compressed
            damaged[position] ^= 0xff
            let result = Result { try Gzip.decompress(damaged) }
            switch position {
            case 0, 1:
                #expect(throws: GzipError.notGzip) { try result.get() }
            case 4...9:
                // MTIME, XFL and OS are informational: zlib does not check them.
                #expect(try result.get() == original, "byte \(position)")
            default:
                let error = try #require(throws: GzipError.self, "byte \(position)") { try result.get() }
                switch error {
                case .corrupt, .truncated: break
                default: Issue.record("byte \(position): unexpected \(error)")
                }
            }
        }
    }

    @Test func wrongChecksumIsCorrupt() throws {
        var compressed = try Gzip.compress(Data("checksummed".utf8))
        compressed[compressed.count - 8] ^= 0x01  // first byte of the CRC-32
        #expect(throws: GzipError.corrupt("incorrect data check")) { try Gzip.decompress(compressed) }
    }

    @Test func trailingBytesAreRefused() throws {
        var compressed = try Gzip.compress(Data("one member".utf8))
        compressed.append(contentsOf: [0, 0, 0])
        #expect(throws: GzipError.trailingData) { try Gzip.decompress(compressed) }
    }

    @Test func bombStopsAtTheLimit() throws {
        // 64 MiB of zeros deflate to about 64 KiB.
        let bomb = try Gzip.compress(Data(count: 64 << 20), limit: 1 << 20)
        #expect(bomb.count < 1 << 20)
        #expect(throws: GzipError.tooLarge(limit: Gzip.defaultOutputLimit)) { try Gzip.decompress(bomb) }
    }

    @Test func limitIsExact() throws {
        let data = Self.sampleText(bytes: 10_000)
        let compressed = try Gzip.compress(data)
        #expect(try Gzip.decompress(compressed, limit: 10_000) == data)
        #expect(throws: GzipError.tooLarge(limit: 9_999)) { try Gzip.decompress(compressed, limit: 9_999) }
    }

    @Test func compressionHasALimitToo() throws {
        let incompressible = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 ^ ($0 >> 3) &* 31) })
        #expect(throws: GzipError.tooLarge(limit: 100)) { try Gzip.compress(incompressible, limit: 100) }
    }

    @Test func errorsReadAsOneLine() {
        let errors: [GzipError] = [.empty, .notGzip, .truncated, .corrupt("x"), .trailingData, .tooLarge(limit: 1)]
        for error in errors {
            #expect(!error.description.isEmpty && !error.description.contains("\n"))
        }
        #expect(GzipError.tooLarge(limit: 16 << 20).description == "too large: more than 16 MiB")
    }
}
