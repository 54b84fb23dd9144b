// The list of loaded ELF images, taken at install with dl_iterate_phdr (which is not
// async-signal-safe, so the handler never calls it) into memory reserved then: name,
// path (home directory shortened to `~`), load bias, extent and GNU build id. The handler
// reads this table to name the image of each frame and to write the `images` array.
//
// Images loaded later (dlopen) are added when a report is written, from the dynamic linker's
// own list (`_r_debug.r_map`), read without its lock: the list is only trusted while
// `r_state` says RT_CONSISTENT before and after the walk (else the additions are dropped),
// and the walk runs under the fault guard, so a torn or unmapped entry costs the additions,
// never the report. A shared object's ELF header sits at its load bias (its first PT_LOAD
// maps file offset 0 at address 0), which gives its program headers.
#include "internal.h"

#include <elf.h>
#include <link.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define SCR_MAX_IMAGES 512
#define SCR_PATH_MAX 1024
#define SCR_PATH_POOL (64 * 1024)
#define SCR_BUILD_ID_MAX 40

typedef struct scr_image {
    uintptr_t base;  // load bias
    uintptr_t low;   // lowest mapped address
    uintptr_t high;  // end of the highest PT_LOAD
    uint32_t path;   // offset of the NUL-terminated path in the pool
    bool main;
    uint8_t build_id_len;
    uint8_t build_id[SCR_BUILD_ID_MAX];
} scr_image;

static struct {
    scr_image *images;
    char *pool;
    size_t pool_used;
    int count;
    size_t mapped;
    char home[SCR_PATH_MAX]; // a copy: the caller's string need not outlive install
    size_t home_len;
} g_images;

// Async-signal-safe: pure computation over an image's mapped notes.
static void read_build_id(const struct dl_phdr_info *info, scr_image *image) {
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_NOTE) continue;
        const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr);
        const char *end = p + ph->p_memsz;
        while (p + sizeof(ElfW(Nhdr)) <= end) {
            const ElfW(Nhdr) *note = (const ElfW(Nhdr) *)p;
            size_t name_size = (note->n_namesz + 3u) & ~3u;
            size_t desc_size = (note->n_descsz + 3u) & ~3u;
            const char *name = p + sizeof(ElfW(Nhdr));
            const uint8_t *desc = (const uint8_t *)(name + name_size);
            if ((const char *)desc + desc_size > end) break;
            if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 && memcmp(name, "GNU", 4) == 0) {
                size_t n = note->n_descsz < SCR_BUILD_ID_MAX ? note->n_descsz : SCR_BUILD_ID_MAX;
                memcpy(image->build_id, desc, n);
                image->build_id_len = (uint8_t)n;
                return;
            }
            p = (const char *)desc + desc_size;
        }
    }
}

// Async-signal-safe: pure computation. Copies `path` into the pool, replacing a leading home directory
// by `~`. Returns false when the pool is full.
static bool set_path(scr_image *image, const char *path) {
    char buffer[SCR_PATH_MAX];
    if (g_images.home_len > 1 && strncmp(path, g_images.home, g_images.home_len) == 0 &&
        (path[g_images.home_len] == '/' || path[g_images.home_len] == '\0')) {
        buffer[0] = '~';
        scr_strlcpy(buffer + 1, path + g_images.home_len, sizeof buffer - 1);
    } else {
        scr_strlcpy(buffer, path, sizeof buffer);
    }
    size_t n = strlen(buffer) + 1;
    if (g_images.pool_used + n > SCR_PATH_POOL) return false;
    memcpy(g_images.pool + g_images.pool_used, buffer, n);
    image->path = (uint32_t)g_images.pool_used;
    g_images.pool_used += n;
    return true;
}

// A dl_iterate_phdr callback at install; also called by scr_images_refresh, where it is
// async-signal-safe: pure computation, except readlink for the executable, which is first in
// the table from install on and so never added there.
static int add_image(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    (void)data;
    if (g_images.count >= SCR_MAX_IMAGES) return 1;
    uintptr_t low = UINTPTR_MAX, high = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD) continue;
        uintptr_t start = info->dlpi_addr + ph->p_vaddr;
        uintptr_t end = start + ph->p_memsz;
        if (start < low) low = start;
        if (end > high) high = end;
    }
    if (high == 0) return 0;
    scr_image *image = &g_images.images[g_images.count];
    memset(image, 0, sizeof *image);
    image->base = info->dlpi_addr;
    image->low = low;
    image->high = high;
    const char *name = info->dlpi_name;
    if (g_images.count == 0 && (name == NULL || name[0] == '\0')) {
        // The executable comes first with an empty name; /proc/self/exe names it.
        char exe[SCR_PATH_MAX];
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        exe[n > 0 ? n : 0] = '\0';
        if (!set_path(image, exe)) return 1;
        image->main = true;
    } else if (name != NULL && name[0] != '\0') {
        if (!set_path(image, name)) return 1;
    } else {
        return 0; // an unnamed image other than the executable carries no useful identity
    }
    read_build_id(info, image);
    // Published after the entry is whole: a captured thread's async walk may be looking up
    // addresses meanwhile (scr_images_find).
    __atomic_store_n(&g_images.count, g_images.count + 1, __ATOMIC_RELEASE);
    return 0;
}

