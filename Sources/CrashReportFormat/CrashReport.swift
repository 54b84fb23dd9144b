/// A report: a crash, a snapshot or hang of a process that went on, or the abnormal exit of an
/// earlier run (schema versions 1 to 4;
/// docs/report-schema.md, docs/report.schema.json).
///
/// Read one with ``ReportDecoding``; it validates the JSON against the schema before decoding,
/// so a value of this type always came from a well-formed report. A version 1 report reads as a
/// crash whose ``threads`` is the crashing thread alone, built from ``crash``.
public struct CrashReport: Codable, Sendable, Equatable {
    /// The newest schema version this reader knows; it reads every version from 1 to this one.
    public static let supportedSchemaVersion = 4
    /// The version the crash handler writes: version 4's shared stacks (`frames_as`).
    public static let handlerSchemaVersion = 4

    /// The version of the file the report was read from (1 to 4); the JSON renderer writes
    /// that version's shape back.
    public var schemaVersion: Int
    /// Crash, snapshot or hang.
    public var kind: Kind
    /// A random UUID v4, new for every report.
    public var reportID: String
    /// Wall-clock time of the crash or snapshot, ISO-8601 UTC with milliseconds.
    public var timestamp: String
    /// Wall-clock time of the crash or snapshot, Unix milliseconds.
    public var timestampMs: Int64
    /// How long the process had been running, in milliseconds.
    public var uptimeMs: Int64
    /// The service the report is about.
    public var app: App
    /// The system it ran on.
    public var os: OperatingSystem
    /// What happened and where, for a crash; nil for a snapshot or a hang.
    public var crash: Crash?
    /// Why the report was written, for a snapshot or a hang; nil for a crash.
    public var snapshot: Snapshot?
    /// How the run ended, for an abnormal exit (version 3); nil otherwise.
    public var abnormalExit: AbnormalExit?
    /// The threads captured: for a crash the crashing thread first, then the others by id.
    public var threads: [CapturedThread]
    /// How many threads the process had, the crashing one included.
    public var threadsTotal: Int
    /// Threads beyond the configured maximum, not in ``threads``.
    public var threadsOmitted: Int
    /// The binaries loaded in the process, the main executable first.
    public var images: [Image]
    /// What the service recorded before the report was written.
    public var breadcrumbs: Breadcrumbs

    /// A report. `threads` defaults to the crashing thread alone (built from `crash`), and
    /// `threadsTotal` to the number of threads given plus `threadsOmitted`.
    public init(
        schemaVersion: Int = CrashReport.handlerSchemaVersion, kind: Kind = .crash, reportID: String,
        timestamp: String, timestampMs: Int64, uptimeMs: Int64, app: App, os: OperatingSystem, crash: Crash?,
        snapshot: Snapshot? = nil, abnormalExit: AbnormalExit? = nil, threads: [CapturedThread]? = nil,
        threadsTotal: Int? = nil, threadsOmitted: Int = 0, images: [Image], breadcrumbs: Breadcrumbs
    ) {
        self.schemaVersion = schemaVersion
        self.kind = kind
        self.reportID = reportID
        self.timestamp = timestamp
        self.timestampMs = timestampMs
        self.uptimeMs = uptimeMs
        self.app = app
        self.os = os
        self.crash = crash
        self.snapshot = snapshot
        self.abnormalExit = abnormalExit
        self.threads = threads ?? crash.map { [CapturedThread(crashing: $0)] } ?? []
        self.threadsOmitted = threadsOmitted
        self.threadsTotal = threadsTotal ?? self.threads.count + threadsOmitted
        self.images = images
        self.breadcrumbs = breadcrumbs
    }

    enum CodingKeys: String, CodingKey {
        case schemaVersion = "schema_version"
        case kind
        case reportID = "report_id"
        case timestamp
        case timestampMs = "timestamp_ms"
        case uptimeMs = "uptime_ms"
        case app, os, crash, snapshot, threads
        case abnormalExit = "abnormal_exit"
        case threadsTotal = "threads_total"
        case threadsOmitted = "threads_omitted"
        case images, breadcrumbs
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
        /// `app.name`: the service's name.
        public var name: String
        /// `app.version`: its version, e.g. `1.4.2`.
        public var version: String
        /// `app.build`: its build number or commit.
        public var build: String
        /// `app.environment`: where it ran, e.g. `production`.
        public var environment: String

        /// The app with each of its fields.
        public init(name: String, version: String, build: String, environment: String) {
            self.name = name
            self.version = version
            self.build = build
            self.environment = environment
        }
    }

    /// `os`: from `uname` and `/etc/os-release`.
    public struct OperatingSystem: Codable, Sendable, Equatable {
        /// `os.name`: the kernel's name, `Linux`.
        public var name: String
        /// `os.release`: the kernel's release, e.g. `6.1.0-28-amd64`.
        public var release: String
        /// `os.machine`: the architecture, `x86_64` or `aarch64`.
        public var machine: String
        /// `os.distribution`: `PRETTY_NAME` from `/etc/os-release`, e.g. `Debian GNU/Linux 12 (bookworm)`.
        public var distribution: String

        /// The system with each of its fields.
        public init(name: String, release: String, machine: String, distribution: String) {
            self.name = name
            self.release = release
            self.machine = machine
            self.distribution = distribution
        }
    }
}
