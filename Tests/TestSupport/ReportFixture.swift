import CrashReportFormat
import Foundation

/// Complete, valid reports as `JSONSerialization` input (schema version 1, and version 2
/// crashes, snapshots and hangs), and ways to damage them.
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

    /// A valid schema-version-2 crash: `valid()`'s crash with its thread first in `threads` and
    /// two more threads: a worker in a deep recursion (a run of one repeated frame, then 300
    /// frames left out before the outermost two) and one that blocked the capture signal. The
    /// process had 6 threads; 3 were beyond the limit.
    public static func validV2() -> [String: Any] {
        var report = valid()
        report["schema_version"] = 2
        report["kind"] = "crash"
        var crash = report["crash"] as! [String: Any]
        crash["frames_omitted"] = 0
        crash["frames_omitted_at"] = 3
        report["crash"] = crash
        report["snapshot"] = NSNull()
        let crashing: [String: Any] = [
            "id": 4242, "name": "crash-test", "crashed": true, "main": true, "registers": crash["registers"]!,
            "frames": crash["frames"]!, "frames_truncated": false, "frames_omitted": 0, "frames_omitted_at": 3,
            "unwind_error": NSNull(),
        ]
        report["threads"] = [crashing, recursingWorker, blockedThread]
        report["threads_total"] = 6
        report["threads_omitted"] = 3
        return report
    }

    /// Thread 4250 "worker": frame 0, the same return address 4 times (frames 1-4), then 300
    /// frames left out, then the outermost two.
    public static var recursingWorker: [String: Any] {
        [
            "id": 4250, "name": "worker", "crashed": false, "main": false,
            "registers": ["rip": "0x55d0c3a01300", "rsp": "0x7f0a0000f000"],
            "frames": [
                ["ip": "0x55d0c3a01300", "sp": "0x7f0a0000f000", "trust": "context", "image": 0],
                ["ip": "0x55d0c3a01400", "sp": "0x7f0a0000f040", "trust": "cfi", "image": 0],
                ["ip": "0x55d0c3a01400", "sp": "0x7f0a0000f080", "trust": "cfi", "image": 0],
                ["ip": "0x55d0c3a01400", "sp": "0x7f0a0000f0c0", "trust": "cfi", "image": 0],
                ["ip": "0x55d0c3a01400", "sp": "0x7f0a0000f100", "trust": "cfi", "image": 0],
                ["ip": "0x55d0c3a01500", "sp": "0x7f0a0000ff00", "trust": "cfi", "image": 0],
                ["ip": "0x7f0a12345678", "sp": "0x7f0a0000ff40", "trust": "cfi", "image": 1],
            ],
            "frames_truncated": false, "frames_omitted": 300, "frames_omitted_at": 5, "unwind_error": NSNull(),
        ]
    }

    /// A valid schema-version-2 crash in async code: `validV2()` whose crashing thread ran task
    /// 77 ("orders") and has three async frames after its frame 1 (the async function's own
    /// frame), the executor's frame after them.
    public static func asyncCrash() -> [String: Any] {
        var report = validV2()
        var threads = report["threads"] as! [[String: Any]]
        threads[0]["async_frames"] = [
            ["ip": "0x55d0c3a02000", "sp": "0x7f0a00100000", "trust": "async", "image": 0],
            ["ip": "0x55d0c3a02100", "sp": "0x7f0a00100100", "trust": "async", "image": 0],
            ["ip": "0x55d0c3a02200", "sp": "0x7f0a00100200", "trust": "async", "image": 0],
        ]
        threads[0]["async_frames_at"] = 1
        threads[0]["async_frames_omitted"] = 0
        threads[0]["task"] = ["id": 77, "name": "orders", "priority": 21]
        report["threads"] = threads
        return report
    }

    /// Thread 4251 "io": blocked the capture signal, so it has no stack.
    public static var blockedThread: [String: Any] {
        [
            "id": 4251, "name": "io", "crashed": false, "main": false, "registers": NSNull(), "frames": [Any](),
            "frames_truncated": false, "frames_omitted": 0, "frames_omitted_at": 0, "unwind_error": "signal_blocked",
        ]
    }

    /// A valid schema-version-2 snapshot the service asked for: no crash, two threads (the main
    /// thread and the recursing worker).
    public static func snapshot(reason: String = "Cache.Rebuild slow") -> [String: Any] {
        var report = validV2()
        report["kind"] = "snapshot"
        report["crash"] = NSNull()
        report["snapshot"] = ["reason": reason, "heartbeat": NSNull()] as [String: Any]
        let main: [String: Any] = [
            "id": 4242, "name": "crash-test", "crashed": false, "main": true,
            "registers": ["rip": "0x55d0c3a01234"],
            "frames": [["ip": "0x55d0c3a01234", "sp": "0x7ffd5e1c8a30", "trust": "context", "image": 0]],
            "frames_truncated": false, "frames_omitted": 0, "frames_omitted_at": 1, "unwind_error": NSNull(),
        ]
        report["threads"] = [main, recursingWorker]
        report["threads_total"] = 2
        report["threads_omitted"] = 0
        return report
    }

    /// A valid schema-version-2 hang: the heartbeat "db-poller" of the worker (4250) was 2.5 s late.
    public static func hang() -> [String: Any] {
        var report = snapshot(reason: "heartbeat late")
        report["kind"] = "hang"
        report["snapshot"] =
            [
                "reason": "heartbeat late",
                "heartbeat": ["name": "db-poller", "thread_id": 4250, "late_ms": 2500] as [String: Any],
            ] as [String: Any]
        return report
    }

    /// A valid schema-version-3 abnormal exit: the run was killed by the OOM killer after 42 s.
    public static func abnormalExit(_ exitClass: String = "oom_kill") -> [String: Any] {
        var report = validV2()
        report["schema_version"] = 3
        report["kind"] = "abnormal_exit"
        report["crash"] = NSNull()
        report["snapshot"] = NSNull()
        report["abnormal_exit"] = ["class": exitClass, "run_started_ms": crashTime - 42_000] as [String: Any]
        report["uptime_ms"] = 42_000
        report["threads"] = [Any]()
        report["threads_total"] = 0
        report["threads_omitted"] = 0
        report["images"] = [Any]()
        report["breadcrumbs"] = ["capacity": 0, "torn": 0, "items": [Any]()] as [String: Any]
        return report
    }

    /// `valid()` with the value at a JSON pointer replaced, or removed when `value` is nil.
    public static func valid(setting pointer: String, to value: Any?) -> [String: Any] {
        replacing(valid(), pointer, with: value)
    }

    /// `validV2()` with the value at a JSON pointer replaced, or removed when `value` is nil.
    public static func validV2(setting pointer: String, to value: Any?) -> [String: Any] {
        replacing(validV2(), pointer, with: value)
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
