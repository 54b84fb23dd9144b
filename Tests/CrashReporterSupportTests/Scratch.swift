import Foundation

/// A new directory of its own under the system's temporary directory; the caller removes it.
func makeScratchDirectory() throws -> String {
    let path = FileManager.default.temporaryDirectory.path + "/support-tests-\(getpid())-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
