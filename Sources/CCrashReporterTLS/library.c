// Finding OpenSSL at run time. The first https request calls scr_tls_load: it dlopens libssl.so.3
// (else libssl.so.1.1) with RTLD_LOCAL, so OpenSSL's symbols never mix with the service's own,
// and resolves every function the sessions need on that handle. dlsym on a handle also searches
// the library's dependencies, which finds libcrypto's functions; when it does not (an unusual
// build), libcrypto is opened by its own name. The library is never closed: sessions may run on
// other threads, and OpenSSL is not made to be unloaded.
//
// OpenSSL is initialised with OPENSSL_INIT_NO_ATEXIT: its exit-time cleanup would otherwise run
// while the delivery worker may still be inside a TLS call when main returns.
#ifndef _GNU_SOURCE
#error "CCrashReporterTLS needs _GNU_SOURCE (Package.swift sets it in cSettings)"
#endif

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

scr_tls_functions scr_tls_fn;
int scr_tls_major_version;

static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static int g_loaded;
static char g_error[512];

/// One libssl to try, with the libcrypto of the same version.
typedef struct {
    const char *ssl;
    const char *crypto;
    int major;
} candidate;

static const candidate g_candidates[] = {
    {"libssl.so.3", "libcrypto.so.3", 3},
    {"libssl.so.1.1", "libcrypto.so.1.1", 1},
};

/// Where a resolved function goes, and from which library.
typedef struct {
    const char *name;
    void **slot;
    int from_crypto;
} symbol;

#define SSL_SYMBOL(name) {#name, (void **)&scr_tls_fn.name, 0}
#define CRYPTO_SYMBOL(name) {#name, (void **)&scr_tls_fn.name, 1}

static const symbol g_symbols[] = {
    SSL_SYMBOL(OPENSSL_init_ssl),
    SSL_SYMBOL(TLS_client_method),
    SSL_SYMBOL(SSL_CTX_new),
    SSL_SYMBOL(SSL_CTX_free),
    SSL_SYMBOL(SSL_CTX_ctrl),
    SSL_SYMBOL(SSL_CTX_set_options),
    SSL_SYMBOL(SSL_CTX_set_verify),
    SSL_SYMBOL(SSL_CTX_load_verify_locations),
    SSL_SYMBOL(SSL_new),
    SSL_SYMBOL(SSL_free),
    SSL_SYMBOL(SSL_set_fd),
    SSL_SYMBOL(SSL_ctrl),
    SSL_SYMBOL(SSL_set1_host),
    SSL_SYMBOL(SSL_set_hostflags),
    SSL_SYMBOL(SSL_get0_param),
    SSL_SYMBOL(SSL_connect),
    SSL_SYMBOL(SSL_read),
    SSL_SYMBOL(SSL_write),
    SSL_SYMBOL(SSL_shutdown),
    SSL_SYMBOL(SSL_get_error),
    SSL_SYMBOL(SSL_get_verify_result),
    CRYPTO_SYMBOL(ERR_get_error),
    CRYPTO_SYMBOL(ERR_peek_error),
    CRYPTO_SYMBOL(ERR_clear_error),
    CRYPTO_SYMBOL(ERR_reason_error_string),
    CRYPTO_SYMBOL(ERR_error_string_n),
    CRYPTO_SYMBOL(X509_verify_cert_error_string),
    CRYPTO_SYMBOL(X509_get_default_cert_file),
    CRYPTO_SYMBOL(X509_get_default_cert_dir),
    CRYPTO_SYMBOL(X509_VERIFY_PARAM_set1_ip_asc),
};

/// Resolves every function of g_symbols; on failure names the missing one in g_error.
/// Not async-signal-safe: dlsym and dlopen lock and allocate.
static int resolve_all(void *ssl, const candidate *which) {
    void *crypto = NULL;
    for (size_t i = 0; i < sizeof g_symbols / sizeof g_symbols[0]; i++) {
        const symbol *wanted = &g_symbols[i];
        void *address = dlsym(ssl, wanted->name);
        if (address == NULL && wanted->from_crypto) {
            if (crypto == NULL) crypto = dlopen(which->crypto, RTLD_NOW | RTLD_LOCAL);
            if (crypto != NULL) address = dlsym(crypto, wanted->name);
        }
        if (address == NULL) {
            snprintf(g_error, sizeof g_error, "%s lacks %s (OpenSSL 1.1.0 or later is needed)",
                     wanted->from_crypto ? which->crypto : which->ssl, wanted->name);
            return -1;
        }
        *wanted->slot = address;
    }
    return 0;
}

/// The pthread_once body: tries each candidate in turn. Not async-signal-safe.
static void load_once(void) {
    const char *first_failure = NULL;
    char reason[256] = "";
    for (size_t i = 0; i < sizeof g_candidates / sizeof g_candidates[0]; i++) {
        const candidate *which = &g_candidates[i];
        void *ssl = dlopen(which->ssl, RTLD_NOW | RTLD_LOCAL);
        if (ssl == NULL) {
            if (first_failure == NULL) {
                first_failure = which->ssl;
                const char *text = dlerror();
                snprintf(reason, sizeof reason, "%s", text != NULL ? text : "not found");
            }
            continue;
        }
        if (resolve_all(ssl, which) != 0) return;  // g_error names the missing function
        scr_tls_major_version = which->major;
        uint64_t options = SCR_OSSL_INIT_LOAD_SSL_STRINGS | SCR_OSSL_INIT_LOAD_CRYPTO_STRINGS;
        if (which->major >= 3) options |= SCR_OSSL_INIT_NO_ATEXIT;
        if (scr_tls_fn.OPENSSL_init_ssl(options, NULL) != 1) {
            snprintf(g_error, sizeof g_error, "%s could not be initialised", which->ssl);
            return;
        }
        g_loaded = 1;
        return;
    }
    snprintf(g_error, sizeof g_error,
             "https needs OpenSSL's libssl.so.3 (or libssl.so.1.1), which cannot be loaded (%s); "
             "on Debian/Ubuntu install the libssl3 package",
             reason);
}

int scr_tls_load(char *error, size_t capacity) {
    pthread_once(&g_once, load_once);
    if (g_loaded) return 0;
    if (error != NULL && capacity > 0) snprintf(error, capacity, "%s", g_error);
    return -1;
}

int scr_tls_is_loaded(void) {
    pthread_once(&g_once, load_once);
    return g_loaded;
}
