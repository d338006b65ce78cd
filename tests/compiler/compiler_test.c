/*
 * What more than one compiler test needs and is not a one-liner: the
 * targets the tests compile for, and Khronos's validator run on a module.
 */
#include "compiler_test.h"

#include <sys/wait.h>
#include <unistd.h>

/* lavapipe's answers (docs/design-notes): 8-wide subgroups, 64-bit
 * atomics, f32 but no f64 atomic add, 32 KiB of shared memory, and its
 * loop limit (loops counted, docs/compiler.md "Lavapipe's loop limit"). */
const struct cuvk_cc_target compiler_test_lavapipe = {
   .subgroup_size = 8,
   .int8 = true, .int16 = true, .int64 = true,
   .float16 = true, .float64 = true,
   .atomic_int64 = true,
   .atomic_float32_add = true,
   .atomic_float64_add = false,
   .max_shared_bytes = 32768,
   .image_cube_array = true,
   .loop_limit = 65535,
};

/* An NVIDIA-like device: 32-wide subgroups (warps), f64 atomic add. */
const struct cuvk_cc_target compiler_test_nvidia = {
   .subgroup_size = 32,
   .int8 = true, .int16 = true, .int64 = true,
   .float16 = true, .float64 = true,
   .atomic_int64 = true,
   .atomic_float32_add = true,
   .atomic_float64_add = true,
   .max_shared_bytes = 49152,
   /* An H100's descriptorIndexing features. */
   .tex_nonuniform = true, .surf_nonuniform = true,
   .image_cube_array = true,
   /* VK_KHR_workgroup_memory_explicit_layout, which NVIDIA's driver has. */
   .shared_atomic_int64 = true,
};

bool
compiler_test_spirv_val(const char *spirv_val, const char *name, const uint32_t *words,
                        size_t count)
{
   char path[] = "/tmp/cuvk-spirv-XXXXXX";

   if (!spirv_val)
      return true;
   int fd = mkstemp(path);
   if (fd < 0) {
      perror("mkstemp");
      return false;
   }
   bool written = write(fd, words, count * 4) == (ssize_t)(count * 4);
   close(fd);
   if (!written) {
      unlink(path);
      return false;
   }
   pid_t pid = fork();
   if (pid == 0) {
      execl(spirv_val, spirv_val, "--target-env", "vulkan1.2", path, (char *)NULL);
      _exit(127);
   }
   int status = -1;
   if (pid > 0)
      waitpid(pid, &status, 0);
   bool ok = pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
   if (!ok)
      fprintf(stderr, "%s: spirv-val refused the module (status %d), kept in %s\n", name, status,
              path);
   else
      unlink(path);
   return ok;
}
