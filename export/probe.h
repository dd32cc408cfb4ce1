/* probe.h - runs a check of a file in a child process first, so that a fault of the HDF5
 * library on a damaged file (docs/data-format.md, "Damaged files") ends the child, not the
 * program: the reader only parses a file whose check a child survived. */
#ifndef XQ_PROBE_H
#define XQ_PROBE_H

#include "variant.h"

/* Seconds a check may take before the file is declared damaged (libhdf5 can loop on one). */
enum { PROBE_TIMEOUT_SECONDS = 120 };

/* Runs check(path, err) in a forked child. Returns 0 if the check passed; -1 with the check's
 * own *err if it failed cleanly (the caller never parses a file the child refused, so libhdf5's
 * leaks on failed opens stay in the child); -1 with *err naming the file if the child died
 * inside the check (a signal, or a sanitizer's exit) or did not finish in time (it is then
 * killed). If no child can be made, returns 0: the caller reads the file itself, as without the
 * probe. Call it only while no other thread is inside the HDF5 library. */
int probe_file(const char *path, int (*check)(const char *path, XqError *err), XqError *err);

#endif
