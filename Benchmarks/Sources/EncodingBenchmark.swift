import CrashReportDelivery
import CrashReportFormat
import CrashReportSentry
import CrashReporterHTTP
import CrashReporterSupport
import CrashSymbolication
import Foundation

/// What it costs to turn one symbolicated report into a request body, per transport: the
/// Sentry envelope (event JSON, then gzip) against the OTLP log record (protobuf or OTLP/JSON,
/// then gzip), on the same report and symbols, in one run. The report is read and
/// symbolicated once, outside the timings (every transport pays that alike).
enum EncodingBenchmark {
    static func run(reportPath: String, iterations: Int) -> [String] {
        let report: CrashReport
        do {
            report = try ReportDecoding.decode(file: reportPath)
        } catch {
            return ["Cannot read \(reportPath): \(error)"]
        }
        let symbols = Symbolicator().symbolicate(report)
        let outgoing = OutgoingReport(id: report.reportID, fileData: [], report: report, symbols: symbols)
        guard let endpoint = try? HTTPURL("http://127.0.0.1:4318/v1/logs") else { return ["no endpoint"] }
        let protobuf = OTLPSettings(endpoint: endpoint, encoding: .protobuf)
        let json = OTLPSettings(endpoint: endpoint, encoding: .json)
        let observed = Timestamp.now()

        let cases: [(String, () throws -> [UInt8])] = [
            (
                "Sentry envelope (event JSON)",
                {
                    try SentryEnvelope.make(
                        report: report, symbols: symbols, release: "1.0", environment: "production",
                        sdkName: "swift-crash-reporter", sdkVersion: "0.1.0")
                }
            ),
            (
                "OTLP log record, protobuf",
                { OTLPLogExport(report: outgoing, settings: protobuf, observed: observed).protobuf }
            ),
            (
                "OTLP log record, OTLP/JSON",
                { OTLPLogExport(report: outgoing, settings: json, observed: observed).json }
            ),
        ]
        var lines = [
            "One \(report.kind.rawValue) report, \(report.threads.count) thread(s), \(report.crash?.frames.count ?? 0) "
                + "crashing-thread frames, symbolicated once beforehand; median of \(iterations) encodings each.",
            "The Sentry event carries every thread's frames, the registers, the images and the breadcrumbs;",
            "the OTLP record the crashing thread's stack as text and a few attributes (docs/opentelemetry.md).",
            "",
            "| body | encode | encode + gzip | bytes | gzipped |",
            "|---|---:|---:|---:|---:|",
        ]
        let clock = ContinuousClock()
        for (name, encode) in cases {
            var plain: [Double] = []
            var compressed: [Double] = []
            var size = 0
            var gzipped = 0
            do {
                for _ in 0..<iterations {
                    var body: [UInt8] = []
                    plain.append(nanoseconds(try clock.measure { body = try encode() }) / 1e3)
                    size = body.count
                    var packed: [UInt8] = []
                    compressed.append(nanoseconds(try clock.measure { packed = try Gzip.compress(encode()) }) / 1e3)
                    gzipped = packed.count
                }
            } catch {
                lines.append("| \(name) | failed: \(error) | | | |")
                continue
            }
            lines.append(
                "| \(name) | \(format(Stats(samples: plain).median)) µs | \(format(Stats(samples: compressed).median)) µs "
                    + "| \(size) | \(gzipped) |")
        }
        return lines
    }
}
