/// The pieces of `.debug_info` that every reader of it shares: the sections, abbreviations, the
/// forms of attribute values, and the few attributes symbolication asks for, read from an
/// entry without allocating (an entry's other attributes are skipped, by their size where the
/// abbreviation fixes it). DWARF 2 to 5, 64-bit little-endian files. See docs/symbolication.md.
struct DWARFSections {
    var info: UnsafeRawBufferPointer
    var abbrev: UnsafeRawBufferPointer
    var str: UnsafeRawBufferPointer
    var lineStr: UnsafeRawBufferPointer
    var strOffsets: UnsafeRawBufferPointer
    var addr: UnsafeRawBufferPointer
    var ranges: UnsafeRawBufferPointer
    var rngLists: UnsafeRawBufferPointer
    var line: UnsafeRawBufferPointer

    /// nil when the file has no `.debug_info` (a symbol table only).
    init?(_ file: ELFSections) {
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        guard let info = file.data(of: ".debug_info"), let abbrev = file.data(of: ".debug_abbrev"), !info.isEmpty
        else { return nil }
        self.info = info
        self.abbrev = abbrev
        str = file.data(of: ".debug_str") ?? empty
        lineStr = file.data(of: ".debug_line_str") ?? empty
        strOffsets = file.data(of: ".debug_str_offsets") ?? empty
        addr = file.data(of: ".debug_addr") ?? empty
        ranges = file.data(of: ".debug_ranges") ?? empty
        rngLists = file.data(of: ".debug_rnglists") ?? empty
        line = file.data(of: ".debug_line") ?? empty
    }
}

/// One abbreviation: an entry's tag, whether children follow, and its attributes' names and forms.
struct DWARFAbbreviation {
    var tag: UInt64
    var hasChildren: Bool
    var attributes: [(name: UInt64, form: UInt64, implicit: Int64)]
    /// The bytes of an entry's attributes when every form has a size of its own; nil otherwise.
    var fixedSize: Int?
}

/// The sizes that a unit's header fixes, on which the forms' sizes depend.
struct DWARFFormSizes: Hashable {
    var version: Int
    var offsetSize: Int
    var addressSize: Int

    /// The size of a value of `form`, when the form alone fixes it.
    func fixedSize(of form: UInt64) -> Int? {
        switch form {
        case 0x01: addressSize
        case 0x0b, 0x0c, 0x11, 0x25, 0x29: 1
        case 0x05, 0x12, 0x26, 0x2a: 2
        case 0x27, 0x2b: 3
        case 0x06, 0x13, 0x1c, 0x28, 0x2c: 4
        case 0x07, 0x14, 0x20, 0x24: 8
        case 0x1e: 16
        case 0x0e, 0x17, 0x1d, 0x1f, 0x1f20, 0x1f21: offsetSize
        case 0x10: version <= 2 ? addressSize : offsetSize
        case 0x19, 0x21: 0
        default: nil
        }
    }
}

/// An abbreviation table, by code.
struct DWARFAbbreviations {
    private var byCode: [DWARFAbbreviation?] = []

    subscript(code: UInt64) -> DWARFAbbreviation? {
        code < UInt64(byCode.count) ? byCode[Int(code)] : nil
    }

    /// The table at `offset`; with `only`, that one abbreviation (what a unit's first entry needs).
    init(_ abbrev: UnsafeRawBufferPointer, at offset: UInt64, sizes: DWARFFormSizes, only: UInt64? = nil)
        throws(DWARFBytes.Truncated)
    {
        guard offset < UInt64(abbrev.count) else { throw .init() }
        var reader = DWARFBytes(abbrev, at: Int(offset))
        while true {
            let code = try reader.uleb()
            if code == 0 { break }
            guard code < 1 << 20 else { throw .init() }
            let tag = try reader.uleb()
            let children = try reader.byte() != 0
            var attributes: [(UInt64, UInt64, Int64)] = []
            var fixed: Int? = 0
            while true {
                let name = try reader.uleb()
                let form = try reader.uleb()
                if name == 0 && form == 0 { break }
                attributes.append((name, form, form == 0x21 ? try reader.sleb() : 0))
                if let size = sizes.fixedSize(of: form), let sum = fixed { fixed = sum + size } else { fixed = nil }
            }
            if let only, only != code { continue }
            if byCode.count <= Int(code) { byCode += Array(repeating: nil, count: Int(code) + 1 - byCode.count) }
            byCode[Int(code)] = DWARFAbbreviation(
                tag: tag, hasChildren: children, attributes: attributes, fixedSize: fixed)
            if only != nil { break }
        }
    }
}

