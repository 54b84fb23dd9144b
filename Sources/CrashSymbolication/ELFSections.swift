#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The named sections of an ELF file on disk, read from its section headers with `pread` (the
/// DWARF readers' input). 64-bit little-endian only, as ``ELFImageFile``. Off the crash path:
/// the tools and the service's worker read them when they symbolicate.
struct ELFSections {
    struct Section {
        var offset: UInt64
        var size: UInt64
        /// `SHF_COMPRESSED`: the bytes on disk are an `Elf64_Chdr` and compressed data.
        var compressed: Bool
        /// `SHT_NOBITS`: no bytes in the file (a debug file's copy of `.text`, `.bss`).
        var noBits: Bool
    }

    enum Failure: Error, Equatable {
        case unreadable
        case notELF
        case badHeaders
    }

    private let fd: Int32
    /// By name (`.debug_info`, …).
    let sections: [String: Section]

    /// Opens `path` and reads its section headers; the file stays open until ``close()``.
    init(path: String) throws(Failure) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable }
        do {
            self.sections = try Self.readHeaders(fd)
            self.fd = fd
        } catch {
            closeFile(fd)
            throw error
        }
    }

    func close() { closeFile(fd) }

    /// The bytes of section `name` as they are in the file; nil when there is no such section,
    /// it has no bytes in the file, or it cannot be read whole.
    func bytes(of name: String, limit: UInt64 = 1 << 30) -> [UInt8]? {
        guard let section = sections[name], !section.noBits, section.size <= limit else { return nil }
        let bytes = Self.read(fd, at: section.offset, count: Int(section.size))
        return bytes.count == Int(section.size) ? bytes : nil
    }

    private static func readHeaders(_ fd: Int32) throws(Failure) -> [String: Section] {
        let header = read(fd, at: 0, count: 64)
        guard header.count == 64, header.starts(with: [0x7f, 0x45, 0x4c, 0x46]), header[4] == 2, header[5] == 1
        else { throw .notELF }
        let tableOffset = header.littleEndian(UInt64.self, at: 0x28)
        let entrySize = Int(header.littleEndian(UInt16.self, at: 0x3a))
        let count = Int(header.littleEndian(UInt16.self, at: 0x3c))
        let namesIndex = Int(header.littleEndian(UInt16.self, at: 0x3e))
        guard entrySize >= 64, count > 0, count < 65_280, namesIndex < count else { throw .badHeaders }
        let table = read(fd, at: tableOffset, count: entrySize * count)
        guard table.count == entrySize * count else { throw .badHeaders }
        func field<T: FixedWidthInteger>(_ type: T.Type, _ index: Int, _ at: Int) -> T {
            table.littleEndian(type, at: index * entrySize + at)
        }
        let namesOffset = field(UInt64.self, namesIndex, 0x18)
        let namesSize = field(UInt64.self, namesIndex, 0x20)
        guard namesSize < 1 << 24 else { throw .badHeaders }
        let names = read(fd, at: namesOffset, count: Int(namesSize))
        var sections: [String: Section] = [:]
        for index in 0..<count {
            let nameStart = Int(field(UInt32.self, index, 0))
            guard nameStart < names.count else { continue }
            let nameEnd = names[nameStart...].firstIndex(of: 0) ?? names.count
            let name = String(decoding: names[nameStart..<nameEnd], as: UTF8.self)
            let type = field(UInt32.self, index, 4)
            let flags = field(UInt64.self, index, 8)
            sections[name] = Section(
                offset: field(UInt64.self, index, 0x18), size: field(UInt64.self, index, 0x20),
                compressed: flags & 0x800 != 0, noBits: type == 8)
        }
        return sections
    }

    /// What could be read (a failed read ends it early, as the end of the file does).
    private static func read(_ fd: Int32, at offset: UInt64, count: Int) -> [UInt8] {
        PositionalRead.bytes(fd, at: offset, count: count).bytes
    }
}

private func closeFile(_ fd: Int32) { _ = close(fd) }

extension Array where Element == UInt8 {
    /// A little-endian integer at `offset`; zero where the bytes run out.
    func littleEndian<T: FixedWidthInteger>(_ type: T.Type, at offset: Int) -> T {
        var value: T = 0
        for index in 0..<MemoryLayout<T>.size where offset >= 0 && offset + index < count {
            value |= T(truncatingIfNeeded: self[offset + index]) << (8 * index)
        }
        return value
    }
}
