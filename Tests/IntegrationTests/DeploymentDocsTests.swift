import Foundation
import TestSupport
import Testing

/// The systemd unit and the Kubernetes pod spec in docs/deployment.md are ready to use: the
/// unit passes `systemd-analyze verify`, and the pod spec parses as YAML and runs the sidecar
/// beside the service on one shared volume with read-only root filesystems.
@Suite("Deployment docs")
struct DeploymentDocsTests {
    /// The fenced block after the `<!-- deployment: NAME -->` marker.
    static func block(_ name: String) throws -> String {
        let text = try String(
            contentsOf: Binaries.packageRoot.appendingPathComponent("docs/deployment.md"), encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        while let line = lines.popFirst(), line != "<!-- deployment: \(name) -->" {}
        try #require(lines.popFirst()?.hasPrefix("```") == true, "no block for \(name)")
        var body: [Substring] = []
        while let next = lines.popFirst(), next != "```" { body.append(next) }
        return body.joined(separator: "\n") + "\n"
    }

    @Test(
        "the systemd unit passes systemd-analyze verify",
        .enabled(if: ProgramRun.path(of: "systemd-analyze") != nil, "systemd-analyze is not installed"))
    func systemdUnit() async throws {
        let unit = try Self.block("systemd")
        #expect(unit.contains("ExecStart=/usr/local/bin/crashreport watch"))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("unit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // verify wants the executable to exist: the one built here stands in.
        let file = directory.appendingPathComponent("orders-crash-delivery.service")
        try unit.replacingOccurrences(of: "/usr/local/bin/crashreport", with: Binaries.debug("crashreport").path)
            .write(to: file, atomically: true, encoding: .utf8)
        let analyze = try #require(ProgramRun.path(of: "systemd-analyze"))
        let result = try await ChildProcess.run([analyze, "verify", file.path], environment: ["PATH": "/usr/bin:/bin"])
        #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(result.stderr)")
    }

    @Test("the pod spec parses, shares one emptyDir for the state directory, and keeps root filesystems read-only")
    func podSpec() async throws {
        let yaml = try Self.block("kubernetes")
        let script = """
            import json, sys, yaml
            print(json.dumps(yaml.safe_load(sys.stdin.read())))
            """
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pod-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("pod.yaml")
        try yaml.write(to: input, atomically: true, encoding: .utf8)
        let result = try await ChildProcess.run(
            ["/bin/sh", "-c", "python3 -c \"$0\" < \"$1\"", script, input.path], environment: ["PATH": "/usr/bin:/bin"])
        try #require(result.exitCode == 0, "the YAML does not parse: \(result.stderr)")
        let pod = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(pod["kind"] as? String == "Pod")
        let spec = try #require(pod["spec"] as? [String: Any])
        let volumes = try #require(spec["volumes"] as? [[String: Any]])
        let shared = try #require(volumes.first { $0["emptyDir"] != nil }?["name"] as? String)
        let containers = try #require(spec["containers"] as? [[String: Any]])
        #expect(containers.count == 2)
        for container in containers {
            let mounts = container["volumeMounts"] as? [[String: Any]] ?? []
            let mount = mounts.first { $0["name"] as? String == shared }?["mountPath"] as? String
            let env = container["env"] as? [[String: Any]] ?? []
            let directory = env.first { $0["name"] as? String == "CRASH_REPORTER_DIR" }?["value"] as? String
            #expect(
                mount != nil && mount == directory, "\(container["name"] ?? ""): the state directory is on the volume")
            let security = container["securityContext"] as? [String: Any]
            #expect(security?["readOnlyRootFilesystem"] as? Bool == true)
        }
        let sidecar = try #require(containers.first { ($0["command"] as? [String])?.first == "crashreport" })
        #expect(sidecar["command"] as? [String] == ["crashreport", "watch"])
    }
}
