import CrashReportFormat
import Foundation

/// A complete, valid schema-version-1 report as `JSONSerialization` input, and ways to damage it.
public enum ReportFixture {
    public static let reportID = "3f1c2a9e-7b4d-4c1e-9a55-0d2e8b7c6a10"
    public static let crashTime: Int64 = 1_795_958_405_123

    public static func valid() -> [String: Any] {
        [
            "schema_version": 1,
            "report_id": reportID,
            "timestamp": "2026-11-29T13:20:05.123Z",
            "timestamp_ms": crashTime,
            "uptime_ms": 42,
            "app": ["name": "crash-test", "version": "1.0.0", "build": "7", "environment": "production"],
            "os": [
                "name": "Linux", "release": "6.1.0-28-amd64", "machine": "x86_64",
                "distribution": "Debian GNU/Linux 12 (bookworm)",
            ],
            "crash": [
                "signal": [
                    "number": 11, "name": "SIGSEGV", "code": 1, "code_name": "SEGV_MAPERR", "address": "0x10",
                ],
                "message": "Fatal error: Index out of range",
                "thread": ["id": 4242, "name": "crash-test", "main": true],
                "registers": [
                    "rip": "0x55d0c3a01234", "rax": "0x0", "rsp": "0x7ffd5e1c8a30", "eflags": "0x10246",
                    "r15": "0xffffffffffffffff",
                ],
                "frames": [
                    ["ip": "0x55d0c3a01234", "sp": "0x7ffd5e1c8a30", "trust": "context", "image": 0],
                    ["ip": "0x7f0a12345678", "sp": "0x7ffd5e1c8a60", "trust": "cfi", "image": 1],
                    ["ip": "0xdead0000", "sp": "0x7ffd5e1c8a90", "trust": "cfi", "image": -1],
                ],
                "frames_truncated": false,
                "unwind_error": NSNull(),
            ],
            "images": [
                [
                    "name": "crash-test", "path": "~/src/app/.build/debug/crash-test", "base": "0x55d0c3800000",
                    "size": 4_194_304, "build_id": "9a1f0c7e", "main": true,
                ],
                [
                    "name": "libc.so.6", "path": "/lib/x86_64-linux-gnu/libc.so.6", "base": "0x7f0a12200000",
                    "size": 2_000_000, "build_id": "", "main": false,
                ],
            ],
            "breadcrumbs": [
                "capacity": 100,
                "torn": 0,
                "items": [
                    [
                        "timestamp_ms": crashTime - 1234, "level": "info", "category": "tracking",
                        "message": "Order.Create", "data": ["items": "3", "coupon": "none"],
                    ],
                    [
                        "timestamp_ms": crashTime - 5, "level": "error", "category": "net",
                        "message": "Upload.Failed", "data": [String: Any](),
                    ],
                ],
            ],
        ]
    }

    /// `valid()` with the value at a JSON pointer replaced, or removed when `value` is nil.
    public static func valid(setting pointer: String, to value: Any?) -> [String: Any] {
        replacing(valid(), pointer, with: value)
    }

    /// `report` with the value at a JSON pointer replaced, or removed when `value` is nil.
    public static func replacing(_ report: [String: Any], _ pointer: String, with value: Any?) -> [String: Any] {
        let tokens = pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        return replacing(report, tokens[...], with: value) as! [String: Any]
    }

    private static func replacing(_ node: Any, _ tokens: ArraySlice<String>, with value: Any?) -> Any? {
        guard let token = tokens.first else { return value }
        if var object = node as? [String: Any] {
            let child = object[token] ?? NSNull()
            object[token] = replacing(child, tokens.dropFirst(), with: value)
            return object
        }
        if var array = node as? [Any], let index = Int(token) {
            if let replaced = replacing(array[index], tokens.dropFirst(), with: value) {
                array[index] = replaced
            } else {
                array.remove(at: index)
            }
            return array
        }
        preconditionFailure("no container at \(token)")
    }

    /// The JSON text of a `JSONSerialization` value (a top-level scalar too).
    public static func json(_ object: Any) throws -> Data {
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
    }

    public static func gzip(_ object: Any) throws -> Data {
        Data(try Gzip.compress(try json(object)))
    }

    /// Writes a valid report with `id` as `<stateDirectory>/pending/<id>.crash`, as a crash of
    /// the service would have left it, making the folders.
    public static func plantPending(id: String, in stateDirectory: String) throws {
        let pending = stateDirectory + "/pending"
        try FileManager.default.createDirectory(atPath: pending, withIntermediateDirectories: true)
        try gzip(valid(setting: "/report_id", to: id)).write(to: URL(fileURLWithPath: pending + "/\(id).crash"))
    }
}

extension JSONSchemaValidator {
    /// Validates a `JSONSerialization` value (``ReportFixture/valid()`` and its variants) as the
    /// JSON text it is written as.
    public func validate(object: Any) throws -> [SchemaViolation] {
        validate(json: try ReportFixture.json(object))
    }
}
