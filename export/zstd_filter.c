/* zstd_filter.c - the zstd HDF5 filter: one zstd frame per chunk, with its content size. */
#include "zstd_filter.h"

#include <stdint.h>
#include <zstd.h>

/* HDF5 limits a chunk to 4 GiB - 1; no honest frame decodes to more. */
#define MAX_CHUNK_BYTES ((unsigned long long)UINT32_MAX)

/* Records the uncompressed chunk size in cd_values[1] so decompression can refuse frames that
 * claim to be larger than any chunk of this dataset. */
static herr_t zstd_set_local(hid_t dcpl, hid_t type, hid_t space)
{
    (void)space;
    unsigned int flags = 0;
    size_t nelmts = 8;
    unsigned int values[8] = {0};
    if (H5Pget_filter_by_id2(dcpl, XQ_ZSTD_FILTER_ID, &flags, &nelmts, values, 0, NULL, NULL) < 0)
        return -1;
    hsize_t dims[H5S_MAX_RANK];
    int rank = H5Pget_chunk(dcpl, H5S_MAX_RANK, dims);
    size_t type_size = H5Tget_size(type);
    if (rank <= 0 || type_size == 0)
        return -1;
    unsigned long long bytes = type_size;
    for (int i = 0; i < rank; i++) {
        bytes *= dims[i];
        if (bytes > MAX_CHUNK_BYTES)
            return -1;
    }
    unsigned int out[2];
    out[0] = nelmts > 0 ? values[0] : (unsigned int)XQ_ZSTD_DEFAULT_LEVEL;
    out[1] = (unsigned int)bytes;
    return H5Pmodify_filter(dcpl, XQ_ZSTD_FILTER_ID, flags, 2, out);
}

static size_t zstd_compress_chunk(size_t cd_nelmts, const unsigned int cd_values[], size_t nbytes,
                                  size_t *buf_size, void **buf)
{
    int level = cd_nelmts > 0 ? (int)cd_values[0] : XQ_ZSTD_DEFAULT_LEVEL;
    if (level > ZSTD_maxCLevel())
        level = ZSTD_maxCLevel();
    size_t bound = ZSTD_compressBound(nbytes);
    void *out = H5allocate_memory(bound, 0);
    ZSTD_CCtx *cctx = ZSTD_createCCtx();
    size_t n = 0;
    if (!out || !cctx)
        goto fail;
    /* One-shot compression of the whole chunk writes its content size into the frame header,
     * which other readers (The HDF Group's plugin, hdf5plugin) use to size their output. The
     * checksum (4 bytes a chunk) makes a damaged chunk fail to decode instead of decoding to
     * wrong numbers; every zstd decoder checks it when present. */
    if (ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level)) ||
        ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1)))
        goto fail;
    n = ZSTD_compress2(cctx, out, bound, *buf, nbytes);
    if (ZSTD_isError(n))
        goto fail;
    ZSTD_freeCCtx(cctx);
    H5free_memory(*buf);
    *buf = out;
    *buf_size = bound;
    return n;
fail:
    ZSTD_freeCCtx(cctx);
    if (out)
        H5free_memory(out);
    return 0;
}

static size_t zstd_decompress_chunk(size_t cd_nelmts, const unsigned int cd_values[], size_t nbytes,
                                    size_t *buf_size, void **buf)
{
    unsigned long long size = ZSTD_getFrameContentSize(*buf, nbytes);
    if (size == ZSTD_CONTENTSIZE_UNKNOWN || size == ZSTD_CONTENTSIZE_ERROR)
        return 0;
    unsigned long long limit = cd_nelmts > 1 ? cd_values[1] : MAX_CHUNK_BYTES;
    if (size > limit || size > MAX_CHUNK_BYTES)
        return 0;
    /* Exactly one frame per chunk: trailing bytes mean the chunk is not what we wrote. */
    size_t frame = ZSTD_findFrameCompressedSize(*buf, nbytes);
    if (ZSTD_isError(frame) || frame != nbytes)
        return 0;
    void *out = H5allocate_memory(size > 0 ? (size_t)size : 1, 0);
    if (!out)
        return 0;
    size_t n = ZSTD_decompress(out, (size_t)size, *buf, nbytes);
    if (ZSTD_isError(n) || n != size) {
        H5free_memory(out);
        return 0;
    }
    H5free_memory(*buf);
    *buf = out;
    *buf_size = size > 0 ? (size_t)size : 1;
    return n;
}

static size_t zstd_filter(unsigned int flags, size_t cd_nelmts, const unsigned int cd_values[],
                          size_t nbytes, size_t *buf_size, void **buf)
{
    if (flags & H5Z_FLAG_REVERSE)
        return zstd_decompress_chunk(cd_nelmts, cd_values, nbytes, buf_size, buf);
    return zstd_compress_chunk(cd_nelmts, cd_values, nbytes, buf_size, buf);
}

static const H5Z_class2_t ZSTD_CLASS = {
    H5Z_CLASS_T_VERS,
    (H5Z_filter_t)XQ_ZSTD_FILTER_ID,
    1, /* encoder present */
    1, /* decoder present */
    "zstd",
    NULL,
    zstd_set_local,
    zstd_filter,
};

const H5Z_class2_t *xq_zstd_filter_class(void)
{
    return &ZSTD_CLASS;
}
