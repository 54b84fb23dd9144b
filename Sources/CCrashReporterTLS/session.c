// One TLS client connection: set up (trust store, SNI, host name or IP verification, TLS 1.2 at
// least), then handshake, read, write and close, each returning at once on a non-blocking socket
// so that the Swift caller can poll with its own deadline. Each context is made for its session:
// the CA files are read when the session opens (so a changed SSL_CERT_FILE is seen by the next
// request) and nothing is shared between threads. Sessions are rare (a crash upload, an analytics
// batch), so the few milliseconds of reading the CA bundle do not matter.
//
// OpenSSL's error queue is per thread: it is cleared before each call and read into the session's
// own error text right after, so the text stays with the session that failed.
#ifndef _GNU_SOURCE
#error "CCrashReporterTLS needs _GNU_SOURCE (Package.swift sets it in cSettings)"
#endif

#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct scr_tls_session {
    scr_ossl_ctx *ctx;
    scr_ossl_ssl *ssl;
    int established;
    int failed;
    char error[384];
};

/// Writes a formatted one-line reason. Not async-signal-safe (vsnprintf).
static void set_text(char *buffer, size_t capacity, const char *format, ...) {
    if (buffer == NULL || capacity == 0) return;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(buffer, capacity, format, arguments);
    va_end(arguments);
}

/// The oldest error in OpenSSL's queue as "reason" (or OpenSSL's full code when it has no reason
/// text), then an empty queue. Not async-signal-safe.
static void take_queue_text(char *buffer, size_t capacity) {
    unsigned long code = scr_tls_fn.ERR_get_error();
    const char *reason = code != 0 ? scr_tls_fn.ERR_reason_error_string(code) : NULL;
    if (reason != NULL) {
        set_text(buffer, capacity, "%s", reason);
    } else if (code != 0) {
        scr_tls_fn.ERR_error_string_n(code, buffer, capacity);
    } else {
        set_text(buffer, capacity, "unknown OpenSSL error");
    }
    scr_tls_fn.ERR_clear_error();
}

/// The text of an errno value (GNU strerror_r, thread-safe). Not async-signal-safe.
static const char *errno_text(int number, char *scratch, size_t capacity) {
    return strerror_r(number, scratch, capacity);
}

/// Turns an OpenSSL result into the API's codes, recording the reason of a failure. `what`
/// starts the reason ("TLS handshake failed"); `eof_is_end` says a closed stream is a normal
/// result here (reads) rather than a failure. Not async-signal-safe.
static long outcome(scr_tls_session *session, int ret, int ssl_error, int saved_errno, const char *what,
                    int eof_is_end) {
    if (ret > 0) return ret;
    char detail[256];
    char scratch[128];
    switch (ssl_error) {
    case SCR_OSSL_ERROR_WANT_READ:
        return SCR_TLS_WANT_READ;
    case SCR_OSSL_ERROR_WANT_WRITE:
        return SCR_TLS_WANT_WRITE;
    case SCR_OSSL_ERROR_ZERO_RETURN:
        if (eof_is_end) return SCR_TLS_CLOSED;
        set_text(detail, sizeof detail, "the server closed the connection");
        break;
    case SCR_OSSL_ERROR_SYSCALL:
        if (scr_tls_fn.ERR_peek_error() != 0) {
            take_queue_text(detail, sizeof detail);
        } else if (saved_errno != 0) {
            set_text(detail, sizeof detail, "%s", errno_text(saved_errno, scratch, sizeof scratch));
        } else {
            // OpenSSL 1.1: the peer closed the socket without close_notify.
            if (eof_is_end) return SCR_TLS_CLOSED;
            set_text(detail, sizeof detail, "the server closed the connection");
        }
        break;
    case SCR_OSSL_ERROR_SSL: {
        long verify = scr_tls_fn.SSL_get_verify_result(session->ssl);
        if (verify != SCR_OSSL_X509_V_OK) {
            const char *reason = scr_tls_fn.X509_verify_cert_error_string(verify);
            set_text(detail, sizeof detail, "certificate verify failed: %s", reason != NULL ? reason : "unknown");
            scr_tls_fn.ERR_clear_error();
        } else {
            take_queue_text(detail, sizeof detail);
        }
        break;
    }
    default:
        set_text(detail, sizeof detail, "OpenSSL error %d", ssl_error);
        break;
    }
    set_text(session->error, sizeof session->error, "%s: %s", what, detail);
    session->failed = 1;
    return SCR_TLS_ERROR;
}

