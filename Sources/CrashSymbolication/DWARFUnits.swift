/// One unit of `.debug_info`: where its entries are, the sizes its header fixes, and what its
/// first entry (the compile unit) says: the address ranges it covers, its line program, and the
/// bases that its indexed forms need.
struct DWARFUnit {
    var start: Int
    var end: Int
    var firstEntry: Int
    var sizes: DWARFFormSizes
    var abbrevOffset: UInt64
    var strOffsetsBase: UInt64 = 8
    var addrBase: UInt64 = 8
    var rngListsBase: UInt64?
    var lowPC: UInt64 = 0
    var stmtList: UInt64?
    var compDir: String?
    var ranges: [Range<UInt64>] = []

    /// Every compile unit's header and first entry, in file order: one read per unit, never the
    /// entries inside it. A malformed header ends the list there. `read` is told, after each
    /// unit, where in `.debug_info` the next one starts.
    static func all(in sections: DWARFSections, read: (Int) -> Void = { _ in }) -> [DWARFUnit] {
        var units: [DWARFUnit] = []
        var reader = DWARFBytes(sections.info)
        while !reader.atEnd {
            guard let (unit, next) = try? header(&reader, sections: sections) else { break }
            if let unit { units.append(unit) }
            reader.position = next
            read(next)
        }
        return units
    }

    /// The unit whose header starts at the reader's position (nil for a type unit) and where the
    /// next one starts.
    private static func header(_ reader: inout DWARFBytes, sections: DWARFSections) throws(DWARFBytes.Truncated)
        -> (DWARFUnit?, Int)
    {
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
        guard unitType == 1 || unitType == 3, addressSize == 4 || addressSize == 8 else { return (nil, end) }
        var unit = DWARFUnit(
            start: start, end: end, firstEntry: reader.position,
            sizes: DWARFFormSizes(version: version, offsetSize: offsetSize, addressSize: addressSize),
            abbrevOffset: abbrevOffset)
        var peek = reader
        let code = try peek.uleb()
        let abbreviations = try DWARFAbbreviations(
            sections.abbrev, at: abbrevOffset, sizes: unit.sizes, only: code)
        var entryReader = DWARFEntryReader(sections: sections, unit: unit, abbreviations: abbreviations)
        guard let entry = try entryReader.read(&reader) else { return (nil, end) }
        if let base = entry.strOffsetsBase { unit.strOffsetsBase = base }
        if let base = entry.addrBase { unit.addrBase = base }
        unit.rngListsBase = entry.rngListsBase
        unit.stmtList = entry.stmtList
        entryReader = DWARFEntryReader(sections: sections, unit: unit, abbreviations: abbreviations)
        if let low = entry.lowPC, let address = entryReader.address(low) { unit.lowPC = address }
        unit.compDir = entry.compDir.flatMap { entryReader.string($0) }
        entryReader = DWARFEntryReader(sections: sections, unit: unit, abbreviations: abbreviations)
        unit.ranges = entryReader.ranges(of: entry)
        return (unit, end)
    }
}

extension DWARFEntryReader {
    /// The address ranges an entry covers: `DW_AT_low_pc`/`DW_AT_high_pc`, or `DW_AT_ranges`.
    func ranges(of entry: DWARFEntry) -> [Range<UInt64>] {
        if let low = entry.lowPC.flatMap({ address($0) }), let high = entry.highPC {
            var end: UInt64?
            if case .unsigned(let length) = high {
                end = low.addingReportingOverflow(length).overflow ? nil : low + length
            }
            if end == nil { end = address(high) }
            guard let end, end > low else { return [] }
            return [low..<end]
        }
        guard let list = entry.ranges else { return [] }
        if unit.sizes.version < 5, case .unsigned(let offset) = list { return rangesV4(at: offset) }
        var offset: UInt64
        switch list {
        case .unsigned(let value): offset = value
        case .rangeListIndex(let index):
            guard let base = unit.rngListsBase, index < 1 << 32 else { return [] }
            let size = unit.sizes.offsetSize
            var reader = DWARFBytes(sections.rngLists, at: Int(clamping: base &+ index &* UInt64(size)))
            guard let relative = try? reader.unsigned(size: size) else { return [] }
            offset = base &+ relative
        default: return []
        }
        return (try? rangeList(at: offset)) ?? []
    }

    private func rangesV4(at offset: UInt64) -> [Range<UInt64>] {
        guard offset < UInt64(sections.ranges.count) else { return [] }
        var reader = DWARFBytes(sections.ranges, at: Int(offset))
        var base = unit.lowPC
        var found: [Range<UInt64>] = []
        let size = unit.sizes.addressSize
        let all: UInt64 = size == 4 ? 0xffff_ffff : ~0
        while let start = try? reader.unsigned(size: size), let end = try? reader.unsigned(size: size) {
            if start == 0 && end == 0 { break }
            if start == all {
                base = end
            } else if end > start {
                found.append((base &+ start)..<(base &+ end))
            }
        }
        return found
    }

    private func rangeList(at offset: UInt64) throws(DWARFBytes.Truncated) -> [Range<UInt64>] {
        guard offset < UInt64(sections.rngLists.count) else { return [] }
        var reader = DWARFBytes(sections.rngLists, at: Int(offset))
        var base = unit.lowPC
        var found: [Range<UInt64>] = []
        let size = unit.sizes.addressSize
        func add(_ start: UInt64?, _ end: UInt64?) {
            if let start, let end, end > start { found.append(start..<end) }
        }
        while true {
            switch try reader.byte() {
            case 0: return found
            case 1: base = address(.addressIndex(try reader.uleb())) ?? base
            case 2: add(address(.addressIndex(try reader.uleb())), address(.addressIndex(try reader.uleb())))
            case 3:
                let start = address(.addressIndex(try reader.uleb()))
                let length = try reader.uleb()
                add(start, start.map { $0 &+ length })
            case 4:
                let start = try reader.uleb()
                let end = try reader.uleb()
                add(base &+ start, base &+ end)
            case 5: base = try reader.unsigned(size: size)
            case 6: add(try reader.unsigned(size: size), try reader.unsigned(size: size))
            case 7:
                let start = try reader.unsigned(size: size)
                add(start, start &+ (try reader.uleb()))
            default: throw .init()
            }
        }
    }
}
