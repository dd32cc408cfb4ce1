/* probe.h - runs a check of a file in a child process first, so that a fault of the HDF5
 * library on a damaged file (docs/data-format.md, "Damaged files") ends the child, not the
 * program: the reader only parses a file whose check a child survived. */
#ifndef XQ_PROBE_H
#define XQ_PROBE_H

#include "variant.h"

/* Seconds a check may take before the file is declared damaged (libhdf5 can loop on one). */
enum { PROBE_TIMEOUT_SECONDS = 120 };

/* Runs check(path) in a forked child (its result is not used: a check that fails cleanly is
 * repeated by the caller for its message). Returns 0 if the check returned, -1 with *err naming
 * the file if the child died inside it (a signal, or a sanitizer's exit) or did not finish in
 * time (the child is then killed).
 * If no child can be made, returns 0: the caller reads the file itself, as without the probe.
 * Call it only while no other thread is inside the HDF5 library. */
int probe_file(const char *path, int (*check)(const char *path), XqError *err);

#endif
