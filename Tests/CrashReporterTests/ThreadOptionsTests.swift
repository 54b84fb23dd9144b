import Glibc
import Testing

@testable import CrashReporter

@Suite("Options for every thread, snapshots and hangs")
struct ThreadOptionsTests {
    let base = ["HOME": "/home/u", "CRASH_REPORTER_DIR": "/tmp/state"]

    func resolve(_ options: Options = Options(), _ extra: [String: String] = [:]) throws -> ResolvedConfiguration {
        try ResolvedConfiguration(options: options, environment: base.merging(extra) { $1 })
    }

    func refusal(_ options: Options = Options(), _ extra: [String: String] = [:]) -> String? {
        do {
            _ = try resolve(options, extra)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test("the defaults: 256 threads, 64 frames, 100 ms, SIGQUIT, 10 s")
    func defaults() throws {
        let config = try resolve()
        #expect(config.maxThreads == 256)
        #expect(config.maxFramesPerThread == 64)
        #expect(config.threadCaptureTimeout == .milliseconds(100))
        #expect(config.snapshotSignal == .quit && config.snapshotSignal.number == SIGQUIT)
        #expect(config.hangTimeout == .seconds(10))
    }

    @Test("the executor watch: on by default; CRASH_REPORTER_WATCH_EXECUTORS=0 or the option turns it off")
    func executorWatch() throws {
        #expect(try resolve().watchExecutors)
        #expect(try resolve(Options(), ["CRASH_REPORTER_WATCH_EXECUTORS": "1"]).watchExecutors)
        #expect(try !resolve(Options(), ["CRASH_REPORTER_WATCH_EXECUTORS": "0"]).watchExecutors)
        #expect(try !resolve(Options(watchExecutors: false)).watchExecutors)
        #expect(try !resolve(Options(watchExecutors: false), ["CRASH_REPORTER_WATCH_EXECUTORS": "1"]).watchExecutors)
    }

    @Test(
        "CRASH_REPORTER_SNAPSHOT_SIGNAL: QUIT, USR1, USR2 with or without SIG, any case, or off",
        arguments: [
            ("QUIT", SnapshotSignal.quit), ("sigusr1", .user1), (" USR2 ", .user2), ("off", .off), ("OFF", .off),
            ("", .quit),
        ])
    func snapshotSignalFromTheEnvironment(value: String, expected: SnapshotSignal) throws {
        #expect(try resolve(Options(), ["CRASH_REPORTER_SNAPSHOT_SIGNAL": value]).snapshotSignal == expected)
    }

    @Test("the option wins over the environment; an unknown signal is refused with its value")
    func snapshotSignalRules() throws {
        let config = try resolve(Options(snapshotSignal: .user2), ["CRASH_REPORTER_SNAPSHOT_SIGNAL": "QUIT"])
        #expect(config.snapshotSignal == .user2)
        #expect(SnapshotSignal.off.number == nil)
        #expect(
            refusal(Options(), ["CRASH_REPORTER_SNAPSHOT_SIGNAL": "TERM"])?.contains(
                "CRASH_REPORTER_SNAPSHOT_SIGNAL must be QUIT, USR1, USR2 or off (got \"TERM\")") == true)
    }

    @Test("bounds are checked, with the option's name in the message")
    func bounds() {
        #expect(refusal(Options(maxThreads: 0))?.contains("maxThreads must be between 1 and 4096") == true)
        #expect(refusal(Options(maxThreads: 4097)) != nil)
        #expect(refusal(Options(maxThreads: 4096)) == nil)
        #expect(refusal(Options(maxFramesPerThread: 257))?.contains("maxFramesPerThread") == true)
        #expect(refusal(Options(threadCaptureTimeout: .microseconds(10)))?.contains("threadCaptureTimeout") == true)
        #expect(refusal(Options(threadCaptureTimeout: .seconds(11))) != nil)
        #expect(
            refusal(Options(hangTimeout: .milliseconds(99)))?.contains("hangTimeout must be between 100 ms and 1 h")
                == true)
        #expect(refusal(Options(hangTimeout: .seconds(3601))) != nil)
        #expect(
            refusal(Options(hangTimeout: .seconds(Int64.max))) != nil, "an overflowing duration is refused, not wrapped"
        )
    }

    @Test("CRASH_REPORTER_HANG_TIMEOUT_SECONDS: seconds, by the same rule and bounds; the option wins")
    func hangTimeoutFromTheEnvironment() throws {
        let name = "CRASH_REPORTER_HANG_TIMEOUT_SECONDS"
        #expect(try resolve(Options(), [name: "2.5"]).hangTimeout == .milliseconds(2500))
        #expect(try resolve(Options(hangTimeout: .seconds(3)), [name: "2.5"]).hangTimeout == .seconds(3))
        #expect(refusal(Options(), [name: "-1"])?.contains("\(name) must be a number of seconds") == true)
        #expect(refusal(Options(), [name: "0.01"])?.contains("\(name) must be between 100 ms and 1 h") == true)
        #expect(refusal(Options(), [name: "1e30"]) != nil)
    }
}
