import Foundation

/// The inputs the fuzz targets found problems with (Fuzz/Regressions/<target>/, docs/fuzzing.md),
/// for the unit tests that keep each one fixed. The fuzzers read the same files as seeds.
public enum FuzzRegressions {
    public static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/Regressions")

    /// The named input of a target, as the fuzzer was given it.
    public static func input(_ target: String, _ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(target).appendingPathComponent(name)))
    }
}
