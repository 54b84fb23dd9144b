/// What the command line asks for.
enum Command: Equatable {
    case serve(Configuration)
    case help
    case version
}

/// A command line that cannot be run; the message follows `Error: `.
struct UsageError: Error, Equatable {
    var message: String
}

/// Parses the arguments (without the program name). Pure: no I/O, no environment.
func parseArguments(_ arguments: [String], environment: [String: String] = [:]) throws(UsageError) -> Command {
    var configuration = Configuration()
    if let text = environment["CRASH_COLLECTOR_FAIL_NEXT"] {
        let parts = text.split(separator: " ").map(String.init)
        guard parts.count == 2, let plan = FaultInjection.parse(count: parts[0], status: parts[1]) else {
            throw UsageError(message: "CRASH_COLLECTOR_FAIL_NEXT must be \"N STATUS\", not '\(text)'")
        }
        configuration.failNext = plan
    }
    var index = 0

    func value(_ option: String) throws(UsageError) -> String {
        index += 1
        guard index < arguments.count else { throw UsageError(message: "missing value for '\(option)'") }
        return arguments[index]
    }
    func integer(_ option: String, _ range: ClosedRange<Int>) throws(UsageError) -> Int {
        let text = try value(option)
        guard let number = Int(text), range.contains(number) else {
            throw UsageError(
                message: "'\(option)' needs an integer in \(range.lowerBound)...\(range.upperBound), not '\(text)'")
        }
        return number
    }

    while index < arguments.count {
        var argument = arguments[index]
        // --option=value is the same as --option value.
        if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
            var expanded = arguments
            expanded[index] = String(argument[..<equals])
            expanded.insert(String(argument[argument.index(after: equals)...]), at: index + 1)
            return try parseArguments(expanded, environment: environment)
        }
        switch argument {
        case "-h", "--help": return .help
        case "--version": return .version
        case "--host":
            let host = try value(argument)
            guard Listener.ipv4Address(host) != nil else {
                throw UsageError(message: "'--host' needs an IPv4 address or localhost, not '\(host)'")
            }
            configuration.host = host
        case "--port": configuration.port = try integer(argument, 0...65535)
        case "--data":
            configuration.dataDirectory = try value(argument)
            if configuration.dataDirectory.isEmpty { throw UsageError(message: "'--data' needs a directory") }
        case "--sentry-key":
            configuration.sentryKey = try value(argument)
        case "--events-write-key":
            let key = try value(argument)
            if key.isEmpty { throw UsageError(message: "'--events-write-key' needs a key") }
            configuration.eventsWriteKeys.append(key)
        case "--max-body": configuration.maxBodyBytes = try integer(argument, 1...(1 << 30))
        case "--read-timeout":
            let text = try value(argument)
            guard let seconds = Double(text), seconds > 0, seconds <= 3600 else {
                throw UsageError(message: "'--read-timeout' needs seconds in (0, 3600], not '\(text)'")
            }
            configuration.readTimeoutSeconds = seconds
        case "--max-connections": configuration.maxConnections = try integer(argument, 1...10_000)
        case "--events-rate-per-key": configuration.eventsPerMinutePerKey = try integer(argument, 1...10_000_000)
        case "--events-rate-per-install":
            configuration.eventsPerMinutePerInstall = try integer(argument, 1...10_000_000)
        case "--fail-next":
            let count = try value(argument)
            let status = try value(argument)
            guard let plan = FaultInjection.parse(count: count, status: status) else {
                throw UsageError(
                    message: "'--fail-next' needs a count and a status in 100...599, not '\(count) \(status)'")
            }
            configuration.failNext = plan
        case "--retry-after": configuration.retryAfterSeconds = try integer(argument, 0...86400)
        default:
            argument = argument.isEmpty ? "''" : argument
            throw UsageError(
                message: argument.hasPrefix("-") ? "unknown option '\(argument)'" : "unexpected argument '\(argument)'")
        }
        index += 1
    }
    if var plan = configuration.failNext {
        plan.retryAfter = configuration.retryAfterSeconds
        configuration.failNext = plan
    }
    return .serve(configuration)
}
