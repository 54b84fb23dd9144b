/// Replaces personal data in breadcrumb and analytics values. (Placeholder until the
/// shared scrubber lands: it must not ship as is.)
public enum Scrubber {
    public static let redacted = "[redacted]"

    public static func scrub(_ value: String) -> String { value }
}
