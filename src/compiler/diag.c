#include "compiler/diag.h"

#include <stdarg.h>
#include <stdio.h>

bool
cuvk_cc_fail(struct cuvk_cc_error *err, enum cuvk_cc_status status,
             unsigned line, unsigned column, const char *fmt, ...)
{
   if (err->status != CUVK_CC_OK)
      return false;
   err->status = status;
   err->line = line;
   err->column = column;

   va_list ap;
   va_start(ap, fmt);
   vsnprintf(err->message, sizeof(err->message), fmt, ap);
   va_end(ap);
   return false;
}

const char *
cuvk_cc_status_name(enum cuvk_cc_status status)
{
   switch (status) {
   case CUVK_CC_OK: return "ok";
   case CUVK_CC_INVALID: return "invalid";
   case CUVK_CC_UNSUPPORTED: return "unsupported";
   case CUVK_CC_NO_MEMORY: return "out of memory";
   }
   return "unknown";
}
