#!/usr/bin/env bash
# The test-target groups that test.sh and sanitizers.sh run, named once. Sourced.
# Every module's own tests (fast, no child processes):
unit_tests='CrashReporterSupportTests|TrackingTests|TrackingEventsAPITests|CrashReporterTests|CrashReportFormatTests'
unit_tests+='|CrashSymbolicationTests|CrashReportSentryTests|CrashReportDeliveryTests|CrashReportToolTests'
unit_tests+='|CrashReporterHTTPTests'
# The integrations' tests (they start the reporter in child processes, deliver to a loopback receiver):
integration_tests='CrashReporterLoggingTests|CrashReporterLifecycleTests'
# The C core's tests and the tests that crash real children:
crash_tests='CrashReporterTests|IntegrationTests\.(CrashKindTests|HandlerBehaviourTests|ThreadInterpositionTests|ThreadCaptureTests|SnapshotTests|CrashWriteFaultTests|AsyncCaptureTests)'
