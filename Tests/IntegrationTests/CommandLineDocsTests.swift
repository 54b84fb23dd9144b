import Foundation
import Testing

/// The tools' command lines as a user meets them: the help blocks in the docs are what the
/// tools print, and the shell completion scripts they generate are valid and complete.
@Suite("Command-line docs and completions")
struct CommandLineDocsTests {
    static let tools = ["crashreport", "crash-collector"]

    /// Runs a built tool with `arguments` at 80 columns; its standard output.
    static func run(_ tool: String, _ arguments: [String]) async throws -> String {
        let result = try await ChildProcess.run(
            [Binaries.debug(tool).path] + arguments, environment: ["COLUMNS": "80", "PATH": "/usr/bin:/bin"])
        try #require(result.exitCode == 0, "\(tool) \(arguments) exited \(result.exitCode): \(result.stderr)")
        return result.stdout
    }

    /// Each `<!-- help: COMMAND -->` marker of a doc with the fenced block that follows it.
    static func helpBlocks(in doc: String) throws -> [(command: String, text: String)] {
        let text = try String(
            contentsOf: Binaries.packageRoot.appendingPathComponent(doc), encoding: .utf8)
        var blocks: [(String, String)] = []
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        while let line = lines.popFirst() {
            guard line.hasPrefix("<!-- help: "), line.hasSuffix(" -->") else { continue }
            let command = String(line.dropFirst("<!-- help: ".count).dropLast(" -->".count))
            try #require(lines.popFirst() == "```text", "\(doc): the help block of \(command) is not a text block")
            var body: [Substring] = []
            while let next = lines.popFirst(), next != "```" { body.append(next) }
            blocks.append((command, body.map { $0 + "\n" }.joined()))
        }
        return blocks
    }

    /// Every command of a tool, from its own description of itself (`--experimental-dump-help`).
    static func commands(of tool: String) async throws -> [String] {
        let dump = try await run(tool, ["--experimental-dump-help"])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(dump.utf8)) as? [String: Any])
        let command = try #require(root["command"] as? [String: Any])
        let subcommands = (command["subcommands"] as? [[String: Any]] ?? []).compactMap { $0["commandName"] as? String }
        return [tool] + subcommands.filter { $0 != "help" }.map { "\(tool) \($0)" }
    }

    @Test("docs/cli.md and docs/collector.md show each command's real --help (scripts/cli-docs.sh updates them)")
    func helpBlocksMatchTheTools() async throws {
        var documented: [String] = []
        for doc in ["docs/cli.md", "docs/collector.md"] {
            for block in try Self.helpBlocks(in: doc) {
                let words = block.command.split(separator: " ").map(String.init)
                let help = try await Self.run(words[0], Array(words.dropFirst()) + ["--help"])
                #expect(
                    block.text == help.trimmingCharacters(in: .newlines) + "\n",
                    "\(doc): the help of '\(block.command)' drifted from the tool; run scripts/cli-docs.sh")
                documented.append(block.command)
            }
        }
        var commands: [String] = []
        for tool in Self.tools { commands += try await Self.commands(of: tool) }
        #expect(documented.sorted() == commands.sorted(), "documented \(documented), the tools have \(commands)")
    }

    @Test("each tool's completion scripts: bash passes bash -n and completes in a real bash", arguments: tools)
    func completionScripts(tool: String) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("completions-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for shell in ["bash", "zsh", "fish"] {
            let script = try await Self.run(tool, ["--generate-completion-script", shell])
            #expect(script.contains(tool), "the \(shell) script does not name \(tool)")
            let known = tool == "crashreport" ? "show" : "events-write-key"
            #expect(script.contains(known), "the \(shell) script does not offer \(known)")
            try script.write(to: directory.appendingPathComponent(shell), atomically: true, encoding: .utf8)
        }
        let bash = directory.appendingPathComponent("bash").path
        let syntax = try await ChildProcess.run(["/bin/bash", "-n", bash], environment: [:])
        #expect(syntax.exitCode == 0, "bash -n: \(syntax.stderr)")

        // Complete a partial word as bash would on TAB: a subcommand for crashreport, an option for
        // crash-collector.
        let (line, expected) =
            tool == "crashreport"
            ? (["crashreport", "sh"], "show") : (["crash-collector", "--events-w"], "--events-write-key")
        let program = """
            source "$1"
            spec="$(complete -p \(tool))"
            function="${spec#*-F }"; function="${function%% *}"
            COMP_WORDS=(\(line.joined(separator: " "))); COMP_CWORD=1
            COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
            "$function" \(tool) "${COMP_WORDS[1]}" \(tool)
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let completed = try await ChildProcess.run(
            ["/bin/bash", "-c", program, "bash", bash], environment: ["PATH": "/usr/bin:/bin"])
        #expect(completed.exitCode == 0, "\(completed.stderr)")
        #expect(
            completed.stdout.split(separator: "\n").contains(Substring(expected)),
            "completing '\(line.joined(separator: " "))' offered \(completed.stdout)")
    }
}
