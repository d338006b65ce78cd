/*
 * The emitter's own lowering of mov, the one data-movement instruction
 * spirv_lower.h leaves to the emitter (cuvk_spirv_lower_alu answers every
 * arithmetic, comparison, conversion and bit instruction before the
 * emitter asks here): plain moves in any class, and the vector forms
 * that pack registers into a wider one or unpack them.
 *
 * It refuses every modifier it does not implement with 0, "not mine", so
 * the emitter names the instruction as not translated.
 */
#include "compiler/spirv_emit.h"

/* True when every modifier of in is a type or one of allowed. */
static bool
only_mods(const struct cuvk_ir_instr *in, const enum ptx_modifier *allowed, unsigned count)
{
   for (unsigned i = 0; i < in->mod_count; i++) {
      enum ptx_modifier m = in->mods[i];
      bool ok = ptx_modifier_is_type(m);
      for (unsigned k = 0; k < count && !ok; k++)
         ok = m == allowed[k];
      if (!ok)
         return false;
   }
   return true;
}
#define ONLY(in, ...)                                                            \
   only_mods((in), (const enum ptx_modifier[]){ PTX_MOD_COUNT, __VA_ARGS__ },     \
             sizeof((const enum ptx_modifier[]){ PTX_MOD_COUNT, __VA_ARGS__ }) /  \
                sizeof(enum ptx_modifier))

/* mov.b32 d, {a, b} and mov.b64 d, {a, b} / {a, b, c, d}: the elements,
 * first in the low bits; mov.b64 {a, b}, d the reverse ("_" skips one). */
static int
lower_mov_vector(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, unsigned bits)
{
   bool pack = in->src_count > 1;
   unsigned n = pack ? in->src_count : in->dst_count;
   unsigned eb = bits / n;
   uint32_t t = cuvk_spirv_type_uint(e, bits);

   if ((pack ? in->dst_count : in->src_count) != 1 || eb * n != bits || eb < 8)
      return 0;
   if (pack) {
      uint32_t r = cuvk_spirv_const_bits(e, CUVK_SPIRV_UINT, bits, 0);
      for (unsigned i = 0; i < n; i++) {
         uint32_t v = cuvk_spirv_convert(e, cuvk_spirv_read(e, &in->src[i], CUVK_SPIRV_UINT, eb),
                                         CUVK_SPIRV_UINT, eb, CUVK_SPIRV_UINT, bits);
         if (i)
            v = cuvk_spirv_val(e, SpvOpShiftLeftLogical, t, v, cuvk_spirv_const_u32(e, i * eb));
         r = cuvk_spirv_val(e, SpvOpBitwiseOr, t, r, v);
      }
      cuvk_spirv_write(e, &in->dst[0], r, CUVK_SPIRV_UINT, bits);
      return 1;
   }
   uint32_t a = cuvk_spirv_read(e, &in->src[0], CUVK_SPIRV_UINT, bits);
   for (unsigned i = 0; i < n; i++) {
      if (in->dst[i].kind == CUVK_IR_VAL_NONE)
         continue;
      uint32_t v = i ? cuvk_spirv_val(e, SpvOpShiftRightLogical, t, a,
                                      cuvk_spirv_const_u32(e, i * eb))
                     : a;
      cuvk_spirv_write(e, &in->dst[i],
                       cuvk_spirv_convert(e, v, CUVK_SPIRV_UINT, bits, CUVK_SPIRV_UINT, eb),
                       CUVK_SPIRV_UINT, eb);
   }
   return 1;
}

static int
lower_mov(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, enum cuvk_spirv_kind kind,
          unsigned bits)
{
   if (ONLY(in) && kind != CUVK_SPIRV_BOOL && (in->dst_count > 1 || in->src_count > 1))
      return lower_mov_vector(e, in, bits);
   if (!ONLY(in) || in->dst_count != 1 || in->src_count != 1)
      return 0;
   uint32_t v = cuvk_spirv_read(e, &in->src[0], kind, bits);
   cuvk_spirv_write(e, &in->dst[0], v, kind, bits);
   return 1;
}

int
cuvk_spirv_lower_basic(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in)
{
   enum cuvk_spirv_kind kind;
   unsigned bits;

   if (in->op != PTX_OP_MOV || !cuvk_spirv_ptx_kind(cuvk_spirv_type_mod(in, 0), &kind, &bits))
      return 0;
   return lower_mov(e, in, kind, bits);
}
