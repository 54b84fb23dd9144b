import Testing

@testable import CrashReporterSupport

@Suite("Text helpers")
struct TextTests {
    @Test("trims ASCII whitespace only")
    func trimming() {
        #expect(" \t\r\n value \u{0B}\u{0C}".trimmingASCIIWhitespace() == "value")
        #expect("a b".trimmingASCIIWhitespace() == "a b")
        #expect(" \n ".trimmingASCIIWhitespace() == "")
        #expect("".trimmingASCIIWhitespace() == "")
        #expect("\u{A0}x\u{2003}".trimmingASCIIWhitespace() == "\u{A0}x\u{2003}")
        #expect("x\r\n".trimmingASCIIWhitespace() == "x")
        #expect(Substring("  y ").trimmingASCIIWhitespace() == "y")
    }

    @Test("byte counts in the largest exact unit")
    func byteCounts() {
        #expect(ByteCount.text(16 << 20) == "16 MiB")
        #expect(ByteCount.text(64 << 10) == "64 KiB")
        #expect(ByteCount.text(2 << 30) == "2 GiB")
        #expect(ByteCount.text((1 << 20) + 1) == "1048577 bytes")
        #expect(ByteCount.text(1000) == "1000 bytes")
        #expect(ByteCount.text(1) == "1 byte")
        #expect(ByteCount.text(0) == "0 bytes")
    }
}
