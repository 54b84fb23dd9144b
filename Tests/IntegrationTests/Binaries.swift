import Foundation

/// Where the package's executables are: the debug ones next to the test bundle, the
/// release `crash-test` in `.build/release` (the test script builds it first).
enum Binaries {
    /// The folder that holds the test bundle and the debug executables.
    static var debugDirectory: URL {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return exe.deletingLastPathComponent()
    }

    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    static func debug(_ name: String) -> URL { debugDirectory.appendingPathComponent(name) }

    static var releaseCrashTest: URL {
        packageRoot.appendingPathComponent(".build/release/crash-test")
    }

    /// The build configurations whose `crash-test` the crash tests run. Release is required
    /// when CRASH_REPORTER_REQUIRE_RELEASE=1 (the test script sets it after building it).
    static var crashTestBuilds: [String] {
        let required = ProcessInfo.processInfo.environment["CRASH_REPORTER_REQUIRE_RELEASE"] == "1"
        let present = FileManager.default.isExecutableFile(atPath: releaseCrashTest.path)
        return required || present ? ["debug", "release"] : ["debug"]
    }

    static func crashTest(build: String) -> URL {
        build == "release" ? releaseCrashTest : debug("crash-test")
    }

    /// Gives a package made by a test the SwiftPM mirrors this package was built with (offline,
    /// its dependencies come from local copies; see scripts/ensure-deps.sh), if it has any.
    static func inheritMirrors(into package: URL) throws {
        let relative = ".swiftpm/configuration/mirrors.json"
        let mirrors = packageRoot.appendingPathComponent(relative)
        guard FileManager.default.fileExists(atPath: mirrors.path) else { return }
        let target = package.appendingPathComponent(relative)
        try FileManager.default.createDirectory(
            at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? FileManager.default.removeItem(at: target)
        try FileManager.default.copyItem(at: mirrors, to: target)
    }
}
