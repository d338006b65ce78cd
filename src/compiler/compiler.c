/*
 * The compiler's library API (compiler.h): PTX text to an IR module once,
 * at load, with the kernels' parameter layouts and the module's globals
 * worked out then; each kernel translated to SPIR-V only when asked.
 */
#include "compiler/compiler.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/ir.h"
#include "compiler/ptx.h"
#include "compiler/spirv.h"

struct cc_kernel {
   struct cuvk_ir_function *func;
   struct cuvk_cc_param *params;
   uint32_t param_bytes;
};

struct cuvk_cc_module {
   struct cuvk_ir_module *ir;
   struct cuvk_arena arena;
   struct cc_kernel *kernels;
   size_t kernel_count;
   struct cuvk_cc_global *globals;
   size_t global_count;
};

static bool
no_memory(struct cuvk_cc_error *err)
{
   return cuvk_cc_fail(err, CUVK_CC_NO_MEMORY, 0, 0, "out of memory loading PTX");
}

/* The module's .global and .const variables, in module order (the order
 * of the kernels' globals table, kernel_abi.h), relocations by index. */
static bool
collect_globals(struct cuvk_cc_module *m, struct cuvk_cc_error *err)
{
   const struct cuvk_ir_module *ir = m->ir;
   size_t n = 0;

   for (size_t i = 0; i < ir->var_count; i++)
      if (ir->vars[i]->space == PTX_SPACE_GLOBAL || ir->vars[i]->space == PTX_SPACE_CONST)
         n++;
   m->globals = cuvk_arena_array(&m->arena, n + 1, sizeof(*m->globals));
   uint32_t *index = cuvk_arena_array(&m->arena, ir->var_count + 1, sizeof(*index));
   if (!m->globals || !index)
      return no_memory(err);
   for (size_t i = 0; i < ir->var_count; i++) {
      const struct cuvk_ir_var *v = ir->vars[i];
      index[i] = UINT32_MAX;
      if (v->space == PTX_SPACE_GLOBAL || v->space == PTX_SPACE_CONST)
         index[i] = (uint32_t)m->global_count++;
   }
   for (size_t i = 0, g = 0; i < ir->var_count; i++) {
      const struct cuvk_ir_var *v = ir->vars[i];
      if (index[i] == UINT32_MAX)
         continue;
      struct cuvk_cc_global *out = &m->globals[g++];
      out->name = v->name;
      out->is_const = v->space == PTX_SPACE_CONST;
      out->is_extern = v->linkage == PTX_LINK_EXTERN;
      out->is_managed = v->managed;
      out->size = v->size;
      out->align = v->align ? v->align : 1;
      out->init = v->init;
      if (!v->reloc_count)
         continue;
      struct cuvk_cc_reloc *r = cuvk_arena_array(&m->arena, v->reloc_count, sizeof(*r));
      if (!r)
         return no_memory(err);
      for (size_t k = 0; k < v->reloc_count; k++) {
         const struct cuvk_ir_reloc *src = &v->relocs[k];
         if (src->func || !src->var || index[src->var->index] == UINT32_MAX ||
             ir->vars[src->var->index] != src->var)
            return cuvk_cc_fail(err, CUVK_CC_UNSUPPORTED, v->line, 0,
                                "%s: initialisers holding the address of %s are not supported "
                                "(only .global and .const variables)", v->name,
                                src->func ? src->func->name : src->var ? src->var->name : "?");
         /* A generic address of a global is the same CUdeviceptr. */
         r[k] = (struct cuvk_cc_reloc){ .offset = src->offset, .var = index[src->var->index],
                                        .addend = src->addend, .size = src->size };
      }
      out->relocs = r;
      out->reloc_count = v->reloc_count;
   }
   return true;
}

bool
cuvk_cc_module_create(const char *ptx, size_t len, struct cuvk_cc_module **out,
                      struct cuvk_cc_error *err)
{
   memset(err, 0, sizeof(*err));
   *out = NULL;
   if (len && ptx[len - 1] == '\0')
      len--;

   struct cuvk_cc_module *m = calloc(1, sizeof(*m));
   if (!m)
      return no_memory(err);
   cuvk_arena_init(&m->arena);