/// Frees what open() made so far. Not async-signal-safe.
static void release(scr_tls_session *session) {
    if (session->ssl != NULL) scr_tls_fn.SSL_free(session->ssl);
    if (session->ctx != NULL) scr_tls_fn.SSL_CTX_free(session->ctx);
    free(session);
}

/// Reports a setup failure as "what: OpenSSL's reason" and frees the session. Not
/// async-signal-safe.
static scr_tls_session *setup_failed(scr_tls_session *session, const char *what, char *error, size_t capacity) {
    char detail[256];
    take_queue_text(detail, sizeof detail);
    set_text(error, capacity, "%s: %s", what, detail);
    release(session);
    return NULL;
}

/// Loads one place of the trust store: `given` (the caller's), else `fallback` (OpenSSL's
/// default), as a file or a directory. A default that cannot be loaded is not an error; a place
/// the caller named is ("`what` `given`: OpenSSL's reason"). Not async-signal-safe: it reads files.
static int load_trust_place(scr_tls_session *session, const char *given, const char *fallback, int is_dir,
                            const char *what, char *error, size_t capacity) {
    const char *place = given != NULL ? given : fallback;
    if (place == NULL) return 0;
    const char *file = is_dir ? NULL : place;
    const char *dir = is_dir ? place : NULL;
    if (scr_tls_fn.SSL_CTX_load_verify_locations(session->ctx, file, dir) == 1) return 0;
    if (given == NULL) {
        scr_tls_fn.ERR_clear_error();
        return 0;
    }
    char detail[256];
    take_queue_text(detail, sizeof detail);
    set_text(error, capacity, "%s %s: %s", what, given, detail);
    return -1;
}

/// Loads the trust store the way OpenSSL's default verify paths do, with the caller's file and
/// directory in place of the defaults when given. A missing default file is not an error (the
/// directory may hold the certificates); a file the caller named that cannot be read is. Not
/// async-signal-safe: it reads files.
static int load_trust(scr_tls_session *session, const char *ca_file, const char *ca_dir, char *error,
                      size_t capacity) {
    if (load_trust_place(session, ca_file, scr_tls_fn.X509_get_default_cert_file(), 0,
                         "cannot load the CA certificates in", error, capacity) != 0) {
        return -1;
    }
    return load_trust_place(session, ca_dir, scr_tls_fn.X509_get_default_cert_dir(), 1, "cannot use the CA directory",
                            error, capacity);
}

/// Whether `host` is a literal IPv4 or IPv6 address (no brackets). Not async-signal-safe in
/// spirit (inet_pton is safe, but this serves session setup only).
static int is_ip_literal(const char *host) {
    unsigned char address[sizeof(struct in6_addr)];
    return inet_pton(AF_INET, host, address) == 1 || inet_pton(AF_INET6, host, address) == 1;
}

