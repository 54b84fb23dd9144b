import Synchronization

extension UUIDBytes {
    /// A random (version 4) UUID from the kernel's random source (``RandomBytes``): for ids
    /// that are made rarely and must be unpredictable, such as an install id or a report id.
    package static func random() -> UUIDBytes {
        UUIDBytes(version4: RandomBytes.next128())
    }

    /// The per-process key of ``fast()``: 128 random bits, read once.
    private static let fastKey: (UInt64, UInt64) = RandomBytes.next128()
    private static let fastCounter = Atomic<UInt64>(0)

    /// A version 4 UUID made without a system call, for ids made on a hot path (one per
    /// tracked event), where reading the kernel's random source would cost more than the rest.
    ///
    /// The n-th id of the process is n run through two bijections keyed by the process's
    /// random key: the high half is SplitMix64 of a keyed Weyl sequence, and the 62 free bits
    /// of the low half are a keyed permutation of the 62-bit counter. So ids never repeat
    /// within a process (for 2^62 ids), and the random key makes a clash between processes as
    /// unlikely as between random UUIDs. They are unique, not secret: do not use them where
    /// guessing one matters.
    package static func fast() -> UUIDBytes {
        let count = fastCounter.wrappingAdd(1, ordering: .relaxed).oldValue
        let high = Mixing.splitMix64(fastKey.0 &+ count &* 0x9E37_79B9_7F4A_7C15)
        let low = permute62(count ^ fastKey.1)
        return UUIDBytes(version4: (high, low))
    }

    /// A bijection of the low 62 bits (xor-shifts and odd multiplications modulo 2^62), so
    /// that the variant bits the version 4 form sets above them destroy nothing.
    @inline(__always)
    private static func permute62(_ value: UInt64) -> UInt64 {
        let mask: UInt64 = (1 << 62) - 1
        var z = value & mask
        z = ((z ^ (z >> 31)) &* 0xBF58_476D_1CE4_E5B9) & mask
        z = ((z ^ (z >> 29)) &* 0x94D0_49BB_1331_11EB) & mask
        return z ^ (z >> 32)
    }
}
