import CrashReporterHTTP
import CrashReporterSupport

/// When and how much a provider of this module sends, the same for every backend. The
/// defaults are the events-API provider's.
public struct AnalyticsDeliveryOptions: Sendable {
    /// Send when this many events are queued.
    public var flushAt: Int
    /// Send what is queued this often.
    public var flushInterval: Duration
    /// Keep at most this many events, queued and sealed into batches; past it the oldest sealed
    /// batch is dropped whole, then the oldest queued events.
    public var maxQueued: Int
    /// Events per request, 1 to 100.
    public var maxBatchSize: Int
    /// How long one request may take.
    public var requestTimeout: Duration

    /// Options with each field given; the defaults are the ones every provider uses.
    public init(
        flushAt: Int = 20,
        flushInterval: Duration = .seconds(30),
        maxQueued: Int = 1_000,
        maxBatchSize: Int = 100,
        requestTimeout: Duration = .seconds(30)
    ) {
        self.flushAt = flushAt
        self.flushInterval = flushInterval
        self.maxQueued = maxQueued
        self.maxBatchSize = maxBatchSize
        self.requestTimeout = requestTimeout
    }

    var settings: DeliverySettings {
        DeliverySettings(
            flushAt: flushAt, flushInterval: flushInterval, maxQueued: maxQueued, maxBatchSize: maxBatchSize,
            requestTimeout: requestTimeout)
    }
}

/// A backend's endpoint from a base URL given in code, else in an environment variable, else a
/// default: the rule all three providers follow.
enum EndpointSetting {
    /// The endpoint `endpoint(base)` for the first base URL set (a blank value counts as none);
    /// an unusable one gives no endpoint and the reason, naming where it came from.
    static func resolve(
        _ fromCode: String?, option: String, variable: EnvironmentVariable, environment: [String: String],
        default fallback: String?, endpoint: (String) -> String
    ) -> (url: HTTPURL?, error: String?) {
        let code = Setting.text(fromCode)
        let name = code != nil ? option : variable.name
        do throws(SettingError) {
            let given = code ?? EnvironmentSettings(environment).raw(variable) ?? fallback
            guard let base = try Setting.httpURL(given, name: name) else {
                return (nil, nil)
            }
            do throws(HTTPError) {
                return (try HTTPURL(endpoint(base)), nil)
            } catch {
                // Not the URL itself: what makes it unusable may be a password in it.
                return (nil, "\(name) cannot be used: \(error)")
            }
        } catch {
            return (nil, error.description)
        }
    }

    /// `base` without trailing slashes.
    static func trimmed(_ base: String) -> String {
        var text = base
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    /// The value set in code, else in the environment variable; nil when neither is (blank counts as none).
    static func text(_ fromCode: String?, variable: EnvironmentVariable, environment: [String: String]) -> String? {
        EnvironmentSettings(environment).text(fromCode, or: variable)
    }
}

/// Parameter keys that name a person: what a service must never send to a backend that builds
/// profiles, whatever the value. The TelemetryDeck and PostHog providers leave them out, with
/// every key starting with `$` (the backends' own). Compared without regard to case, `-` as `_`.
enum PersonalKeys {
    static let names: [[UInt8]] = [
        "email", "e_mail", "mail", "name", "first_name", "firstname", "last_name", "lastname", "full_name", "fullname",
        "username", "user_name", "display_name", "phone", "phone_number", "address",
    ].map { Array($0.utf8) }

    /// Compared byte by byte, ASCII letters folded and `-` read as `_`: no string is made on
    /// the tracking thread.
    static func allows(_ key: String) -> Bool {
        let utf8 = key.utf8
        if utf8.first == UInt8(ascii: "$") { return false }
        // The names are 4 to 12 bytes long.
        guard (4...12).contains(utf8.count) else { return true }
        return !names.contains { name in name.count == utf8.count && zip(name, utf8).allSatisfy { $0 == fold($1) } }
    }

    @inline(__always)
    private static func fold(_ byte: UInt8) -> UInt8 {
        if byte == UInt8(ascii: "-") { return UInt8(ascii: "_") }
        return (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
}
