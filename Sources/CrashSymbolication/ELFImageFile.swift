import CrashReportFormat
import CrashReporterSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the symbolicator needs to know about an ELF file on disk before trusting it: its GNU
/// build id (to refuse a file from a different build), the extent of its `PT_LOAD` segments and
/// which file it is (to notice one replaced at the same path).
///
/// Only the ELF header, the program headers and the notes are read, with `pread`, never the
/// whole file. 64-bit little-endian ELF only (x86_64 and aarch64 Linux).
struct ELFImageFile: Equatable {
    /// `NT_GNU_BUILD_ID`'s bytes as lower-case hex; empty when the file has none.
    var buildID: String
    /// The highest `p_vaddr + p_memsz` of the `PT_LOAD` segments.
    var loadEnd: UInt64
    /// Which file this was (device, inode, size, modification time), to notice a replaced one.
    var identity: Identity

    struct Identity: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: Int64
        var modifiedNanoseconds: Int64
    }

    enum ELFImageError: Error, Equatable {
        case missing
        case notAFile
        case unreadable(String)
        case notELF
        case unsupported(String)
    }

    private static let headerSize = 64
    private static let programHeaderSize = 56
    private static let noteLimit = 64 << 10

    static func inspect(path: String) throws(ELFImageError) -> ELFImageFile {
        let fd: Int32
        do throws(SystemCallError) {
            fd = try SystemCall.run("open") { open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        } catch {
            throw error.errno == ENOENT || error.errno == ENOTDIR ? .missing : .unreadable(Errno.text(error.errno))
        }
        defer { close(fd) }
        var status = stat()
        do throws(SystemCallError) {
            _ = try SystemCall.run("fstat") { fstat(fd, &status) }
        } catch {
            throw .unreadable(Errno.text(error.errno))
        }
        if (status.st_mode & S_IFMT) != S_IFREG { throw .notAFile }
        #if canImport(Glibc)
            let modified = status.st_mtim
        #else
            let modified = status.st_mtimespec
        #endif
        let identity = Identity(
            device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int64(status.st_size),
            modified: Int64(modified.tv_sec), modifiedNanoseconds: Int64(modified.tv_nsec))

        let header = try read(fd, at: 0, count: headerSize)
        guard header.count == headerSize, header[0] == 0x7f, header[1] == 0x45, header[2] == 0x4c, header[3] == 0x46
        else { throw .notELF }
        guard header[4] == 2 else { throw .unsupported("not a 64-bit ELF file") }
        guard header[5] == 1 else { throw .unsupported("not a little-endian ELF file") }

        let programHeaderOffset = header.uint64(at: 0x20)
        let entrySize = Int(header.uint16(at: 0x36))
        let entryCount = Int(header.uint16(at: 0x38))
        guard entrySize >= programHeaderSize, entryCount > 0, entryCount < 4096 else {
            throw .unsupported("no usable program headers")
        }
        let table = try read(fd, at: programHeaderOffset, count: entrySize * entryCount)
        guard table.count == entrySize * entryCount else { throw .unsupported("program headers cut short") }

        var loadEnd: UInt64 = 0
        var buildID = ""
        for index in 0..<entryCount {
            let entry = Array(table[(index * entrySize)..<(index * entrySize + programHeaderSize)])
            let type = entry.uint32(at: 0)
            let offset = entry.uint64(at: 8)
            let address = entry.uint64(at: 16)
            let fileSize = entry.uint64(at: 32)
            let memorySize = entry.uint64(at: 40)
            switch type {
            case 1:  // PT_LOAD
                let (end, overflow) = address.addingReportingOverflow(memorySize)
                if !overflow { loadEnd = max(loadEnd, end) }
            case 4 where buildID.isEmpty:  // PT_NOTE
                let notes = try read(fd, at: offset, count: Int(min(fileSize, UInt64(noteLimit))))
                buildID = gnuBuildID(in: notes) ?? ""
            default:
                break
            }
        }
        return ELFImageFile(buildID: buildID, loadEnd: loadEnd, identity: identity)
    }

    /// Walks a note segment (`namesz`, `descsz`, `type`, name and descriptor each padded to 4
    /// bytes) for `NT_GNU_BUILD_ID` (3) owned by `GNU`.
    static func gnuBuildID(in notes: [UInt8]) -> String? {
        var position = 0
        while position + 12 <= notes.count {
            let nameSize = Int(notes.uint32(at: position))
            let descriptorSize = Int(notes.uint32(at: position + 4))
            let type = notes.uint32(at: position + 8)
            let nameStart = position + 12
            let descriptorStart = nameStart + ((nameSize + 3) & ~3)
            let next = descriptorStart + ((descriptorSize + 3) & ~3)
            guard nameSize < notes.count, descriptorSize < notes.count, next <= notes.count else { return nil }
            if type == 3, nameSize == 4, notes[nameStart..<(nameStart + 4)].elementsEqual([0x47, 0x4e, 0x55, 0]) {
                return notes[descriptorStart..<(descriptorStart + descriptorSize)]
                    .map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
            }
            position = next
        }
        return nil
    }

    private static func read(_ fd: Int32, at offset: UInt64, count: Int) throws(ELFImageError) -> [UInt8] {
        do throws(SystemCallError) {
            return try PositionalRead.bytes(fd, at: offset, count: count)
        } catch {
            throw .unreadable(Errno.text(error.errno))
        }
    }
}

extension Array where Element == UInt8 {
    fileprivate func uint16(at offset: Int) -> UInt16 {
        UInt16(self[offset]) | UInt16(self[offset + 1]) << 8
    }

    fileprivate func uint32(at offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(self[offset + $1]) << (8 * $1) }
    }

    fileprivate func uint64(at offset: Int) -> UInt64 {
        (0..<8).reduce(UInt64(0)) { $0 | UInt64(self[offset + $1]) << (8 * $1) }
    }
}