   struct ptx_module *parsed = ptx_parse(ptx, len, err);
   if (!parsed)
      goto fail;
   m->ir = cuvk_ptx_to_ir(parsed, err);
   ptx_module_destroy(parsed);
   if (!m->ir || !cuvk_ir_validate(m->ir, err))
      goto fail;

   size_t kernels = 0;
   for (size_t i = 0; i < m->ir->func_count; i++)
      if (m->ir->funcs[i]->is_entry && m->ir->funcs[i]->has_body)
         kernels++;
   m->kernels = cuvk_arena_array(&m->arena, kernels + 1, sizeof(*m->kernels));
   if (!m->kernels) {
      no_memory(err);
      goto fail;
   }
   for (size_t i = 0; i < m->ir->func_count; i++) {
      struct cuvk_ir_function *f = m->ir->funcs[i];
      if (!f->is_entry || !f->has_body)
         continue;
      struct cc_kernel *k = &m->kernels[m->kernel_count++];
      k->func = f;
      k->params = cuvk_arena_array(&m->arena, f->param_count + 1, sizeof(*k->params));
      if (!k->params) {
         no_memory(err);
         goto fail;
      }
      cuvk_spirv_param_layout(f, k->params, &k->param_bytes);
   }
   if (!collect_globals(m, err))
      goto fail;
   *out = m;
   return true;

fail:
   cuvk_cc_module_destroy(m);
   return false;
}

void
cuvk_cc_module_destroy(struct cuvk_cc_module *m)
{
   if (!m)
      return;
   if (m->ir)
      cuvk_ir_module_destroy(m->ir);
   cuvk_arena_finish(&m->arena);
   free(m);
}

size_t
cuvk_cc_module_kernel_count(const struct cuvk_cc_module *m)
{
   return m->kernel_count;
}

const char *
cuvk_cc_module_kernel_name(const struct cuvk_cc_module *m, size_t i)
{
   return i < m->kernel_count ? m->kernels[i].func->name : NULL;
}

const struct cuvk_cc_param *
cuvk_cc_module_kernel_params(const struct cuvk_cc_module *m, size_t i, uint32_t *count)
{
   *count = i < m->kernel_count ? (uint32_t)m->kernels[i].func->param_count : 0;
   return i < m->kernel_count ? m->kernels[i].params : NULL;
}

size_t
cuvk_cc_module_global_count(const struct cuvk_cc_module *m)
{
   return m->global_count;
}

const struct cuvk_cc_global *
cuvk_cc_module_global(const struct cuvk_cc_module *m, size_t i)
{
   return i < m->global_count ? &m->globals[i] : NULL;
}

bool
cuvk_cc_compile_kernel(struct cuvk_cc_module *m, const char *name,
                       const struct cuvk_cc_target *target, struct cuvk_cc_kernel *out,
                       struct cuvk_cc_error *err)
{
   const struct cc_kernel *k = NULL;
   struct cuvk_spirv_kernel_info info;

   memset(err, 0, sizeof(*err));
   memset(out, 0, sizeof(*out));
   for (size_t i = 0; i < m->kernel_count && !k; i++)
      if (strcmp(m->kernels[i].func->name, name) == 0)
         k = &m->kernels[i];
   if (!k)
      return cuvk_cc_fail(err, CUVK_CC_INVALID, 0, 0, "no kernel named %s", name);
   if (!cuvk_spirv_emit_kernel(m->ir, name, target, &info, &out->words, &out->word_count, err))
      return false;
   const struct cuvk_ir_function *f = k->func;
   out->name = f->name;
   out->params = k->params;
   out->param_count = (uint32_t)f->param_count;
   out->param_bytes = k->param_bytes;
   out->static_shared_bytes = info.static_shared_bytes;
   out->dynamic_shared = info.dynamic_shared;
   out->local_bytes = info.local_bytes;
   out->uses_printf = info.uses_printf;
   out->tex_bindings = info.tex_bindings;
   out->uses_textures = info.uses_textures;
   memcpy(out->reqntid, f->reqntid, sizeof(out->reqntid));
   memcpy(out->maxntid, f->maxntid, sizeof(out->maxntid));
   return true;
}
