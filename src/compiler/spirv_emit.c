/*
 * The SPIR-V emitter's skeleton: the module frame every kernel shares
 * (capabilities, memory model, entry point, the workgroup size as
 * specialization constants) around a body that, for now, may only
 * return.  See spirv.h for what is accepted.
 */
#include "compiler/spirv.h"

#include <string.h>

#include "compiler/spirv_builder.h"

/* Vulkan 1.2 consumes SPIR-V up to 1.5, in which physical storage
 * buffer addressing is core. */
#define CUVK_SPIRV_VERSION 0x00010500u

/* True when f provably does nothing: from the entry, a chain of empty
 * blocks joined by br that ends in ret or exit.  Otherwise err names what
 * the emitter cannot translate yet. */
static bool
body_is_empty(const struct cuvk_ir_function *f, struct cuvk_cc_error *err)
{
   const struct cuvk_ir_block *b = f->blocks[0];

   for (unsigned steps = 0; steps <= f->block_count; steps++) {
      if (!cuvk_list_is_empty(&b->instrs)) {
         const struct cuvk_ir_instr *in =
            cuvk_list_first_entry(&b->instrs, struct cuvk_ir_instr, link);
         return cuvk_cc_fail(err, CUVK_CC_UNSUPPORTED, in->line, 0,
                             "%s: instruction %s is not translated to SPIR-V yet", f->name,
                             ptx_opcode_table[in->op].name);
      }
      switch (b->term) {
      case CUVK_IR_TERM_RET:
      case CUVK_IR_TERM_EXIT:
         return true;
      case CUVK_IR_TERM_BR:
         b = b->succs[0];
         break;
      default:
         return cuvk_cc_fail(err, CUVK_CC_UNSUPPORTED, b->term_line, 0,
                             "%s: branches are not translated to SPIR-V yet (the "
                             "structurizer is not written)", f->name);
      }
   }
   /* More steps than blocks: the br chain is a cycle, a kernel that never
    * ends. */
   return cuvk_cc_fail(err, CUVK_CC_UNSUPPORTED, b->line, 0,
                       "%s: an endless loop is not translated to SPIR-V", f->name);
}

bool
cuvk_spirv_emit_kernel(const struct cuvk_ir_module *module, const char *kernel,
                       uint32_t **words, size_t *word_count, struct cuvk_cc_error *err)
{
   const struct cuvk_ir_function *f = NULL;

   memset(err, 0, sizeof(*err));
   *words = NULL;
   *word_count = 0;
   for (size_t i = 0; i < module->func_count; i++)
      if (module->funcs[i]->is_entry && strcmp(module->funcs[i]->name, kernel) == 0)
         f = module->funcs[i];
   if (!f)
      return cuvk_cc_fail(err, CUVK_CC_INVALID, 0, 0, "no kernel named %s", kernel);
   if (!f->has_body || f->block_count == 0)
      return cuvk_cc_fail(err, CUVK_CC_INVALID, f->line, 0, "kernel %s has no body", kernel);
   if (!body_is_empty(f, err))
      return false;

   struct cuvk_arena arena;
   struct cuvk_spirv_builder b;
   cuvk_arena_init(&arena);
   cuvk_spirv_builder_init(&b, &arena, CUVK_SPIRV_VERSION);

   uint32_t t_void = cuvk_spirv_id(&b), t_fn = cuvk_spirv_id(&b);
   uint32_t t_u32 = cuvk_spirv_id(&b), t_uvec3 = cuvk_spirv_id(&b);
   uint32_t size[3] = { cuvk_spirv_id(&b), cuvk_spirv_id(&b), cuvk_spirv_id(&b) };
   uint32_t wg_size = cuvk_spirv_id(&b);
   uint32_t main_fn = cuvk_spirv_id(&b), entry_label = cuvk_spirv_id(&b);

   cuvk_spirv_op(&b, CUVK_SPIRV_CAPABILITIES, SpvOpCapability, SpvCapabilityShader);
   cuvk_spirv_op(&b, CUVK_SPIRV_CAPABILITIES, SpvOpCapability,
                 SpvCapabilityPhysicalStorageBufferAddresses);
   cuvk_spirv_op(&b, CUVK_SPIRV_MEMORY_MODEL, SpvOpMemoryModel,
                 SpvAddressingModelPhysicalStorageBuffer64, SpvMemoryModelGLSL450);
   /* SPIR-V 1.4+ lists every global variable the entry point uses; none
    * yet. */
   cuvk_spirv_emit_str(&b, CUVK_SPIRV_ENTRY_POINTS, SpvOpEntryPoint,
                       (const uint32_t[]){ SpvExecutionModelGLCompute, main_fn }, 2, kernel,
                       NULL, 0);
   cuvk_spirv_op(&b, CUVK_SPIRV_EXECUTION_MODES, SpvOpExecutionMode, main_fn,
                 SpvExecutionModeLocalSize, 1, 1, 1);
   cuvk_spirv_emit_str(&b, CUVK_SPIRV_DEBUG, SpvOpName, &main_fn, 1, kernel, NULL, 0);

   for (uint32_t i = 0; i < 3; i++)
      cuvk_spirv_op(&b, CUVK_SPIRV_ANNOTATIONS, SpvOpDecorate, size[i], SpvDecorationSpecId, i);
   cuvk_spirv_op(&b, CUVK_SPIRV_ANNOTATIONS, SpvOpDecorate, wg_size, SpvDecorationBuiltIn,
                 SpvBuiltInWorkgroupSize);

   cuvk_spirv_op(&b, CUVK_SPIRV_GLOBALS, SpvOpTypeVoid, t_void);
   cuvk_spirv_op(&b, CUVK_SPIRV_GLOBALS, SpvOpTypeFunction, t_fn, t_void);
   cuvk_spirv_op(&b, CUVK_SPIRV_GLOBALS, SpvOpTypeInt, t_u32, 32, 0);
   cuvk_spirv_op(&b, CUVK_SPIRV_GLOBALS, SpvOpTypeVector, t_uvec3, t_u32, 3);
   for (unsigned i = 0; i < 3; i++)
      cuvk_spirv_op(&b, CUVK_SPIRV_GLOBALS, SpvOpSpecConstant, t_u32, size[i], 1);
   cuvk_spirv_op(&b, CUVK_SPIRV_GLOBALS, SpvOpSpecConstantComposite, t_uvec3, wg_size,
                 size[0], size[1], size[2]);

   cuvk_spirv_op(&b, CUVK_SPIRV_FUNCTIONS, SpvOpFunction, t_void, main_fn,
                 SpvFunctionControlMaskNone, t_fn);
   cuvk_spirv_op(&b, CUVK_SPIRV_FUNCTIONS, SpvOpLabel, entry_label);
   cuvk_spirv_op0(&b, CUVK_SPIRV_FUNCTIONS, SpvOpReturn);
   cuvk_spirv_op0(&b, CUVK_SPIRV_FUNCTIONS, SpvOpFunctionEnd);

   bool ok = cuvk_spirv_finish(&b, words, word_count);
   cuvk_arena_finish(&arena);
   if (!ok)
      return cuvk_cc_fail(err, CUVK_CC_NO_MEMORY, 0, 0, "out of memory emitting SPIR-V");
   return true;
}
