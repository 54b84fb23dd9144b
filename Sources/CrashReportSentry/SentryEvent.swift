import CrashReportFormat

/// The event a report becomes in Sentry. A crash is a native crash (`platform: native`, `level:
/// fatal`) with one exception whose mechanism is the signal handler and whose stack is the
/// crashing thread's, oldest first; a snapshot or a hang has no exception but a `message` (its
/// reason), `level` `warning` or `error` and a `report_kind` tag. Every event has every
/// captured thread's stack in `threads`, the loaded images for server-side symbolication, the
/// breadcrumbs, and only the OS and architecture as context. Field names follow Sentry's event
/// payload (develop.sentry.dev/sdk/data-model/event-payloads/); see docs/sentry.md.
struct SentryEvent: Encodable {
    var event_id: String
    var timestamp: Double
    var platform = "native"
    var level: String
    var release: String?
    var dist: String?
    var environment: String?
    var message: Message?
    var exception: Values<Exception>?
    var threads: Values<Thread>
    var tags: [String: String]?
    /// Counts a crash loop's summary carries (`suppressed`, `pruned`).
    var extra: [String: Int]?
    var fingerprint: [String]?
    var debug_meta: DebugMeta
    var breadcrumbs: Values<Breadcrumb>
    var contexts: Contexts
    var sdk: SDK

    struct Values<T: Encodable>: Encodable {
        var values: [T]
    }

    struct Message: Encodable {
        var formatted: String
    }

    struct Exception: Encodable {
        var type: String
        var value: String
        var thread_id: Int
        var mechanism: Mechanism
        var stacktrace: Stacktrace
    }

    struct Mechanism: Encodable {
        var type = "signalhandler"
        var handled = false
        var synthetic = true
        var meta: Meta

        struct Meta: Encodable {
            var signal: Signal
        }

        struct Signal: Encodable {
            var number: Int
            var code: Int
            var name: String
            var code_name: String
        }
    }

    struct Stacktrace: Encodable {
        var frames: [Frame]
        var registers: [String: String]?
        /// `none` for a stack with async frames (see `stacktrace(_:registers:in:)`); absent
        /// (Sentry's `auto`) otherwise.
        var instruction_addr_adjustment: String?
    }

    struct Frame: Encodable {
        /// Nil only for the synthetic frame that stands for frames the report left out.
        var instruction_addr: String?
        var image_addr: String?
        var package: String?
        var function: String?
        var filename: String?
        var abs_path: String?
        var lineno: Int?
        var in_app: Bool?
        var trust: String?
    }

    struct Thread: Encodable {
        var id: Int
        var name: String?
        var crashed: Bool
        var current: Bool
        var main: Bool
        /// Nil for a thread that did not answer the capture signal.
        var stacktrace: Stacktrace?
    }

    struct DebugMeta: Encodable {
        var images: [Image]
    }

    struct Image: Encodable {
        var type = "elf"
        var code_id: String
        var debug_id: String
        var code_file: String
        var image_addr: String
        var image_size: UInt64
        var arch: String?
    }

    struct Breadcrumb: Encodable {
        var timestamp: Double
        var type = "default"
        var level: String
        var category: String
        var message: String
        var data: [String: String]?
    }

    struct Contexts: Encodable {
        var os: OS
        var device: Device
        var swift_task: SwiftTask?

        /// The Swift task the crashed thread ran (its name scrubbed when it was recorded).
        struct SwiftTask: Encodable {
            var type = "swift_task"
            var id: UInt64
            var name: String?
            var priority: Int?
            var priority_name: String?
        }

        struct OS: Encodable {
            var type = "os"
            var name: String
            var version: String?
            var kernel_version: String?
        }

        struct Device: Encodable {
            var type = "device"
            var arch: String
        }
    }

    struct SDK: Encodable {
        var name: String
        var version: String
        /// `infer_ip: never`: Relay must not fill in the sender's IP address (the event has no
        /// `user`, so there is no `{{auto}}` either).
        var settings: Settings?

        struct Settings: Encodable {
            var infer_ip = "never"
        }
    }
}

