import CrashReportFormat

/// A reader of one ELF file's `.debug_info` (DWARF 2 to 5, 64-bit little-endian, sections
/// compressed with zlib or not) for what symbolication needs beyond the runtime's answers: the
/// nest of `DW_TAG_inlined_subroutine` entries at an address (``chains(at:)``), and whether a
/// file holds what the runtime's own DWARF reader traps on (``runtimeHazard``).
///
/// Every entry is walked once, in Swift, off the crash path; a malformed file throws.
/// See docs/symbolication.md.
struct DWARFInfo {
    enum Failure: Error, Equatable {
        case unreadable(String)
        case unsupported(String)
        case malformed
    }

    private struct Sections {
        var info: [UInt8] = []
        var abbrev: [UInt8] = []
        var str: [UInt8] = []
        var lineStr: [UInt8] = []
        var strOffsets: [UInt8] = []
        var addr: [UInt8] = []
        var ranges: [UInt8] = []
        var rngLists: [UInt8] = []
    }

    private struct Abbreviation {
        var tag: UInt64
        var hasChildren: Bool
        var attributes: [(name: UInt64, form: UInt64, implicit: Int64)]
    }

    private struct Unit {
        var start: Int
        var end: Int
        var version: Int
        var offsetSize: Int
        var addressSize: Int
        var firstEntry: Int
        var abbreviations: [UInt64: Abbreviation]
        var strOffsetsBase: UInt64 = 8
        var addrBase: UInt64 = 8
        var rngListsBase: UInt64?
        var lowPC: UInt64 = 0
    }

    /// An attribute's value as read, resolved only when it is used.
    private enum Value {
        case unsigned(UInt64)
        case address(UInt64)
        case addressIndex(UInt64)
        case string(String)
        case stringOffset(UInt64)
        case lineStringOffset(UInt64)
        case stringIndex(UInt64)
        case reference(UInt64)
        case rangeListIndex(UInt64)
        case other
    }

    /// The reason ``init(path:)`` gives for a file without `.debug_info` (a symbol table only).
    static let noDWARF = "no DWARF"

    private let sections: Sections
    private var units: [Unit] = []
    /// The reason the runtime's DWARF reader would trap on this file, or nil.
    private(set) var runtimeHazard: String?

    private static let interesting: Set<UInt64> = [
        0x03, 0x11, 0x12, 0x31, 0x47, 0x55, 0x6e, 0x72, 0x73, 0x74, 0x2007,
    ]

    init(path: String) throws(Failure) {
        let file: ELFSections
        do { file = try ELFSections(path: path) } catch { throw .unreadable("\(error)") }
        defer { file.close() }
        func load(_ name: String) throws(Failure) -> [UInt8] {
            guard let section = file.sections[name], let raw = file.bytes(of: name) else { return [] }
            guard section.compressed else { return raw }
            // Elf64_Chdr: ch_type (1: zlib), reserved, ch_size, ch_addralign; then the stream.
            guard raw.count > 24, raw.littleEndian(UInt32.self, at: 0) == 1 else {
                throw .unsupported("\(name) is compressed with other than zlib")
            }
            let size = raw.littleEndian(UInt64.self, at: 8)
            guard size < 1 << 30,
                let bytes = try? Gzip.decompressZlib(raw[24...], limit: Int(size)), bytes.count == Int(size)
            else { throw .unsupported("\(name) cannot be decompressed") }
            return bytes
        }
        var sections = Sections()
        sections.info = try load(".debug_info")
        sections.abbrev = try load(".debug_abbrev")
        guard !sections.info.isEmpty, !sections.abbrev.isEmpty else { throw .unsupported(Self.noDWARF) }
        sections.str = try load(".debug_str")
        sections.lineStr = try load(".debug_line_str")
        sections.strOffsets = try load(".debug_str_offsets")
        sections.addr = try load(".debug_addr")
        sections.ranges = try load(".debug_ranges")
        sections.rngLists = try load(".debug_rnglists")
        self.sections = sections
        do { try readUnits() } catch { throw .malformed }
    }

