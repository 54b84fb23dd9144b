import CrashReporterHTTP
import CrashReporterSupport

extension DeliveryOutcome {
    /// Sends `request` with `client`, blocking the calling thread, and says what happened: the
    /// server's answer read by the one rule (`init(status:serverWait:reason:)`), or the client's
    /// one-line reason for getting no answer (refused, timed out, TLS verification failed…).
    package init(sending request: HTTPRequest, with client: HTTPClient) {
        do {
            let response = try client.send(request)
            self = DeliveryOutcome(
                status: response.status,
                serverWait: Self.serverWait(seconds: ServerRetryDelay.parse(headers: response.headers, now: .now())),
                reason: Self.reason(from: response.body))
        } catch {
            self = .noAnswer(Self.oneLine(error.description))
        }
    }

    /// The server's words: the start of the body, on one line.
    static func reason(from body: [UInt8]) -> String {
        oneLine(String(decoding: body.prefix(400), as: UTF8.self))
    }

    /// Line breaks become spaces, and the ends are trimmed: reasons go into one-line files and
    /// one-line messages.
    static func oneLine(_ text: String) -> String {
        String(text.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingASCIIWhitespace())
    }
}
