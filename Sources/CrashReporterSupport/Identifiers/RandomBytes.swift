import Glibc
import Synchronization

/// Random bits from the kernel, for identifiers that must not repeat across processes and
/// machines (install ids, report ids).
package enum RandomBytes {
    /// 128 bits from `getrandom(2)`. Should that fail (a seccomp filter, a kernel before 3.17),
    /// from `/dev/urandom`; should that fail too, from the clock, the pid and a counter
    /// mixed together, which is unique enough for an id though not secret.
    package static func next128() -> (UInt64, UInt64) {
        var bits: (UInt64, UInt64) = (0, 0)
        let filled = withUnsafeMutableBytes(of: &bits) { buffer in
            fromGetrandom(buffer) || fromURandom(buffer)
        }
        if !filled { bits = fallback() }
        return bits
    }

    private static func fromGetrandom(_ buffer: UnsafeMutableRawBufferPointer) -> Bool {
        guard let getRandom = GNUFunctions.getRandom else { return false }
        var offset = 0
        while offset < buffer.count {
            let count = try? SystemCall.run("getrandom") {
                getRandom(buffer.baseAddress! + offset, buffer.count - offset, 0)
            }
            guard let count else { return false }
            offset += count
        }
        return true
    }

    private static func fromURandom(_ buffer: UnsafeMutableRawBufferPointer) -> Bool {
        guard let descriptor = try? SystemCall.run("open", { open("/dev/urandom", O_RDONLY | O_CLOEXEC) }) else {
            return false
        }
        defer { close(descriptor) }
        var offset = 0
        while offset < buffer.count {
            let count = try? SystemCall.run("read") {
                read(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            guard let count, count > 0 else { return false }
            offset += count
        }
        return true
    }

    private static let fallbackCounter = Atomic<UInt64>(0)

    private static func fallback() -> (UInt64, UInt64) {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        var monotonic = timespec()
        clock_gettime(CLOCK_MONOTONIC, &monotonic)
        let count = fallbackCounter.wrappingAdd(1, ordering: .relaxed).oldValue
        let seed = UInt64(bitPattern: Int64(time.tv_sec)) &* 1_000_000_007 &+ UInt64(time.tv_nsec)
        let other = UInt64(getpid()) << 32 ^ UInt64(bitPattern: Int64(monotonic.tv_nsec)) ^ count
        return (Mixing.splitMix64(seed ^ count), Mixing.splitMix64(other &+ seed))
    }
}

/// Bit mixing shared by the identifier generators.
enum Mixing {
    /// SplitMix64's output function: a bijection of 64-bit values that spreads every input bit
    /// over the whole output.
    @inline(__always)
    static func splitMix64(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
