/// One unit's line program (`.debug_line`, versions 2 to 5): its file names, and an index of its
/// sequences, so that finding the row for an address runs one sequence (one function, where the
/// compiler put each function in a section of its own), not the whole program.
struct DWARFLineTable {
    struct Row: Equatable {
        var file: String?
        var line: Int
    }

    private struct Sequence {
        var range: Range<UInt64>
        /// Where in `.debug_line` its first opcode is.
        var start: Int
    }

    private let line: UnsafeRawBufferPointer
    private let version: Int
    private let minimumInstructionLength: UInt64
    private let lineBase: Int64
    private let lineRange: UInt64
    private let opcodeBase: UInt8
    private let standardLengths: [UInt8]
    private let addressSize: Int
    private let programEnd: Int
    /// Full paths, by the file register's value.
    let files: [Int: String]
    private var sequences: [Sequence] = []

    /// The program at `offset` of `.debug_line`, for `unit` (its address size and compilation
    /// directory); every sequence is run once to index it.
    init(sections: DWARFSections, at offset: UInt64, unit: DWARFUnit, strings: DWARFEntryReader)
        throws(DWARFBytes.Truncated)
    {
        line = sections.line
        addressSize = unit.sizes.addressSize
        guard offset < UInt64(line.count) else { throw .init() }
        var reader = DWARFBytes(line, at: Int(offset))
        var length = try reader.unsigned(size: 4)
        var offsetSize = 4
        if length == 0xffff_ffff {
            length = try reader.unsigned(size: 8)
            offsetSize = 8
        }
        guard length <= UInt64(line.count - reader.position) else { throw .init() }
        programEnd = reader.position + Int(length)
        version = Int(try reader.unsigned(size: 2))
        guard version >= 2, version <= 5 else { throw .init() }
        if version >= 5 { try reader.skip(2) }  // address_size, segment_selector_size
        let headerLength = try reader.unsigned(size: offsetSize)
        guard headerLength <= UInt64(programEnd - reader.position) else { throw .init() }
        let programStart = reader.position + Int(headerLength)
        minimumInstructionLength = UInt64(try reader.byte())
        if version >= 4 { _ = try reader.byte() }  // maximum_operations_per_instruction
        _ = try reader.byte()  // default_is_stmt
        lineBase = Int64(Int8(bitPattern: try reader.byte()))
        lineRange = UInt64(try reader.byte())
        opcodeBase = try reader.byte()
        guard lineRange > 0, opcodeBase > 0 else { throw .init() }
        var lengths: [UInt8] = []
        for _ in 1..<Int(opcodeBase) { lengths.append(try reader.byte()) }
        standardLengths = lengths
        let compDir = unit.compDir ?? ""
        var files: [Int: String] = [:]
        if version >= 5 {
            let directories = try Self.entries(&reader, strings: strings, offsetSize: offsetSize).map { $0.path }
            let names = try Self.entries(&reader, strings: strings, offsetSize: offsetSize)
            for (index, name) in names.enumerated() {
                let directory = directories.indices.contains(name.directory) ? directories[name.directory] : ""
                files[index] = Self.join(directory, name.path)
            }
        } else {
            var directories = [compDir]
            while true {
                let directory = try reader.cString()
                if directory.isEmpty { break }
                directories.append(directory)
            }
            var index = 1
            while true {
                let name = try reader.cString()
                if name.isEmpty { break }
                let directory = Int(clamping: try reader.uleb())
                try reader.skipLEB()
                try reader.skipLEB()
                files[index] = Self.join(directories.indices.contains(directory) ? directories[directory] : "", name)
                index += 1
            }
        }
        self.files = files
        var sequences: [Sequence] = []
        var position = programStart
        while position < programEnd {
            let start = position
            var first: UInt64?
            var last: UInt64 = 0
            position = try run(from: start) { address, _, _, end in
                if first == nil { first = address }
                last = address
                return end
            }
            if let first, last > first { sequences.append(Sequence(range: first..<last, start: start)) }
        }
        self.sequences = sequences.sorted { $0.range.lowerBound < $1.range.lowerBound }
    }

    /// The row that holds `address`: the last row of its sequence at or before it.
    func row(for address: UInt64) -> Row? {
        var low = 0
        var high = sequences.count
        while low < high {
            let middle = (low + high) / 2
            if sequences[middle].range.upperBound <= address { low = middle + 1 } else { high = middle }
        }
        guard low < sequences.count, sequences[low].range.contains(address) else { return nil }
        var found: Row?
        _ = try? run(from: sequences[low].start) { rowAddress, file, line, end in
            if rowAddress > address || end { return true }
            found = Row(file: files[file], line: line)
            return false
        }
        return found
    }

