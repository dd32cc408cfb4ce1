/* zstd_plugin.c - entry points that make the zstd filter loadable as an HDF5 plugin
 * (HDF5_PLUGIN_PATH) by h5dump, h5py and other HDF5 programs. */
#include <H5PLextern.h>

#include "zstd_filter.h"

H5PL_type_t H5PLget_plugin_type(void)
{
    return H5PL_TYPE_FILTER;
}

const void *H5PLget_plugin_info(void)
{
    return xq_zstd_filter_class();
}
