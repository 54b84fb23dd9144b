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
    case unsignedUnderflow = "unsigned-underflow"
    case narrowingConversion = "narrowing-conversion"
    case floatConversion = "float-conversion"
    case swiftDivisionByZero = "swift-division-by-zero"
    case invalidRange = "invalid-range"
    case precondition
    case unownedReference = "unowned-reference"
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
        case .unsignedUnderflow: crashByUnsignedUnderflow()
        case .narrowingConversion: crashByNarrowingConversion()
        case .floatConversion: crashByFloatConversion()
        case .swiftDivisionByZero: crashOnSwiftDivisionByZero()
        case .invalidRange: crashByInvalidRange()
        case .precondition: crashByPrecondition()
        case .unownedReference: crashByUnownedReference()
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