    // MARK: Units and abbreviations

    private mutating func readUnits() throws(DWARFBytes.Truncated) {
        var reader = DWARFBytes(sections.info)
        var tables: [UInt64: [UInt64: Abbreviation]] = [:]
        while !reader.atEnd {
            let start = reader.position
            var length = try reader.unsigned(size: 4)
            var offsetSize = 4
            if length == 0xffff_ffff {
                length = try reader.unsigned(size: 8)
                offsetSize = 8
            }
            guard length <= UInt64(sections.info.count - reader.position), length >= 2 else { throw .init() }
            let end = reader.position + Int(length)
            let version = Int(try reader.unsigned(size: 2))
            var unitType: UInt8 = 1
            let abbrevOffset: UInt64
            let addressSize: Int
            if version >= 5 {
                unitType = try reader.byte()
                addressSize = Int(try reader.byte())
                abbrevOffset = try reader.unsigned(size: offsetSize)
                if unitType == 4 || unitType == 5 { try reader.skip(8) }  // skeleton, split: dwo_id
                if unitType == 2 || unitType == 6 { try reader.skip(8 + UInt64(offsetSize)) }  // type units
            } else if version >= 2 {
                abbrevOffset = try reader.unsigned(size: offsetSize)
                addressSize = Int(try reader.byte())
            } else {
                throw .init()
            }
            if tables[abbrevOffset] == nil { tables[abbrevOffset] = try readAbbreviations(at: abbrevOffset) }
            var unit = Unit(
                start: start, end: end, version: version, offsetSize: offsetSize, addressSize: addressSize,
                firstEntry: reader.position, abbreviations: tables[abbrevOffset] ?? [:])
            if unitType == 1 || unitType == 3 {
                var entry = DWARFBytes(sections.info, at: unit.firstEntry)
                if let (_, attributes) = try readEntry(&entry, unit: unit) {
                    if case .unsigned(let base)? = attributes[0x72] { unit.strOffsetsBase = base }
                    if case .unsigned(let base)? = attributes[0x73] { unit.addrBase = base }
                    if case .unsigned(let base)? = attributes[0x74] { unit.rngListsBase = base }
                    if let low = attributes[0x11], let address = address(low, unit: unit) { unit.lowPC = address }
                }
                units.append(unit)
            }
            reader.position = end
        }
    }

    private mutating func readAbbreviations(at offset: UInt64) throws(DWARFBytes.Truncated) -> [UInt64: Abbreviation] {
        guard offset < UInt64(sections.abbrev.count) else { throw .init() }
        var reader = DWARFBytes(sections.abbrev, at: Int(offset))
        var table: [UInt64: Abbreviation] = [:]
        while true {
            let code = try reader.uleb()
            if code == 0 { break }
            let tag = try reader.uleb()
            let children = try reader.byte() != 0
            var attributes: [(UInt64, UInt64, Int64)] = []
            while true {
                let name = try reader.uleb()
                let form = try reader.uleb()
                if name == 0 && form == 0 { break }
                attributes.append((name, form, form == 0x21 ? try reader.sleb() : 0))
            }
            table[code] = Abbreviation(tag: tag, hasChildren: children, attributes: attributes)
        }
        if reader.sawLongNegativeSLEB { runtimeHazard = "a nine-byte negative LEB128 in .debug_abbrev" }
        return table
    }

    // MARK: Entries

    /// Reads the entry at the reader's position: nil for the end of a list of children.
    private func readEntry(_ reader: inout DWARFBytes, unit: Unit) throws(DWARFBytes.Truncated)
        -> (Abbreviation, [UInt64: Value])?
    {
        let code = try reader.uleb()
        if code == 0 { return nil }
        guard let abbreviation = unit.abbreviations[code] else { throw .init() }
        var values: [UInt64: Value] = [:]
        for attribute in abbreviation.attributes {
            let value = try readValue(&reader, form: attribute.form, implicit: attribute.implicit, unit: unit)
            if Self.interesting.contains(attribute.name) { values[attribute.name] = value }
        }
        return (abbreviation, values)
    }

