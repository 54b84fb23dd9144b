import ArgumentParser
import CrashReporterSupport

extension ArgumentHelp {
    /// The help of an option or argument that stands in for an environment variable, in the one
    /// form every such help takes: `<summary> (default: <VARIABLE>[, else <fallback>]).`
    static func defaulting(
        to variable: EnvironmentVariable, _ summary: String, else fallback: String? = nil, valueName: String
    ) -> ArgumentHelp {
        let fallback = fallback.map { ", else \($0)" } ?? ""
        return ArgumentHelp("\(summary) (default: \(variable.name)\(fallback)).", valueName: valueName)
    }
}
