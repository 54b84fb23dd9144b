// What the files of CCrashReporterTLS share and Swift never sees: the OpenSSL functions resolved
// by library.c, the few OpenSSL types and constants they need (declared here, so the package
// builds without OpenSSL's headers; the values are part of OpenSSL's stable ABI, the same in 1.1
// and 3), and the SIGPIPE guard of sigpipe.c. Symbols shared between files carry the scr_tls_
// prefix and hidden visibility: they never leave the library.
#ifndef SCR_TLS_INTERNAL_H
#define SCR_TLS_INTERNAL_H

#include <signal.h>
#include <stdint.h>

#include "CCrashReporterTLS.h"

#define SCR_TLS_HIDDEN __attribute__((visibility("hidden")))

// Opaque OpenSSL types: only pointers to them are passed around.
typedef struct scr_ossl_ssl scr_ossl_ssl;                  // SSL
typedef struct scr_ossl_ctx scr_ossl_ctx;                  // SSL_CTX
typedef struct scr_ossl_method scr_ossl_method;            // SSL_METHOD
typedef struct scr_ossl_verify_param scr_ossl_verify_param;  // X509_VERIFY_PARAM

// Constants from ssl.h, tls1.h, prov_ssl.h, x509_vfy.h, x509v3.h and crypto.h.
enum {
    SCR_OSSL_ERROR_NONE = 0,
    SCR_OSSL_ERROR_SSL = 1,
    SCR_OSSL_ERROR_WANT_READ = 2,
    SCR_OSSL_ERROR_WANT_WRITE = 3,
    SCR_OSSL_ERROR_SYSCALL = 5,
    SCR_OSSL_ERROR_ZERO_RETURN = 6,
    SCR_OSSL_VERIFY_PEER = 0x01,
    SCR_OSSL_CTRL_MODE = 33,
    SCR_OSSL_CTRL_SET_TLSEXT_HOSTNAME = 55,
    SCR_OSSL_CTRL_SET_MIN_PROTO_VERSION = 123,
    SCR_OSSL_TLSEXT_NAMETYPE_HOST_NAME = 0,
    SCR_OSSL_TLS1_2_VERSION = 0x0303,
    SCR_OSSL_MODE_ENABLE_PARTIAL_WRITE = 0x1,
    SCR_OSSL_MODE_ACCEPT_MOVING_WRITE_BUFFER = 0x2,
    SCR_OSSL_X509_V_OK = 0,
    SCR_OSSL_CHECK_FLAG_NO_PARTIAL_WILDCARDS = 0x4,
};
// OpenSSL 3 only: an end of stream without close_notify reads as a clean end (see session.c).
#define SCR_OSSL_OP_IGNORE_UNEXPECTED_EOF ((uint64_t)1 << 7)
#define SCR_OSSL_INIT_LOAD_CRYPTO_STRINGS ((uint64_t)0x00000002)
#define SCR_OSSL_INIT_NO_ATEXIT ((uint64_t)0x00080000)
#define SCR_OSSL_INIT_LOAD_SSL_STRINGS ((uint64_t)0x00200000)

/// The OpenSSL functions the sessions call, resolved once by scr_tls_load. Every member is set
/// when scr_tls_load has returned 0.
typedef struct {
    int (*OPENSSL_init_ssl)(uint64_t opts, const void *settings);
    const scr_ossl_method *(*TLS_client_method)(void);
    scr_ossl_ctx *(*SSL_CTX_new)(const scr_ossl_method *method);
    void (*SSL_CTX_free)(scr_ossl_ctx *ctx);
    long (*SSL_CTX_ctrl)(scr_ossl_ctx *ctx, int cmd, long larg, void *parg);
    uint64_t (*SSL_CTX_set_options)(scr_ossl_ctx *ctx, uint64_t options);
    void (*SSL_CTX_set_verify)(scr_ossl_ctx *ctx, int mode, void *callback);
    int (*SSL_CTX_load_verify_locations)(scr_ossl_ctx *ctx, const char *file, const char *dir);
    scr_ossl_ssl *(*SSL_new)(scr_ossl_ctx *ctx);
    void (*SSL_free)(scr_ossl_ssl *ssl);
    int (*SSL_set_fd)(scr_ossl_ssl *ssl, int fd);
    long (*SSL_ctrl)(scr_ossl_ssl *ssl, int cmd, long larg, void *parg);
    int (*SSL_set1_host)(scr_ossl_ssl *ssl, const char *host);
    void (*SSL_set_hostflags)(scr_ossl_ssl *ssl, unsigned int flags);
    scr_ossl_verify_param *(*SSL_get0_param)(scr_ossl_ssl *ssl);
    int (*SSL_connect)(scr_ossl_ssl *ssl);
    int (*SSL_read)(scr_ossl_ssl *ssl, void *buffer, int length);
    int (*SSL_write)(scr_ossl_ssl *ssl, const void *buffer, int length);
    int (*SSL_shutdown)(scr_ossl_ssl *ssl);
    int (*SSL_get_error)(const scr_ossl_ssl *ssl, int ret);
    long (*SSL_get_verify_result)(const scr_ossl_ssl *ssl);
    // libcrypto's, found through libssl's dependency on it.
    unsigned long (*ERR_get_error)(void);
    unsigned long (*ERR_peek_error)(void);
    void (*ERR_clear_error)(void);
    const char *(*ERR_reason_error_string)(unsigned long error);
    void (*ERR_error_string_n)(unsigned long error, char *buffer, size_t length);
    const char *(*X509_verify_cert_error_string)(long result);
    const char *(*X509_get_default_cert_file)(void);
    const char *(*X509_get_default_cert_dir)(void);
    int (*X509_VERIFY_PARAM_set1_ip_asc)(scr_ossl_verify_param *param, const char *ip);
} scr_tls_functions;

/// The resolved functions (library.c). Read only after scr_tls_load returned 0.
SCR_TLS_HIDDEN extern scr_tls_functions scr_tls_fn;

/// The major version of the loaded libssl (3 or 1). Read only after scr_tls_load returned 0.
SCR_TLS_HIDDEN extern int scr_tls_major_version;

/// Whether scr_tls_load has succeeded. Not async-signal-safe.
SCR_TLS_HIDDEN int scr_tls_is_loaded(void);

/// What sigpipe.c needs to put the thread's signal state back.
typedef struct {
    sigset_t previous_mask;
    int was_pending;
} scr_tls_sigpipe_guard;

/// Blocks SIGPIPE on the calling thread before an OpenSSL call that may write(2) to the socket.
/// Not async-signal-safe in spirit (it exists for OpenSSL calls), though it only makes syscalls.
SCR_TLS_HIDDEN void scr_tls_sigpipe_hold(scr_tls_sigpipe_guard *guard);

/// Consumes a SIGPIPE that the OpenSSL call raised on this thread, then restores the mask.
/// Not async-signal-safe in spirit, as above.
SCR_TLS_HIDDEN void scr_tls_sigpipe_release(scr_tls_sigpipe_guard *guard);

#endif
