import CrashReportFormat
import CrashReporterSupport

/// Turns a crash report into a Sentry envelope holding one event item, ready to POST to a
/// DSN's ``SentryDSN/envelopeURL`` (see docs/sentry.md for every member and why).
///
/// The envelope is newline-delimited: the envelope header (`event_id`, `sent_at`, `sdk`; no
/// DSN), the item header `{"type":"event","length":N}`, then the event JSON.
public enum SentryEnvelope {
    /// Why a report could not be made into an envelope.
    public enum EncodingError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The report's id is not a UUID, so it cannot be the event id.
        case invalidReportID(String)
        /// The event could not be written as JSON; the reason says why.
        case encoding(String)

        public var description: String {
            switch self {
            case .invalidReportID(let id): "the report id is not a UUID: \(Text.safe(id))"
            case .encoding(let reason): "cannot encode the event: \(Text.safe(reason))"
            }
        }
    }

    /// The former name of ``EncodingError``.
    @available(*, deprecated, renamed: "EncodingError")
    public typealias Failure = EncodingError

    /// The envelope for `report`. `symbols` are the symbolicator's, for the crash's and each
    /// thread's frames (may be empty: Sentry can symbolicate on the server from `debug_meta`). `release` defaults to
    /// `name@version` from the report, `environment` to the report's. `sentAt` is the envelope
    /// header's `sent_at`, which Sentry uses to correct the sender's clock. `counts` go into
    /// the event's `extra` (a crash loop's `suppressed` also as a tag, docs/crash-loops.md).
    package static func make(
        report: CrashReport, symbols: ReportSymbols, release: String?, environment: String?,
        sdkName: String, sdkVersion: String, sentAt: Timestamp = .now(), counts: [String: Int] = [:]
    ) throws(EncodingError) -> [UInt8] {
        var event = try SentryEvent(
            report: report, symbols: symbols, release: release, environment: environment, sdkName: sdkName,
            sdkVersion: sdkVersion)
        if !counts.isEmpty {
            event.extra = counts
            if let suppressed = counts["suppressed"] {
                event.tags = (event.tags ?? [:]).merging(["suppressed": "\(suppressed)"]) { $1 }
            }
        }
        let payload: [UInt8]
        let header: [UInt8]
        let itemHeader: [UInt8]
        do {
            payload = try JSON.encode(event)
            header = try JSON.encode(
                EnvelopeHeader(
                    event_id: event.event_id, sent_at: sentAt.iso8601, sdk: .init(name: sdkName, version: sdkVersion)))
            itemHeader = try JSON.encode(ItemHeader(type: "event", length: payload.count))
        } catch {
            throw .encoding(String(describing: error))
        }
        let newline = UInt8(ascii: "\n")
        return header + [newline] + itemHeader + [newline] + payload + [newline]
    }

    /// The debug id Sentry derives from an ELF GNU build id: the first 16 bytes (zero-padded
    /// when shorter) read as a little-endian GUID, that is the first 4, the next 2 and the
    /// next 2 bytes each reversed, written as a lower-case hyphenated UUID.
    /// `f1c3bcc0279865fe3058404b2831d9e64135386c` gives `c0bcc3f1-9827-fe65-3058-404b2831d9e6`.
    public static func debugID(fromBuildID buildID: String) -> String {
        var bytes: [UInt8] = []
        var index = buildID.startIndex
        while bytes.count < 16, let next = buildID.index(index, offsetBy: 2, limitedBy: buildID.endIndex),
            index < buildID.endIndex, let byte = UInt8(buildID[index..<next], radix: 16)
        {
            bytes.append(byte)
            index = next
        }
        bytes += [UInt8](repeating: 0, count: 16 - bytes.count)
        bytes[0..<4].reverse()
        bytes[4..<6].reverse()
        bytes[6..<8].reverse()
        let hex = bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }
        return [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }
            .joined(separator: "-")
    }

    private struct EnvelopeHeader: Encodable {
        var event_id: String
        var sent_at: String
        var sdk: SentryEvent.SDK
    }

    struct ItemHeader: Encodable {
        var type: String
        var length: Int
    }
}