    /// Runs the sequence that starts at `start`, calling `row` with each row (address, file,
    /// line, whether it ends the sequence) until it returns true or the sequence ends; returns
    /// where the next sequence starts.
    private func run(from start: Int, row: (UInt64, Int, Int, Bool) -> Bool) throws(DWARFBytes.Truncated) -> Int {
        var reader = DWARFBytes(UnsafeRawBufferPointer(rebasing: line[..<programEnd]), at: start)
        var address: UInt64 = 0
        var file = 1
        var lineNumber: Int64 = 1
        while !reader.atEnd {
            let opcode = try reader.byte()
            if opcode >= opcodeBase {
                let adjusted = UInt64(opcode - opcodeBase)
                address &+= (adjusted / lineRange) &* minimumInstructionLength
                lineNumber &+= lineBase &+ Int64(adjusted % lineRange)
                if row(address, file, Int(clamping: lineNumber), false) { return reader.position }
                continue
            }
            switch opcode {
            case 0:
                let length = try reader.uleb()
                guard length > 0 else { continue }
                let next = reader.position &+ Int(clamping: length)
                switch try reader.byte() {
                case 1:  // end_sequence
                    _ = row(address, file, Int(clamping: lineNumber), true)
                    return next
                case 2: address = try reader.unsigned(size: min(addressSize, Int(length) - 1))
                default: break
                }
                reader.position = next
            case 1:
                if row(address, file, Int(clamping: lineNumber), false) { return reader.position }
            case 2: address &+= try reader.uleb() &* minimumInstructionLength
            case 3: lineNumber &+= try reader.sleb()
            case 4: file = Int(clamping: try reader.uleb())
            case 5: try reader.skipLEB()
            case 6, 7, 10, 11: break
            case 8: address &+= (UInt64(255 - opcodeBase) / lineRange) &* minimumInstructionLength
            case 9: address &+= try reader.unsigned(size: 2)
            case 12: try reader.skipLEB()
            default:
                for _ in 0..<Int(standardLengths[Int(opcode) - 1]) { try reader.skipLEB() }
            }
        }
        return reader.position
    }

    /// A version 5 directory or file-name table: each entry's path and directory index.
    private static func entries(_ reader: inout DWARFBytes, strings: DWARFEntryReader, offsetSize: Int)
        throws(DWARFBytes.Truncated) -> [(path: String, directory: Int)]
    {
        var formats: [(content: UInt64, form: UInt64)] = []
        for _ in 0..<Int(try reader.byte()) { formats.append((try reader.uleb(), try reader.uleb())) }
        let count = try reader.uleb()
        guard count < 1 << 24 else { throw .init() }
        var found: [(String, Int)] = []
        for _ in 0..<count {
            var path = ""
            var directory = 0
            for format in formats {
                switch (format.content, format.form) {
                case (1, 0x08): path = try reader.cString()
                case (1, 0x1f): path = strings.string(.lineStringOffset(try reader.unsigned(size: offsetSize))) ?? ""
                case (1, 0x0e): path = strings.string(.stringOffset(try reader.unsigned(size: offsetSize))) ?? ""
                case (2, 0x0b): directory = Int(try reader.byte())
                case (2, 0x05): directory = Int(try reader.unsigned(size: 2))
                case (2, 0x0f): directory = Int(clamping: try reader.uleb())
                case (_, 0x1e): try reader.skip(16)
                case (_, 0x0b): try reader.skip(1)
                case (_, 0x05): try reader.skip(2)
                case (_, 0x06): try reader.skip(4)
                case (_, 0x07): try reader.skip(8)
                case (_, 0x0f), (_, 0x0d): try reader.skipLEB()
                case (_, 0x08): try reader.skipCString()
                case (_, 0x09): try reader.skip(try reader.uleb())
                case (_, 0x1f), (_, 0x0e), (_, 0x17): try reader.skip(UInt64(offsetSize))
                default: throw .init()
                }
            }
            found.append((path, directory))
        }
        return found
    }

    private static func join(_ directory: String, _ name: String) -> String {
        if name.hasPrefix("/") || directory.isEmpty { return name }
        return directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
