import Tracking

/// The breadcrumb and analytics value scrubber. The first two input bytes give the byte bound,
/// the rest is the value (as UTF-8, invalid bytes replaced as any `String` would).
///
/// Properties: nothing crashes; the result fits the bound; scrubbing the result again changes
/// nothing, so no e-mail address, IP address, card number or token it should have removed is
/// left in it (and cutting to the bound never makes a new one).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScrubber(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard size >= 2, let data else { return 0 }
    let maxBytes = Int(data[0]) | Int(data[1] & 0x03) << 8
    let value = String(decoding: UnsafeBufferPointer(start: data + 2, count: size - 2), as: UTF8.self)
    let scrubbed = Scrubber.scrub(value, maxBytes: maxBytes)
    precondition(scrubbed.utf8.count <= maxBytes, "\(scrubbed.utf8.count) bytes out of a \(maxBytes)-byte bound")
    let again = Scrubber.scrub(scrubbed, maxBytes: 4096)
    precondition(again == scrubbed, "scrubbing twice changed \(Array(scrubbed.utf8)) into \(Array(again.utf8))")
    return 0
}
