// Reading and writing the schema versions (version 3 adds the abnormal_exit kind and member). Version 1 has no `kind`, `snapshot` or `threads`:
// it is a crash, and its one thread is the crashing one. Version 2 must say its kind and list
// its threads, and `crash` is there exactly when the kind is `crash` (docs/report-schema.md).

extension CrashReport {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
        reportID = try container.decode(String.self, forKey: .reportID)
        timestamp = try container.decode(String.self, forKey: .timestamp)
        timestampMs = try container.decode(Int64.self, forKey: .timestampMs)
        uptimeMs = try container.decode(Int64.self, forKey: .uptimeMs)
        app = try container.decode(App.self, forKey: .app)
        os = try container.decode(OperatingSystem.self, forKey: .os)
        images = try container.decode([Image].self, forKey: .images)
        breadcrumbs = try container.decode(Breadcrumbs.self, forKey: .breadcrumbs)
        if schemaVersion == 1 {
            let crash = try container.decode(Crash.self, forKey: .crash)
            self.crash = crash
            kind = .crash
            snapshot = nil
            abnormalExit = nil
            threads = [CapturedThread(crashing: crash)]
            threadsTotal = 1
            threadsOmitted = 0
            return
        }
        kind = try container.decode(Kind.self, forKey: .kind)
        crash = try container.decodeIfPresent(Crash.self, forKey: .crash)
        snapshot = try container.decodeIfPresent(Snapshot.self, forKey: .snapshot)
        abnormalExit = try container.decodeIfPresent(AbnormalExit.self, forKey: .abnormalExit)
        threads = try CapturedThread.fillingSharedFrames(
            container.decode([CapturedThread].self, forKey: .threads), version: schemaVersion,
            codingPath: container.codingPath + [CodingKeys.threads])
        threadsOmitted = try container.decodeIfPresent(Int.self, forKey: .threadsOmitted) ?? 0
        threadsTotal = try container.decodeIfPresent(Int.self, forKey: .threadsTotal) ?? threads.count + threadsOmitted
        try checkKind(container)
    }

    /// A version 2 report's members agree with its kind.
    private func checkKind(_ container: KeyedDecodingContainer<CodingKeys>) throws {
        func fail(_ key: CodingKeys, _ message: String) -> DecodingError {
            .dataCorrupted(.init(codingPath: container.codingPath + [key], debugDescription: message))
        }
        let isCrash = kind == .crash
        let isAbnormal = kind == .abnormalExit
        if isAbnormal && schemaVersion < 3 {
            throw fail(.kind, "an abnormal_exit report has schema version 3 or later")
        }
        if isCrash != (crash != nil) {
            throw fail(.crash, isCrash ? "a crash report has a crash" : "a \(kind.rawValue) report has crash null")
        }
        let wantsSnapshot = !isCrash && !isAbnormal
        if wantsSnapshot != (snapshot != nil) {
            throw fail(
                .snapshot,
                wantsSnapshot
                    ? "a \(kind.rawValue) report has a snapshot" : "a \(kind.rawValue) report has snapshot null")
        }
        if isAbnormal != (abnormalExit != nil) {
            throw fail(
                .abnormalExit,
                isAbnormal
                    ? "an abnormal_exit report has an abnormal_exit"
                    : "a \(kind.rawValue) report has abnormal_exit null or no abnormal_exit")
        }
        let crashed = threads.indices.filter { threads[$0].crashed }
        if isCrash, crashed != [0] {
            throw fail(.threads, "a crash report lists the crashing thread first, and only that one as crashed")
        }
        if !isCrash, !crashed.isEmpty {
            throw fail(.threads, "a \(kind.rawValue) report has no crashed thread")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(schemaVersion, forKey: .schemaVersion)
        try container.encode(reportID, forKey: .reportID)
        try container.encode(timestamp, forKey: .timestamp)
        try container.encode(timestampMs, forKey: .timestampMs)
        try container.encode(uptimeMs, forKey: .uptimeMs)
        try container.encode(app, forKey: .app)
        try container.encode(os, forKey: .os)
        if let crash {
            var members = container.nestedContainer(keyedBy: Crash.CodingKeys.self, forKey: .crash)
            try crash.encodeMembers(into: &members, version: schemaVersion)
        } else {
            try container.encodeNil(forKey: .crash)
        }
        try container.encode(images, forKey: .images)
        try container.encode(breadcrumbs, forKey: .breadcrumbs)
        // Version 1 has only the crash; its thread list is made from it when read.
        guard schemaVersion >= 2 else { return }
        try container.encode(kind, forKey: .kind)
        try container.encode(snapshot, forKey: .snapshot)
        try container.encode(threads, forKey: .threads)
        try container.encode(threadsTotal, forKey: .threadsTotal)
        try container.encode(threadsOmitted, forKey: .threadsOmitted)
        // Version 3 has the member in every report, null unless the kind is abnormal_exit.
        guard schemaVersion >= 3 else { return }
        try container.encode(abnormalExit, forKey: .abnormalExit)
    }
}
