import Tracking

public enum Planted {
    /// Personal data a careless service might put into parameters.
    public static let values: [String: TrackingValue] = [
        "email": "contact jane.roe@example.com now",
        "ip": "from 203.0.113.7",
        "ip6": "peer 2001:db8::7",
        "card": "4111 1111 1111 1111",
        "auth": "Bearer abcDEF123456.xyz",
        "jwt": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9.c2lnbmF0dXJlLXZhbHVl",
        "key": "api 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    ]
    /// Fragments that must never appear anywhere after scrubbing. None is short enough, or
    /// plain enough hexadecimal, to turn up by chance in a random id or hash of the same request
    /// (a bare "4111" is in about one request of three hundred).
    public static let fragments = [
        "jane.roe", "example.com", "203.0.113", "2001:db8", "4111 1111", "abcDEF123456", "eyJhbGci", "9f86d0818",
    ]
}
