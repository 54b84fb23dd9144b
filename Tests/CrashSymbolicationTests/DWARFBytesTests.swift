import Testing

@testable import CrashSymbolication

/// The bounds-checked DWARF byte reader: what it decodes, where it stops, and the signed LEB128
/// that the Swift runtime's reader traps on.
@Suite("DWARF bytes")
struct DWARFBytesTests {
    @Test("LEB128s decode as DWARF defines them")
    func leb128() throws {
        var reader = DWARFBytes([0xe5, 0x8e, 0x26, 0x7f, 0x80, 0x7f])
        #expect(try reader.uleb() == 624_485)
        #expect(try reader.sleb() == -1)
        #expect(try reader.sleb() == -128)
        #expect(reader.atEnd)
        #expect(!reader.sawLongNegativeSLEB)
    }

    @Test("a nine-byte negative signed LEB128 is read and marked; a positive one or a ten-byte one is not")
    func longNegativeSLEB() throws {
        // -2^62 in nine bytes: eight continuation bytes of 0x80, then 0x40 (sign bit set).
        var negative = DWARFBytes([UInt8](repeating: 0x80, count: 8) + [0x40])
        #expect(try negative.sleb() == Int64.min / 2)
        #expect(negative.sawLongNegativeSLEB)

        var positive = DWARFBytes([UInt8](repeating: 0x80, count: 8) + [0x3f])
        _ = try positive.sleb()
        #expect(!positive.sawLongNegativeSLEB)

        var tenBytes = DWARFBytes([UInt8](repeating: 0xff, count: 9) + [0x7f])
        #expect(try tenBytes.sleb() == -1)
        #expect(!tenBytes.sawLongNegativeSLEB)
    }

    @Test("reads past the end throw instead of trapping")
    func truncated() {
        var reader = DWARFBytes([0x80, 0x80])
        #expect(throws: DWARFBytes.Truncated.self) { try reader.uleb() }
        var fixed = DWARFBytes([1, 2, 3])
        #expect(throws: DWARFBytes.Truncated.self) { try fixed.unsigned(size: 4) }
        var far = DWARFBytes([1, 2, 3], at: 10)
        #expect(throws: DWARFBytes.Truncated.self) { try far.skip(1) }
        #expect(throws: DWARFBytes.Truncated.self) { try far.cString() }
        #expect(DWARFBytes.string(in: [0x61, 0x62], at: 0) == nil)
        #expect(DWARFBytes.string(in: [0x61, 0x62, 0], at: 1) == "b")
    }
}
