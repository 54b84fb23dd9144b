#!/usr/bin/env bash
# The test-target groups that test.sh and sanitizers.sh run, named once. Sourced.
# Every module's own tests (fast, no child processes):
unit_tests='CrashReporterSupportTests|TrackingTests|TrackingEventsAPITests|CCrashReporterTests|CrashReporterTests'
unit_tests+='|CrashReportFormatTests'
unit_tests+='|CrashSymbolicationTests|CrashReportSentryTests|CrashReportDeliveryTests|CrashReportToolTests'
unit_tests+='|CrashReporterHTTPTests|TrackingEventsAPIUsageTests'
# The integrations' tests (they start the reporter in child processes, deliver to a loopback receiver;
# TrackingVendorTests: the TelemetryDeck and PostHog providers beside the vendors' Python clients):
integration_tests='CrashReporterLoggingTests|CrashReporterLifecycleTests|TrackingVendorTests'
# The C core's tests and the tests that crash real children:
crash_tests='CCrashReporterTests|CrashReporterTests|IntegrationTests\.(CrashKindTests|HandlerBehaviourTests|ThreadInterpositionTests'
crash_tests+='|ThreadCaptureTests|ThreadsAfterCaptureTests|SnapshotTests|PoolTests|CrashWriteFaultTests|AsyncCaptureTests'
crash_tests+='|StderrCopyTests)'
