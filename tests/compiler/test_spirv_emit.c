/*
 * The SPIR-V emitter's skeleton: kernels that do nothing become modules
 * that Khronos's validator accepts for Vulkan 1.2 (spirv-val --target-env
 * vulkan1.2, from Debian's spirv-tools); everything else is refused with
 * CUVK_CC_UNSUPPORTED naming what and where.
 *
 * test_spirv_emit SPIRV_VAL [EMPTY.ptx]: the validator's path (the test
 * skips, exit 77, when the build found none) and nvcc's output for
 * tests/kernels/empty.cu when nvcc was found.
 */
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compiler/spirv.h"
#include "compiler_test.h"
#include "unit_test.h"

#define HEADER ".version 9.0\n.target sm_75\n.address_size 64\n"

static const char *spirv_val;

/* Runs spirv-val on the words; true when it accepts them. */
static bool
validate(const char *name, const uint32_t *words, size_t count)
{
   char path[] = "/tmp/cuvk-spirv-XXXXXX";
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
   unlink(path);
   bool ok = pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
   if (!ok)
      fprintf(stderr, "%s: spirv-val refused the module (status %d)\n", name, status);
   return ok;
}

/* Parses, lowers and emits kernel; NULL module on a failure before the
 * emitter (a test bug), else the emitter's verdict in *err. */
static uint32_t *
emit(const char *name, const char *text, size_t len, const char *kernel, size_t *count,
     struct cuvk_cc_error *err)
{
   struct ptx_module *ptx = ptx_parse(text, len, err);
   struct cuvk_ir_module *ir = ptx ? cuvk_ptx_to_ir(ptx, err) : NULL;
   uint32_t *words = NULL;

   ptx_module_destroy(ptx);
   if (!ir) {
      compiler_test_print_error(name, err);
      UNIT_CHECK(!"the PTX did not parse and lower");
      return NULL;
   }
   if (!cuvk_spirv_emit_kernel(ir, kernel, &words, count, err))
      words = NULL;
   cuvk_ir_module_destroy(ir);
   return words;
}

static void
expect_valid(const char *name, const char *text, size_t len, const char *kernel)
{
   struct cuvk_cc_error err;
   size_t count = 0;
   uint32_t *words = emit(name, text, len, kernel, &count, &err);

   if (!words) {
      compiler_test_print_error(name, &err);
      UNIT_CHECK(!"emission failed");
      return;
   }
   UNIT_CHECK(count > 5 && words[0] == 0x07230203 && words[1] == 0x00010500);
   /* The entry point carries the kernel's name as a literal string. */
   UNIT_CHECK(memmem(words, count * 4, kernel, strlen(kernel) + 1) != NULL);
   UNIT_CHECK(validate(name, words, count));
   printf("%s: %zu words, valid\n", name, count);
   free(words);
}

static void
expect_refused(const char *name, const char *text, const char *kernel,
               enum cuvk_cc_status status, unsigned line, const char *needle)
{
   struct cuvk_cc_error err;
   size_t count = 0;
   uint32_t *words = emit(name, text, strlen(text), kernel, &count, &err);

   UNIT_CHECK(words == NULL && count == 0);
   free(words);
   if (err.status != status || err.line != line || !strstr(err.message, needle)) {
      fprintf(stderr, "%s: expected %s at line %u containing \"%s\", got:\n", name,
              cuvk_cc_status_name(status), line, needle);
      compiler_test_print_error(name, &err);
      UNIT_CHECK(!"wrong error");
   }
}

int
main(int argc, char **argv)
{
   if (argc < 2) {
      printf("skipped: spirv-val not found (Debian package spirv-tools)\n");
      return 77;
   }
   spirv_val = argv[1];

   static const char empty[] = HEADER ".visible .entry empty()\n{\n\tret;\n}\n";
   expect_valid("empty", empty, sizeof(empty) - 1, "empty");

   /* Parameters it never reads, a chain of branches, exit: still nothing. */
   static const char chain[] =
      HEADER ".visible .entry chain(.param .u64 p, .param .u32 n)\n"
      "{\n\tbra $L_a;\n$L_b:\n\texit;\n$L_a:\n\tbra.uni $L_b;\n}\n";
   expect_valid("chain", chain, sizeof(chain) - 1, "chain");

   if (argc > 2) {
      size_t len;
      char *text = compiler_test_read(argv[2], &len);
      UNIT_CHECK(text != NULL);
      if (text)
         expect_valid(argv[2], text, len, "empty");
      free(text);
   } else {
      printf("nvcc's empty kernel not available; snippets only\n");
   }

   expect_refused("instruction",
                  HEADER ".entry k()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, %tid.x;\n\tret;\n}\n",
                  "k", CUVK_CC_UNSUPPORTED, 7, "instruction mov is not translated");
   expect_refused("branch",
                  HEADER ".entry k()\n{\n\t.reg .pred %p<2>;\n\t@%p1 bra $L;\n$L:\n\tret;\n}\n",
                  "k", CUVK_CC_UNSUPPORTED, 7, "branches are not translated");
   expect_refused("endless", HEADER ".entry k()\n{\n$L:\n\tbra $L;\n}\n", "k",
                  CUVK_CC_UNSUPPORTED, 6, "endless loop");
   expect_refused("no such kernel", empty, "full", CUVK_CC_INVALID, 0, "no kernel named full");
   expect_refused("a .func is no kernel", HEADER ".func f()\n{\n\tret;\n}\n", "f",
                  CUVK_CC_INVALID, 0, "no kernel named f");
   return unit_report("compiler.spirv.emit");
}
