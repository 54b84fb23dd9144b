import CrashReportFormat

/// One ELF file (a binary, or its debug file) opened for symbolication, and what lookups in it
/// have learned so far: which compile unit covers which addresses, and for each unit that a
/// lookup entered, its functions' address ranges and its line program's sequences. Each lookup
/// then reads one function's entries and runs one line sequence: the cost of a report follows
/// its frames, not the size of the binary. Not thread-safe: ``DebugImageCache`` serializes use.
final class DebugImage {
    let sections: ELFSections
    private let dwarf: DWARFSections?
    /// Which unit covers which addresses, sorted by address; read on the first DWARF lookup.
    private var unitRanges: [(range: Range<UInt64>, entry: Int)]?
    private var units: [DWARFUnit] = []
    private var abbreviations: [Int: DWARFAbbreviations] = [:]
    private var functions: [Int: [(range: Range<UInt64>, entry: Int)]] = [:]
    private var lineTables: [Int: DWARFLineTable?] = [:]
    /// How many times a unit's entries or line program were read whole (each at most once).
    private(set) var unitReads = 0

    init(path: String) throws(ELFSections.ELFSectionError) {
        sections = try ELFSections(path: path)
        dwarf = DWARFSections(sections)
    }

    /// For each of `addresses` (ELF virtual addresses), its symbols: the inlined calls at it,
    /// innermost first, then the function itself with its offset. Addresses that no symbol and
    /// no debug information covers are left out.
    func symbols(at addresses: [UInt64]) -> [UInt64: [FrameSymbol]] {
        let table = ELFSymbolTable.symbols(in: sections, at: addresses)
        var found: [UInt64: [FrameSymbol]] = [:]
        for address in Set(addresses) {
            var scope: Scope?
            if let dwarf { scope = self.scope(at: address, in: dwarf) }
            let symbol: ELFSymbolTable.Symbol? = table[address]
            guard let name = symbol?.name ?? scope?.function else { continue }
            var inner: DWARFLineTable.Row? = scope?.row
            var frames: [FrameSymbol] = []
            let inlined = scope?.inlined ?? []
            for level in inlined.reversed() {
                frames.append(Self.frame(level.name, at: inner, inlined: true))
                inner = level.call
            }
            var real = Self.frame(name, at: inner, inlined: false)
            real.offset = symbol.map { address &- $0.start }
            frames.append(real)
            found[address] = frames
        }
        return found
    }

    private static func frame(_ rawName: String, at location: DWARFLineTable.Row?, inlined: Bool) -> FrameSymbol {
        let function = AsyncFunctionName.owner(of: SwiftDemangling.name(of: rawName))
        let failure = function.hasPrefix(RuntimeFrames.failurePrefix)
        var file = failure ? nil : location?.file
        if let path = file, path.hasSuffix("<compiler-generated>") { file = "<compiler-generated>" }
        let line = failure ? nil : location.flatMap { $0.line > 0 ? $0.line : nil }
        return FrameSymbol(
            function: function, file: file, line: line, inlined: inlined,
            mangledName: rawName != function ? rawName : nil)
    }

    // MARK: DWARF

    private struct Scope {
        /// The concrete function's name in the debug information (used where no symbol names it).
        var function: String?
        /// The line-table row at the address.
        var row: DWARFLineTable.Row?
        /// The inlined calls, outermost first: each one's name and where it was called from.
        var inlined: [(name: String, call: DWARFLineTable.Row?)]
    }

    private func scope(at address: UInt64, in dwarf: DWARFSections) -> Scope? {
        if unitRanges == nil { indexUnits(dwarf) }
        guard let unit = unit(covering: address), let reader = entryReader(unit, dwarf) else { return nil }
        if lineTables[unit] == nil {
            unitReads += 1
            lineTables[unit] = units[unit].stmtList.flatMap {
                try? DWARFLineTable(sections: dwarf, at: $0, unit: units[unit], strings: reader)
            }
            if let section = sections.sections[".debug_line"] { sections.release(section) }
        }
        let lines = lineTables[unit] ?? nil
        var scope = Scope(row: lines?.row(for: address), inlined: [])
        if functions[unit] == nil { functions[unit] = indexFunctions(reader) }
        guard let function = Self.entry(covering: address, in: functions[unit] ?? []) else { return scope }
        var cursor = DWARFBytes(dwarf.info, at: function)
        guard let concrete = try? reader.read(&cursor) else { return scope }
        scope.function = name(of: concrete, reader: reader, hops: 0)
        guard concrete.hasChildren else { return scope }
        var nest: [(depth: Int, entry: DWARFEntry)] = []
        var depth = 1
        while depth > 0, cursor.position < units[unit].end {
            let start = cursor.position
            let next: (tag: UInt64, hasChildren: Bool)?
            do { next = try reader.skip(&cursor) } catch { break }
            guard let (tag, hasChildren) = next else {
                depth -= 1
                continue
            }
            if tag == 0x1d {
                cursor.position = start
                guard let entry = try? reader.read(&cursor) else { break }
                if reader.ranges(of: entry).contains(where: { $0.contains(address) }) {
                    nest.removeAll { $0.depth >= depth }
                    nest.append((depth, entry))
                }
            }
            if hasChildren { depth += 1 }
        }
        for (_, entry) in nest {
            guard let name = name(of: entry, reader: reader, hops: 0) else { return scope }
            let file = entry.callFile.flatMap { lines?.files[Int(clamping: $0)] }
            scope.inlined.append((name, entry.callLine.map { DWARFLineTable.Row(file: file, line: Int(clamping: $0)) }))
        }
        return scope
    }