    private func readValue(_ reader: inout DWARFBytes, form: UInt64, implicit: Int64, unit: Unit)
        throws(DWARFBytes.Truncated) -> Value
    {
        let offsetSize = unit.offsetSize
        switch form {
        case 0x01: return .address(try reader.unsigned(size: unit.addressSize))
        case 0x03: try reader.skip(try reader.unsigned(size: 2))
        case 0x04: try reader.skip(try reader.unsigned(size: 4))
        case 0x05: return .unsigned(try reader.unsigned(size: 2))
        case 0x06: return .unsigned(try reader.unsigned(size: 4))
        case 0x07: return .unsigned(try reader.unsigned(size: 8))
        case 0x08: return .string(try reader.cString())
        case 0x09, 0x18: try reader.skip(try reader.uleb())
        case 0x0a: try reader.skip(UInt64(try reader.byte()))
        case 0x0b: return .unsigned(UInt64(try reader.byte()))
        case 0x0c: return .unsigned(UInt64(try reader.byte()))
        case 0x0d: _ = try reader.sleb()
        case 0x0e: return .stringOffset(try reader.unsigned(size: offsetSize))
        case 0x0f: return .unsigned(try reader.uleb())
        case 0x10: return .reference(try reader.unsigned(size: unit.version <= 2 ? unit.addressSize : offsetSize))
        case 0x11: return local(try reader.unsigned(size: 1), unit)
        case 0x12: return local(try reader.unsigned(size: 2), unit)
        case 0x13: return local(try reader.unsigned(size: 4), unit)
        case 0x14: return local(try reader.unsigned(size: 8), unit)
        case 0x15: return local(try reader.uleb(), unit)
        case 0x16:
            let actual = try reader.uleb()
            guard actual != 0x16 else { throw .init() }
            return try readValue(&reader, form: actual, implicit: implicit, unit: unit)
        case 0x17: return .unsigned(try reader.unsigned(size: offsetSize))
        case 0x19: return .unsigned(1)
        case 0x1a: return .stringIndex(try reader.uleb())
        case 0x1b: return .addressIndex(try reader.uleb())
        case 0x1c: try reader.skip(4)
        case 0x1d, 0x1f20, 0x1f21: try reader.skip(UInt64(offsetSize))
        case 0x1e: try reader.skip(16)
        case 0x1f: return .lineStringOffset(try reader.unsigned(size: offsetSize))
        case 0x20, 0x24: try reader.skip(8)
        case 0x21: return .unsigned(UInt64(bitPattern: implicit))
        case 0x22: _ = try reader.uleb()
        case 0x23: return .rangeListIndex(try reader.uleb())
        case 0x25, 0x26, 0x27, 0x28: return .stringIndex(try reader.unsigned(size: Int(form - 0x24)))
        case 0x29, 0x2a, 0x2b, 0x2c: return .addressIndex(try reader.unsigned(size: Int(form - 0x28)))
        case 0x1f01: return .addressIndex(try reader.uleb())
        case 0x1f02: return .stringIndex(try reader.uleb())
        default: throw .init()
        }
        return .other
    }

    private func local(_ offset: UInt64, _ unit: Unit) -> Value {
        let (absolute, overflow) = UInt64(unit.start).addingReportingOverflow(offset)
        return overflow ? .other : .reference(absolute)
    }

    private func address(_ value: Value, unit: Unit) -> UInt64? {
        switch value {
        case .address(let address): return address
        case .addressIndex(let index):
            guard index < 1 << 32 else { return nil }
            var reader = DWARFBytes(
                sections.addr, at: Int(clamping: unit.addrBase &+ index &* UInt64(unit.addressSize)))
            return try? reader.unsigned(size: unit.addressSize)
        default: return nil
        }
    }

