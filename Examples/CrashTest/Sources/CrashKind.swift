/// The ways `crash-test crash KIND` can crash.
enum CrashKind: String, CaseIterable {
    case segfault
    case busError = "bus-error"
    case abort
    case fatalError = "fatal-error"
    case forceUnwrap = "force-unwrap"
    case indexOutOfRange = "index-out-of-range"
    case overflow
    case divideByZero = "divide-by-zero"
    case stackOverflow = "stack-overflow"
    case threadStackOverflow = "thread-stack-overflow"
    case earlyThreadStackOverflow = "early-thread-stack-overflow"
    case backgroundThread = "background-thread"
    case twoThreads = "two-threads"
    case task
    case asyncCrash = "async-crash"
    case asyncDeep = "async-deep"
    case asyncOtherThread = "async-other-thread"

    /// Whether the crash writes its own fault time (markFaultTime): a task crashes after it sleeps.
    var marksItsFaultTime: Bool { self == .asyncCrash || self == .asyncDeep }

    func perform() -> Never {
        switch self {
        case .segfault: crashBySegfault()
        case .busError: crashByBusError()
        case .abort: crashByAbort()
        case .fatalError: crashByFatalError()
        case .forceUnwrap: crashByForceUnwrap()
        case .indexOutOfRange: crashByIndexOutOfRange()
        case .overflow: crashByOverflow()
        case .divideByZero: crashByDivideByZero()
        case .stackOverflow: crashByStackOverflow()
        case .threadStackOverflow: crashByThreadStackOverflow()
        case .earlyThreadStackOverflow: waitForEarlyThread()
        case .backgroundThread: crashOnBackgroundThread()
        case .twoThreads: crashOnTwoThreads()
        case .task: crashInTask()
        case .asyncCrash: crashAfterAwaits()
        case .asyncDeep: crashDeepInAwaits()
        case .asyncOtherThread: crashBesideBlockedTask()
        }
    }
}
