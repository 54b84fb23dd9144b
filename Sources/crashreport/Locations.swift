import CrashReportDelivery
import CrashReportFormat
import CrashReporterSupport
import Foundation

/// Where the reports are: a state directory given on the command line, else
/// `CRASH_REPORTER_DIR` (read as the service reads it).
enum Locations {
    /// `mustExist: false` takes a directory that is not there yet (`watch` waits for it).
    static func stateDirectory(
        _ given: String?, environment: [String: String], mustExist: Bool = true
    ) throws(ToolFailure) -> String {
        guard let path = given ?? EnvironmentSettings(environment).stateDirectory, !path.isEmpty else {
            throw ToolFailure(
                description:
                    "no state directory: give DIR (or --dir DIR) or set \(EnvironmentVariable.stateDirectory.name)")
        }
        if !mustExist && !FileManager.default.fileExists(atPath: path) { return path }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ToolFailure(description: "\(path): not a directory")
        }
        return path
    }

    /// A report file: `target` itself when it names a file, else the report with that id in
    /// the state directory's pending/, delivered/, rejected/ or withheld/ folder.
    static func report(_ target: String, directory: String?, environment: [String: String]) throws(ToolFailure)
        -> String
    {
        if target.contains("/") || target.hasSuffix(StateLayout.Suffix.report)
            || FileManager.default.fileExists(atPath: target)
        {
            return target
        }
        let store = ReportStore(stateDirectory: try stateDirectory(directory, environment: environment))
        for folder in [store.pending, store.delivered, store.rejected, store.withheld] {
            let candidate = StateLayout.report(id: target, in: folder)
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
        }
        throw ToolFailure(description: "no report with id \(target) in \(store.stateDirectory)")
    }

    /// The report `target` names (see `report(_:directory:environment:)`), decoded.
    static func decodedReport(_ target: String, directory: String?, environment: [String: String]) throws(ToolFailure)
        -> CrashReport
    {
        let path = try report(target, directory: directory, environment: environment)
        do {
            return try ReportDecoding.decode(file: path)
        } catch {
            throw ToolFailure(description: error.message(file: path))
        }
    }

    /// Every report of a state directory with the folder it is in, oldest first.
    static func allReports(in stateDirectory: String) -> [(status: String, path: String)] {
        let store = ReportStore(stateDirectory: stateDirectory)
        let folders = [
            (StateLayout.Name.pending, store.pending), (StateLayout.Name.delivered, store.delivered),
            (StateLayout.Name.rejected, store.rejected), (StateLayout.Name.withheld, store.withheld),
        ]
        return folders.flatMap {
            folder in ReportStore.reports(in: folder.1).map { (status: folder.0, path: $0) }
        }
    }
}
