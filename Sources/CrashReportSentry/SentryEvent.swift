import CrashReportFormat

/// The event a report becomes in Sentry: a native crash (`platform: native`, `level: fatal`)
/// with one exception whose mechanism is the signal handler, the crashing thread's frames
/// oldest first, the loaded images for server-side symbolication, the breadcrumbs, and only the
/// OS and architecture as context. Field names follow Sentry's event payload
/// (develop.sentry.dev/sdk/data-model/event-payloads/); see docs/sentry.md.
struct SentryEvent: Encodable {
    var event_id: String
    var timestamp: Double
    var platform = "native"
    var level = "fatal"
    var release: String?
    var dist: String?
    var environment: String?
    var exception: Values<Exception>
    var threads: Values<Thread>
    var debug_meta: DebugMeta
    var breadcrumbs: Values<Breadcrumb>
    var contexts: Contexts
    var sdk: SDK

    struct Values<T: Encodable>: Encodable {
        var values: [T]
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
        var registers: [String: String]
    }

    struct Frame: Encodable {
        var instruction_addr: String
        var image_addr: String?
        var package: String?
        var function: String?
        var filename: String?
        var abs_path: String?
        var lineno: Int?
        var in_app: Bool?
        var trust: String
    }

    struct Thread: Encodable {
        var id: Int
        var name: String?
        var crashed = true
        var current = true
        var main: Bool
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
        report: CrashReport, symbols: [Int: [FrameSymbol]], release: String?, environment: String?, sdkName: String,
        sdkVersion: String
    ) throws(SentryEnvelope.Failure) {
        let eventID = report.reportID.filter { $0 != "-" }.lowercased()
        guard eventID.count == 32, eventID.allSatisfy({ $0.isHexDigit }) else {
            throw .invalidReportID(report.reportID)
        }
        let crash = report.crash
        let runtimeFailure = symbols[0]?.first { $0.function.hasPrefix(Self.runtimeFailurePrefix) }?.function
        // What went wrong, most specific first.
        let value = Self.nonEmpty(crash.message) ?? runtimeFailure ?? Self.describe(crash.signal)

        var frames: [Frame] = []
        for (index, frame) in crash.frames.enumerated().reversed() {
            let image = report.image(of: frame)
            let base = Frame(
                instruction_addr: frame.ip.hex, image_addr: image?.base.hex,
                package: image.map { PathPrivacy.shorten($0.path) }, in_app: image.map(\.main),
                trust: frame.trust.rawValue)
            // Oldest first, so the real function comes before the calls inlined into it.
            let resolved = (symbols[index] ?? []).filter { !$0.function.hasPrefix(Self.runtimeFailurePrefix) }
            if resolved.isEmpty {
                frames.append(base)
                continue
            }
            for symbol in resolved.reversed() {
                var entry = base
                entry.function = symbol.function
                if let file = symbol.file {
                    let shortened = PathPrivacy.shorten(file)
                    entry.abs_path = shortened
                    entry.filename = Self.fileName(of: shortened)
                }
                entry.lineno = symbol.line
                frames.append(entry)
            }
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
        self.init(
            event_id: eventID,
            timestamp: Double(report.timestampMs) / 1000,
            release: Self.nonEmpty(release) ?? Self.defaultRelease(app),
            dist: Self.nonEmpty(app.build),
            environment: Self.nonEmpty(environment) ?? Self.nonEmpty(app.environment),
            exception: Values(values: [
                Exception(
                    type: crash.signal.name, value: value, thread_id: crash.thread.id,
                    mechanism: Mechanism(
                        meta: .init(
                            signal: .init(
                                number: crash.signal.number, code: crash.signal.code, name: crash.signal.name,
                                code_name: crash.signal.codeName))),
                    stacktrace: Stacktrace(
                        frames: frames,
                        registers: crash.registers.values.mapValues(\.hex)))
            ]),
            threads: Values(values: [
                Thread(id: crash.thread.id, name: Self.nonEmpty(crash.thread.name), main: crash.thread.main)
            ]),
            debug_meta: DebugMeta(images: images),
            breadcrumbs: Values(values: breadcrumbs),
            contexts: Contexts(
                os: .init(
                    name: report.os.name.isEmpty ? "Linux" : report.os.name,
                    version: Self.nonEmpty(report.os.distribution),
                    kernel_version: Self.nonEmpty(report.os.release)),
                device: .init(arch: report.os.machine)),
            sdk: SDK(name: sdkName, version: sdkVersion, settings: .init()))
    }

    static let runtimeFailurePrefix = "Swift runtime failure: "

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

    private static func nonEmpty(_ string: String?) -> String? {
        guard let string, !string.isEmpty else { return nil }
        return string
    }

    /// What the signal means, for an event without a message: `Segmentation fault
    /// (SEGV_MAPERR) at 0x10`.
    static func describe(_ signal: CrashReport.Signal) -> String {
        let meaning =
            switch signal.name {
            case "SIGSEGV": "Segmentation fault"
            case "SIGBUS": "Bus error"
            case "SIGABRT": "Aborted"
            case "SIGILL": "Illegal instruction"
            case "SIGTRAP": "Trace/breakpoint trap"
            case "SIGFPE": "Floating-point exception"
            default: signal.name
            }
        return "\(meaning) (\(signal.codeName)) at \(signal.address.hex)"
    }
}

/// Home directories in paths become `~`, as the report does for image paths: source paths
/// from debug information name the home of whoever built the binary.
enum PathPrivacy {
    static func shorten(_ path: String) -> String {
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
