import Foundation

/// A fresh directory under the system's temporary directory, deleted when released.
public final class TempDirectory: Sendable {
    public let path: String

    public init() {
        path = NSTemporaryDirectory() + "tracking-tests-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Every file below the directory, relative paths, sorted.
    public var files: [String] {
        let enumerator = FileManager.default.enumerator(atPath: path)
        var out: [String] = []
        while let item = enumerator?.nextObject() as? String {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: path + "/" + item, isDirectory: &isDir), !isDir.boolValue {
                out.append(item)
            }
        }
        return out.sorted()
    }

    public func contents(_ relative: String) -> String? {
        FileManager.default.contents(atPath: path + "/" + relative).map { String(decoding: $0, as: UTF8.self) }
    }
}
