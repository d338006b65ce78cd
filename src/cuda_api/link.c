/*
 * The JIT linker: cuLinkCreate, cuLinkAddData, cuLinkAddFile,
 * cuLinkComplete, cuLinkDestroy.
 *
 * cuvk's compiler translates one PTX module at a time, so linking happens
 * on the PTX text: the inputs (PTX, or fatbins and images holding PTX) are
 * merged into one PTX module, and that text is the "cubin" cuLinkComplete
 * hands back.  cuModuleLoadData and cuLibraryLoadData take it as they take
 * any PTX; it is cuvk's container, not NVIDIA's ELF.
 *
 * The merge, statement by statement at module scope: one header (the
 * newest .version of the inputs, the first input's .target and
 * .address_size); then the inputs' variables and prototypes, where a
 * `.extern` variable that another input defines is replaced by that
 * definition, an `.extern` statement already written verbatim is dropped,
 * and so is a function prototype whose function some input defines; then
 * every function definition, callees before callers (the compiler takes a
 * function's signature from its definition, which must precede the
 * calls); then the entries.  A single input is passed through as it is.
 *
 * Symbols resolve as NVIDIA's linker resolves them (measured on an H100,
 * CUDA 13.0, driver 580.159.04): a `.visible` definition (or `.entry`) of
 * a name another input already defines visibly fails cuLinkAddData of the
 * second input with CUDA_ERROR_INVALID_SOURCE and "Multiple definition of
 * 'f' in 'b', first defined in 'a'" in the error log, and cuLinkComplete
 * answers the same from then on; a `.weak` definition gives way to a
 * visible one wherever it comes, and of several weak ones the first input's
 * is kept.  What the merge still cannot reconcile (module-local helpers of
 * one name in two inputs, which NVIDIA keeps apart) fails at cuLinkComplete
 * with the compiler's message, CUDA_ERROR_INVALID_PTX.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_api/driver.h"
#include "cuda_api/fatbin.h"
#include "cuda_api/module.h"
#include "cuda_api/object.h"
#include "compiler/compiler.h"
#include "util/error.h"
#include "util/log.h"
#include "util/macros.h"

struct link_input {
   char *ptx;
   size_t len;
   char *name;
};

/* Counted (object.h): a call that found the state holds it, so
 * cuLinkDestroy on another thread frees it only after that call; the
 * lock orders calls on one state from several threads. */
struct link_state {
   struct cuvk_object base;
   pthread_mutex_t lock;
   struct link_input *inputs;
   size_t count;
   char *output;
   char *error_log;           /* CU_JIT_ERROR_LOG_BUFFER, or NULL */
   size_t error_log_size;
   CUresult failed;           /* an input clashed: every later cuLinkComplete answers this */
};

/* One module-scope statement of an input. */
struct stmt {
   const char *text;
   size_t len;
   enum { STMT_HEADER, STMT_FILE, STMT_EXTERN_VAR, STMT_VAR, STMT_FUNC_DECL, STMT_FUNC_DEF, STMT_ENTRY,
          STMT_OTHER } kind;
   char name[128];            /* the variable's or function's */
   enum { LINK_LOCAL, LINK_VISIBLE, LINK_WEAK } linkage;   /* of a definition */
   bool written;
   bool dropped;              /* a .weak definition another one overrides */
};

/* A live link state, with a reference (STATE_HELD). */
static CUresult
state_lookup(CUlinkState state, const char *entry, struct link_state **out)
{
   CUresult res = cuvk_driver_check(entry);
   if (res != CUDA_SUCCESS)
      return res;
   struct cuvk_object *obj = cuvk_object_get(state, CUVK_OBJECT_LINK_STATE);
   if (!obj)
      return cuvk_error(CUDA_ERROR_INVALID_HANDLE, "%s: %p is not a live link state", entry, (void *)state);
   *out = cuvk_container_of(obj, struct link_state, base);
   return CUDA_SUCCESS;
}

static void
state_put_held(struct link_state **s)
{
   if (*s)
      cuvk_object_put(&(*s)->base);
}

/* The call's reference, dropped on every way out (as CUVK_HELD_CONTEXT). */
#define STATE_HELD __attribute__((cleanup(state_put_held)))

/* The last reference is gone: after cuLinkDestroy, once no call that
 * found the state is still using it.  The image cuLinkComplete handed
 * out goes with it, as CUDA documents. */
