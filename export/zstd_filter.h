/* zstd_filter.h - private to export/: the HDF5 zstd filter class (id 32015) shared by the static
 * library (in-process registration) and the HDF5 plugin shared library. */
#ifndef XQ_ZSTD_FILTER_H
#define XQ_ZSTD_FILTER_H

#include <hdf5.h>

enum {
    XQ_ZSTD_FILTER_ID = 32015,   /* registered with The HDF Group for Zstandard */
    XQ_ZSTD_DEFAULT_LEVEL = 3,
};

/* The filter class (static storage, never freed). cd_values[0] = compression level (default 3);
 * cd_values[1], added by the filter's set_local callback when a dataset is created, = bytes of an
 * uncompressed chunk, used to bound decompression. Readers that know only cd_values[0] ignore it. */
const H5Z_class2_t *xq_zstd_filter_class(void);

#endif
