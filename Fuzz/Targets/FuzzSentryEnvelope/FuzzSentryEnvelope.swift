import CrashCollectorParsers
import CrashReporterSupport
import Foundation

/// The collector's Sentry envelope parser.
///
/// Properties: nothing crashes; an envelope that parses, written back out (header line, then
/// each item's header with its `length` and the payload), parses to the same header and items.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSentryEnvelope(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = Data(UnsafeBufferPointer(start: data, count: size))
    guard let envelope = try? SentryEnvelopeParser.parse(input) else { return 0 }

    var written = Data(JSON.serialize(.object(envelope.header)))
    for item in envelope.items {
        var header = item.header
        header["length"] = .number(JSONNumber(item.payload.count))
        written.append(0x0a)
        written.append(contentsOf: JSON.serialize(.object(header)))
        written.append(0x0a)
        written.append(item.payload)
    }
    do {
        let again = try SentryEnvelopeParser.parse(written)
        precondition(again.header == envelope.header, "the header changed when written back")
        precondition(again.items.count == envelope.items.count, "the item count changed when written back")
        for (old, new) in zip(envelope.items, again.items) {
            precondition(new.payload == old.payload, "a payload changed when written back")
            var oldHeader = old.header
            oldHeader["length"] = .number(JSONNumber(old.payload.count))
            precondition(new.header == oldHeader, "an item header changed when written back")
        }
    } catch {
        fatalError("an envelope written back does not parse: \(error)")
    }
    return 0
}