// Not async-signal-safe (mmap, dl_iterate_phdr). Called once at install.
int scr_images_capture(const char *home_dir) {
    if (g_images.images == NULL) {
        size_t bytes = sizeof(scr_image) * SCR_MAX_IMAGES + SCR_PATH_POOL;
        void *mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (mem == MAP_FAILED) return -1;
        g_images.images = mem;
        g_images.pool = (char *)mem + sizeof(scr_image) * SCR_MAX_IMAGES;
        g_images.mapped = bytes;
    }
    // A home too long for the copy is not shortened at all (never a cut prefix).
    bool usable = home_dir != NULL && strlen(home_dir) < sizeof g_images.home;
    scr_strlcpy(g_images.home, usable ? home_dir : "", sizeof g_images.home);
    g_images.home_len = strlen(g_images.home);
    while (g_images.home_len > 1 && g_images.home[g_images.home_len - 1] == '/') g_images.home_len--;
    g_images.count = 0;
    g_images.pool_used = 0;
    dl_iterate_phdr(add_image, NULL);
    return 0;
}

// Async-signal-safe: reads the table only.
static bool known(uintptr_t base) {
    for (int i = 0; i < g_images.count; i++) {
        if (g_images.images[i].base == base) return true;
    }
    return false;
}

// Async-signal-safe: reads the dynamic linker's list and the mapped ELF headers, and fills
// table entries through add_image (pure computation on an image's headers; readlink only for
// the executable, which is always known already). Runs under scr_guarded (report.c).
void scr_images_refresh(void) {
    const struct r_debug *debug = &_r_debug;
    if (g_images.images == NULL || debug->r_version < 1 || debug->r_state != RT_CONSISTENT) return;
    int count_before = g_images.count;
    size_t pool_before = g_images.pool_used;
    int walked = 0;
    for (const struct link_map *map = debug->r_map; map != NULL && walked < 4 * SCR_MAX_IMAGES; map = map->l_next) {
        walked++;
        if (map->l_addr == 0 || known(map->l_addr) || map->l_name == NULL || map->l_name[0] == '\0') continue;
        const ElfW(Ehdr) *header = (const ElfW(Ehdr) *)map->l_addr;
        if (memcmp(header->e_ident, ELFMAG, SELFMAG) != 0 || header->e_phentsize != sizeof(ElfW(Phdr))) continue;
        struct dl_phdr_info info = {
            .dlpi_addr = map->l_addr,
            .dlpi_name = map->l_name,
            .dlpi_phdr = (const ElfW(Phdr) *)(map->l_addr + header->e_phoff),
            .dlpi_phnum = header->e_phnum,
        };
        if (add_image(&info, sizeof info, NULL) != 0) break;
    }
    if (debug->r_state != RT_CONSISTENT) {
        __atomic_store_n(&g_images.count, count_before, __ATOMIC_RELEASE); // the list changed under the walk
        g_images.pool_used = pool_before;
    }
}

// Async-signal-safe: reads the table only.
int scr_images_find(uintptr_t address) {
    int count = __atomic_load_n(&g_images.count, __ATOMIC_ACQUIRE);
    for (int i = 0; i < count; i++) {
        if (address >= g_images.images[i].low && address < g_images.images[i].high) return i;
    }
    return -1;
}

// Async-signal-safe: whether image `index` is the executable.
bool scr_images_is_main(int index) { return index >= 0 && index < g_images.count && g_images.images[index].main; }

// Async-signal-safe: reads the table only.
const char *scr_images_name(int index) {
    const char *path = g_images.pool + g_images.images[index].path;
    const char *slash = strrchr(path, '/');
    return slash != NULL ? slash + 1 : path;
}

// Async-signal-safe: reads the table only.
uintptr_t scr_images_base(int index) { return g_images.images[index].base; }

// Async-signal-safe.
size_t scr_images_reserved_bytes(void) { return g_images.mapped; }

// Async-signal-safe: writer calls only.
void scr_images_write_json(scr_writer *w) {
    static const char hex[] = "0123456789abcdef";
    scr_json_array_begin(w);
    for (int i = 0; i < g_images.count; i++) {
        const scr_image *image = &g_images.images[i];
        const char *path = g_images.pool + image->path;
        const char *slash = strrchr(path, '/');
        const char *name = slash != NULL ? slash + 1 : path;
        char build_id[2 * SCR_BUILD_ID_MAX];
        for (int b = 0; b < image->build_id_len; b++) {
            build_id[2 * b] = hex[image->build_id[b] >> 4];
            build_id[2 * b + 1] = hex[image->build_id[b] & 0xf];
        }
        scr_json_object_begin(w);
        scr_json_key(w, "name");
        scr_json_cstring(w, name, 255);
        scr_json_key(w, "path");
        scr_json_cstring(w, path, 1023);
        scr_json_key(w, "base");
        scr_json_hex(w, image->base);
        scr_json_key(w, "size");
        scr_json_u64(w, image->high - image->low);
        scr_json_key(w, "build_id");
        scr_json_string(w, build_id, 2 * (size_t)image->build_id_len, sizeof build_id);
        scr_json_key(w, "main");
        scr_json_bool(w, image->main);
        scr_json_object_end(w);
    }
    scr_json_array_end(w);
}
