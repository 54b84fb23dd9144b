import CrashReporterSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file mapped read-only into memory, for the symbolicator's readers: only the pages a lookup
/// touches are read, they are the page cache's (clean, never the process's own heap), and
/// ``release(_:)`` or the end of the mapping gives them back.
///
/// The mapping is never written, so it can be read from any thread. A file truncated while it is
/// mapped would fault on a read past its new end; the symbolicator maps a file only after
/// checking it is the report's build, and keeps it no longer than its cache allows.
final class MappedFile: @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer

    enum MappingError: Error, Equatable {
        case unreadable(Int32)
        case empty
    }

    init(path: String) throws(MappingError) {
        let fd: Int32
        var status = stat()
        do throws(SystemCallError) {
            fd = try SystemCall.run("open") { open(path, O_RDONLY | O_CLOEXEC) }
        } catch {
            throw .unreadable(error.errno)
        }
        defer { close(fd) }
        do throws(SystemCallError) {
            _ = try SystemCall.run("fstat") { fstat(fd, &status) }
        } catch {
            throw .unreadable(error.errno)
        }
        let size = Int(status.st_size)
        guard size > 0 else { throw .empty }
        // mmap answers with a pointer (MAP_FAILED on failure), so it stays outside SystemCall.
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else {
            throw .unreadable(errno)
        }
        // Page by page: where the page cache holds a file in 2 MiB folios, a read of one byte
        // would otherwise map all 2 MiB of it into the process.
        _ = madvise(base, size, MADV_NOHUGEPAGE)
        bytes = UnsafeRawBufferPointer(start: base, count: size)
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count)
    }

    /// Drops the pages of `range` from this process's memory (they stay in the page cache, and
    /// a later read maps them again): after a scan of a large section, so that what a lookup
    /// read does not stay counted against the service.
    func release(_ range: Range<Int>) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = range.lowerBound / page * page
        let end = min(bytes.count, range.upperBound)
        guard end > start, let base = bytes.baseAddress else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: base + start), end - start, MADV_DONTNEED)
    }
}
