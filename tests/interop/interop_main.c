/*
 * The case table and the command line of the interop tests (see
 * interop_cases.h):
 *
 *    test_interop --list                   every case name, one a line
 *    test_interop NAME                     runs one case
 *    test_interop --check-list NAME...     whether NAME... is exactly the
 *                                          table (meson's list against ours)
 *    test_interop --child NAME FD          the other-process half of NAME
 *
 * Composite cases run other cases by name, each in a process of its own:
 * external_memory.opaque_fd.layer_stack (a few flows under whichever
 * layer order the environment sets) and, in the build against NVIDIA's
 * cuda.h, external_memory.nvidia_header.flow (every portable case).
 */
#include "interop_cases.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef ITEST_NVIDIA_HEADER
#include <dlfcn.h>
#include <link.h>
#endif

const char *itest_self_path;

static struct itest_case *cases;
static unsigned case_count, case_capacity;

void
itest_add_case(const struct itest_case *c)
{
   if (case_count == case_capacity) {
      unsigned capacity = case_capacity ? 2 * case_capacity : 64;
      struct itest_case *grown = realloc(cases, capacity * sizeof(*cases));
      if (!grown) {
         fprintf(stderr, "out of memory building the case table\n");
         exit(ITEST_FAIL);
      }
      cases = grown;
      case_capacity = capacity;
   }
   cases[case_count++] = *c;
}

void
itest_add_buffer_cases(const char *suffix, itest_case_fn run, itest_child_fn child, int variant,
                       bool portable, bool host_only)
{
   static const char *const memories[] = {
      [ITEST_HOST_VISIBLE] = "host_visible",
      [ITEST_DEVICE_ONLY] = "device_only",
   };
   for (int dedicated = 1; dedicated >= 0; dedicated--) {
      for (int memory = ITEST_HOST_VISIBLE; memory <= ITEST_DEVICE_ONLY; memory++) {
         if (host_only && memory != ITEST_HOST_VISIBLE)
            continue;
         struct itest_case c = {
            .run = run,
            .child = child,
            .dedicated = dedicated,
            .memory = (enum itest_memory)memory,
            .variant = variant,
            .portable = portable,
         };
         snprintf(c.name, sizeof(c.name), "external_memory.opaque_fd.%s.buffer.%s.%s",
                  dedicated ? "dedicated" : "suballocated", memories[memory], suffix);
         itest_add_case(&c);
      }
   }
}

int
itest_status(int status, int finish_status)
{
   if (status == ITEST_FAIL || finish_status == ITEST_FAIL)
      return ITEST_FAIL;
   return status == ITEST_SKIP ? ITEST_SKIP : ITEST_PASS;
}

int
itest_skip(const char *fmt, ...)
{
   va_list ap;
   fprintf(stderr, "SKIP: ");
   va_start(ap, fmt);
   vfprintf(stderr, fmt, ap);
   va_end(ap);
   fprintf(stderr, "\n");
   return ITEST_SKIP;
}

static const struct itest_case *
find_case(const char *name)
{
   for (unsigned i = 0; i < case_count; i++) {
      if (strcmp(cases[i].name, name) == 0)
         return &cases[i];
   }
   return NULL;
}

/* ---- composite cases ---------------------------------------------------- */

/* Runs case name of a composite in a process of its own (this program
 * again), so that a crash or abort ends that part alone and no state of
 * one part reaches the next. */
static int
run_part(const char *name, unsigned *passed, unsigned *failed, unsigned *skipped)
{
   int status = ITEST_FAIL;
   int wstatus = 0;

   fprintf(stderr, "--- %s\n", name);
   fflush(stdout);
   fflush(stderr);
   pid_t pid = fork();
   if (pid == 0) {
      execl(itest_self_path, itest_self_path, name, (char *)NULL);
      _exit(127);
   }
   if (pid < 0)
      fprintf(stderr, "fork: %s\n", strerror(errno));
   else if (waitpid(pid, &wstatus, 0) != pid)
      fprintf(stderr, "waitpid: %s\n", strerror(errno));
   else if (!WIFEXITED(wstatus))
      fprintf(stderr, "%s: ended by signal %d\n", name, WTERMSIG(wstatus));
   else if (WEXITSTATUS(wstatus) == ITEST_PASS || WEXITSTATUS(wstatus) == ITEST_SKIP)
      status = WEXITSTATUS(wstatus);

   if (status == ITEST_PASS)
      (*passed)++;
   else if (status == ITEST_SKIP)
      (*skipped)++;
   else
      (*failed)++;
   fprintf(stderr, "--- %s: %s\n", name,
           status == ITEST_FAIL ? "FAIL" : status == ITEST_SKIP ? "skip" : "pass");
   return status;
}

static int
composite_result(const char *name, unsigned passed, unsigned failed, unsigned skipped)
{
   fprintf(stderr, "%s: %u passed, %u failed, %u skipped\n", name, passed, failed, skipped);
   if (failed)
      return ITEST_FAIL;
   return passed ? ITEST_PASS : ITEST_SKIP;
}

/* The layer stacked with validation in whichever order the environment
 * gives: flows both ways, and the image case, whose CUDA_ERROR_NOT_SUPPORTED
 * shows that cuvk got the layer's record. */
