/// A crash report, schema version 1 (docs/report-schema.md, docs/report.schema.json).
///
/// Read one with ``ReportDecoding``; it validates the JSON against the schema before decoding,
/// so a value of this type always came from a well-formed report.
public struct CrashReport: Codable, Sendable, Equatable {
    /// The only schema version this reader knows.
    public static let supportedSchemaVersion = 1

    public var schemaVersion: Int
    /// A random UUID v4, new for every crash.
    public var reportID: String
    /// Wall-clock time of the crash, ISO-8601 UTC with milliseconds.
    public var timestamp: String
    /// Wall-clock time of the crash, Unix milliseconds.
    public var timestampMs: Int64
    /// How long the process had been running, in milliseconds.
    public var uptimeMs: Int64
    public var app: App
    public var os: OperatingSystem
    public var crash: Crash
    public var images: [Image]
    public var breadcrumbs: Breadcrumbs

    public init(
        schemaVersion: Int = CrashReport.supportedSchemaVersion, reportID: String, timestamp: String,
        timestampMs: Int64, uptimeMs: Int64, app: App, os: OperatingSystem, crash: Crash, images: [Image],
        breadcrumbs: Breadcrumbs
    ) {
        self.schemaVersion = schemaVersion
        self.reportID = reportID
        self.timestamp = timestamp
        self.timestampMs = timestampMs
        self.uptimeMs = uptimeMs
        self.app = app
        self.os = os
        self.crash = crash
        self.images = images
        self.breadcrumbs = breadcrumbs
    }

    enum CodingKeys: String, CodingKey {
        case schemaVersion = "schema_version"
        case reportID = "report_id"
        case timestamp
        case timestampMs = "timestamp_ms"
        case uptimeMs = "uptime_ms"
        case app, os, crash, images, breadcrumbs
    }

    /// The image a frame points into, if its index is valid.
    public func image(of frame: Frame) -> Image? {
        guard let index = frame.imageIndex, images.indices.contains(index) else { return nil }
        return images[index]
    }
}

extension CrashReport {
    /// `app`: what the service passed to `CrashReporter.Options` (empty strings when unknown).
    public struct App: Codable, Sendable, Equatable {
        public var name: String
        public var version: String
        public var build: String
        public var environment: String

        public init(name: String, version: String, build: String, environment: String) {
            self.name = name
            self.version = version
            self.build = build
            self.environment = environment
        }
    }

    /// `os`: from `uname` and `/etc/os-release`.
    public struct OperatingSystem: Codable, Sendable, Equatable {
        public var name: String
        public var release: String
        public var machine: String
        public var distribution: String

        public init(name: String, release: String, machine: String, distribution: String) {
            self.name = name
            self.release = release
            self.machine = machine
            self.distribution = distribution
        }
    }
}
