import CrashReporterSupport
import Foundation

/// The kinds of file a state directory holds (`StateLayout.entries`), for the tests that check a
/// drawing or a real directory against them.
public enum StateEntries {
    public static var all: [String] { StateLayout.entries }

    /// The entries `path` (below the state directory) is an instance of, each `<…>` of an entry
    /// standing for one or more characters other than `/`.
    public static func kinds(of path: String) -> [String] {
        all.filter { matches(path, $0) }
    }

    static func matches(_ path: String, _ entry: String) -> Bool {
        var pattern = "^"
        var rest = entry[...]
        while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            pattern += NSRegularExpression.escapedPattern(for: String(rest[..<open])) + "[^/]+"
            rest = rest[rest.index(after: close)...]
        }
        pattern += NSRegularExpression.escapedPattern(for: String(rest)) + "$"
        return path.range(of: pattern, options: .regularExpression) != nil
    }
}
