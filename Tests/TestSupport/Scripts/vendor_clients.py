#!/usr/bin/env python3
"""Sends one event through a vendor's official Python client, for the wire-format tests.

Usage: vendor_clients.py posthog|telemetrydeck URL EVENT_JSON

EVENT_JSON: {"name", "id" (uuid), "install_id", "timestamp" (ISO 8601), "parameters" (object),
and for TelemetryDeck "app_id", "client_user", "session_id", "type"; for PostHog "api_key"}.

posthog (PyPI `posthog`): a synchronous client for URL as its host, capturing one anonymous event
(no person profile, GeoIP disabled), flushed before exit.

telemetrydeck (PyPI `telemetrydeckpy`): the client posts to TelemetryDeck's own host, which it
does not let a caller change; the script sends the prepared request to URL instead, path and
body untouched. Nothing else of the request is altered.
"""
import json
import sys
import urllib.parse


def posthog_capture(url, event):
    from posthog import Posthog

    client = Posthog(event["api_key"], host=url, sync_mode=True, disable_geoip=True)
    properties = dict(event["parameters"])
    properties["$process_person_profile"] = False
    client.capture(
        event["name"],
        distinct_id=event["install_id"],
        properties=properties,
        uuid=event["id"],
        timestamp=event["timestamp"],
    )
    client.flush()
    client.shutdown()


def telemetrydeck_signal(url, event):
    import requests
    from telemetrydeckpy import Signal, TelemetryDeck

    target = urllib.parse.urlsplit(url)
    original_send = requests.Session.send

    def send_to_loopback(self, request, **kwargs):
        parts = urllib.parse.urlsplit(request.url)
        request.url = urllib.parse.urlunsplit((target.scheme, target.netloc, parts.path, parts.query, ""))
        return original_send(self, request, **kwargs)

    requests.Session.send = send_to_loopback
    signal = Signal(event["app_id"], event["client_user"], event["type"], session_id=event["session_id"],
                    is_test_mode=True)
    signal.payload = dict(event["parameters"])
    TelemetryDeck().send_signal(signal)


def main():
    backend, url, event = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
    {"posthog": posthog_capture, "telemetrydeck": telemetrydeck_signal}[backend](url, event)


if __name__ == "__main__":
    main()
