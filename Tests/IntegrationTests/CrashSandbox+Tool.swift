/// `crashreport` run against a sandbox: its environment (`CRASH_REPORTER_DIR` the sandbox's
/// state directory), plus `extra`.
extension CrashSandbox {
    static let tool = Binaries.debug("crashreport").path

    func crashreport(_ arguments: [String], _ extra: [String: String] = [:]) async throws -> ChildProcess.Result {
        try await ChildProcess.run([Self.tool] + arguments, environment: environment(extra))
    }
}
