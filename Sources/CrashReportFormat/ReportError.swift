import CrashReporterSupport

/// Why a file or buffer is not a crash report this reader can use. Each description is one
/// line, fit to follow `Error: ` in a terminal.
public enum ReportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be opened or read.
    case unreadable(path: String, reason: String)
    /// The path is a directory, a device or a socket rather than a regular file.
    case notAFile(path: String)
    /// Zero bytes.
    case empty
    /// Does not start with the gzip magic bytes.
    case notGzip
    /// The gzip stream ends early (a copy cut short, a writer that died).
    case truncatedGzip
    /// The gzip stream is damaged; the reason is zlib's.
    case corruptGzip(String)
    /// The file, or what it inflates to, is larger than the reader accepts.
    case tooLarge(limit: Int)
    /// The content is not JSON (or not UTF-8 JSON).
    case notJSON(String)
    /// The content is JSON but not a crash report at all (an array, a number, ...).
    case notAReport(String)
    /// `schema_version` names a version this reader does not know.
    case unsupportedSchemaVersion(Int)
    /// A required member is missing; the JSON pointer to it.
    case missingMember(String)
    /// The report breaks the schema; every violation found (see ``SchemaViolation``).
    case invalidReport([SchemaViolation])

    /// One line: control characters from paths, member names or parser messages are escaped.
    public var description: String { Text.safe(text) }

    /// The description prefixed with `file`, unless it already names the file:
    /// `crash.crash: truncated gzip stream: ...`. One line, whatever the file is called.
    public func message(file: String) -> String {
        switch self {
        case .unreadable, .notAFile: description
        default: Text.safe(file) + ": " + description
        }
    }

    private var text: String {
        switch self {
        case .unreadable(let path, let reason): "cannot read \(path): \(reason)"
        case .notAFile(let path): "not a regular file: \(path)"
        case .empty: "empty file: not a crash report"
        case .notGzip: "not a gzip file: a crash report is gzip-compressed JSON"
        case .truncatedGzip: "truncated gzip stream: the report was cut short"
        case .corruptGzip(let reason): "corrupt gzip stream: \(reason)"
        case .tooLarge(let limit): "too large: a crash report is at most \(ByteCount.text(limit))"
        case .notJSON(let reason): "not JSON: \(reason)"
        case .notAReport(let reason): "not a crash report: \(reason)"
        case .unsupportedSchemaVersion(let version):
            "unsupported schema version \(version) (this reader knows versions \(knownVersions))"
        case .missingMember(let path): "missing member \(path)"
        case .invalidReport(let violations):
            switch violations.count {
            case 0: "invalid report"
            case 1: "invalid report: \(violations[0])"
            default: "invalid report: \(violations[0]) (and \(violations.count - 1) more)"
            }
        }
    }

    /// `1 and 2`, `1 to 3`.
    private var knownVersions: String {
        let newest = CrashReport.supportedSchemaVersion
        return newest == 2 ? "1 and 2" : "1 to \(newest)"
    }

    init(_ error: GzipError) {
        switch error {
        case .empty: self = .empty
        case .notGzip: self = .notGzip
        case .truncated: self = .truncatedGzip
        case .corrupt(let reason): self = .corruptGzip(reason)
        case .trailingData: self = .corruptGzip("data after the end of the stream")
        case .tooLarge(let limit): self = .tooLarge(limit: limit)
        case .zlib(let code): self = .corruptGzip("zlib error \(code)")
        }
    }
}
