#include "util/log.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static enum cuvk_log_level log_threshold = CUVK_LOG_WARN;
static pthread_once_t log_once = PTHREAD_ONCE_INIT;

static void
log_read_env(void)
{
   static const char *const names[] = { "error", "warn", "info", "debug" };
   const char *env = getenv("CUVK_LOG");

   if (!env || !*env)
      return;
   for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
      if (strcmp(env, names[i]) == 0) {
         log_threshold = (enum cuvk_log_level)i;
         return;
      }
   }
   fprintf(stderr, "cuvk: warn: CUVK_LOG=%s is not one of error, warn, info, debug; using warn\n", env);
}

bool
cuvk_log_enabled(enum cuvk_log_level level)
{
   pthread_once(&log_once, log_read_env);
   return level <= log_threshold;
}

/* Strips the build's source prefix so messages name "mem/heap.c", not a
 * full path that differs between machines. */
static const char *
log_short_file(const char *file)
{
   const char *src = strstr(file, "src/");
   return src ? src + 4 : file;
}

void
cuvk_log_msg(enum cuvk_log_level level, const char *file, int line,
             const char *fmt, ...)
{
   static const char *const tags[] = { "error", "warn", "info", "debug" };
   char msg[1024];
   va_list ap;

   if (!cuvk_log_enabled(level))
      return;

   va_start(ap, fmt);
   vsnprintf(msg, sizeof(msg), fmt, ap);
   va_end(ap);

   /* One fprintf per line so lines from several threads never interleave. */
   fprintf(stderr, "cuvk: %s: %s:%d: %s\n", tags[level], log_short_file(file), line, msg);
}
