import Glibc

/// What `stat(2)` says about a file, in Swift types.
package struct FileStatus: Sendable, Hashable {
    package enum Kind: Sendable, Hashable {
        case regular
        case directory
        case symbolicLink
        /// A FIFO, socket or device.
        case other
    }

    package var kind: Kind
    /// In bytes.
    package var size: Int
    /// Seconds since 1970, with the nanoseconds as a fraction.
    package var modificationTime: Double
    /// The permission bits (`0o600`).
    package var permissions: UInt32
    /// Device and inode: which file this is, whatever its path (a binary replaced at the same
    /// path has another inode).
    package var device: UInt64
    package var inode: UInt64

    init(_ raw: stat) {
        switch raw.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        default: kind = .other
        }
        size = Int(raw.st_size)
        modificationTime = Double(raw.st_mtim.tv_sec) + Double(raw.st_mtim.tv_nsec) / 1e9
        permissions = UInt32(raw.st_mode & 0o7777)
        device = UInt64(raw.st_dev)
        inode = UInt64(raw.st_ino)
    }
}
