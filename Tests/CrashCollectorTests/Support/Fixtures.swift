import CrashReportFormat
import Foundation

/// Real reports: the committed one (made by `crash-test crash segfault`) and variants of it.
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static var segfault: Data {
        get throws { try Data(contentsOf: directory.appendingPathComponent("segfault.crash")) }
    }

    static var segfaultID: String {
        get throws { try ReportDecoding.decode(gzipData: segfault).reportID }
    }

    /// The fixture with a new report id and, optionally, another app name and version.
    static func variant(id: String = UUID().uuidString.lowercased(), app: String? = nil, version: String? = nil) throws
        -> (id: String, data: Data)
    {
        let json = Data(try Gzip.decompress(segfault))
        guard var object = try JSONSerialization.jsonObject(with: json) as? [String: Any],
            var appObject = object["app"] as? [String: Any]
        else { throw TestError("fixture is not a report object") }
        object["report_id"] = id
        if let app { appObject["name"] = app }
        if let version { appObject["version"] = version }
        object["app"] = appObject
        let data = Data(try Gzip.compress(JSONSerialization.data(withJSONObject: object)))
        _ = try ReportDecoding.decode(gzipData: data)  // still a valid report
        return (id, data)
    }
}