static void
state_free(struct cuvk_object *obj)
{
   struct link_state *s = cuvk_container_of(obj, struct link_state, base);
   for (size_t i = 0; i < s->count; i++) {
      free(s->inputs[i].ptx);
      free(s->inputs[i].name);
   }
   free(s->inputs);
   free(s->output);
   pthread_mutex_destroy(&s->lock);
   free(s);
}

/* Options: the error log buffer is kept for cuLinkComplete's message; the
 * rest tune NVIDIA's code generator and have no effect here. */
static CUresult
link_options(struct link_state *s, const char *entry, unsigned n, CUjit_option *options, void **values)
{
   if (n && (!options || !values))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: %u options without their arrays", entry, n);
   for (unsigned i = 0; i < n; i++) {
      if ((unsigned)options[i] >= CU_JIT_NUM_OPTIONS)
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: option %d is unknown", entry, (int)options[i]);
      if (!s)
         continue;
      if (options[i] == CU_JIT_ERROR_LOG_BUFFER)
         s->error_log = values[i];
      else if (options[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
         s->error_log_size = (size_t)(uintptr_t)values[i];
      else if (options[i] == CU_JIT_INFO_LOG_BUFFER && values[i] && s->error_log_size)
         *(char *)values[i] = '\0';
   }
   if (s && s->error_log && s->error_log_size)
      s->error_log[0] = '\0';
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuLinkCreate_v2(unsigned int numOptions, CUjit_option *options, void **optionValues, CUlinkState *stateOut)
{
   CUresult res = cuvk_driver_check("cuLinkCreate");
   if (res != CUDA_SUCCESS)
      return res;
   if (!stateOut)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuLinkCreate: stateOut is NULL");
   struct link_state *s = calloc(1, sizeof(*s));
   if (!s)
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "cuLinkCreate: out of host memory");
   res = link_options(s, "cuLinkCreate", numOptions, options, optionValues);
   if (res != CUDA_SUCCESS) {
      free(s);
      return res;
   }
   pthread_mutex_init(&s->lock, NULL);
   cuvk_object_add(&s->base, CUVK_OBJECT_LINK_STATE, state_free);
   *stateOut = (CUlinkState)s;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuLinkCreate(unsigned int numOptions, CUjit_option *options, void **optionValues, CUlinkState *stateOut)
{
   return cuLinkCreate_v2(numOptions, options, optionValues, stateOut);
}

static CUresult split(const char *ptx, size_t len, struct stmt **out, size_t *count);

static bool
is_definition(const struct stmt *st)
{
   return (st->kind == STMT_VAR || st->kind == STMT_FUNC_DEF || st->kind == STMT_ENTRY) && st->name[0];
}

/* Whether the input being added (ptx, called name) defines visibly a
 * symbol an earlier input defines visibly: NVIDIA's linker refuses that
 * input there, so cuvk does too, rather than at cuLinkComplete. */
static CUresult
link_clash(struct link_state *s, const char *ptx, size_t len, const char *name, const char *entry)
{
   struct stmt *added = NULL, *old = NULL;
   size_t added_count = 0, old_count = 0;
   CUresult res = split(ptx, len, &added, &added_count);
   for (size_t i = 0; i < s->count && res == CUDA_SUCCESS; i++) {
      res = split(s->inputs[i].ptx, s->inputs[i].len, &old, &old_count);
      for (size_t a = 0; a < added_count && res == CUDA_SUCCESS; a++) {
         if (!is_definition(&added[a]) || added[a].linkage != LINK_VISIBLE)
            continue;
         for (size_t b = 0; b < old_count; b++) {
            if (!is_definition(&old[b]) || old[b].linkage != LINK_VISIBLE ||
                strcmp(old[b].name, added[a].name) != 0)
               continue;
            if (s->error_log && s->error_log_size)
               snprintf(s->error_log, s->error_log_size, "error   : Multiple definition of '%s' in '%s', "
                        "first defined in '%s'", added[a].name, name, s->inputs[i].name);
            s->failed = CUDA_ERROR_INVALID_SOURCE;
            res = cuvk_error(CUDA_ERROR_INVALID_SOURCE, "%s: multiple definition of '%s' in '%s', first "
                             "defined in '%s'", entry, added[a].name, name, s->inputs[i].name);
            break;
         }
      }
      free(old);
      old = NULL;
   }
   free(added);
   return res;
}

static CUresult
link_add(struct link_state *s, CUjitInputType type, const void *data, size_t size, const char *name,
         const char *entry)
{
   switch (type) {
   case CU_JIT_INPUT_PTX:
   case CU_JIT_INPUT_FATBINARY:
   case CU_JIT_INPUT_CUBIN:
      /* A "cubin" may be what cuLinkComplete made (PTX text); NVIDIA's
       * ELF cubins are refused by the image reader. */
      break;
   case CU_JIT_INPUT_OBJECT:
   case CU_JIT_INPUT_LIBRARY:
   case CU_JIT_INPUT_NVVM:
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "%s: input type %d (%s) is not supported; cuvk links PTX "
                        "and fatbins holding PTX", entry, (int)type, name ? name : "unnamed");
   default:
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: input type %d is unknown", entry, (int)type);
   }
   char *ptx;
   size_t len;
   uint32_t arch;
   CUresult res = cuvk_image_ptx(data, size, entry, &ptx, &len, &arch);
   if (res != CUDA_SUCCESS)
      return res;
   pthread_mutex_lock(&s->lock);
   res = link_clash(s, ptx, len, name ? name : "unnamed", entry);
   if (res != CUDA_SUCCESS) {
      pthread_mutex_unlock(&s->lock);
      free(ptx);
      return res;
   }
   struct link_input *grown = realloc(s->inputs, (s->count + 1) * sizeof(*grown));
   char *copy = strdup(name ? name : "unnamed");
   if (!grown || !copy) {
      free(copy);
      free(ptx);
      if (grown)
         s->inputs = grown;
      pthread_mutex_unlock(&s->lock);
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", entry);
   }
   s->inputs = grown;
   s->inputs[s->count++] = (struct link_input){.ptx = ptx, .len = len, .name = copy};
   pthread_mutex_unlock(&s->lock);
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuLinkAddData_v2(CUlinkState state, CUjitInputType type, void *data, size_t size, const char *name,
                 unsigned int numOptions, CUjit_option *options, void **optionValues)
{
   struct link_state *s STATE_HELD = NULL;
   CUresult res = state_lookup(state, "cuLinkAddData", &s);
   if (res == CUDA_SUCCESS)
      res = link_options(NULL, "cuLinkAddData", numOptions, options, optionValues);
   if (res != CUDA_SUCCESS)
      return res;
   if (!data || !size)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuLinkAddData: no data");
   return link_add(s, type, data, size, name, "cuLinkAddData");
}

CUVK_EXPORT CUresult CUDAAPI
cuLinkAddData(CUlinkState state, CUjitInputType type, void *data, size_t size, const char *name,
              unsigned int numOptions, CUjit_option *options, void **optionValues)
{
   return cuLinkAddData_v2(state, type, data, size, name, numOptions, options, optionValues);
}

CUVK_EXPORT CUresult CUDAAPI
cuLinkAddFile_v2(CUlinkState state, CUjitInputType type, const char *path, unsigned int numOptions,
                 CUjit_option *options, void **optionValues)
{
   struct link_state *s STATE_HELD = NULL;
   CUresult res = state_lookup(state, "cuLinkAddFile", &s);
   if (res == CUDA_SUCCESS)
      res = link_options(NULL, "cuLinkAddFile", numOptions, options, optionValues);
   if (res != CUDA_SUCCESS)
      return res;
   if (!path)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuLinkAddFile: path is NULL");
   char *data;
   size_t size;
   res = cuvk_module_read_file(path, "cuLinkAddFile", &data, &size);
   if (res != CUDA_SUCCESS)
      return res;
   res = link_add(s, type, data, size + 1, path, "cuLinkAddFile");
   free(data);
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuLinkAddFile(CUlinkState state, CUjitInputType type, const char *path, unsigned int numOptions,
              CUjit_option *options, void **optionValues)
{
   return cuLinkAddFile_v2(state, type, path, numOptions, options, optionValues);
}

static bool
starts_with_word(const char *p, const char *end, const char *word)
{
   size_t n = strlen(word);
   return (size_t)(end - p) >= n && memcmp(p, word, n) == 0 &&
          ((size_t)(end - p) == n || !(isalnum((unsigned char)p[n]) || p[n] == '_'));
}

/* Whether the statement has the directive word among its leading
 * dot-words (before its name). */
static bool
has_word(const char *p, const char *end, const char *word)
{
   while (p < end) {
      while (p < end && isspace((unsigned char)*p))
         p++;
      if (p >= end || *p != '.')
         return false;
      if (starts_with_word(p, end, word))
         return true;
      while (p < end && !isspace((unsigned char)*p))
         p++;
      /* .align N: skip the number too. */
      while (p < end && isspace((unsigned char)*p))
         p++;
      while (p < end && isdigit((unsigned char)*p))
         p++;
   }
   return false;
}

/* A variable statement's name: the last word before '[', '=' or ';'. */
static void
var_name(const char *p, const char *end, char *name, size_t size)
{
   const char *stop = p;
   while (stop < end && *stop != '[' && *stop != '=' && *stop != ';' && *stop != ',')
      stop++;
   while (stop > p && isspace((unsigned char)stop[-1]))
      stop--;
   const char *start = stop;
   while (start > p && !isspace((unsigned char)start[-1]))
      start--;
   size_t n = (size_t)(stop - start);
   if (n >= size || *start == '.')
      n = 0;
   memcpy(name, start, n);
   name[n] = '\0';
}

/* A function statement's name: after .func or .entry and the return
 * parameters in parentheses, the word before the next '(', ';' or '{'. */
static void
func_name(const char *p, const char *end, char *name, size_t size)
{
   const char *q = p;
   while (q < end && !starts_with_word(q, end, ".func") && !starts_with_word(q, end, ".entry"))
      q++;
   q += q < end && q[1] == 'f' ? 5 : 6;
   while (q < end && isspace((unsigned char)*q))
      q++;
   if (q < end && *q == '(') {
      const char *close = memchr(q, ')', (size_t)(end - q));
      q = close ? close + 1 : end;
   }
   while (q < end && isspace((unsigned char)*q))
      q++;
   const char *start = q;
   while (q < end && (isalnum((unsigned char)*q) || *q == '_' || *q == '$' || *q == '%'))
      q++;
   size_t n = (size_t)(q - start);
   if (n >= size)
      n = 0;
   memcpy(name, start, n);
   name[n] = '\0';
}

/* Whether name occurs in text as a whole identifier. */
static bool
mentions(const char *text, size_t len, const char *name)
{
   size_t n = strlen(name);
   if (!n)
      return false;
   for (const char *p = text, *end = text + len; p + n <= end; p++) {
      p = memchr(p, name[0], (size_t)(end - p));
      if (!p || p + n > end)
         return false;
      if (memcmp(p, name, n) != 0)
         continue;
      bool before = p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '$');
      bool after = p + n < end && (isalnum((unsigned char)p[n]) || p[n] == '_' || p[n] == '$');
      if (!before && !after)
         return true;
   }
   return false;
}

static bool push_stmt(struct stmt **v, size_t *n, size_t *cap, const char *start, const char *se);

/* Splits one input into module-scope statements: a directive ends at ';',
 * a function at the '}' closing its body (a '{' after '=' opens an
 * initializer, which the ';' after it ends).  Comments are kept inside the
 * statements they fall in. */
static CUresult
split(const char *text, size_t len, struct stmt **out, size_t *count)
{
   struct stmt *v = NULL;
   size_t n = 0, cap = 0;
   const char *p = text, *end = text + len, *start = NULL;
   int depth = 0;
   bool init = false;
   while (p < end) {
      if (p + 1 < end && p[0] == '/' && p[1] == '/') {
         while (p < end && *p != '\n')
            p++;
         continue;
      }
      if (p + 1 < end && p[0] == '/' && p[1] == '*') {
         const char *c = strstr(p + 2, "*/");
         p = c ? c + 2 : end;
         continue;
      }
      char c = *p;
      if (!start) {
         if (isspace((unsigned char)c) || c == '\0') {
            p++;
            continue;
         }
         start = p;
         depth = 0;
         init = false;
         /* The header directives and .file end at the line's end. */
         if (starts_with_word(p, end, ".version") || starts_with_word(p, end, ".target") ||
             starts_with_word(p, end, ".address_size") || starts_with_word(p, end, ".file")) {
            const char *e = memchr(p, '\n', (size_t)(end - p));
            p = e ? e : end;
            if (!push_stmt(&v, &n, &cap, start, p))
               return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "cuLinkComplete: out of host memory");
            start = NULL;
            continue;
         }
      }
      if (c == '"') {
         /* Strings (.file, .pragma) may hold anything. */
         p++;
         while (p < end && *p != '"')
            p += *p == '\\' && p + 1 < end ? 2 : 1;
         if (p < end)
            p++;
         continue;
      }
      bool done = false;
      if (c == '=' && depth == 0)
         init = true;
      else if (c == '{')
         depth++;
      else if (c == '}' && --depth == 0 && !init)
         done = true;
      else if (c == ';' && depth == 0)
         done = true;
      p++;
      if (!done)
         continue;
      if (!push_stmt(&v, &n, &cap, start, p))
         return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "cuLinkComplete: out of host memory");
      start = NULL;
   }
   if (start && !push_stmt(&v, &n, &cap, start, end))
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "cuLinkComplete: out of host memory");
   *out = v;
   *count = n;
   return CUDA_SUCCESS;
}