    private func string(_ value: Value, unit: Unit) -> String? {
        switch value {
        case .string(let string): return string
        case .stringOffset(let offset): return DWARFBytes.string(in: sections.str, at: offset)
        case .lineStringOffset(let offset): return DWARFBytes.string(in: sections.lineStr, at: offset)
        case .stringIndex(let index):
            guard index < 1 << 32 else { return nil }
            let at = unit.strOffsetsBase &+ index &* UInt64(unit.offsetSize)
            var reader = DWARFBytes(sections.strOffsets, at: Int(clamping: at))
            guard let offset = try? reader.unsigned(size: unit.offsetSize) else { return nil }
            return DWARFBytes.string(in: sections.str, at: offset)
        default: return nil
        }
    }

    // MARK: Address ranges

    /// The address ranges an entry covers: `DW_AT_low_pc`/`DW_AT_high_pc`, or `DW_AT_ranges`.
    private func ranges(of values: [UInt64: Value], unit: Unit) -> [Range<UInt64>] {
        if let low = values[0x11].flatMap({ address($0, unit: unit) }), let high = values[0x12] {
            var end: UInt64?
            if case .unsigned(let length) = high {
                end = low.addingReportingOverflow(length).overflow ? nil : low + length
            }
            if end == nil { end = address(high, unit: unit) }
            guard let end, end > low else { return [] }
            return [low..<end]
        }
        guard let list = values[0x55] else { return [] }
        if unit.version < 5, case .unsigned(let offset) = list { return rangesV4(at: offset, unit: unit) }
        var offset: UInt64
        switch list {
        case .unsigned(let value): offset = value
        case .rangeListIndex(let index):
            guard let base = unit.rngListsBase, index < 1 << 32 else { return [] }
            var reader = DWARFBytes(sections.rngLists, at: Int(clamping: base &+ index &* UInt64(unit.offsetSize)))
            guard let relative = try? reader.unsigned(size: unit.offsetSize) else { return [] }
            offset = base &+ relative
        default: return []
        }
        return (try? rangeList(at: offset, unit: unit)) ?? []
    }

    private func rangesV4(at offset: UInt64, unit: Unit) -> [Range<UInt64>] {
        guard offset < UInt64(sections.ranges.count) else { return [] }
        var reader = DWARFBytes(sections.ranges, at: Int(offset))
        var base = unit.lowPC
        var found: [Range<UInt64>] = []
        let all: UInt64 = unit.addressSize == 4 ? 0xffff_ffff : ~0
        while let start = try? reader.unsigned(size: unit.addressSize),
            let end = try? reader.unsigned(size: unit.addressSize)
        {
            if start == 0 && end == 0 { break }
            if start == all {
                base = end
            } else if end > start {
                found.append((base &+ start)..<(base &+ end))
            }
        }
        return found
    }

    private func rangeList(at offset: UInt64, unit: Unit) throws(DWARFBytes.Truncated) -> [Range<UInt64>] {
        guard offset < UInt64(sections.rngLists.count) else { return [] }
        var reader = DWARFBytes(sections.rngLists, at: Int(offset))
        var base = unit.lowPC
        var found: [Range<UInt64>] = []
        func add(_ start: UInt64?, _ end: UInt64?) {
            if let start, let end, end > start { found.append(start..<end) }
        }
        while true {
            switch try reader.byte() {
            case 0: return found
            case 1: base = address(.addressIndex(try reader.uleb()), unit: unit) ?? base
            case 2:
                add(
                    address(.addressIndex(try reader.uleb()), unit: unit),
                    address(.addressIndex(try reader.uleb()), unit: unit))
            case 3:
                let start = address(.addressIndex(try reader.uleb()), unit: unit)
                let length = try reader.uleb()
                add(start, start.map { $0 &+ length })
            case 4:
                let start = try reader.uleb()
                let end = try reader.uleb()
                add(base &+ start, base &+ end)
            case 5: base = try reader.unsigned(size: unit.addressSize)
            case 6: add(try reader.unsigned(size: unit.addressSize), try reader.unsigned(size: unit.addressSize))
            case 7:
                let start = try reader.unsigned(size: unit.addressSize)
                add(start, start &+ (try reader.uleb()))
            default: throw .init()
            }
        }
    }