/// An attribute's value as read, resolved only when it is used.
enum DWARFValue {
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

/// The attributes of one entry that symbolication asks for.
struct DWARFEntry {
    var tag: UInt64 = 0
    var hasChildren = false
    var name: DWARFValue?
    var linkageName: DWARFValue?
    var lowPC: DWARFValue?
    var highPC: DWARFValue?
    var ranges: DWARFValue?
    var abstractOrigin: UInt64?
    var specification: UInt64?
    var callFile: UInt64?
    var callLine: UInt64?
    var stmtList: UInt64?
    var compDir: DWARFValue?
    var strOffsetsBase: UInt64?
    var addrBase: UInt64?
    var rngListsBase: UInt64?
}

/// Reads entries of one unit.
struct DWARFEntryReader {
    let sections: DWARFSections
    let unit: DWARFUnit
    let abbreviations: DWARFAbbreviations

    /// The entry at the reader's position with the attributes asked for; nil for the end of a list
    /// of children.
    func read(_ reader: inout DWARFBytes) throws(DWARFBytes.Truncated) -> DWARFEntry? {
        let code = try reader.uleb()
        if code == 0 { return nil }
        guard let abbreviation = abbreviations[code] else { throw .init() }
        var entry = DWARFEntry(tag: abbreviation.tag, hasChildren: abbreviation.hasChildren)
        for attribute in abbreviation.attributes {
            let value = try readValue(&reader, form: attribute.form, implicit: attribute.implicit)
            switch attribute.name {
            case 0x03: entry.name = value
            case 0x6e, 0x2007: entry.linkageName = value
            case 0x11: entry.lowPC = value
            case 0x12: entry.highPC = value
            case 0x55: entry.ranges = value
            case 0x31: entry.abstractOrigin = value.reference
            case 0x47: entry.specification = value.reference
            case 0x58: entry.callFile = value.unsignedValue
            case 0x59: entry.callLine = value.unsignedValue
            case 0x10: entry.stmtList = value.unsignedValue
            case 0x1b: entry.compDir = value
            case 0x72: entry.strOffsetsBase = value.unsignedValue
            case 0x73: entry.addrBase = value.unsignedValue
            case 0x74: entry.rngListsBase = value.unsignedValue
            default: break
            }
        }
        return entry
    }

    /// Moves past the entry at the reader's position without keeping anything: its tag and
    /// whether children follow, or nil for the end of a list of children.
    func skip(_ reader: inout DWARFBytes) throws(DWARFBytes.Truncated) -> (tag: UInt64, hasChildren: Bool)? {
        let code = try reader.uleb()
        if code == 0 { return nil }
        guard let abbreviation = abbreviations[code] else { throw .init() }
        if let size = abbreviation.fixedSize {
            try reader.skip(UInt64(size))
        } else {
            for attribute in abbreviation.attributes { try skipValue(&reader, form: attribute.form) }
        }
        return (abbreviation.tag, abbreviation.hasChildren)
    }

    private func skipValue(_ reader: inout DWARFBytes, form: UInt64) throws(DWARFBytes.Truncated) {
        if let size = unit.sizes.fixedSize(of: form) { return try reader.skip(UInt64(size)) }
        switch form {
        case 0x03: try reader.skip(try reader.unsigned(size: 2))
        case 0x04: try reader.skip(try reader.unsigned(size: 4))
        case 0x08: try reader.skipCString()
        case 0x09, 0x18: try reader.skip(try reader.uleb())
        case 0x0a: try reader.skip(UInt64(try reader.byte()))
        case 0x0d, 0x0f, 0x15, 0x1a, 0x1b, 0x22, 0x23, 0x1f01, 0x1f02: try reader.skipLEB()
        case 0x16:
            let actual = try reader.uleb()
            guard actual != 0x16 else { throw .init() }
            try skipValue(&reader, form: actual)
        default: throw .init()
        }
    }

