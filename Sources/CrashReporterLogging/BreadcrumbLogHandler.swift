import CrashReporter
import Logging
import Tracking

/// A swift-log backend that records each log message at or above its level (default `info`) as
/// a crash breadcrumb: the level maps to the breadcrumb's, the logger's label becomes the
/// category, the message is scrubbed like every breadcrumb value, and up to four metadata
/// pairs (the call site's first, then the metadata provider's, then the handler's own) go with
/// it, scrubbed too. Recording is the ring's: wait-free, no lock, no I/O. Before
/// `CrashReporter.start`, or after an opt-out, it does nothing.
///
/// Compose it with the service's own handler, as with any swift-log backend:
///
/// ```swift
/// LoggingSystem.bootstrap { label in
///     MultiplexLogHandler([StreamLogHandler.standardOutput(label: label), BreadcrumbLogHandler(label: label)])
/// }
/// ```
///
/// or in one line with `LoggingSystem.bootstrapWithCrashBreadcrumbs(_:level:)`.
public struct BreadcrumbLogHandler: LogHandler {
    /// The logger's label, the breadcrumb's category.
    public let label: String
    /// The lowest level recorded as a breadcrumb.
    public var logLevel: Logger.Level
    /// The logger's own metadata, recorded with each message (scrubbed, at most four pairs).
    public var metadata: Logger.Metadata = [:]
    /// Metadata added to every message, from the task or thread that logs.
    public var metadataProvider: Logger.MetadataProvider?

    /// A handler for the logger labelled `label` that records messages of `level` and above,
    /// with `metadataProvider`'s metadata (the bootstrapped one by default).
    public init(
        label: String, level: Logger.Level = .info,
        metadataProvider: Logger.MetadataProvider? = LoggingSystem.metadataProvider
    ) {
        self.label = label
        self.logLevel = level
        self.metadataProvider = metadataProvider
    }

    /// The logger's metadata value for `key`.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Records `event` as a breadcrumb, its message and metadata scrubbed, when breadcrumbs are
    /// being recorded (`Breadcrumbs.isRecording`); returns at once otherwise.
    public func log(event: LogEvent) {
        guard Breadcrumbs.isRecording else { return }
        let callSite = event.metadata
        let provided = metadataProvider?.get()
        let message = Scrubber.scrub(event.message.description)
        let level = BreadcrumbLevel(event.level)
        if callSite?.isEmpty ?? true, provided?.isEmpty ?? true, metadata.isEmpty {
            // No pairs: the ring's plain path, without packing any.
            Breadcrumbs.record(message, category: label, level: level)
            return
        }
        Breadcrumbs.record(
            message, category: label, level: level
        ) { pairs in
            // Each key once, with its most specific value; the breadcrumb keeps four pairs.
            for (key, value) in callSite ?? [:] where !pairs.isFull {
                pairs.append(key: key, value: value.description)
            }
            for (key, value) in provided ?? [:] where !pairs.isFull && callSite?[key] == nil {
                pairs.append(key: key, value: value.description)
            }
            for (key, value) in metadata where !pairs.isFull && callSite?[key] == nil && provided?[key] == nil {
                pairs.append(key: key, value: value.description)
            }
        }
    }
}

extension BreadcrumbLevel {
    /// swift-log's seven levels on the breadcrumb's five.
    init(_ level: Logger.Level) {
        switch level {
        case .trace, .debug: self = .debug
        case .info, .notice: self = .info
        case .warning: self = .warning
        case .error: self = .error
        case .critical: self = .fatal
        }
    }
}