    // MARK: What is asked

    /// Walks every entry of every unit (which is what the runtime's reader does on its first
    /// inline lookup) and records what it would trap on.
    mutating func checkEveryEntry() {
        guard runtimeHazard == nil else { return }
        for unit in units {
            var reader = DWARFBytes(sections.info, at: unit.firstEntry)
            while reader.position < unit.end {
                do { _ = try readEntry(&reader, unit: unit) } catch { break }
                if reader.sawLongNegativeSLEB {
                    runtimeHazard = "a nine-byte negative LEB128 in .debug_info"
                    return
                }
            }
        }
    }

    /// The nest of functions at each of `offsets` (ELF virtual addresses): innermost inlined
    /// call first, the concrete function (`DW_TAG_subprogram`) last, each by its linkage name
    /// (or its name where it has none, as the runtime-failure pseudo-functions).
    func chains(at offsets: [UInt64]) -> [UInt64: [InlineChains.Level]] {
        let wanted = Set(offsets)
        var paths: [UInt64: [(depth: Int, entry: UInt64)]] = [:]
        for unit in units {
            var reader = DWARFBytes(sections.info, at: unit.firstEntry)
            var depth = 0
            while reader.position < unit.end {
                let entryOffset = UInt64(reader.position)
                let read: (Abbreviation, [UInt64: Value])?
                do { read = try readEntry(&reader, unit: unit) } catch { break }
                guard let (abbreviation, values) = read else {
                    depth -= 1
                    if depth <= 0 { break }
                    continue
                }
                if abbreviation.tag == 0x2e || abbreviation.tag == 0x1d {
                    for range in ranges(of: values, unit: unit) {
                        for offset in wanted where range.contains(offset) {
                            var path = paths[offset] ?? []
                            if abbreviation.tag == 0x2e { path = [] }
                            path.removeAll { $0.depth >= depth }
                            path.append((depth, entryOffset))
                            paths[offset] = path
                        }
                    }
                }
                if abbreviation.hasChildren { depth += 1 }
            }
        }
        var chains: [UInt64: [InlineChains.Level]] = [:]
        for (offset, path) in paths {
            let levels = path.reversed().compactMap { name(ofEntryAt: $0.entry, hops: 0) }
                .map { InlineChains.Level(name: $0, file: nil, line: nil) }
            if levels.count == path.count, !levels.isEmpty { chains[offset] = levels }
        }
        return chains
    }

    /// The linkage name of the entry at `offset` of `.debug_info`, following
    /// `DW_AT_abstract_origin` and `DW_AT_specification`; its name where it has no linkage name.
    private func name(ofEntryAt offset: UInt64, hops: Int) -> String? {
        guard hops < 8, let unit = units.last(where: { UInt64($0.start) <= offset && offset < UInt64($0.end) })
        else { return nil }
        var reader = DWARFBytes(sections.info, at: Int(offset))
        guard let (_, values) = try? readEntry(&reader, unit: unit) else { return nil }
        if let linkage = (values[0x6e] ?? values[0x2007]).flatMap({ string($0, unit: unit) }) { return linkage }
        for attribute: UInt64 in [0x31, 0x47] {
            if case .reference(let target)? = values[attribute], let found = name(ofEntryAt: target, hops: hops + 1) {
                return found
            }
        }
        return values[0x03].flatMap { string($0, unit: unit) }
    }
}