extension SentryEvent {
    init(
        report: CrashReport, symbols: ReportSymbols, release: String?, environment: String?, sdkName: String,
        sdkVersion: String
    ) throws(SentryEnvelope.EncodingError) {
        let eventID = report.reportID.filter { $0 != "-" }.lowercased()
        guard eventID.count == 32, eventID.allSatisfy({ $0.isHexDigit }) else {
            throw .invalidReportID(report.reportID)
        }
        let images = report.images.filter { !$0.buildID.isEmpty }.map { image in
            Image(
                code_id: image.buildID.lowercased(), debug_id: SentryEnvelope.debugID(fromBuildID: image.buildID),
                code_file: PathPrivacy.shorten(image.path), image_addr: image.base.hex, image_size: image.size,
                arch: report.os.machine.isEmpty ? nil : report.os.machine)
        }
        let breadcrumbs = report.breadcrumbs.items.map { item in
            Breadcrumb(
                timestamp: Double(item.timestampMs) / 1000, level: item.level.rawValue, category: item.category,
                message: item.message, data: item.data.isEmpty ? nil : item.data)
        }
        let app = report.app
        var headline: (message: Message?, tags: [String: String]?) = (nil, nil)
        if report.crash == nil {
            headline = (Message(formatted: report.headline), ["report_kind": report.kind.rawValue])
            if let abnormal = report.abnormalExit { headline.tags?["exit_class"] = abnormal.exitClass.rawValue }
        }
        self.init(
            event_id: eventID,
            timestamp: Double(report.timestampMs) / 1000,
            level: Self.level(report.kind),
            release: Self.nonEmpty(release) ?? Self.defaultRelease(app),
            dist: Self.nonEmpty(app.build),
            environment: Self.nonEmpty(environment) ?? Self.nonEmpty(app.environment),
            message: headline.message,
            exception: report.crash.map { Values(values: [Self.exception($0, symbols: symbols, in: report)]) },
            threads: Values(values: Self.threads(report, symbols: symbols)),
            tags: headline.tags,
            fingerprint: Self.fingerprint(report, symbols: symbols),
            debug_meta: DebugMeta(images: images),
            breadcrumbs: Values(values: breadcrumbs),
            contexts: Contexts(
                os: .init(
                    name: report.os.name.isEmpty ? "Linux" : report.os.name,
                    version: Self.nonEmpty(report.os.distribution),
                    kernel_version: Self.nonEmpty(report.os.release)),
                device: .init(arch: report.os.machine), swift_task: Self.taskContext(report)),
            sdk: SDK(name: sdkName, version: sdkVersion, settings: .init()))
    }

    /// The report's group (`CrashSignature`, docs/grouping.md), so that Sentry groups as the
    /// collector and `crashreport stats` do; nil when the signature has no names (raw offsets
    /// move with every build, and Sentry's own grouping of the symbolicated stack does better).
    static func fingerprint(_ report: CrashReport, symbols: ReportSymbols) -> [String]? {
        let signature = CrashSignature(report: report, symbols: symbols)
        return signature.hasNames ? signature.parts : nil
    }

    /// `fatal` for a crash, `error` for a hang or an abnormal exit, `warning` for a snapshot.
    static func level(_ kind: CrashReport.Kind) -> String {
        switch kind {
        case .crash: "fatal"
        case .hang, .abnormalExit: "error"
        case .snapshot: "warning"
        }
    }

    /// The crash as Sentry's exception: the signal, what went wrong, the crashing thread's stack.
    static func exception(_ crash: CrashReport.Crash, symbols: ReportSymbols, in report: CrashReport)
        -> Exception
    {
        Exception(
            type: crash.signal.name, value: crash.problem(symbols: symbols.crash), thread_id: crash.thread.id,
            mechanism: Mechanism(
                meta: .init(
                    signal: .init(
                        number: crash.signal.number, code: crash.signal.code, name: crash.signal.name,
                        code_name: crash.signal.codeName))),
            stacktrace: stacktrace(
                crash.callStack(in: report, symbols: symbols), registers: crash.registers, in: report))
    }

    /// `name@version` when the report knows the app's version (Sentry's usual release form).
    private static func defaultRelease(_ app: CrashReport.App) -> String? {
        guard !app.version.isEmpty else { return nil }
        return app.name.isEmpty ? app.version : "\(app.name)@\(app.version)"
    }

    /// The name at the end of a path (`Order.swift` of `~/src/Order.swift`), as Sentry's
    /// `filename` wants it; trailing slashes are ignored, and `/` stays `/`.
    static func fileName(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard trimmed.count > 1, let slash = trimmed.lastIndex(of: "/") else { return String(trimmed) }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    static func nonEmpty(_ string: String?) -> String? {
        guard let string, !string.isEmpty else { return nil }
        return string
    }
}

/// Home directories in paths become `~`, as the report does for image paths: source paths
/// from debug information name the home of whoever built the binary.
package enum PathPrivacy {
    package static func shorten(_ path: String) -> String {
        for root in ["/home/", "/Users/"] where path.hasPrefix(root) {
            let rest = path.dropFirst(root.count)
            guard let slash = rest.firstIndex(of: "/") else { return "~" }
            return "~" + rest[slash...]
        }
        if path == "/root" { return "~" }
        if path.hasPrefix("/root/") { return "~" + path.dropFirst("/root".count) }
        return path
    }
}