static bool
push_stmt(struct stmt **v, size_t *n, size_t *cap, const char *start, const char *se)
{
   if (*n == *cap) {
      *cap = *cap ? *cap * 2 : 64;
      struct stmt *grown = realloc(*v, *cap * sizeof(*grown));
      if (!grown) {
         free(*v);
         *v = NULL;
         return false;
      }
      *v = grown;
   }
   struct stmt *s = &(*v)[(*n)++];
   *s = (struct stmt){.text = start, .len = (size_t)(se - start), .kind = STMT_OTHER};
   if (starts_with_word(start, se, ".version") || starts_with_word(start, se, ".target") ||
       starts_with_word(start, se, ".address_size")) {
      s->kind = STMT_HEADER;
   } else if (starts_with_word(start, se, ".file")) {
      s->kind = STMT_FILE;
   } else if (has_word(start, se, ".func") || has_word(start, se, ".entry")) {
      bool body = memchr(start, '{', (size_t)(se - start)) != NULL;
      s->kind = has_word(start, se, ".entry") ? STMT_ENTRY : body ? STMT_FUNC_DEF : STMT_FUNC_DECL;
      func_name(start, se, s->name, sizeof(s->name));
      s->linkage = has_word(start, se, ".weak") ? LINK_WEAK : has_word(start, se, ".visible") ? LINK_VISIBLE
                                                                                              : LINK_LOCAL;
   } else if (*start == '.' &&
                 (has_word(start, se, ".global") || has_word(start, se, ".const"))) {
         s->kind = has_word(start, se, ".extern") ? STMT_EXTERN_VAR : STMT_VAR;
         var_name(start, se, s->name, sizeof(s->name));
         s->linkage = has_word(start, se, ".weak") || has_word(start, se, ".common") ? LINK_WEAK
                      : has_word(start, se, ".visible")                              ? LINK_VISIBLE
                                                                                     : LINK_LOCAL;
   }
   return true;
}