static int
case_layer_stack(const struct itest_case *self)
{
   static const char *const parts[] = {
      "external_memory.opaque_fd.dedicated.buffer.host_visible.cuda_reads_vulkan.copy_buffer",
      "external_memory.opaque_fd.suballocated.buffer.host_visible.cuda_reads_vulkan.map_write",
      "external_memory.opaque_fd.dedicated.buffer.host_visible.vulkan_reads_cuda.memset_d32",
      "external_memory.opaque_fd.suballocated.buffer.host_visible.vulkan_reads_cuda.async_stream",
      "external_memory.opaque_fd.dedicated.image.mapped_buffer_not_supported",
   };
   unsigned passed = 0, failed = 0, skipped = 0;

   if (!itest_layer_requested()) {
      ITEST_FAILF("VK_INSTANCE_LAYERS does not name VK_LAYER_CUVK_interop");
      return ITEST_FAIL;
   }
   fprintf(stderr, "VK_INSTANCE_LAYERS=%s\n", getenv("VK_INSTANCE_LAYERS"));
   for (unsigned i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
      run_part(parts[i], &passed, &failed, &skipped);
   return composite_result(self->name, passed, failed, skipped);
}

#ifdef ITEST_NVIDIA_HEADER
/* The program is meant to need libcuda.so.1, as one linked against
 * NVIDIA's driver does; say what it was linked against instead. */
static void
note_cuda_library(void)
{
   const ElfW(Dyn) *dyn = _DYNAMIC;
   const char *strtab = NULL;
   Dl_info info;

   for (const ElfW(Dyn) *d = dyn; d->d_tag != DT_NULL; d++) {
      if (d->d_tag == DT_STRTAB)
         strtab = (const char *)d->d_un.d_ptr;
   }
   for (const ElfW(Dyn) *d = dyn; strtab && d->d_tag != DT_NULL; d++) {
      if (d->d_tag == DT_NEEDED)
         fprintf(stderr, "DT_NEEDED %s\n", strtab + d->d_un.d_val);
   }
   if (dladdr((void *)cuInit, &info) && info.dli_fname)
      fprintf(stderr, "cuInit comes from %s\n", info.dli_fname);
}

/* Every case whose expectations are real CUDA's, built against NVIDIA's
 * cuda.h and linked against the drop-in libcuda. */
static int
case_nvidia_flow(const struct itest_case *self)
{
   unsigned passed = 0, failed = 0, skipped = 0;

   note_cuda_library();
   for (unsigned i = 0; i < case_count; i++) {
      if (cases[i].portable)
         run_part(cases[i].name, &passed, &failed, &skipped);
   }
   return composite_result(self->name, passed, failed, skipped);
}
#endif

static void
register_cases(void)
{
   itest_register_flow_cases();
   itest_register_lifetime_cases();
   itest_register_invalid_cases();
   itest_add_case(&(struct itest_case){
      .name = "external_memory.opaque_fd.layer_stack",
      .run = case_layer_stack,
   });
#ifdef ITEST_NVIDIA_HEADER
   itest_add_case(&(struct itest_case){
      .name = "external_memory.nvidia_header.flow",
      .run = case_nvidia_flow,
   });
#endif
}

/* ---- command line ------------------------------------------------------- */

static int
check_list(int count, char **names)
{
   int status = ITEST_PASS;

   for (int i = 0; i < count; i++) {
      if (!find_case(names[i])) {
         fprintf(stderr, "meson registers %s, which is no case\n", names[i]);
         status = ITEST_FAIL;
      }
   }
   for (unsigned i = 0; i < case_count; i++) {
      bool found = false;
      for (int j = 0; j < count && !found; j++)
         found = strcmp(cases[i].name, names[j]) == 0;
      if (!found) {
         fprintf(stderr, "case %s is not registered with meson\n", cases[i].name);
         status = ITEST_FAIL;
      }
   }
   if (status == ITEST_PASS)
      printf("meson registers all %u cases\n", case_count);
   return status;
}

static int
usage(const char *argv0)
{
   fprintf(stderr, "usage: %s --list | NAME | --check-list NAME... | --child NAME FD\n", argv0);
   return ITEST_FAIL;
}

int
main(int argc, char **argv)
{
   itest_self_path = "/proc/self/exe";
   /* Line-buffered, so a parent's and a child's lines do not interleave
    * mid-line in meson's log. */
   setvbuf(stdout, NULL, _IOLBF, 0);
   register_cases();

   if (argc == 2 && strcmp(argv[1], "--list") == 0) {
      for (unsigned i = 0; i < case_count; i++)
         printf("%s\n", cases[i].name);
      return ITEST_PASS;
   }
   if (argc >= 2 && strcmp(argv[1], "--check-list") == 0)
      return check_list(argc - 2, argv + 2);
   if (argc == 4 && strcmp(argv[1], "--child") == 0) {
      const struct itest_case *c = find_case(argv[2]);
      if (!c || !c->child) {
         fprintf(stderr, "no child half for case %s\n", argv[2]);
         return ITEST_FAIL;
      }
      return c->child(c, atoi(argv[3]));
   }
   if (argc != 2 || argv[1][0] == '-')
      return usage(argv[0]);

   const struct itest_case *c = find_case(argv[1]);
   if (!c) {
      fprintf(stderr, "no case %s (--list names them)\n", argv[1]);
      return ITEST_FAIL;
   }
   int status = c->run(c);
   /* Failures counted anywhere fail the case, whatever run returned. */
   if (vkh_failure_count() || vkh_message_count())
      status = ITEST_FAIL;
   fprintf(stderr, "%s: %s\n", c->name,
           status == ITEST_FAIL ? "FAIL" : status == ITEST_SKIP ? "skip" : "pass");
   return status;
}
