/*
 * Warp instructions where the device runs 32-wide subgroups (NVIDIA's
 * warps are its subgroups): shfl.sync, vote.sync, match.sync, activemask,
 * redux.sync, elect.sync and bar.warp.sync as Vulkan 1.1 subgroup
 * operations, with %laneid the subgroup invocation id.  Elsewhere
 * (lavapipe runs 8-wide subgroups) the emitter refuses them before coming
 * here.
 *
 * The member masks are not checked: PTX requires every thread the mask
 * names to execute the same instruction, which on a warp that is one
 * subgroup is what the subgroup operation needs too; a mask naming fewer
 * threads than are active gives what the subgroup operation over the
 * active ones gives.
 */
#include "compiler/spirv_emit.h"

static uint32_t
scope_subgroup(struct cuvk_spirv_emitter *e)
{
   return cuvk_spirv_const_u32(e, SpvScopeSubgroup);
}

uint32_t
cuvk_spirv_subgroup_lane(struct cuvk_spirv_emitter *e)
{
   uint32_t u32 = cuvk_spirv_type_uint(e, 32);
   if (!e->builtin_subgroup_lane) {
      cuvk_spirv_capability(e, SpvCapabilityGroupNonUniform);
      e->builtin_subgroup_lane = cuvk_spirv_global_var(e, SpvStorageClassInput, u32);
      cuvk_spirv_op(&e->b, CUVK_SPIRV_ANNOTATIONS, SpvOpDecorate, e->builtin_subgroup_lane,
                    SpvDecorationBuiltIn, SpvBuiltInSubgroupLocalInvocationId);
   }
   return cuvk_spirv_val(e, SpvOpLoad, u32, e->builtin_subgroup_lane);
}

uint32_t
cuvk_spirv_subgroup_id(struct cuvk_spirv_emitter *e)
{
   uint32_t u32 = cuvk_spirv_type_uint(e, 32);
   if (!e->builtin_subgroup_id) {
      cuvk_spirv_capability(e, SpvCapabilityGroupNonUniform);
      e->builtin_subgroup_id = cuvk_spirv_global_var(e, SpvStorageClassInput, u32);
      cuvk_spirv_op(&e->b, CUVK_SPIRV_ANNOTATIONS, SpvOpDecorate, e->builtin_subgroup_id,
                    SpvDecorationBuiltIn, SpvBuiltInSubgroupId);
   }
   return cuvk_spirv_val(e, SpvOpLoad, u32, e->builtin_subgroup_id);
}

/* shfl.sync.mode.b32 d[|p], a, b, c, membermask (PTX ISA's pseudocode:
 * c holds the clamp value in bits 0-4 and the segment mask in 8-12). */