struct buf {
   char *data;
   size_t len, cap;
   bool failed;
};

static void
put(struct buf *b, const char *s, size_t n)
{
   if (b->failed)
      return;
   if (b->len + n + 2 > b->cap) {
      size_t cap = (b->len + n + 2) * 2;
      char *grown = realloc(b->data, cap);
      if (!grown) {
         b->failed = true;
         return;
      }
      b->data = grown;
      b->cap = cap;
   }
   memcpy(b->data + b->len, s, n);
   b->len += n;
   b->data[b->len] = '\0';
}

static struct stmt *
find(struct stmt **stmts, const size_t *counts, size_t inputs, int kind, const char *name)
{
   for (size_t a = 0; a < inputs; a++)
      for (size_t b = 0; b < counts[a]; b++)
         if ((int)stmts[a][b].kind == kind && name[0] && strcmp(stmts[a][b].name, name) == 0)
            return &stmts[a][b];
   return NULL;
}

static CUresult
link_merge(struct link_state *s, struct buf *out)
{
   struct stmt **stmts = calloc(s->count, sizeof(*stmts));
   size_t *counts = calloc(s->count, sizeof(*counts));
   CUresult res = CUDA_SUCCESS;
   if (!stmts || !counts) {
      res = cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "cuLinkComplete: out of host memory");
      goto out;
   }
   for (size_t i = 0; i < s->count && res == CUDA_SUCCESS; i++)
      res = split(s->inputs[i].ptx, s->inputs[i].len, &stmts[i], &counts[i]);
   if (res != CUDA_SUCCESS)
      goto out;

   /* A .weak definition gives way to a visible one of its name in any
    * input, and to a .weak one of an earlier input: it is dropped, and
    * everything that names the symbol reaches the one kept. */
   for (size_t i = 0; i < s->count; i++) {
      for (size_t j = 0; j < counts[i]; j++) {
         struct stmt *w = &stmts[i][j];
         if (!is_definition(w) || w->linkage != LINK_WEAK)
            continue;
         for (size_t a = 0; a < s->count && !w->dropped; a++) {
            for (size_t b = 0; b < counts[a] && !w->dropped; b++) {
               const struct stmt *o = &stmts[a][b];
               if (o == w || !is_definition(o) || o->dropped || strcmp(o->name, w->name) != 0)
                  continue;
               if (o->linkage == LINK_VISIBLE || (o->linkage == LINK_WEAK && a < i)) {
                  cuvk_logd("cuLinkComplete: the weak definition of '%s' in '%s' gives way to the one in '%s'",
                            w->name, s->inputs[i].name, s->inputs[a].name);
                  w->dropped = true;
                  w->written = true;
               }
            }
         }
      }
   }

   /* The header: the newest .version, the first .target and
    * .address_size. */
   unsigned best_major = 0, best_minor = 0;
   const struct stmt *version = NULL, *target = NULL, *address = NULL;
   for (size_t i = 0; i < s->count; i++) {
      for (size_t j = 0; j < counts[i]; j++) {
         const struct stmt *st = &stmts[i][j];
         if (st->kind != STMT_HEADER)
            continue;
         if (starts_with_word(st->text, st->text + st->len, ".version")) {
            unsigned major = 0, minor = 0;
            if (sscanf(st->text + 8, " %u.%u", &major, &minor) == 2 &&
                (!version || major > best_major || (major == best_major && minor > best_minor))) {
               best_major = major;
               best_minor = minor;
               version = st;
            }
         } else if (starts_with_word(st->text, st->text + st->len, ".target") && !target) {
            target = st;
         } else if (!address) {
            address = st;
         }
      }
   }
   const struct stmt *header[3] = {version, target, address};
   for (unsigned h = 0; h < 3; h++) {
      if (header[h]) {
         put(out, header[h]->text, header[h]->len);
         put(out, "\n", 1);
      }
   }

   for (size_t i = 0; i < s->count; i++) {
      for (size_t j = 0; j < counts[i]; j++) {
         struct stmt *st = &stmts[i][j];
         /* .file numbers would clash between inputs: the first input's
          * debug files are kept, the others' dropped. */
         if (st->kind == STMT_HEADER || (st->kind == STMT_FILE && i > 0))
            continue;
         if ((st->kind == STMT_VAR && st->written) || st->kind == STMT_FUNC_DEF || st->kind == STMT_ENTRY)
            continue;
         if (st->kind == STMT_FUNC_DECL && find(stmts, counts, s->count, STMT_FUNC_DEF, st->name))
            continue;
         if (st->kind == STMT_EXTERN_VAR && st->name[0]) {
            struct stmt *def = find(stmts, counts, s->count, STMT_VAR, st->name);
            if (def) {
               /* A dropped weak definition stands for the one kept,
                * which its own input writes. */
               if (!def->written) {
                  put(out, def->text, def->len);
                  put(out, "\n", 1);
                  def->written = true;
               }
               continue;
            }
         }
         if (st->kind == STMT_EXTERN_VAR) {
            /* The same declaration written already (two inputs naming
             * one undefined symbol, or the same dynamic shared array). */
            bool seen = false;
            for (size_t a = 0; a <= i && !seen; a++)
               for (size_t b = 0; b < (a == i ? j : counts[a]) && !seen; b++)
                  seen = stmts[a][b].kind == STMT_EXTERN_VAR && stmts[a][b].len == st->len &&
                         memcmp(stmts[a][b].text, st->text, st->len) == 0;
            if (seen)
               continue;
         }
         st->written = true;
         put(out, st->text, st->len);
         put(out, "\n", 1);
      }
   }
   /* Functions, callees before callers: the compiler takes a function's
    * signature from its definition, which must come before any call.
    * Each round writes the definitions whose bodies name no function
    * still unwritten; a cycle (recursion across inputs) is written as it
    * comes, and the compiler says whether it copes. */
   for (bool progress = true; progress;) {
      progress = false;
      bool left = false;
      for (size_t i = 0; i < s->count; i++) {
         for (size_t j = 0; j < counts[i]; j++) {
            struct stmt *st = &stmts[i][j];
            if (st->kind != STMT_FUNC_DEF || st->written)
               continue;
            bool ready = true;
            for (size_t a = 0; a < s->count && ready; a++)
               for (size_t b = 0; b < counts[a] && ready; b++)
                  ready = &stmts[a][b] == st || stmts[a][b].kind != STMT_FUNC_DEF || stmts[a][b].written ||
                          !mentions(st->text, st->len, stmts[a][b].name);
            if (!ready) {
               left = true;
               continue;
            }
            put(out, st->text, st->len);
            put(out, "\n", 1);
            st->written = true;
            progress = true;
         }
      }
      if (!progress && left) {
         for (size_t i = 0; i < s->count; i++) {
            for (size_t j = 0; j < counts[i]; j++) {
               struct stmt *st = &stmts[i][j];
               if (st->kind == STMT_FUNC_DEF && !st->written) {
                  put(out, st->text, st->len);
                  put(out, "\n", 1);
                  st->written = true;
               }
            }
         }
      }
   }
   for (size_t i = 0; i < s->count; i++) {
      for (size_t j = 0; j < counts[i]; j++) {
         if (stmts[i][j].kind == STMT_ENTRY && !stmts[i][j].dropped) {
            put(out, stmts[i][j].text, stmts[i][j].len);
            put(out, "\n", 1);
         }
      }
   }
   if (out->failed)
      res = cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "cuLinkComplete: out of host memory");
