// zlib for the Swift side (reading reports). Debian: zlib1g-dev.
#include <zlib.h>
