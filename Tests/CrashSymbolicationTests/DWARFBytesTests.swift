import Testing

@testable import CrashSymbolication

/// The bounds-checked DWARF byte reader: what it decodes and where it stops.
@Suite("DWARF bytes")
struct DWARFBytesTests {
    @Test("LEB128s decode as DWARF defines them")
    func leb128() throws {
        try reading([0xe5, 0x8e, 0x26, 0x7f, 0x80, 0x7f]) { (reader: inout DWARFBytes) throws in
            #expect(try reader.uleb() == 624_485)
            #expect(try reader.sleb() == -1)
            #expect(try reader.sleb() == -128)
            #expect(reader.atEnd)
        }
    }

    @Test("a nine-byte negative signed LEB128 (which Debian's libc6-dbg holds) and a ten-byte one decode")
    func longSLEB() throws {
        // -2^62 in nine bytes: eight continuation bytes of 0x80, then 0x40 (sign bit set).
        try reading([UInt8](repeating: 0x80, count: 8) + [0x40]) { (reader: inout DWARFBytes) throws in
            #expect(try reader.sleb() == Int64.min / 2)
        }
        try reading([UInt8](repeating: 0xff, count: 9) + [0x7f]) { (reader: inout DWARFBytes) throws in
            #expect(try reader.sleb() == -1)
        }
        try reading([0x80, 0x80, 0x01, 0x05]) { (reader: inout DWARFBytes) throws in
            try reader.skipLEB()
            #expect(try reader.byte() == 5)
        }
    }

    @Test("reads past the end throw instead of trapping")
    func truncated() {
        [UInt8]([0x80, 0x80]).withUnsafeBytes { bytes in
            var reader = DWARFBytes(bytes)
            #expect(throws: DWARFBytes.Truncated.self) { try reader.uleb() }
            var fixed = DWARFBytes(UnsafeRawBufferPointer(rebasing: bytes[..<1]))
            #expect(throws: DWARFBytes.Truncated.self) { try fixed.unsigned(size: 2) }
            var far = DWARFBytes(bytes, at: 10)
            #expect(throws: DWARFBytes.Truncated.self) { try far.skip(1) }
            #expect(throws: DWARFBytes.Truncated.self) { try far.cString() }
        }
        [UInt8]([0x61, 0x62]).withUnsafeBytes { #expect(DWARFBytes.string(in: $0, at: 0) == nil) }
        [UInt8]([0x61, 0x62, 0]).withUnsafeBytes { #expect(DWARFBytes.string(in: $0, at: 1) == "b") }
    }

    private func reading(_ bytes: [UInt8], _ body: (inout DWARFBytes) throws -> Void) throws {
        try bytes.withUnsafeBytes { buffer in
            var reader = DWARFBytes(buffer)
            try body(&reader)
        }
    }
}
