enum Help {
    static let version = "crash-collector 0.1.0"

    static let usage = """
        USAGE: crash-collector [--host ADDRESS] [--port PORT] [--data DIR] [--sentry-key KEY]
                               [--events-write-key KEY]... [--max-body BYTES] [--read-timeout SECONDS]
                               [--max-connections N] [--events-rate-per-key N] [--events-rate-per-install N]
                               [--fail-next N STATUS] [--retry-after SECONDS]
        """

    static let text = """
        OVERVIEW: A local receiver for crash reports, Sentry envelopes and analytics events, for
        development, demos and tests. Serves HTTP/1.1 on loopback by default.

        \(usage)

        OPTIONS:
          --host ADDRESS          IPv4 address to listen on (default: 127.0.0.1)
          --port PORT             Port to listen on; 0 picks a free one (default: 8089)
          --data DIR              Where reports and events are stored (default: ./crash-collector-data)
          --sentry-key KEY        sentry_key that POST /api/<project>/envelope/ requires (default: any)
          --events-write-key KEY  X-Write-Key that POST /v1/events accepts; repeat for several
                                  (default: any non-empty key)
          --max-body BYTES        Largest report or envelope body, before and after gzip
                                  (default: 16777216); /v1/events bodies are at most 1 MiB
          --read-timeout SECONDS  Time a request may take to arrive, and an idle connection may
                                  stay open (default: 10)
          --max-connections N     Connections served at once; more get 503 (default: 64)
          --events-rate-per-key N       Events per minute per write key (default: 10000)
          --events-rate-per-install N   Events per minute per anonymous_id (default: 300)
          --fail-next N STATUS    Answer the next N uploads with STATUS, storing nothing (a test hook;
                                  also CRASH_COLLECTOR_FAIL_NEXT="N STATUS" or POST /control/fail-next)
          --retry-after SECONDS   Retry-After sent with an injected 429 or 503 (default: 1)
          --version               Show the version.
          -h, --help              Show help information.

        ENDPOINTS:
          POST /api/reports                 a crash report file (gzip), header X-Crash-Report-ID
          POST /api/<project>/envelope/     a Sentry envelope, header X-Sentry-Auth
          POST /v1/events                   analytics events (docs/events-api.md), header X-Write-Key
          GET  /                            crash groups and event counts (HTML)
          GET  /api/reports, /api/groups, /api/events, /reports/<id>[?format=json]

        Prints 'crash-collector listening on http://ADDRESS:PORT' when ready; stops on SIGTERM or
        SIGINT. See docs/collector.md.
        """
}
