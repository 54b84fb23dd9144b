// TLS for CrashReporterHTTP, from the system's OpenSSL (libssl.so.3, else libssl.so.1.1), loaded
// with dlopen the first time an https request is made. Nothing here is linked at build time and
// no OpenSSL header is needed: a service that never uploads over https never loads libssl.
//
// None of these functions is async-signal-safe (they allocate, lock and call into OpenSSL); none
// is ever called from the crash handler. They run on the delivery worker's thread or on the
// HTTP client's own request thread.
//
// A session works over a socket the caller has already connected and set non-blocking. Every
// operation returns at once: SCR_TLS_WANT_READ or SCR_TLS_WANT_WRITE tells the caller to poll
// the socket for that and call again, which is how the caller keeps its one deadline.
#ifndef SCR_TLS_H
#define SCR_TLS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The operation finished (handshake done, or bytes moved: then the count is returned).
#define SCR_TLS_OK 1
/// The peer closed the connection (only from scr_tls_read).
#define SCR_TLS_CLOSED 0
/// The operation failed; scr_tls_error says why. The session can only be closed.
#define SCR_TLS_ERROR (-1)
/// Poll the socket for reading, then call the same operation again.
#define SCR_TLS_WANT_READ (-2)
/// Poll the socket for writing, then call the same operation again.
#define SCR_TLS_WANT_WRITE (-3)

/// One TLS client connection over a socket the caller owns (scr_tls_close never closes the fd).
typedef struct scr_tls_session scr_tls_session;

/// Loads libssl (and, through it, libcrypto) once per process and resolves the functions the
/// sessions use. Returns 0 when the library is usable; otherwise -1 with a one-line reason in
/// `error` (which library is missing and the Debian/Ubuntu package that provides it). Later
/// calls return the first call's result. Not async-signal-safe: dlopen allocates and locks.
int scr_tls_load(char *error, size_t capacity);

/// A client session over `fd` for `host` (a DNS name, or a literal IPv4/IPv6 address without
/// brackets): SNI for names, verification of the certificate chain against the trust store and
/// of the host name (or IP address) against the certificate, TLS 1.2 at least. The trust store is
/// OpenSSL's default one, with `ca_file` / `ca_dir` (nullable) in place of its default file and
/// directory, as SSL_CERT_FILE / SSL_CERT_DIR would. Returns NULL with a reason in `error` when
/// the session cannot be set up. Call scr_tls_load first. Not async-signal-safe: it allocates and
/// reads the CA files.
scr_tls_session *scr_tls_open(
    int fd, const char *host, const char *ca_file, const char *ca_dir, char *error, size_t capacity);

/// Drives the handshake: SCR_TLS_OK when done, SCR_TLS_WANT_READ / SCR_TLS_WANT_WRITE to be
/// called again, SCR_TLS_ERROR with the reason in scr_tls_error (for a rejected certificate:
/// "certificate verify failed: " and OpenSSL's verification error). Not async-signal-safe.
int scr_tls_handshake(scr_tls_session *session);

/// Reads decrypted bytes: a count > 0, SCR_TLS_CLOSED at the end of the stream, or one of the
/// negative codes. Not async-signal-safe.
long scr_tls_read(scr_tls_session *session, void *buffer, size_t length);

/// Writes bytes (some or all of them): a count > 0 or one of the negative codes. After a WANT
/// code, call again with the same bytes. SIGPIPE is held back around OpenSSL's write(2) (see
/// sigpipe.c), so a peer that went away gives SCR_TLS_ERROR, never a killed process. Not
/// async-signal-safe.
long scr_tls_write(scr_tls_session *session, const void *buffer, size_t length);

/// The reason for the session's last failure, one line; "" when nothing failed. Valid until the
/// next call on the session. Not async-signal-safe (it only reads memory, but it exists for the
/// caller's error message, never for the crash path).
const char *scr_tls_error(const scr_tls_session *session);

/// Sends close_notify when the session is healthy (best effort, never waits) and frees the
/// session. The socket stays open: its owner closes it. Not async-signal-safe: it frees memory.
void scr_tls_close(scr_tls_session *session);

#ifdef __cplusplus
}
#endif

#endif