    private func readValue(_ reader: inout DWARFBytes, form: UInt64, implicit: Int64) throws(DWARFBytes.Truncated)
        -> DWARFValue
    {
        let offsetSize = unit.sizes.offsetSize
        switch form {
        case 0x01: return .address(try reader.unsigned(size: unit.sizes.addressSize))
        case 0x05: return .unsigned(try reader.unsigned(size: 2))
        case 0x06: return .unsigned(try reader.unsigned(size: 4))
        case 0x07: return .unsigned(try reader.unsigned(size: 8))
        case 0x08: return .string(try reader.cString())
        case 0x0b: return .unsigned(UInt64(try reader.byte()))
        case 0x0e: return .stringOffset(try reader.unsigned(size: offsetSize))
        case 0x0f: return .unsigned(try reader.uleb())
        case 0x10:
            return .reference(try reader.unsigned(size: unit.sizes.version <= 2 ? unit.sizes.addressSize : offsetSize))
        case 0x11: return local(try reader.unsigned(size: 1))
        case 0x12: return local(try reader.unsigned(size: 2))
        case 0x13: return local(try reader.unsigned(size: 4))
        case 0x14: return local(try reader.unsigned(size: 8))
        case 0x15: return local(try reader.uleb())
        case 0x16:
            let actual = try reader.uleb()
            guard actual != 0x16 else { throw .init() }
            return try readValue(&reader, form: actual, implicit: implicit)
        case 0x17: return .unsigned(try reader.unsigned(size: offsetSize))
        case 0x19: return .unsigned(1)
        case 0x1a: return .stringIndex(try reader.uleb())
        case 0x1b: return .addressIndex(try reader.uleb())
        case 0x1f: return .lineStringOffset(try reader.unsigned(size: offsetSize))
        case 0x21: return .unsigned(UInt64(bitPattern: implicit))
        case 0x23: return .rangeListIndex(try reader.uleb())
        case 0x25, 0x26, 0x27, 0x28: return .stringIndex(try reader.unsigned(size: Int(form - 0x24)))
        case 0x29, 0x2a, 0x2b, 0x2c: return .addressIndex(try reader.unsigned(size: Int(form - 0x28)))
        case 0x1f01: return .addressIndex(try reader.uleb())
        case 0x1f02: return .stringIndex(try reader.uleb())
        default:
            try skipValue(&reader, form: form)
            return .other
        }
    }

    private func local(_ offset: UInt64) -> DWARFValue {
        let (absolute, overflow) = UInt64(unit.start).addingReportingOverflow(offset)
        return overflow ? .other : .reference(absolute)
    }

    // MARK: Resolving values

    func address(_ value: DWARFValue) -> UInt64? {
        switch value {
        case .address(let address): return address
        case .addressIndex(let index):
            guard index < 1 << 32 else { return nil }
            let size = unit.sizes.addressSize
            var reader = DWARFBytes(sections.addr, at: Int(clamping: unit.addrBase &+ index &* UInt64(size)))
            return try? reader.unsigned(size: size)
        default: return nil
        }
    }

    func string(_ value: DWARFValue) -> String? {
        switch value {
        case .string(let string): return string
        case .stringOffset(let offset): return DWARFBytes.string(in: sections.str, at: offset)
        case .lineStringOffset(let offset): return DWARFBytes.string(in: sections.lineStr, at: offset)
        case .stringIndex(let index):
            guard index < 1 << 32 else { return nil }
            let size = unit.sizes.offsetSize
            let at = unit.strOffsetsBase &+ index &* UInt64(size)
            var reader = DWARFBytes(sections.strOffsets, at: Int(clamping: at))
            guard let offset = try? reader.unsigned(size: size) else { return nil }
            return DWARFBytes.string(in: sections.str, at: offset)
        default: return nil
        }
    }
}

extension DWARFValue {
    var unsignedValue: UInt64? {
        if case .unsigned(let value) = self { return value }
        return nil
    }

    var reference: UInt64? {
        if case .reference(let offset) = self { return offset }
        return nil
    }
}
