/*
 * Logging for every cuvk module.
 *
 * One line per message on stderr, filtered by CUVK_LOG (error, warn, info or
 * debug; warn when unset), which is read once.  Messages carry the source
 * file and line so a user's report points straight at the check that fired.
 */
#ifndef CUVK_UTIL_LOG_H
#define CUVK_UTIL_LOG_H

#include <stdbool.h>

enum cuvk_log_level {
   CUVK_LOG_ERROR = 0,
   CUVK_LOG_WARN = 1,
   CUVK_LOG_INFO = 2,
   CUVK_LOG_DEBUG = 3,
};

bool cuvk_log_enabled(enum cuvk_log_level level);

void cuvk_log_msg(enum cuvk_log_level level, const char *file, int line,
                  const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#define cuvk_loge(...) cuvk_log_msg(CUVK_LOG_ERROR, __FILE__, __LINE__, __VA_ARGS__)
#define cuvk_logw(...) cuvk_log_msg(CUVK_LOG_WARN, __FILE__, __LINE__, __VA_ARGS__)
#define cuvk_logi(...) cuvk_log_msg(CUVK_LOG_INFO, __FILE__, __LINE__, __VA_ARGS__)
#define cuvk_logd(...) cuvk_log_msg(CUVK_LOG_DEBUG, __FILE__, __LINE__, __VA_ARGS__)

/* Logs at most once per call site for the life of the process. */
#define cuvk_log_once(level, ...)                                          \
   do {                                                                    \
      static int cuvk_log_once_done_;                                      \
      if (!__atomic_exchange_n(&cuvk_log_once_done_, 1, __ATOMIC_RELAXED)) \
         cuvk_log_msg((level), __FILE__, __LINE__, __VA_ARGS__);           \
   } while (0)

#endif