static int
lower_shfl(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in)
{
   uint32_t u32 = cuvk_spirv_type_uint(e, 32), t_bool = cuvk_spirv_type_bool(e);

   if (in->src_count < 3 || in->dst_count < 1 || in->dst_count > 2)
      return cuvk_spirv_fail(e, CUVK_CC_INVALID, in, "wrong operands") ? 1 : -1;
   cuvk_spirv_capability(e, SpvCapabilityGroupNonUniformShuffle);
   uint32_t lane = cuvk_spirv_subgroup_lane(e);
   uint32_t a = cuvk_spirv_read(e, &in->src[0], CUVK_SPIRV_UINT, 32);
   uint32_t b = cuvk_spirv_read(e, &in->src[1], CUVK_SPIRV_UINT, 32);
   uint32_t c = cuvk_spirv_read(e, &in->src[2], CUVK_SPIRV_UINT, 32);
   uint32_t k31 = cuvk_spirv_const_u32(e, 31);
   uint32_t bval = cuvk_spirv_val(e, SpvOpBitwiseAnd, u32, b, k31);
   uint32_t cval = cuvk_spirv_val(e, SpvOpBitwiseAnd, u32, c, k31);
   uint32_t seg = cuvk_spirv_val(e, SpvOpBitwiseAnd, u32,
                                 cuvk_spirv_val(e, SpvOpShiftRightLogical, u32, c,
                                                cuvk_spirv_const_u32(e, 8)),
                                 k31);
   uint32_t not_seg = cuvk_spirv_val(e, SpvOpNot, u32, seg);
   uint32_t min_lane = cuvk_spirv_val(e, SpvOpBitwiseAnd, u32, lane, seg);
   uint32_t max_lane = cuvk_spirv_val(e, SpvOpBitwiseOr, u32, min_lane,
                                      cuvk_spirv_val(e, SpvOpBitwiseAnd, u32, cval, not_seg));
   uint32_t j, ok;
   if (cuvk_spirv_has_mod(in, PTX_MOD_UP)) {
      j = cuvk_spirv_val(e, SpvOpISub, u32, lane, bval);
      ok = cuvk_spirv_val(e, SpvOpSGreaterThanEqual, t_bool, j, max_lane);
   } else if (cuvk_spirv_has_mod(in, PTX_MOD_DOWN)) {
      j = cuvk_spirv_val(e, SpvOpIAdd, u32, lane, bval);
      ok = cuvk_spirv_val(e, SpvOpULessThanEqual, t_bool, j, max_lane);
   } else if (cuvk_spirv_has_mod(in, PTX_MOD_BFLY)) {
      j = cuvk_spirv_val(e, SpvOpBitwiseXor, u32, lane, bval);
      ok = cuvk_spirv_val(e, SpvOpULessThanEqual, t_bool, j, max_lane);
   } else if (cuvk_spirv_has_mod(in, PTX_MOD_IDX)) {
      j = cuvk_spirv_val(e, SpvOpBitwiseOr, u32, min_lane,
                         cuvk_spirv_val(e, SpvOpBitwiseAnd, u32, bval, not_seg));
      ok = cuvk_spirv_val(e, SpvOpULessThanEqual, t_bool, j, max_lane);
   } else {
      return cuvk_spirv_fail(e, CUVK_CC_INVALID, in, "shfl without a mode") ? 1 : -1;
   }
   uint32_t src = cuvk_spirv_val(e, SpvOpSelect, u32, ok, j, lane);
   uint32_t d = cuvk_spirv_val(e, SpvOpGroupNonUniformShuffle, u32, scope_subgroup(e), a, src);
   cuvk_spirv_write(e, &in->dst[0], d, CUVK_SPIRV_UINT, 32);
   if (in->dst_count == 2)
      cuvk_spirv_write(e, &in->dst[1], ok, CUVK_SPIRV_BOOL, 1);
   return e->failed ? -1 : 1;
}

static uint32_t
ballot(struct cuvk_spirv_emitter *e, uint32_t pred)
{
   uint32_t u32 = cuvk_spirv_type_uint(e, 32);
   cuvk_spirv_capability(e, SpvCapabilityGroupNonUniformBallot);
   uint32_t v = cuvk_spirv_val(e, SpvOpGroupNonUniformBallot, cuvk_spirv_type_vector(e, u32, 4),
                               scope_subgroup(e), pred);
   return cuvk_spirv_val(e, SpvOpCompositeExtract, u32, v, 0);
}

static int
lower_vote(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in)
{
   uint32_t t_bool = cuvk_spirv_type_bool(e);

   if (in->src_count < 1 || in->dst_count != 1)
      return cuvk_spirv_fail(e, CUVK_CC_INVALID, in, "wrong operands") ? 1 : -1;
   uint32_t p = cuvk_spirv_read(e, &in->src[0], CUVK_SPIRV_BOOL, 1);
   if (cuvk_spirv_has_mod(in, PTX_MOD_BALLOT)) {
      cuvk_spirv_write(e, &in->dst[0], ballot(e, p), CUVK_SPIRV_UINT, 32);
      return e->failed ? -1 : 1;
   }
   SpvOp op;
   if (cuvk_spirv_has_mod(in, PTX_MOD_ALL))
      op = SpvOpGroupNonUniformAll;
   else if (cuvk_spirv_has_mod(in, PTX_MOD_ANY))
      op = SpvOpGroupNonUniformAny;
   else if (cuvk_spirv_has_mod(in, PTX_MOD_UNI))
      op = SpvOpGroupNonUniformAllEqual;
   else
      return cuvk_spirv_fail(e, CUVK_CC_INVALID, in, "vote without a mode") ? 1 : -1;
   cuvk_spirv_capability(e, SpvCapabilityGroupNonUniformVote);
   cuvk_spirv_write(e, &in->dst[0], cuvk_spirv_val(e, op, t_bool, scope_subgroup(e), p),
                    CUVK_SPIRV_BOOL, 1);
   return e->failed ? -1 : 1;
}