    /// Reads every unit's header and first entry, and keeps which unit covers which addresses:
    /// a unit's ranges that follow one another with nothing of another unit between them (its
    /// functions, one range each where the compiler gave each function a section) are kept as
    /// one, so the index holds about one entry per unit, not one per function.
    private func indexUnits(_ dwarf: DWARFSections) {
        // Each unit's first entry is one read, but the kernel maps the pages around each read as
        // well: the sections the index reads are given back as it goes, not only at its end.
        let read = [".debug_info", ".debug_abbrev", ".debug_rnglists", ".debug_ranges", ".debug_addr"]
            .compactMap { sections.sections[$0] }
        var released = 0
        units = DWARFUnit.all(in: dwarf) { position in
            guard position - released >= ELFSections.scanWindow else { return }
            for section in read { sections.release(section) }
            released = position
        }
        var ranges: [(range: Range<UInt64>, entry: Int)] = []
        for (index, unit) in units.enumerated() {
            for range in unit.ranges { ranges.append((range, index)) }
            units[index].ranges = []
        }
        ranges.sort { $0.range.lowerBound < $1.range.lowerBound }
        var merged: [(range: Range<UInt64>, entry: Int)] = []
        for next in ranges {
            if let last = merged.last, last.entry == next.entry, next.range.lowerBound >= last.range.lowerBound {
                let upper = max(last.range.upperBound, next.range.upperBound)
                merged[merged.count - 1].range = last.range.lowerBound..<upper
            } else {
                merged.append(next)
            }
        }
        unitRanges = merged
        for section in read { sections.release(section) }
    }

    private func unit(covering address: UInt64) -> Int? {
        unitRanges.flatMap { Self.entry(covering: address, in: $0) }
    }

    /// The unit whose entries hold `offset` of `.debug_info`.
    private func unit(holding offset: UInt64) -> Int? {
        var low = 0
        var high = units.count
        while low < high {
            let middle = (low + high) / 2
            if UInt64(units[middle].start) <= offset { low = middle + 1 } else { high = middle }
        }
        return low > 0 && offset < UInt64(units[low - 1].end) ? low - 1 : nil
    }

    /// The last of `sorted` (by lower bound) that starts at or before `address`, if it holds it.
    private static func entry(covering address: UInt64, in sorted: [(range: Range<UInt64>, entry: Int)]) -> Int? {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle].range.lowerBound <= address { low = middle + 1 } else { high = middle }
        }
        var index = low - 1
        while index >= 0, index >= low - 8 {
            if sorted[index].range.contains(address) { return sorted[index].entry }
            index -= 1
        }
        return nil
    }

    private func entryReader(_ unit: Int, _ dwarf: DWARFSections) -> DWARFEntryReader? {
        if abbreviations[unit] == nil {
            abbreviations[unit] = try? DWARFAbbreviations(
                dwarf.abbrev, at: units[unit].abbrevOffset, sizes: units[unit].sizes)
        }
        guard let table = abbreviations[unit] else { return nil }
        return DWARFEntryReader(sections: dwarf, unit: units[unit], abbreviations: table)
    }

    /// Every function of the unit with code (`DW_TAG_subprogram` with an address range): one
    /// walk over the unit's entries, its pages given back afterwards.
    private func indexFunctions(_ reader: DWARFEntryReader) -> [(range: Range<UInt64>, entry: Int)] {
        let unit = reader.unit
        unitReads += 1
        var found: [(range: Range<UInt64>, entry: Int)] = []
        var cursor = DWARFBytes(reader.sections.info, at: unit.firstEntry)
        let info = sections.sections[".debug_info"]
        var released = unit.start
        while cursor.position < unit.end {
            let start = cursor.position
            if let info, start - released >= ELFSections.scanWindow {
                sections.release(info, bytes: released..<start)
                released = start
            }
            let next: (tag: UInt64, hasChildren: Bool)?
            do { next = try reader.skip(&cursor) } catch { break }
            guard let next, next.tag == 0x2e else { continue }
            cursor.position = start
            guard let entry = try? reader.read(&cursor) else { break }
            for range in reader.ranges(of: entry) { found.append((range, start)) }
        }
        if let info { sections.release(info, bytes: released..<unit.end) }
        return found.sorted { $0.range.lowerBound < $1.range.lowerBound }
    }

    /// An entry's linkage name (its name where it has none, as the runtime-failure
    /// pseudo-functions), following `DW_AT_abstract_origin` and `DW_AT_specification`, into other
    /// units where they point there.
    private func name(of entry: DWARFEntry, reader: DWARFEntryReader, hops: Int) -> String? {
        if let linkage = entry.linkageName.flatMap({ reader.string($0) }) { return linkage }
        guard hops < 8, let dwarf else { return entry.name.flatMap { reader.string($0) } }
        for target in [entry.abstractOrigin, entry.specification].compactMap({ $0 }) {
            guard let unit = unit(holding: target), let targetReader = entryReader(unit, dwarf)
            else { continue }
            var cursor = DWARFBytes(dwarf.info, at: Int(target))
            if let origin = try? targetReader.read(&cursor),
                let found = name(of: origin, reader: targetReader, hops: hops + 1)
            {
                return found
            }
        }
        return entry.name.flatMap { reader.string($0) }
    }
}
