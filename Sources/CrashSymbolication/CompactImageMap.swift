import CrashReportFormat

/// Writes the Swift runtime's Compact ImageMap Format (version 0, as described in the Swift
/// repository's docs/CompactImageMap.md), which is how an `ImageMap` for another process (the
/// one that crashed) is handed to the runtime's symbolicator.
///
/// Only what the format needs for symbolication is written: word size, platform, and per image
/// the base address, the offset to the end of its segments, the build id and the path. Paths
/// are written verbatim (`str` runs of at most 63 bytes, then `end`); the prefix compression is
/// optional for a writer and saves nothing worth having for a few dozen images.
enum CompactImageMap {
    struct Entry: Equatable {
        var base: UInt64
        var end: UInt64
        var buildID: [UInt8]
        var path: String
    }

    /// `platform` is the target triple, e.g. `x86_64-unknown-linux-gnu`. Entries are written in
    /// order of increasing base address, as the format requires.
    static func encode(platform: String, entries: [Entry]) -> [UInt8] {
        var bytes: [UInt8] = [0b0000_0010]  // version 0, 64-bit words
        let platformBytes = Array(platform.utf8.prefix(255))
        bytes.append(UInt8(platformBytes.count))
        bytes += platformBytes
        bytes += count(entries.count)
        for entry in entries.sorted(by: { $0.base < $1.base }) {
            let base = signedBigEndian(entry.base)
            let end = signedBigEndian(entry.end &- entry.base)
            bytes.append(UInt8((base.count - 1) << 3 | (end.count - 1)))
            bytes += base
            bytes += end
            bytes += count(entry.buildID.count)
            bytes += entry.buildID
            var path = Array(entry.path.utf8)[...]
            while !path.isEmpty {
                let run = path.prefix(63)
                bytes.append(UInt8(run.count))
                bytes += run
                path = path.dropFirst(run.count)
            }
            bytes.append(0)
        }
        return bytes
    }

    /// A count: seven bits a byte, most significant first, the top bit set on all but the last.
    static func count(_ value: Int) -> [UInt8] {
        var value = value
        var bytes = [UInt8(value & 0x7f)]
        value >>= 7
        while value > 0 {
            bytes.append(UInt8(value & 0x7f) | 0x80)
            value >>= 7
        }
        return bytes.reversed()
    }

    /// The fewest big-endian bytes that give `value` back when the reader sign-extends the first
    /// byte: `0xf0e0` needs a leading zero byte, `0xffffffffff600000` only three bytes.
    static func signedBigEndian(_ value: UInt64) -> [UInt8] {
        var bytes = (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        while bytes.count > 1 {
            let (first, second) = (bytes[0], bytes[1])
            guard (first == 0 && second & 0x80 == 0) || (first == 0xff && second & 0x80 != 0) else { break }
            bytes.removeFirst()
        }
        return bytes
    }
}