static int
lower_redux(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in)
{
   enum cuvk_spirv_kind kind;
   unsigned bits;
   SpvOp op;

   if (in->src_count < 1 || in->dst_count != 1 ||
       !cuvk_spirv_ptx_kind(cuvk_spirv_type_mod(in, 0), &kind, &bits) || bits != 32 ||
       kind == CUVK_SPIRV_FLOAT)
      return cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, in, "only 32-bit integer redux.sync is "
                             "translated") ? 1 : -1;
   bool s = kind == CUVK_SPIRV_SINT;
   if (cuvk_spirv_has_mod(in, PTX_MOD_ADD))
      op = SpvOpGroupNonUniformIAdd;
   else if (cuvk_spirv_has_mod(in, PTX_MOD_MIN))
      op = s ? SpvOpGroupNonUniformSMin : SpvOpGroupNonUniformUMin;
   else if (cuvk_spirv_has_mod(in, PTX_MOD_MAX))
      op = s ? SpvOpGroupNonUniformSMax : SpvOpGroupNonUniformUMax;
   else if (cuvk_spirv_has_mod(in, PTX_MOD_AND))
      op = SpvOpGroupNonUniformBitwiseAnd;
   else if (cuvk_spirv_has_mod(in, PTX_MOD_OR))
      op = SpvOpGroupNonUniformBitwiseOr;
   else if (cuvk_spirv_has_mod(in, PTX_MOD_XOR))
      op = SpvOpGroupNonUniformBitwiseXor;
   else
      return cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, in, "this redux operation is not "
                             "translated") ? 1 : -1;
   cuvk_spirv_capability(e, SpvCapabilityGroupNonUniformArithmetic);
   uint32_t a = cuvk_spirv_read(e, &in->src[0], CUVK_SPIRV_UINT, 32);
   uint32_t r = cuvk_spirv_val(e, op, cuvk_spirv_type_uint(e, 32), scope_subgroup(e),
                               SpvGroupOperationReduce, a);
   cuvk_spirv_write(e, &in->dst[0], r, kind, 32);
   return e->failed ? -1 : 1;
}

/* match.any.sync.b32/.b64 d, a, membermask and match.all.sync d[|p], a,
 * membermask: each lane reads every lane's a by a shuffle from a constant
 * lane (32 of them, a 64-bit a as two words, since 64-bit subgroup
 * operations need shaderSubgroupExtendedTypes) and sets bit i where lane
 * i's value equals its own.  Only lanes of membermask count; a lane
 * outside it may be inactive, and its shuffled value, which SPIR-V leaves
 * undefined, is masked off.  .all gives the mask when every lane of it
 * matched, else 0, and p says which. */