/// Not async-signal-safe: allocates, reads the CA files. See the header.
scr_tls_session *scr_tls_open(int fd, const char *host, const char *ca_file, const char *ca_dir, char *error,
                              size_t capacity) {
    if (!scr_tls_is_loaded()) {
        set_text(error, capacity, "the TLS library is not loaded");
        return NULL;
    }
    if (host == NULL || host[0] == '\0') {
        set_text(error, capacity, "no host name to verify the certificate against");
        return NULL;
    }
    scr_tls_session *session = calloc(1, sizeof *session);
    if (session == NULL) {
        set_text(error, capacity, "out of memory");
        return NULL;
    }
    const scr_tls_functions *f = &scr_tls_fn;
    f->ERR_clear_error();
    session->ctx = f->SSL_CTX_new(f->TLS_client_method());
    if (session->ctx == NULL) return setup_failed(session, "cannot create a TLS context", error, capacity);
    if (f->SSL_CTX_ctrl(session->ctx, SCR_OSSL_CTRL_SET_MIN_PROTO_VERSION, SCR_OSSL_TLS1_2_VERSION, NULL) != 1) {
        return setup_failed(session, "cannot require TLS 1.2", error, capacity);
    }
    f->SSL_CTX_ctrl(session->ctx, SCR_OSSL_CTRL_MODE,
                    SCR_OSSL_MODE_ENABLE_PARTIAL_WRITE | SCR_OSSL_MODE_ACCEPT_MOVING_WRITE_BUFFER, NULL);
    if (scr_tls_major_version >= 3) f->SSL_CTX_set_options(session->ctx, SCR_OSSL_OP_IGNORE_UNEXPECTED_EOF);
    f->SSL_CTX_set_verify(session->ctx, SCR_OSSL_VERIFY_PEER, NULL);
    if (load_trust(session, ca_file, ca_dir, error, capacity) != 0) {
        release(session);
        return NULL;
    }
    session->ssl = f->SSL_new(session->ctx);
    if (session->ssl == NULL) return setup_failed(session, "cannot create a TLS session", error, capacity);
    if (f->SSL_set_fd(session->ssl, fd) != 1) return setup_failed(session, "cannot attach the socket", error, capacity);
    if (is_ip_literal(host)) {
        // No SNI for addresses (RFC 6066); the certificate must name the address itself.
        if (f->X509_VERIFY_PARAM_set1_ip_asc(f->SSL_get0_param(session->ssl), host) != 1) {
            return setup_failed(session, "cannot verify the IP address", error, capacity);
        }
    } else {
        if (f->SSL_ctrl(session->ssl, SCR_OSSL_CTRL_SET_TLSEXT_HOSTNAME, SCR_OSSL_TLSEXT_NAMETYPE_HOST_NAME,
                        (void *)host) != 1) {
            return setup_failed(session, "cannot set the server name", error, capacity);
        }
        f->SSL_set_hostflags(session->ssl, SCR_OSSL_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
        if (f->SSL_set1_host(session->ssl, host) != 1) {
            return setup_failed(session, "cannot verify the host name", error, capacity);
        }
    }
    return session;
}

/// Not async-signal-safe: OpenSSL allocates and locks. See the header.
int scr_tls_handshake(scr_tls_session *session) {
    if (session->failed) return SCR_TLS_ERROR;
    scr_tls_sigpipe_guard guard;
    scr_tls_sigpipe_hold(&guard);
    scr_tls_fn.ERR_clear_error();
    errno = 0;
    int ret = scr_tls_fn.SSL_connect(session->ssl);
    int saved_errno = errno;
    int ssl_error = ret == 1 ? SCR_OSSL_ERROR_NONE : scr_tls_fn.SSL_get_error(session->ssl, ret);
    long result = outcome(session, ret, ssl_error, saved_errno, "TLS handshake failed", 0);
    scr_tls_sigpipe_release(&guard);
    if (result > 0) {
        session->established = 1;
        return SCR_TLS_OK;
    }
    return (int)result;
}

/// Not async-signal-safe: OpenSSL allocates and locks. One read or write of `length` bytes at
/// most with SIGPIPE held on this thread (a write to a closed peer must not kill the service).
static long transfer(scr_tls_session *session, void *buffer, size_t length, bool reading) {
    if (session->failed) return SCR_TLS_ERROR;
    int count = length > INT_MAX ? INT_MAX : (int)length;
    scr_tls_sigpipe_guard guard;
    scr_tls_sigpipe_hold(&guard);
    scr_tls_fn.ERR_clear_error();
    errno = 0;
    int ret = reading ? scr_tls_fn.SSL_read(session->ssl, buffer, count)
                      : scr_tls_fn.SSL_write(session->ssl, buffer, count);
    int saved_errno = errno;
    int ssl_error = ret > 0 ? SCR_OSSL_ERROR_NONE : scr_tls_fn.SSL_get_error(session->ssl, ret);
    long result =
        outcome(session, ret, ssl_error, saved_errno, reading ? "TLS read failed" : "TLS write failed", reading);
    scr_tls_sigpipe_release(&guard);
    return result;
}

/// Not async-signal-safe: OpenSSL allocates and locks. See the header.
long scr_tls_read(scr_tls_session *session, void *buffer, size_t length) {
    return transfer(session, buffer, length, true);
}

/// Not async-signal-safe: OpenSSL allocates and locks. See the header.
long scr_tls_write(scr_tls_session *session, const void *buffer, size_t length) {
    return transfer(session, (void *)buffer, length, false);
}

/// Not async-signal-safe in spirit: it only reads memory, but serves error messages. See the header.
const char *scr_tls_error(const scr_tls_session *session) {
    return session->error;
}

/// Not async-signal-safe: OpenSSL frees memory and may write close_notify. See the header.
void scr_tls_close(scr_tls_session *session) {
    if (session == NULL) return;
    if (session->established && !session->failed) {
        scr_tls_sigpipe_guard guard;
        scr_tls_sigpipe_hold(&guard);
        scr_tls_fn.ERR_clear_error();
        scr_tls_fn.SSL_shutdown(session->ssl);
        scr_tls_fn.ERR_clear_error();
        scr_tls_sigpipe_release(&guard);
    }
    release(session);
}