out:
   for (size_t i = 0; stmts && i < s->count; i++)
      free(stmts[i]);
   free(stmts);
   free(counts);
   return res;
}

/* s->lock held. */
static CUresult
link_complete_locked(struct link_state *s, void **cubinOut, size_t *sizeOut)
{
   CUresult res;
   if (s->failed != CUDA_SUCCESS)
      return cuvk_error(s->failed, "cuLinkComplete: an input did not link (the error log says which)");
   if (s->count == 0)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuLinkComplete: nothing was added to link");
   struct buf out = {0};
   if (s->count == 1) {
      put(&out, s->inputs[0].ptx, s->inputs[0].len);
      res = out.failed ? cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "cuLinkComplete: out of host memory")
                       : CUDA_SUCCESS;
   } else {
      res = link_merge(s, &out);
   }
   if (res != CUDA_SUCCESS) {
      free(out.data);
      return res;
   }
   /* The compiler checks the merged module now, so what does not link
    * fails here rather than at load. */
   struct cuvk_cc_module *cc;
   struct cuvk_cc_error err;
   if (!cuvk_cc_module_create(out.data, out.len, &cc, &err)) {
      res = err.status == CUVK_CC_NO_MEMORY ? CUDA_ERROR_OUT_OF_MEMORY
            : err.status == CUVK_CC_UNSUPPORTED ? CUDA_ERROR_NOT_SUPPORTED : CUDA_ERROR_INVALID_PTX;
      if (s->error_log && s->error_log_size)
         snprintf(s->error_log, s->error_log_size, "cuvk: the %zu inputs do not link: line %u of the merged "
                  "PTX: %s", s->count, err.line, err.message);
      free(out.data);
      return cuvk_error(res, "cuLinkComplete: the %zu inputs do not link: line %u of the merged PTX: %s",
                        s->count, err.line, err.message);
   }
   cuvk_cc_module_destroy(cc);
   free(s->output);
   s->output = out.data;
   *cubinOut = s->output;
   *sizeOut = out.len + 1;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuLinkComplete(CUlinkState state, void **cubinOut, size_t *sizeOut)
{
   struct link_state *s STATE_HELD = NULL;
   CUresult res = state_lookup(state, "cuLinkComplete", &s);
   if (res != CUDA_SUCCESS)
      return res;
   if (!cubinOut || !sizeOut)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuLinkComplete: NULL output");
   pthread_mutex_lock(&s->lock);
   res = link_complete_locked(s, cubinOut, sizeOut);
   pthread_mutex_unlock(&s->lock);
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuLinkDestroy(CUlinkState state)
{
   struct link_state *s;
   CUresult res = state_lookup(state, "cuLinkDestroy", &s);
   if (res != CUDA_SUCCESS)
      return res;
   bool first = cuvk_object_release(&s->base);
   cuvk_object_put(&s->base);
   if (!first)
      return cuvk_error(CUDA_ERROR_INVALID_HANDLE, "cuLinkDestroy: %p was destroyed by another thread",
                        (void *)state);
   return CUDA_SUCCESS;
}
