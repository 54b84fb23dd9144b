import CrashReporterSupport
import Foundation
import TestSupport
import Tracking

@testable import TrackingEventsAPI

/// The two vendors' backends, for tests that run once per backend against a loopback receiver.
enum VendorBackend: String, CaseIterable, Sendable, CustomStringConvertible {
    case telemetryDeck = "telemetrydeck"
    case postHog = "posthog"

    var description: String { rawValue }

    static let appID = "B1D4F2A7-0C3E-4B59-9A61-7E2D8C0F5A13"
    static let apiKey = "phc_integrationKey0123456789"
    static let salt = "integration-salt"

    /// The path the vendor's API takes batches at.
    var path: String { self == .postHog ? "/batch/" : "/v2/" }

    /// A provider for `state` sending to `url` (a loopback receiver), configured through the
    /// environment as an operator would, with `extra` variables beside.
    func provider(state: String, url: String, extra: [String: String] = [:]) -> any AnalyticsProvider {
        let delivery = AnalyticsDeliveryOptions(flushInterval: .seconds(3600), requestTimeout: .seconds(10))
        switch self {
        case .telemetryDeck:
            let environment = ["TELEMETRYDECK_APP_ID": Self.appID, "TELEMETRYDECK_URL": url].merging(extra) { $1 }
            return TelemetryDeckProvider(
                stateDirectory: state, options: TelemetryDeckOptions(salt: Self.salt, delivery: delivery),
                environment: environment)
        case .postHog:
            let environment = ["POSTHOG_API_KEY": Self.apiKey, "POSTHOG_HOST": url].merging(extra) { $1 }
            return PostHogProvider(
                stateDirectory: state, options: PostHogOptions(delivery: delivery), environment: environment)
        }
    }

    /// The events of one request body: TelemetryDeck's array of signals, PostHog's `batch`.
    func events(in body: Data) -> [JSONValue] {
        guard let value = try? JSON.parse(Array(body)) else { return [] }
        return (self == .postHog ? value["batch"]?.arrayValue : value.arrayValue) ?? []
    }

    /// An event's name as the tracker knew it: PostHog's `event`; TelemetryDeck's `type`, which
    /// the provider mapped (the tests' names map back one to one).
    func name(of event: JSONValue) -> String? {
        self == .postHog ? event["event"]?.stringValue : event["type"]?.stringValue
    }

    /// An event's parameters: PostHog's `properties`, TelemetryDeck's `payload`.
    func parameters(of event: JSONValue) -> [String: JSONValue] {
        (self == .postHog ? event["properties"] : event["payload"])?.objectValue ?? [:]
    }

    /// The name an event of the tracker's arrives under.
    func wireName(_ name: String) -> String {
        self == .postHog ? name : TelemetryDeckProvider.signalType(for: name)
    }
}

extension FaultServer {
    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Each request's events, with the status the receiver answered.
    func batches(_ backend: VendorBackend) -> [(status: String, events: [JSONValue])] {
        requests.map { request in
            (request["response"] as? String ?? "", body(request["n"] as? Int ?? -1).map(backend.events(in:)) ?? [])
        }
    }

    /// Every byte that came in, headers and bodies, as text.
    var receivedText: String {
        requests.map { request in
            "\(request)\n" + String(decoding: body(request["n"] as? Int ?? -1) ?? Data(), as: UTF8.self)
        }.joined(separator: "\n")
    }
}
