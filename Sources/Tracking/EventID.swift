import Foundation
import Synchronization

/// Event ids (version 4 UUIDs) made without a system call: `UUID()` reads the kernel's random
/// source for every id, which costs more than the rest of `track` together.
///
/// Each id is a 64-bit counter mixed with a per-process random key through SplitMix64's
/// finalizer, a bijection, so ids never repeat within a process, and the random key makes a
/// clash between processes as unlikely as between random UUIDs. The ids only have to be
/// unique (the events API deduplicates by them), not secret.
enum EventID {
    private static let key: (UInt64, UInt64) = {
        var generator = SystemRandomNumberGenerator()
        return (generator.next(), generator.next())
    }()
    private static let counter = Atomic<UInt64>(0)

    static func make() -> UUID {
        let n = counter.wrappingAdd(1, ordering: .relaxed).oldValue
        let high = mix(key.0 &+ n &* 0x9E37_79B9_7F4A_7C15)
        let low = mix(key.1 ^ mix(n))
        var bytes = (high.bigEndian, low.bigEndian)
        return withUnsafeMutableBytes(of: &bytes) { raw in
            raw[6] = (raw[6] & 0x0F) | 0x40  // version 4
            raw[8] = (raw[8] & 0x3F) | 0x80  // RFC 4122 variant
            return UUID(
                uuid: (
                    raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7],
                    raw[8], raw[9], raw[10], raw[11], raw[12], raw[13], raw[14], raw[15]
                ))
        }
    }

    /// SplitMix64's finalizer.
    @inline(__always)
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
