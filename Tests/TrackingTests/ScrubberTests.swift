import TestSupport
import Testing
import Tracking

@Suite("Scrubber")
struct ScrubberTests {
    static let r = Scrubber.redacted

    // MARK: Each kind alone

    @Test(
        "each kind of personal data alone becomes [redacted]",
        arguments: [
            "john.doe@example.com",
            "first.last+tag@mail.example.co.uk",
            "x_y-z%1@sub-domain.example.io",
            "192.168.1.20",
            "10.0.0.1",
            "255.255.255.255",
            "2001:db8::1",
            "2001:0db8:85a3:0000:0000:8a2e:0370:7334",
            "fe80::1ff:fe23:4567:890a",
            "::1",
            "::ffff:10.0.0.1",
            "4111111111111111",
            "4111 1111 1111 1111",
            "4111-1111-1111-1111",
            "5500 0000 0000 0004",
            "378282246310005",
            "6011111111111117",
            "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
            "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
            "0b6f6a3e-3c3e-4d8a-8f6e-1f9b8a2c7d10",
            "aso_wk_3f9a0c1d2e3b4a5f6e7d8c9b0a1f2e3d",
            "sk_test_Q7fTzX2mLp9RkV4wYb8NcJ3hGd6S",
            "AKIAIOSFODNN7EXAMPLE/wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        ])
    func alone(_ value: String) {
        #expect(Scrubber.scrub(value) == Self.r)
    }

    @Test("a bearer credential is replaced and the scheme word kept")
    func bearer() {
        #expect(Scrubber.scrub("Bearer abc.def-123") == "Bearer \(Self.r)")
        #expect(Scrubber.scrub("authorization: bearer   t0k3n-abcdef") == "authorization: bearer   \(Self.r)")
        #expect(Scrubber.scrub("BEARER xY12abcd9") == "BEARER \(Self.r)")
    }

    // MARK: Embedded in text

    @Test(
        "a finding inside text is replaced and the text around it kept",
        arguments: [
            ("mail to john.doe@example.com, please", "mail to \(r), please"),
            ("<jane@example.org>", "<\(r)>"),
            ("client 192.168.1.20:8080 connected", "client \(r):8080 connected"),
            ("from 10.0.0.1.", "from \(r)."),
            ("peer=[2001:db8::42]:443", "peer=[\(r)]:443"),
            ("connect to ::1: refused", "connect to \(r): refused"),
            ("card=4111-1111-1111-1111;exp=12/29", "card=\(r);exp=12/29"),
            ("paid with 4111 1111 1111 1111 today", "paid with \(r) today"),
            ("Authorization: Bearer abc123.def; next", "Authorization: Bearer \(r); next"),
            (
                "token=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl&x=1",
                "token=\(r)&x=1"
            ),
            ("apikey=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08&v=2", "apikey=\(r)&v=2"),
            ("key: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 ok", "key: \(r) ok"),
            ("a@b.co and c@d.io", "\(r) and \(r)"),
            ("ip 1.2.3.4 mail x@y.com card 6011111111111117", "ip \(r) mail \(r) card \(r)"),
            ("Grüße an müller@example.de 👋", "Grüße an \(r) 👋"),
            ("日本語 10.1.2.3 テキスト", "日本語 \(r) テキスト"),
        ])
    func embedded(_ pair: (String, String)) {
        #expect(Scrubber.scrub(pair.0) == pair.1)
    }

    // MARK: Near misses stay

    @Test(
        "near misses stay untouched",
        arguments: [
            "",
            "hello world",
            "version 1.2.3",
            "v10.2.3-beta.4",
            "1.2.3.4.5",
            "256.1.1.1",
            "12:30:45",
            "2026-11-29T13:15:52Z",
            "2026-11-29 13:15:52.123+01:00",
            "took 1234 ms",
            "order #123456",
            "epoch 1732886152000",
            "4111 1111 1111 1112",
            "411111111111",
            "41111111111111111111111",
            "+49 30 1234567",
            "aa:bb:cc:dd:ee:ff",
            "std::vector",
            "Foo::bar",
            "@mention",
            "user@localhost",
            "a @ b.com",
            "bearer of good news",
            "bearer information",
            "eyJ is how JSON looks in base64",
            "user_profile_settings_page_was_opened_twice",
            "my-very-long-feature-flag-name-2024-enabled",
            "/usr/local/lib/swift/linux/libFoundationNetworking.so",
            "Sources/CrashReporter/Scrubber.swift",
            "café ☕️ naïve 日本語 😀",
            "checkout.completed",
        ])
    func nearMisses(_ value: String) {
        #expect(Scrubber.scrub(value) == value)
    }

    // MARK: Bounds

    @Test("strings are cut to the bound on a character boundary")
    func bounded() {
        let long = String(repeating: "a", count: 1000)
        #expect(Scrubber.scrub(long).utf8.count == Scrubber.defaultMaxBytes)
        #expect(Scrubber.scrub(long, maxBytes: 10) == "aaaaaaaaaa")
        // "é" is two bytes: a cut through it backs off to the character before.
        let accents = String(repeating: "é", count: 10)
        #expect(Scrubber.scrub(accents, maxBytes: 5) == "éé")
        #expect(Scrubber.scrub("short", maxBytes: 0) == "")
    }

    @Test("personal data past the bound never leaks in part")
    func boundAfterScrub() {
        let prefix = String(repeating: "x ", count: 125)  // 250 bytes
        let value = prefix + "john.doe@example.com tail"
        let out = Scrubber.scrub(value)
        #expect(out.utf8.count <= Scrubber.defaultMaxBytes)
        #expect(!out.contains("john"))
        #expect(out.hasPrefix(prefix + "[redac"))
    }

    @Test("a value longer than the bound with findings is scrubbed and cut")
    func longWithFindings() {
        let value = String(repeating: "10.0.0.1 ", count: 200)
        let out = Scrubber.scrub(value)
        #expect(out.utf8.count <= Scrubber.defaultMaxBytes)
        #expect(!out.contains("10.0"))
    }

    // MARK: Every kind at once

    @Test("every finding kind in one breadcrumb value leaves nothing behind")
    func allKinds() {
        let value =
            "u=a.b@c.de ip=172.16.0.9 v6=fe80::1 cc=5500-0000-0000-0004 Bearer s3krit-value jwt=eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.x"
        let out = Scrubber.scrub(value)
        for secret in ["a.b@c.de", "172.16", "fe80", "5500", "s3krit", "eyJ"] {
            #expect(!out.contains(secret), "\(secret) leaked: \(out)")
        }
        #expect(out.hasPrefix("u=[redacted] ip=[redacted]"))
    }
}

/// Inputs the scrubber's fuzz target found (docs/fuzzing.md), each under the property it broke.
@Suite("Scrubber: fuzzing findings")
struct ScrubberFuzzRegressionTests {
    /// A finding's input scrubbed as the fuzz target does (the first two bytes are the bound),
    /// with the bound.
    private func scrubbed(_ name: String) throws -> (value: String, maxBytes: Int) {
        let input = try FuzzRegressions.input("FuzzScrubber", name)
        let maxBytes = Int(input[0]) | Int(input[1] & 0x03) << 8
        return (Scrubber.scrub(String(decoding: input.dropFirst(2), as: UTF8.self), maxBytes: maxBytes), maxBytes)
    }

    /// Cutting to the bound inside `80::1fn` left `…80::1` at the end, an address the scrubber
    /// itself would have removed.
    @Test("a value cut to its bound holds nothing the scrubber would remove")
    func cutDoesNotMakeAFinding() throws {
        let (scrubbed, maxBytes) = try scrubbed("cut-makes-ipv6")
        #expect(scrubbed.utf8.count <= maxBytes)
        #expect(Scrubber.scrub(scrubbed, maxBytes: 4096) == scrubbed)
    }

    /// `200d::3333…31:0d`: the digit run was replaced as a token, which left `200d::`, an
    /// address, in front of `[redacted]`.
    @Test("what a replacement leaves behind holds nothing the scrubber would remove")
    func replacementDoesNotLeaveAFinding() throws {
        let (scrubbed, _) = try scrubbed("replacement-leaves-ipv6")
        #expect(Scrubber.scrub(scrubbed, maxBytes: 4096) == scrubbed)
        #expect(!scrubbed.contains("200d::"))
    }

    @Test("a long digit run cut to a Luhn-valid card number is redacted, not kept")
    func cutDigitRunIsScrubbedAgain() {
        // 4111111111111111 passes the Luhn check; with four more digits it is no card number.
        let scrubbed = Scrubber.scrub("id 41111111111111112222", maxBytes: 19)
        #expect(Scrubber.scrub(scrubbed, maxBytes: 4096) == scrubbed)
        #expect(!scrubbed.contains("4111111111111111"))
    }
}