static int
lower_match(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in)
{
   uint32_t u32 = cuvk_spirv_type_uint(e, 32), t_bool = cuvk_spirv_type_bool(e);
   enum cuvk_spirv_kind kind;
   unsigned bits;
   bool all = cuvk_spirv_has_mod(in, PTX_MOD_ALL);

   if (!all && !cuvk_spirv_has_mod(in, PTX_MOD_ANY))
      return cuvk_spirv_fail(e, CUVK_CC_INVALID, in, "match without .any or .all") ? 1 : -1;
   if (in->src_count != 2 || in->dst_count < 1 || in->dst_count > (all ? 2u : 1u) ||
       !cuvk_spirv_ptx_kind(cuvk_spirv_type_mod(in, 0), &kind, &bits) ||
       (bits != 32 && bits != 64))
      return cuvk_spirv_fail(e, CUVK_CC_INVALID, in, "match needs .b32 or .b64 and two "
                             "sources") ? 1 : -1;
   cuvk_spirv_capability(e, SpvCapabilityGroupNonUniformShuffle);
   uint32_t mask = cuvk_spirv_read(e, &in->src[1], CUVK_SPIRV_UINT, 32);
   uint32_t w[2] = { 0, 0 };
   if (bits == 64) {
      uint32_t u64 = cuvk_spirv_type_uint(e, 64);
      uint32_t a = cuvk_spirv_read(e, &in->src[0], CUVK_SPIRV_UINT, 64);
      w[0] = cuvk_spirv_val(e, SpvOpUConvert, u32, a);
      w[1] = cuvk_spirv_val(e, SpvOpUConvert, u32,
                            cuvk_spirv_val(e, SpvOpShiftRightLogical, u64, a,
                                           cuvk_spirv_const_u32(e, 32)));
   } else {
      w[0] = cuvk_spirv_read(e, &in->src[0], CUVK_SPIRV_UINT, 32);
   }
   uint32_t eq = cuvk_spirv_const_u32(e, 0);
   for (unsigned i = 0; i < 32; i++) {
      uint32_t same = 0;
      for (unsigned k = 0; k < (bits == 64 ? 2u : 1u); k++) {
         uint32_t v = cuvk_spirv_val(e, SpvOpGroupNonUniformShuffle, u32, scope_subgroup(e), w[k],
                                     cuvk_spirv_const_u32(e, i));
         uint32_t s = cuvk_spirv_val(e, SpvOpIEqual, t_bool, v, w[k]);
         same = same ? cuvk_spirv_val(e, SpvOpLogicalAnd, t_bool, same, s) : s;
      }
      eq = cuvk_spirv_val(e, SpvOpBitwiseOr, u32, eq,
                          cuvk_spirv_val(e, SpvOpSelect, u32, same, cuvk_spirv_const_u32(e, 1u << i),
                                         cuvk_spirv_const_u32(e, 0)));
   }
   eq = cuvk_spirv_val(e, SpvOpBitwiseAnd, u32, eq, mask);
   if (!all) {
      cuvk_spirv_write(e, &in->dst[0], eq, CUVK_SPIRV_UINT, 32);
      return e->failed ? -1 : 1;
   }
   uint32_t every = cuvk_spirv_val(e, SpvOpIEqual, t_bool, eq, mask);
   cuvk_spirv_write(e, &in->dst[0],
                    cuvk_spirv_val(e, SpvOpSelect, u32, every, mask, cuvk_spirv_const_u32(e, 0)),
                    CUVK_SPIRV_UINT, 32);
   if (in->dst_count == 2)
      cuvk_spirv_write(e, &in->dst[1], every, CUVK_SPIRV_BOOL, 1);
   return e->failed ? -1 : 1;
}

int
cuvk_spirv_lower_warp(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in)
{
   switch (in->op) {
   case PTX_OP_SHFL:
      if (!cuvk_spirv_has_mod(in, PTX_MOD_SYNC))
         break;
      return lower_shfl(e, in);
   case PTX_OP_VOTE:
      if (!cuvk_spirv_has_mod(in, PTX_MOD_SYNC))
         break;
      return lower_vote(e, in);
   case PTX_OP_ACTIVEMASK:
      if (in->dst_count != 1)
         return cuvk_spirv_fail(e, CUVK_CC_INVALID, in, "wrong operands") ? 1 : -1;
      cuvk_spirv_write(e, &in->dst[0], ballot(e, cuvk_spirv_const_bool(e, true)),
                       CUVK_SPIRV_UINT, 32);
      return e->failed ? -1 : 1;
   case PTX_OP_REDUX:
      return lower_redux(e, in);
   case PTX_OP_MATCH:
      if (!cuvk_spirv_has_mod(in, PTX_MOD_SYNC))
         break;
      return lower_match(e, in);
   case PTX_OP_ELECT:
      if (in->dst_count < 1)
         return cuvk_spirv_fail(e, CUVK_CC_INVALID, in, "wrong operands") ? 1 : -1;
      cuvk_spirv_capability(e, SpvCapabilityGroupNonUniformBallot);
      /* elect.sync d|p: d the leader's lane, p true in the leader. */
      cuvk_spirv_write(e, &in->dst[0],
                       cuvk_spirv_val(e, SpvOpGroupNonUniformBroadcastFirst,
                                      cuvk_spirv_type_uint(e, 32), scope_subgroup(e),
                                      cuvk_spirv_subgroup_lane(e)),
                       CUVK_SPIRV_UINT, 32);
      if (in->dst_count > 1)
         cuvk_spirv_write(e, &in->dst[1],
                          cuvk_spirv_val(e, SpvOpGroupNonUniformElect, cuvk_spirv_type_bool(e),
                                         scope_subgroup(e)),
                          CUVK_SPIRV_BOOL, 1);
      return e->failed ? -1 : 1;
   default:
      break;
   }
   /* The pre-sync forms (shfl, vote, match without .sync, which sm_70+
    * no longer runs). */
   return cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, in, "warp instruction %s is not translated",
                          ptx_opcode_table[in->op].name) ? 1 : -1;
}
