import Foundation

/// Debian's `chromium` in headless mode, for the collector's pages (scripts/ensure-deps.sh
/// installs it). Headless Chromium will not make a window narrower than 500 px, so a phone's
/// width is an iframe of that width in a harness page; the page inside it measures itself with
/// a probe script appended to a copy of its HTML and posts what it found to the harness, whose
/// DOM `--dump-dom` prints.
enum HeadlessChromium {
    static let path: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Why the browser test cannot run here, or nil.
    static var unavailable: String? {
        path == nil ? "Chromium is not installed (scripts/ensure-deps.sh installs it: apt-get install chromium)" : nil
    }

    static func run(_ arguments: [String], in directory: URL) async throws -> ChildProcess.Result {
        let path = try unwrap(path, "no chromium")
        return try await ChildProcess.run(
            [
                path, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
                "--user-data-dir=\(directory.appendingPathComponent("profile").path)",
            ] + arguments,
            environment: ["PATH": "/usr/bin:/bin", "HOME": directory.path], timeout: 120)
    }

    /// Loads `html` (a page's own HTML) at `width` CSS pixels, runs `probe` (JavaScript whose
    /// value is JSON-encodable) once the page has laid out, and returns the probe's value.
    static func measure(html: String, width: Int, probe: String, name: String, in directory: URL) async throws -> Any {
        let script = """
            <script>window.addEventListener('load', () => {
            let value; try { value = (() => { \(probe) })(); } catch (e) { value = {error: String(e)}; }
            parent.postMessage(JSON.stringify(value), '*'); });</script>
            """
        let page = directory.appendingPathComponent("\(name).html")
        guard let end = html.range(of: "</body>", options: .backwards) else { throw EndToEndError("no </body>") }
        try html.replacingCharacters(in: end, with: script + "</body>").write(
            to: page, atomically: true, encoding: .utf8)
        let harness = directory.appendingPathComponent("\(name)-harness.html")
        try """
        <!DOCTYPE html><html><body style="margin:0"><pre id="probe-result" style="display:none"></pre>
        <iframe src="\(page.lastPathComponent)" style="border:0;width:\(width)px;height:900px"></iframe>
        <script>window.addEventListener('message', e => {
        document.getElementById('probe-result').textContent = e.data; });</script></body></html>
        """.write(to: harness, atomically: true, encoding: .utf8)
        let result = try await run(
            [
                "--virtual-time-budget=5000", "--window-size=\(max(width, 500) + 20),1000", "--dump-dom",
                harness.absoluteString,
            ],
            in: directory)
        let dom = result.stdout
        guard let element = dom.range(of: "id=\"probe-result\""),
            let open = dom.range(of: ">", range: element.upperBound..<dom.endIndex),
            let close = dom.range(of: "</pre>", range: open.upperBound..<dom.endIndex)
        else { throw EndToEndError("no probe result in chromium's DOM: \(result.stderr.suffix(2000))") }
        let text = String(dom[open.upperBound..<close.lowerBound])
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
        guard !text.isEmpty else { throw EndToEndError("the probe did not answer: \(result.stderr.suffix(2000))") }
        return try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    /// A PNG of `url` at `width` × `height`.
    static func screenshot(_ url: String, to file: URL, width: Int, height: Int, in directory: URL) async throws {
        let result = try await run(
            ["--screenshot=\(file.path)", "--window-size=\(width),\(height)", url], in: directory)
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw EndToEndError("no screenshot of \(url): \(result.stderr.suffix(2000))")
        }
    }

    private static func unwrap<T>(_ value: T?, _ message: String) throws -> T {
        guard let value else { throw EndToEndError(message) }
        return value
    }
}
