/* The C tests' and fuzzers' batch descriptors, one macro per layout of libsha_batch (a pointer to a
 * compound literal, alive to the end of the enclosing block), and HMACs of a batch under a key. */
#ifndef LIBSHA_TESTS_BATCHES_H
#define LIBSHA_TESTS_BATCHES_H

#include "libsha.h"

#define BATCH_POINTERS(msgs_, lens_, n_) \
    (&(libsha_batch){.layout = LIBSHA_POINTERS, .n = (n_), .msgs = (msgs_), .lens = (lens_)})
#define BATCH_OFFSETS32(data_, offsets_, n_) \
    (&(libsha_batch){.layout = LIBSHA_OFFSETS32, .n = (n_), .data = (data_), .offsets32 = (offsets_)})
#define BATCH_OFFSETS64(data_, offsets_, n_) \
    (&(libsha_batch){.layout = LIBSHA_OFFSETS64, .n = (n_), .data = (data_), .offsets64 = (offsets_)})
#define BATCH_ROWS(data_, stride_, len_, n_) \
    (&(libsha_batch){.layout = LIBSHA_ROWS, .n = (n_), .data = (data_), .stride = (stride_), .len = (len_)})
#define BATCH_VIEWS(views_, buffers_, sizes_, nbuffers_, n_)                                                \
    (&(libsha_batch){.layout = LIBSHA_VIEWS, .n = (n_), .views = (views_), .buffers = (buffers_),        \
                     .buffer_sizes = (sizes_), .nbuffers = (nbuffers_)})

/* The MACs of a batch under key[0..keylen), as a caller without a context of its own gets them: an
 * HMAC context made for the call, then wiped. */
static inline int hmac_many_with_key(unsigned char *out, const void *key, size_t keylen, const libsha_batch *batch,
                                     unsigned flags)
{
    libsha_hmac_sha256_ctx hmac;
    int err = libsha_hmac_sha256_init(&hmac, key, keylen);
    if (err == LIBSHA_OK)
        err = libsha_sha256_batch(out, batch, NULL, &hmac, flags);
    libsha_hmac_sha256_wipe(&hmac);
    return err;
}

#endif
