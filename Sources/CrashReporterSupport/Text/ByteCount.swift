/// Byte counts for messages: `16 MiB`, `64 KiB`, `1000 bytes`.
package enum ByteCount {
    /// The count in the largest binary unit that divides it exactly, so that limits read as
    /// they are set (`16 MiB`) and odd sizes stay exact (`1000 bytes`).
    package static func text(_ bytes: Int) -> String {
        if bytes >= 1 << 30, bytes % (1 << 30) == 0 { return "\(bytes >> 30) GiB" }
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return bytes == 1 ? "1 byte" : "\(bytes) bytes"
    }
}
