/* fuzz_shipped.h - helpers shared by fuzz targets: the shipped rule sets, loaded once, and a
 * private scratch file for readers that take a path. */
#ifndef XQ_FUZZ_SHIPPED_H
#define XQ_FUZZ_SHIPPED_H

#include "variant.h"

enum { FUZZ_MAX_VARIANTS = 32 };

/* Loads every .ini file of configs/variants once (in name order); a shipped file that fails to load is a
 * bug and aborts. Returns the count and sets *out to the array (owned by the helper). */
int fuzz_shipped_variants(Variant *const **out);

/* Writes data to this process's scratch file (under $TMPDIR or /tmp) and returns its path; the
 * file is reused by the next call and removed at exit. Aborts when it cannot be written. */
const char *fuzz_scratch_file(const void *data, size_t size);

#endif
