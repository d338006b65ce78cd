/*
 * File-descriptor helpers of the layer tests: what is open, and which open
 * fds share an open file description with a given one.
 */
#ifndef CUVK_TESTS_LAYER_FD_UTIL_H
#define CUVK_TESTS_LAYER_FD_UTIL_H

#include <stdbool.h>

#define FD_UTIL_MAX 1024

/* The open fds of the process, from /proc/self/fd; returns the count, or
 * -1.  fds may be NULL to count only. */
int fd_util_list(int *fds, int max);

/* Whether fd is open. */
bool fd_util_is_open(int fd);

/* How many open fds, fd itself included, share fd's open file
 * description (kcmp KCMP_FILE). */
int fd_util_count_same_file(int fd);

/* The fds open now but not in before[0..n_before), other than fd, that
 * share fd's open file description: after an export, the registry's dup.
 * Returns how many; stores up to max of them in out. */
int fd_util_new_same_file(int fd, const int *before, int n_before, int *out, int max);

/* Sends fd to itself over a unix socketpair (SCM_RIGHTS) and returns the
 * received copy, or -1: a new fd number on the same open file
 * description, as a peer process would get. */
int fd_util_pass_over_socket(int fd);

#endif
