import CrashReportFormat

/// The named sections of an ELF file, over its mapping (``MappedFile``): what the symbol-table
/// and DWARF readers read. 64-bit little-endian only, as ``ELFImageFile``. Off the crash path:
/// the tools and the service's worker read them when they symbolicate.
///
/// A section's bytes are the mapping's own, read only where a lookup goes; a compressed section
/// (`SHF_COMPRESSED`, zlib) is inflated once, on first use, and kept with the file.
final class ELFSections: @unchecked Sendable {
    struct Section {
        var offset: UInt64
        var size: UInt64
        var type: UInt32
        var link: UInt32
        /// `SHF_COMPRESSED`: the bytes on disk are an `Elf64_Chdr` and compressed data.
        var compressed: Bool
        /// `SHT_NOBITS`: no bytes in the file (a debug file's copy of `.text`, `.bss`).
        var noBits: Bool { type == 8 }
    }

    enum ELFSectionError: Error, Equatable {
        case unreadable
        case notELF
        case badHeaders
    }

    let file: MappedFile
    /// By name (`.debug_info`, …).
    let sections: [String: Section]
    /// In header order, for `sh_link`.
    private let ordered: [Section]
    /// Inflated copies of compressed sections, by name; guarded by the caller (the lookups of one
    /// file run under its lock, ``DebugImage``).
    private var inflated: [String: UnsafeMutableRawBufferPointer] = [:]

    init(path: String) throws(ELFSectionError) {
        do { file = try MappedFile(path: path) } catch { throw .unreadable }
        (sections, ordered) = try Self.readHeaders(file.bytes)
    }

    deinit {
        for buffer in inflated.values { buffer.deallocate() }
    }

    /// The bytes of section `name`, inflated when compressed; nil when there is no such section,
    /// it has no bytes in the file, it is cut short, or it cannot be inflated within `limit`.
    func data(of name: String, limit: UInt64 = 1 << 30) -> UnsafeRawBufferPointer? {
        guard let section = sections[name] else { return nil }
        if let done = inflated[name] { return UnsafeRawBufferPointer(done) }
        guard let raw = bytes(of: section) else { return nil }
        guard section.compressed else { return section.size <= limit ? raw : nil }
        // Elf64_Chdr: ch_type (1: zlib), reserved, ch_size, ch_addralign; then the stream.
        guard raw.count > 24, raw.loadUnaligned(as: UInt32.self).littleEndian == 1 else { return nil }
        let size = raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self).littleEndian
        guard size > 0, size <= limit else { return nil }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(size), alignment: 8)
        guard Gzip.inflateZlib(UnsafeRawBufferPointer(rebasing: raw[24...]), into: buffer) else {
            buffer.deallocate()
            return nil
        }
        inflated[name] = buffer
        return UnsafeRawBufferPointer(buffer)
    }

    /// The section's bytes as they are in the file (compressed or not).
    func bytes(of section: Section) -> UnsafeRawBufferPointer? {
        guard !section.noBits, section.offset <= UInt64(file.bytes.count),
            section.size <= UInt64(file.bytes.count) - section.offset
        else { return nil }
        let start = Int(section.offset)
        return UnsafeRawBufferPointer(rebasing: file.bytes[start..<(start + Int(section.size))])
    }

    /// The section that `section`'s `sh_link` names (a symbol table's string table).
    func linked(to section: Section) -> Section? {
        ordered.indices.contains(Int(section.link)) ? ordered[Int(section.link)] : nil
    }

    /// Gives back the pages of `section` that a scan touched (``MappedFile/release(_:)``), or
    /// those of `bytes` of it (offsets in the section).
    func release(_ section: Section, bytes: Range<Int>? = nil) {
        guard !section.compressed, section.offset <= UInt64(file.bytes.count) else { return }
        let start = Int(section.offset)
        let size = Int(min(section.size, UInt64(file.bytes.count - start)))
        let part = bytes.map { $0.clamped(to: 0..<size) } ?? 0..<size
        file.release((start + part.lowerBound)..<(start + part.upperBound))
    }

    /// How many bytes a long scan reads before it gives back the pages behind it: what a scan
    /// keeps resident at most, whatever the size of the section.
    static let scanWindow = 4 << 20

    private static func readHeaders(_ bytes: UnsafeRawBufferPointer) throws(ELFSectionError) -> (
        [String: Section], [Section]
    ) {
        guard bytes.count >= 64, bytes[0] == 0x7f, bytes[1] == 0x45, bytes[2] == 0x4c, bytes[3] == 0x46,
            bytes[4] == 2, bytes[5] == 1
        else { throw .notELF }
        let tableOffset = bytes.littleEndian(UInt64.self, at: 0x28)
        let entrySize = Int(bytes.littleEndian(UInt16.self, at: 0x3a))
        let count = Int(bytes.littleEndian(UInt16.self, at: 0x3c))
        let namesIndex = Int(bytes.littleEndian(UInt16.self, at: 0x3e))
        guard entrySize >= 64, count > 0, count < 65_280, namesIndex < count,
            tableOffset <= UInt64(bytes.count), UInt64(entrySize * count) <= UInt64(bytes.count) - tableOffset
        else { throw .badHeaders }
        let table = Int(tableOffset)
        func field<T: FixedWidthInteger>(_ type: T.Type, _ index: Int, _ at: Int) -> T {
            bytes.littleEndian(type, at: table + index * entrySize + at)
        }
        let namesOffset = field(UInt64.self, namesIndex, 0x18)
        let namesSize = field(UInt64.self, namesIndex, 0x20)
        guard namesOffset <= UInt64(bytes.count), namesSize <= UInt64(bytes.count) - namesOffset else {
            throw .badHeaders
        }
        let names = UnsafeRawBufferPointer(rebasing: bytes[Int(namesOffset)..<Int(namesOffset + namesSize)])
        var sections: [String: Section] = [:]
        var ordered: [Section] = []
        for index in 0..<count {
            let section = Section(
                offset: field(UInt64.self, index, 0x18), size: field(UInt64.self, index, 0x20),
                type: field(UInt32.self, index, 4), link: field(UInt32.self, index, 0x28),
                compressed: field(UInt64.self, index, 8) & 0x800 != 0)
            ordered.append(section)
            if let name = DWARFBytes.string(in: names, at: UInt64(field(UInt32.self, index, 0))), !name.isEmpty {
                sections[name] = section
            }
        }
        return (sections, ordered)
    }
}

extension UnsafeRawBufferPointer {
    /// A little-endian integer at `offset`; zero where the bytes run out.
    func littleEndian<T: FixedWidthInteger>(_ type: T.Type, at offset: Int) -> T {
        guard offset >= 0, offset <= count - MemoryLayout<T>.size else { return 0 }
        return T(littleEndian: loadUnaligned(fromByteOffset: offset, as: T.self))
    }
}
