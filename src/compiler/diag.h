/*
 * How every compiler stage reports failure: the first error, with the line
 * and column of the PTX it is about (0 when it is about no place, such as
 * running out of memory), and one sentence.  The compiler holds no CUDA
 * state, so it never picks a CUresult; the module loader maps a failed
 * stage to CUDA_ERROR_INVALID_PTX or CUDA_ERROR_NOT_SUPPORTED and logs the
 * message.
 */
#ifndef CUVK_COMPILER_DIAG_H
#define CUVK_COMPILER_DIAG_H

#include <stdbool.h>

enum cuvk_cc_status {
   CUVK_CC_OK = 0,
   CUVK_CC_INVALID,        /* the input is not valid PTX (or IR) */
   CUVK_CC_UNSUPPORTED,    /* valid, but not something the compiler handles yet */
   CUVK_CC_NO_MEMORY,
};

struct cuvk_cc_error {
   enum cuvk_cc_status status;
   unsigned line, column;
   char message[256];
};

/* Records an error unless one is recorded already (the first one is the
 * cause, later ones are often its echoes); returns false so that a check
 * reads `return cuvk_cc_fail(...)`. */
bool cuvk_cc_fail(struct cuvk_cc_error *err, enum cuvk_cc_status status,
                  unsigned line, unsigned column, const char *fmt, ...)
   __attribute__((format(printf, 5, 6)));

static inline bool
cuvk_cc_failed(const struct cuvk_cc_error *err)
{
   return err->status != CUVK_CC_OK;
}

const char *cuvk_cc_status_name(enum cuvk_cc_status status);

#endif
