/*
 * Texture and surface instructions: tex, suld.b, sust.b, txq, suq, over
 * the descriptor set and records kernel_abi.h describes
 * (docs/textures.md).
 *
 * Each access is a call of a helper function per binding (and mode).  On
 * a device without non-uniform indexing of image arrays (lavapipe), the
 * loop that makes the descriptor index uniform lives there, away from
 * the kernel's structured control flow: the lanes of a subgroup take the
 * first active lane's handle, those holding the same handle do the
 * access, and the rest go round again.  Where the target says the device
 * has it (cuvk_cc_target.tex_nonuniform, surf_nonuniform: NVIDIA), each
 * lane indexes with its own handle's slot, decorated NonUniform, and
 * there is no loop: it cost two broadcasts, a compare and branches per
 * access, and took the lanes holding different handles in turns.
 *
 * Translated so far: tex.1d/2d/3d/a1d/a2d/cube, and .acube where the
 * device has imageCubeArray (with .level and .grad)
 * .v4.{f32,s32,u32} with .f32 or .s32 coordinates
 * on arrays and mipmapped arrays; tld4.{r,g,b,a}.2d; on linear memory
 * tex.1d with .s32 coordinates (tex1Dfetch), on pitched memory tex.2d,
 * both read through the page table (sample_memory); suld.b and sust.b
 * .1d/.2d/.3d/.a1d/.a2d with .clamp, .zero and .trap; txq and suq
 * .width, .height, .depth and .num_mipmap_levels.  The .acube geometry
 * on a device without imageCubeArray, cube surface geometries and
 * sust.p are refused with CUVK_CC_UNSUPPORTED naming the instruction.
 */
#include <string.h>

#include "compiler/spirv_emit.h"

/* Record fields (struct cuvk_kernel_tex_record). */
#define RECORD_SIZE 80u
#define RECORD_KIND 0u
#define RECORD_FORMAT 4u
#define RECORD_CHANNELS 8u
#define RECORD_FLAGS 12u
#define RECORD_WIDTH 16u
#define RECORD_HEIGHT 20u
#define RECORD_DEPTH 24u
#define RECORD_LEVELS 28u
#define RECORD_ADDRESS 32u
#define RECORD_PITCH 40u
#define RECORD_ADDRESS_MODE 48u
#define RECORD_FILTER 60u
#define RECORD_BORDER 64u
_Static_assert(sizeof(struct cuvk_kernel_tex_record) == RECORD_SIZE, "record layout");
_Static_assert(offsetof(struct cuvk_kernel_tex_record, flags) == RECORD_FLAGS &&
                  offsetof(struct cuvk_kernel_tex_record, width) == RECORD_WIDTH &&
                  offsetof(struct cuvk_kernel_tex_record, levels) == RECORD_LEVELS &&
                  offsetof(struct cuvk_kernel_tex_record, format) == RECORD_FORMAT &&
                  offsetof(struct cuvk_kernel_tex_record, channels) == RECORD_CHANNELS &&
                  offsetof(struct cuvk_kernel_tex_record, address) == RECORD_ADDRESS &&
                  offsetof(struct cuvk_kernel_tex_record, pitch) == RECORD_PITCH &&
                  offsetof(struct cuvk_kernel_tex_record, address_mode) == RECORD_ADDRESS_MODE &&
                  offsetof(struct cuvk_kernel_tex_record, filter_mode) == RECORD_FILTER &&
                  offsetof(struct cuvk_kernel_tex_record, border_color) == RECORD_BORDER,
               "record layout");

/* Helper kinds in the emitter's cache (CUVK_SPIRV_KEY_HELPER's a). */
#define HELPER_BINDING 0x7e000u   /* + binding: the descriptor array */
#define HELPER_SAMPLE 0x7e100u    /* + binding; b: integer coordinates, + 2 with gradients,
                                   * + 4 * (1 + component) for tld4 */
#define HELPER_SULD 0x7e200u      /* + binding; b: the out-of-range mode */
#define HELPER_SUST 0x7e300u
#define HELPER_QUERY 0x7e400u     /* + surface */
#define HELPER_TEXEL 0x7e500u     /* a texel of linear or pitched memory */
#define HELPER_SPEC_BOOL 0x7e600u /* a bool specialization constant; b: its SpecId */
#define HELPER_SUST_P 0x7e700u    /* + dimension; b: the out-of-range mode */
#define HELPER_CONVERT 0x7e900u   /* + binding; b: the sample helper's variant */
/* A sample helper's variant without the conversion path: the one the
 * conversion path itself calls. */
#define SAMPLE_NO_CONVERT 64u

enum oob_mode { OOB_TRAP, OOB_CLAMP, OOB_ZERO };

static uint32_t
new_id(struct cuvk_spirv_emitter *e)
{
   return cuvk_spirv_id(&e->b);
}

static void
label(struct cuvk_spirv_emitter *e, uint32_t id)
{
   cuvk_spirv_do(e, SpvOpLabel, id);
}

static uint32_t
type_sint32(struct cuvk_spirv_emitter *e)
{
   uint32_t id = cuvk_spirv_cache_get(e, CUVK_SPIRV_KEY_TYPE_INT, 32, 1, 0);
   if (!id) {
      id = new_id(e);
      cuvk_spirv_global(e, SpvOpTypeInt, id, 32, 1);
      cuvk_spirv_cache_put(e, CUVK_SPIRV_KEY_TYPE_INT, 32, 1, 0, id);
   }
   return id;
}

static bool
fail(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, const char *what)
{
   return cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, in, "%s is not translated yet", what);
}

/* The geometry of an instruction and its spatial coordinates (the layer
 * index not counted); false (failed) for those not done.  Cube
 * geometries are for textures only (CUDA's surface calls address a
 * cubemap's faces as layers). */
static bool
geometry(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, bool texture, enum cuvk_kernel_tex_dim *dim,
         unsigned *coords)
{
   enum ptx_modifier g = cuvk_spirv_mod_of_class(in, PTX_MODC_GEOM);
   if (g == PTX_MOD_GEOM_A1D || g == PTX_MOD_GEOM_A2D) {
      *dim = g == PTX_MOD_GEOM_A1D ? CUVK_KERNEL_DIM_1D_ARRAY : CUVK_KERNEL_DIM_2D_ARRAY;
      *coords = g == PTX_MOD_GEOM_A1D ? 1 : 2;
      return true;
   }
   if (texture) {
      switch (g) {
      case PTX_MOD_GEOM_CUBE:
         *dim = CUVK_KERNEL_DIM_CUBE;
         *coords = 3;
         return true;
      case PTX_MOD_GEOM_ACUBE:
         /* Cube arrays need imageCubeArray (texture.c refuses textures
          * of layered cubemaps on devices without it). */
         if (!e->target->image_cube_array)
            return cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, in, "the layered cubemap geometry (.acube) needs the "
                                   "device's imageCubeArray");
         *dim = CUVK_KERNEL_DIM_CUBE_ARRAY;
         *coords = 3;
         return true;
      default:
         break;
      }
   }
   switch (g) {
   case PTX_MOD_GEOM_1D:
      *dim = CUVK_KERNEL_DIM_1D;
      *coords = 1;
      return true;
   case PTX_MOD_GEOM_2D:
      *dim = CUVK_KERNEL_DIM_2D;
      *coords = 2;
      return true;
   case PTX_MOD_GEOM_3D:
      *dim = CUVK_KERNEL_DIM_3D;
      *coords = 3;
      return true;
   case PTX_MOD_COUNT:
      return cuvk_spirv_fail(e, CUVK_CC_INVALID, in, "%s without a geometry", ptx_opcode_table[in->op].name);
   default:
      return fail(e, in, ptx_modifier_table[g].name);
   }
}

/* ---- descriptors ---- */

static const SpvDim spv_dims[CUVK_KERNEL_DIM_COUNT] = {
   SpvDim1D, SpvDim2D, SpvDim3D, SpvDimCube, SpvDim1D, SpvDim2D, SpvDimCube,
};

static bool
dim_arrayed(enum cuvk_kernel_tex_dim dim)
{
   return dim == CUVK_KERNEL_DIM_1D_ARRAY || dim == CUVK_KERNEL_DIM_2D_ARRAY || dim == CUVK_KERNEL_DIM_CUBE_ARRAY;
}

struct binding {
   uint32_t var;          /* UniformConstant array of slots */
   uint32_t image_type;   /* OpTypeImage */
   uint32_t elem_type;    /* OpTypeSampledImage, or the image type for storage */
};

/* The descriptor array of a binding, declared at first use, within the
 * device's per-stage limits. */
static bool
binding_get(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, uint32_t binding,
            enum cuvk_kernel_tex_dim dim, bool storage, enum cuvk_kernel_tex_type type, unsigned size_log2,
            struct binding *out)
{
   const struct cuvk_cc_target *t = e->target;
   uint32_t var = cuvk_spirv_cache_get(e, CUVK_SPIRV_KEY_HELPER, HELPER_BINDING + binding, 0, 0);
   if (var) {
      out->var = var;
      out->image_type = cuvk_spirv_cache_get(e, CUVK_SPIRV_KEY_HELPER, HELPER_BINDING + binding, 1, 0);
      out->elem_type = cuvk_spirv_cache_get(e, CUVK_SPIRV_KEY_HELPER, HELPER_BINDING + binding, 2, 0);
      return true;
   }
   uint32_t slots = storage ? t->surf_slots : t->tex_slots;
   uint32_t limit = storage ? t->max_storage_descriptors : t->max_sampled_descriptors;
   if (!slots)
      return cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, in, "the device has no %s descriptors for kernels",
                             storage ? "storage image" : "sampled image");
   unsigned used = 0;
   for (uint32_t b = 0; b < CUVK_KERNEL_BINDING_COUNT; b++)
      if ((e->tex_bindings >> b & 1) && (b >= CUVK_KERNEL_SURF_BINDING_BASE) == storage)
         used++;
   if ((uint64_t)(used + 1) * slots > limit)
      return cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, in, "the kernel needs %u %s bindings of %u descriptors; "
                             "the device allows %u a stage", used + 1,
                             storage ? "storage image" : "sampled image", slots, limit);

   uint32_t u32 = cuvk_spirv_type_uint(e, 32);
   uint32_t sampled = storage || type == CUVK_KERNEL_TEX_UINT ? u32
                      : type == CUVK_KERNEL_TEX_SINT        ? type_sint32(e)
                                                            : cuvk_spirv_type_float(e, 32);
   SpvImageFormat format = SpvImageFormatUnknown;
   if (storage) {
      static const SpvImageFormat formats[CUVK_KERNEL_SURF_SIZE_COUNT] = {
         SpvImageFormatR8ui, SpvImageFormatR16ui, SpvImageFormatR32ui, SpvImageFormatRg32ui,
         SpvImageFormatRgba32ui,
      };
      format = formats[size_log2];
      if (format != SpvImageFormatR32ui && format != SpvImageFormatRgba32ui)
         cuvk_spirv_capability(e, SpvCapabilityStorageImageExtendedFormats);
   }
   if (spv_dims[dim] == SpvDim1D)
      cuvk_spirv_capability(e, storage ? SpvCapabilityImage1D : SpvCapabilitySampled1D);
   if (dim == CUVK_KERNEL_DIM_CUBE_ARRAY)
      cuvk_spirv_capability(e, SpvCapabilitySampledCubeArray);
   uint32_t image = new_id(e);
   cuvk_spirv_global(e, SpvOpTypeImage, image, sampled, spv_dims[dim], 0, dim_arrayed(dim), 0, storage ? 2 : 1,
                     format);
   uint32_t elem = image;
   if (!storage) {
      elem = new_id(e);
      cuvk_spirv_global(e, SpvOpTypeSampledImage, elem, image);
   }
   uint32_t array = cuvk_spirv_type_array(e, elem, cuvk_spirv_const_u32(e, slots));
   var = cuvk_spirv_global_var(e, SpvStorageClassUniformConstant, array);
   cuvk_spirv_op(&e->b, CUVK_SPIRV_ANNOTATIONS, SpvOpDecorate, var, SpvDecorationDescriptorSet,
                 CUVK_KERNEL_TEX_SET);
   cuvk_spirv_op(&e->b, CUVK_SPIRV_ANNOTATIONS, SpvOpDecorate, var, SpvDecorationBinding, binding);
   cuvk_spirv_cache_put(e, CUVK_SPIRV_KEY_HELPER, HELPER_BINDING + binding, 0, 0, var);
   cuvk_spirv_cache_put(e, CUVK_SPIRV_KEY_HELPER, HELPER_BINDING + binding, 1, 0, image);
   cuvk_spirv_cache_put(e, CUVK_SPIRV_KEY_HELPER, HELPER_BINDING + binding, 2, 0, elem);
   e->tex_bindings |= UINT64_C(1) << binding;
   out->var = var;
   out->image_type = image;
   out->elem_type = elem;
   return true;
}

/* ---- handles ---- */

/* The slot of a handle (u64) and whether the handle is one (kernel_abi.h):
 * the tag of its kind and a slot below the table's count.  index is 0
 * for a bad handle, which the caller reports as a fault. */
static void
handle_slot(struct cuvk_spirv_emitter *e, uint32_t handle, bool surface, uint32_t *index, uint32_t *valid)
{
   uint32_t u32 = cuvk_spirv_type_uint(e, 32), u64 = cuvk_spirv_type_uint(e, 64);
   uint32_t t_bool = cuvk_spirv_type_bool(e);
   uint32_t slots = surface ? e->target->surf_slots : e->target->tex_slots;
   uint32_t tag = cuvk_spirv_val(e, SpvOpShiftRightLogical, u64, handle,
                                 cuvk_spirv_const_u64(e, CUVK_KERNEL_HANDLE_TAG_SHIFT));
   uint32_t tag_ok = cuvk_spirv_val(e, SpvOpIEqual, t_bool, tag,
                                    cuvk_spirv_const_u64(e, surface ? CUVK_KERNEL_HANDLE_SURF
                                                                    : CUVK_KERNEL_HANDLE_TEX));
   uint32_t slot1 = cuvk_spirv_val(e, SpvOpUConvert, u32,
                                   cuvk_spirv_val(e, SpvOpBitwiseAnd, u64, handle,
                                                  cuvk_spirv_const_u64(e, CUVK_KERNEL_HANDLE_SLOT_MASK)));
   uint32_t slot = cuvk_spirv_val(e, SpvOpISub, u32, slot1, cuvk_spirv_const_u32(e, 1));
   /* slot1 0 wraps to UINT32_MAX: past every table. */
   uint32_t in_range = cuvk_spirv_val(e, SpvOpULessThan, t_bool, slot, cuvk_spirv_const_u32(e, slots));
   *valid = cuvk_spirv_val(e, SpvOpLogicalAnd, t_bool, tag_ok, in_range);
   *index = cuvk_spirv_val(e, SpvOpSelect, u32, *valid, slot, cuvk_spirv_const_u32(e, 0));
}

/* if (!valid) the fault word says so. */
static void
fault_unless(struct cuvk_spirv_emitter *e, uint32_t valid, enum cuvk_kernel_fault kind)
{
   uint32_t l_fault = new_id(e), l_end = new_id(e);
   cuvk_spirv_do(e, SpvOpSelectionMerge, l_end, SpvSelectionControlMaskNone);
   cuvk_spirv_do(e, SpvOpBranchConditional, valid, l_end, l_fault);
   label(e, l_fault);
   cuvk_spirv_store_fault(e, kind);
   cuvk_spirv_do(e, SpvOpBranch, l_end);
   label(e, l_end);
}

/*
 * The uniform-index loop of a helper.  init declares its variable (with
 * the helper's other Function variables, before begin) where the target
 * needs the loop; begin emits the loop up to the point where the lanes
 * holding the subgroup's first handle continue and returns that handle;
 * end closes it.  Where the device indexes image arrays non-uniformly,
 * begin returns the lane's own handle and neither emits anything; nor
 * where the handle is the same in every thread (uniform: a kernel
 * parameter, ir_uniform.c), which needs neither the loop nor NonUniform.
 */
struct waterfall {
   bool loop;
   bool nonuniform;              /* each lane indexes with its own slot */
   uint32_t l_head, l_merge, l_cont, l_skip, done;
};

static void
waterfall_init(struct cuvk_spirv_emitter *e, struct waterfall *w, bool surface, bool uniform)
{
   bool device = surface ? e->target->surf_nonuniform : e->target->tex_nonuniform;
   w->loop = !uniform && !device;
   w->nonuniform = !uniform && device;
   w->done = 0;
   if (!w->loop)
      return;
   w->done = new_id(e);
   cuvk_spirv_do(e, SpvOpVariable, cuvk_spirv_type_pointer(e, SpvStorageClassFunction, cuvk_spirv_type_bool(e)),
                 w->done, SpvStorageClassFunction);
}

static uint32_t
waterfall_begin(struct cuvk_spirv_emitter *e, struct waterfall *w, uint32_t handle)
{
   if (!w->loop)
      return handle;
   uint32_t u32 = cuvk_spirv_type_uint(e, 32), u64 = cuvk_spirv_type_uint(e, 64);
   uint32_t t_bool = cuvk_spirv_type_bool(e);
   uint32_t l_head = w->l_head = new_id(e), l_body = new_id(e), l_mine = new_id(e);
   w->l_merge = new_id(e);
   w->l_cont = new_id(e);
   w->l_skip = new_id(e);
   cuvk_spirv_do(e, SpvOpStore, w->done, cuvk_spirv_const_bool(e, false));
   cuvk_spirv_do(e, SpvOpBranch, l_head);
   label(e, l_head);
   cuvk_spirv_do(e, SpvOpLoopMerge, w->l_merge, w->l_cont, SpvLoopControlMaskNone);
   cuvk_spirv_do(e, SpvOpBranch, l_body);
   label(e, l_body);
   /* Two 32-bit halves: 64-bit subgroup operations need
    * shaderSubgroupExtendedTypes. */
   cuvk_spirv_capability(e, SpvCapabilityGroupNonUniformBallot);
   uint32_t scope = cuvk_spirv_const_u32(e, SpvScopeSubgroup);
   uint32_t lo = cuvk_spirv_val(e, SpvOpUConvert, u32, handle);
   uint32_t hi = cuvk_spirv_val(e, SpvOpUConvert, u32,
                                cuvk_spirv_val(e, SpvOpShiftRightLogical, u64, handle, cuvk_spirv_const_u64(e, 32)));
   lo = cuvk_spirv_val(e, SpvOpGroupNonUniformBroadcastFirst, u32, scope, lo);
   hi = cuvk_spirv_val(e, SpvOpGroupNonUniformBroadcastFirst, u32, scope, hi);
   uint32_t first = cuvk_spirv_val(e, SpvOpBitwiseOr, u64, cuvk_spirv_val(e, SpvOpUConvert, u64, lo),
                                   cuvk_spirv_val(e, SpvOpShiftLeftLogical, u64,
                                                  cuvk_spirv_val(e, SpvOpUConvert, u64, hi),
                                                  cuvk_spirv_const_u64(e, 32)));
   uint32_t mine = cuvk_spirv_val(e, SpvOpIEqual, t_bool, handle, first);
   cuvk_spirv_do(e, SpvOpSelectionMerge, w->l_skip, SpvSelectionControlMaskNone);
   cuvk_spirv_do(e, SpvOpBranchConditional, mine, l_mine, w->l_skip);
   label(e, l_mine);
   return first;
}

static void
waterfall_end(struct cuvk_spirv_emitter *e, struct waterfall *w)
{
   if (!w->loop)
      return;
   cuvk_spirv_do(e, SpvOpStore, w->done, cuvk_spirv_const_bool(e, true));
   cuvk_spirv_do(e, SpvOpBranch, w->l_skip);
   label(e, w->l_skip);
   cuvk_spirv_do(e, SpvOpBranch, w->l_cont);
   label(e, w->l_cont);
   uint32_t done = cuvk_spirv_val(e, SpvOpLoad, cuvk_spirv_type_bool(e), w->done);
   cuvk_spirv_do(e, SpvOpBranchConditional, done, w->l_merge, w->l_head);
   label(e, w->l_merge);
}

/*
 * The descriptor of slot index of binding b.  Without the loop the index
 * may differ between the lanes: Vulkan wants the operand of each image
 * instruction decorated NonUniform, and the index, the pointer and the
 * loaded descriptor are, as glslang does for nonuniformEXT.  The
 * SPIR-V 1.5 module needs no extension for it.
 */
static uint32_t
descriptor_load(struct cuvk_spirv_emitter *e, const struct binding *b, bool surface, uint32_t index,
                const struct waterfall *w)
{
   uint32_t ptr_type = cuvk_spirv_type_pointer(e, SpvStorageClassUniformConstant, b->elem_type);
   if (!w->nonuniform) {
      uint32_t ptr = cuvk_spirv_val(e, SpvOpAccessChain, ptr_type, b->var, index);
      return cuvk_spirv_val(e, SpvOpLoad, b->elem_type, ptr);
   }
   cuvk_spirv_capability(e, SpvCapabilityShaderNonUniform);
   cuvk_spirv_capability(e, surface ? SpvCapabilityStorageImageArrayNonUniformIndexing
                                    : SpvCapabilitySampledImageArrayNonUniformIndexing);
   uint32_t ptr = cuvk_spirv_val(e, SpvOpAccessChain, ptr_type, b->var, index);
   uint32_t desc = cuvk_spirv_val(e, SpvOpLoad, b->elem_type, ptr);
   cuvk_spirv_decorate(e, index, SpvDecorationNonUniform, NULL, 0);
   cuvk_spirv_decorate(e, ptr, SpvDecorationNonUniform, NULL, 0);
   cuvk_spirv_decorate(e, desc, SpvDecorationNonUniform, NULL, 0);
   return desc;
}

/* ---- textures over linear and pitched memory ---- */

/*
 * No Vulkan object stands for them: the kernel reads the texels through
 * the page table (cuvk_spirv_generic_load) at the address, pitch and
 * format of the slot's record, and filters them itself as CUDA defines:
 * address modes at the texel index, linear filtering with weights of 8
 * fractional bits rounded to nearest (measured on an H100: every one of
 * 1024 positions matched rounding, half of them truncation), texels
 * outside the memory 0 for tex1Dfetch and the border colour for border
 * mode, and channels the format lacks 0 (alpha too, unlike Vulkan's 1:
 * measured the same way).
 */

/* CUaddress_mode, CUfilter_mode and CUarray_format values the records
 * hold (the compiler library does not include cuda.h). */
#define MODE_WRAP 0u
#define MODE_CLAMP 1u
#define MODE_MIRROR 2u
#define MODE_BORDER 3u
#define FILTER_LINEAR 1u
#define FMT_HALF 0x10u
#define FMT_FLOAT 0x20u
#define FMT_UNORM_1010102 0x50u
#define FMT_VECTORS 0xc0u   /* UNORM_INT8X1, the first of CUDA 12's twelve */

/* The constant vector of four copies of constant scalar (vtype's
 * components), cached as constants are, under c = 1: scalar constants
 * leave c 0, and b here is the scalar's id, not a value. */
static uint32_t
splat_const(struct cuvk_spirv_emitter *e, uint32_t vtype, uint32_t scalar)
{
   uint32_t id = cuvk_spirv_cache_get(e, CUVK_SPIRV_KEY_CONST, vtype, scalar, 1);
   if (id)
      return id;
   id = new_id(e);
   cuvk_spirv_global(e, SpvOpConstantComposite, vtype, id, scalar, scalar, scalar, scalar);
   cuvk_spirv_cache_put(e, CUVK_SPIRV_KEY_CONST, vtype, scalar, 1, id);
   return id;
}

/* vec4 of a float's bits, four times. */
static uint32_t
vec4_const(struct cuvk_spirv_emitter *e, uint32_t bits)
{
   return splat_const(e, cuvk_spirv_type_vector(e, cuvk_spirv_type_float(e, 32), 4),
                      cuvk_spirv_const_bits(e, CUVK_SPIRV_FLOAT, 32, bits));
}

/* vec4 v (each channel in [0, 1]) decoded from sRGB to linear, every
 * channel: the IEC 61966-2-1 curve, as CUDA applies it. */
static uint32_t
srgb_to_linear(struct cuvk_spirv_emitter *e, uint32_t v)
{
   uint32_t vec4 = cuvk_spirv_type_vector(e, cuvk_spirv_type_float(e, 32), 4);
   uint32_t bvec4 = cuvk_spirv_type_vector(e, cuvk_spirv_type_bool(e), 4);
   uint32_t low = cuvk_spirv_val(e, SpvOpVectorTimesScalar, vec4, v,
                                 cuvk_spirv_const_bits(e, CUVK_SPIRV_FLOAT, 32, 0x3d9e8391u));   /* 1 / 12.92 */
   uint32_t high = cuvk_spirv_glsl(e, GLSLstd450Pow, vec4,
                                   cuvk_spirv_glsl(e, GLSLstd450Fma, vec4, v,
                                                   vec4_const(e, 0x3f72a76eu),    /* 1 / 1.055 */
                                                   vec4_const(e, 0x3d558919u)),   /* 0.055 / 1.055 */
                                   vec4_const(e, 0x4019999au));                   /* 2.4 */
   return cuvk_spirv_val(e, SpvOpSelect, vec4,
                         cuvk_spirv_val(e, SpvOpFOrdLessThanEqual, bvec4, v, vec4_const(e, 0x3d25aee6u)), /* 0.04045 */
                         low, high);
}

/* if (cond) { ... } and if (cond) { ... } else { ... } */
struct branch {
   uint32_t l_else, l_merge;
};

static void
if_begin(struct cuvk_spirv_emitter *e, struct branch *br, uint32_t cond, bool has_else)
{
   uint32_t l_then = new_id(e);
   br->l_merge = new_id(e);
   br->l_else = has_else ? new_id(e) : 0;
   cuvk_spirv_do(e, SpvOpSelectionMerge, br->l_merge, SpvSelectionControlMaskNone);
   cuvk_spirv_do(e, SpvOpBranchConditional, cond, l_then, has_else ? br->l_else : br->l_merge);
   label(e, l_then);
}

static void
if_else(struct cuvk_spirv_emitter *e, struct branch *br)
{
   cuvk_spirv_do(e, SpvOpBranch, br->l_merge);
   label(e, br->l_else);
}

static void
if_end(struct cuvk_spirv_emitter *e, struct branch *br)
{
   cuvk_spirv_do(e, SpvOpBranch, br->l_merge);
   label(e, br->l_merge);
}

/* The device address (u64) of slot index's record. */
static uint32_t
record_address(struct cuvk_spirv_emitter *e, bool surface, uint32_t index)
{
   uint32_t u64 = cuvk_spirv_type_uint(e, 64);
   uint32_t base = cuvk_spirv_push_load(e, surface ? CUVK_SPIRV_PUSH_SURF_RECORDS : CUVK_SPIRV_PUSH_TEX_RECORDS);
   uint32_t at = cuvk_spirv_val(e, SpvOpIMul, u64, cuvk_spirv_val(e, SpvOpUConvert, u64, index),
                                cuvk_spirv_const_u64(e, RECORD_SIZE));
   return cuvk_spirv_val(e, SpvOpIAdd, u64, base, at);
}

/* A field of type (bytes wide) at offset of the record at rec. */
static uint32_t
record_field(struct cuvk_spirv_emitter *e, uint32_t rec, unsigned offset, uint32_t type, unsigned bytes)
{
   uint32_t u64 = cuvk_spirv_type_uint(e, 64);
   uint32_t at = offset ? cuvk_spirv_val(e, SpvOpIAdd, u64, rec, cuvk_spirv_const_u64(e, offset)) : rec;
   return cuvk_spirv_device_load(e, at, type, bytes);
}

static uint32_t
u32_eq(struct cuvk_spirv_emitter *e, uint32_t a, uint32_t value)
{
   return cuvk_spirv_val(e, SpvOpIEqual, cuvk_spirv_type_bool(e), a, cuvk_spirv_const_u32(e, value));
}

static uint32_t
bool_or(struct cuvk_spirv_emitter *e, uint32_t a, uint32_t b)
{
   return cuvk_spirv_val(e, SpvOpLogicalOr, cuvk_spirv_type_bool(e), a, b);
}

/* i mod n (s32 bits, n > 0) in [0, n): the remainder, plus n when
 * negative.  The remainder is i - (i / n) * n, with OpSDiv, which both
 * drivers truncate as SPIR-V says: neither remainder opcode can be
 * trusted (lavapipe's OpSMod gave the remainder's sign, NVIDIA's OpSRem
 * the divisor's, spirv_lower_alu.c's div/rem says the same; a wrapped
 * pitched texture read the wrong rows on the H100 through OpSRem). */
static uint32_t
smod(struct cuvk_spirv_emitter *e, uint32_t i, uint32_t n)
{
   uint32_t u32 = cuvk_spirv_type_uint(e, 32);
   /* An empty texture (CUDA takes one) or a freed slot's zeroed record
    * has n 0: divide by 1 instead, the index is outside anyway. */
   n = cuvk_spirv_glsl(e, GLSLstd450UMax, u32, n, cuvk_spirv_const_u32(e, 1));
   uint32_t q = cuvk_spirv_val(e, SpvOpSDiv, u32, i, n);
   uint32_t r = cuvk_spirv_val(e, SpvOpISub, u32, i, cuvk_spirv_val(e, SpvOpIMul, u32, q, n));
   uint32_t negative = cuvk_spirv_val(e, SpvOpSLessThan, cuvk_spirv_type_bool(e), r, cuvk_spirv_const_u32(e, 0));
   return cuvk_spirv_val(e, SpvOpSelect, u32, negative, cuvk_spirv_val(e, SpvOpIAdd, u32, r, n), r);
}

/* One axis of CUDA's addressing: texel index i (s32 bits) of n under
 * mode; *inside says whether the result names a texel (not the border). */
static uint32_t
address_axis(struct cuvk_spirv_emitter *e, uint32_t i, uint32_t n, uint32_t mode, uint32_t *inside)
{
   uint32_t u32 = cuvk_spirv_type_uint(e, 32), t_bool = cuvk_spirv_type_bool(e);
   uint32_t one = cuvk_spirv_const_u32(e, 1);
   uint32_t n2 = cuvk_spirv_val(e, SpvOpIAdd, u32, n, n);
   uint32_t wrap = smod(e, i, n), p = smod(e, i, n2);
   uint32_t back = cuvk_spirv_val(e, SpvOpISub, u32, cuvk_spirv_val(e, SpvOpISub, u32, n2, one), p);
   uint32_t mirror = cuvk_spirv_val(e, SpvOpSelect, u32, cuvk_spirv_val(e, SpvOpSLessThan, t_bool, p, n), p, back);
   uint32_t clamp = cuvk_spirv_glsl(e, GLSLstd450SClamp, u32, i, cuvk_spirv_const_u32(e, 0),
                                    cuvk_spirv_val(e, SpvOpISub, u32, n, one));
   uint32_t v = cuvk_spirv_val(e, SpvOpSelect, u32, u32_eq(e, mode, MODE_CLAMP), clamp, i);
   v = cuvk_spirv_val(e, SpvOpSelect, u32, u32_eq(e, mode, MODE_MIRROR), mirror, v);
   v = cuvk_spirv_val(e, SpvOpSelect, u32, u32_eq(e, mode, MODE_WRAP), wrap, v);
   /* Negative indices are huge as unsigned: one comparison. */
   *inside = cuvk_spirv_val(e, SpvOpULessThan, t_bool, v, n);
   return v;
}

/*
 * uvec4 cuvk_tex_texel(u32 slot, u32 x, u32 y): the texel at (x, y) (s32
 * bits) of a linear or pitched texture, after the address modes, as the
 * bits of what tex returns: floats for normalised-float reads (sRGB
 * converted where the record says), halves and floats, integers
 * (sign-extended) for element reads of integers.
 */
static uint32_t
texel_fn(struct cuvk_spirv_emitter *e)
{
   uint32_t id = cuvk_spirv_cache_get(e, CUVK_SPIRV_KEY_HELPER, HELPER_TEXEL, 0, 0);
   if (id)
      return id;
   uint32_t u32 = cuvk_spirv_type_uint(e, 32), u64 = cuvk_spirv_type_uint(e, 64);
   uint32_t f32 = cuvk_spirv_type_float(e, 32), t_bool = cuvk_spirv_type_bool(e);
   uint32_t uvec4 = cuvk_spirv_type_vector(e, u32, 4);
   uint32_t params[3] = {u32, u32, u32}, p[3];
   struct cuvk_spirv_helper h;
   id = cuvk_spirv_helper_begin(e, &h, uvec4, params, 3, p);
   cuvk_spirv_cache_put(e, CUVK_SPIRV_KEY_HELPER, HELPER_TEXEL, 0, 0, id);
   label(e, new_id(e));
   uint32_t words = new_id(e);
   cuvk_spirv_do(e, SpvOpVariable, cuvk_spirv_type_pointer(e, SpvStorageClassFunction, uvec4), words,
                 SpvStorageClassFunction);
   uint32_t zero = cuvk_spirv_const_u32(e, 0);
   uint32_t zero4 = splat_const(e, uvec4, zero);
   cuvk_spirv_do(e, SpvOpStore, words, zero4);

   uint32_t rec = record_address(e, false, p[0]);
   uint32_t kind = record_field(e, rec, RECORD_KIND, u32, 4);
   uint32_t fmt = record_field(e, rec, RECORD_FORMAT, u32, 4);
   uint32_t channels = record_field(e, rec, RECORD_CHANNELS, u32, 4);
   uint32_t flags = record_field(e, rec, RECORD_FLAGS, u32, 4);
   uint32_t width = record_field(e, rec, RECORD_WIDTH, u32, 4);
   uint32_t height = record_field(e, rec, RECORD_HEIGHT, u32, 4);
   uint32_t base = record_field(e, rec, RECORD_ADDRESS, u64, 8);
   uint32_t pitch = record_field(e, rec, RECORD_PITCH, u64, 8);

   /* tex1Dfetch knows no address modes: outside is 0.  Without
    * normalised coordinates CUDA clamps for wrap and mirror. */
   uint32_t linear = u32_eq(e, kind, CUVK_KERNEL_RES_LINEAR);
   uint32_t normalized = cuvk_spirv_val(e, SpvOpINotEqual, t_bool,
                                        cuvk_spirv_val(e, SpvOpBitwiseAnd, u32, flags,
                                                       cuvk_spirv_const_u32(e, CUVK_KERNEL_TEX_NORMALIZED)),
                                        zero);
   uint32_t inside[2], at[2];
   for (unsigned axis = 0; axis < 2; axis++) {
      uint32_t mode = record_field(e, rec, RECORD_ADDRESS_MODE + 4 * axis, u32, 4);
      uint32_t wraps = bool_or(e, u32_eq(e, mode, MODE_WRAP), u32_eq(e, mode, MODE_MIRROR));
      uint32_t to_clamp = cuvk_spirv_val(e, SpvOpLogicalAnd, t_bool, wraps,
                                         cuvk_spirv_val(e, SpvOpLogicalNot, t_bool, normalized));
      mode = cuvk_spirv_val(e, SpvOpSelect, u32, to_clamp, cuvk_spirv_const_u32(e, MODE_CLAMP), mode);
      mode = cuvk_spirv_val(e, SpvOpSelect, u32, linear, cuvk_spirv_const_u32(e, MODE_BORDER), mode);
      at[axis] = address_axis(e, p[1 + axis], axis ? height : width, mode, &inside[axis]);
   }

   /* The element format, decoded by arithmetic: texel_fn is inlined at
    * every sample (nine times in a box filter), so no tables and no
    * branches.  CUDA 12's vectors, 0xc0 + 3 * k + {x1, x2, x4} with k = 0
    * to 3 for unorm8, unorm16, snorm8, snorm16, are read as the classic
    * code of their element (0x01, 0x02, 0x08, 0x09) as normalised floats
    * (the record never asks integers of them).  A classic code c holds
    * the sign in bit 3 and log2 of the element's bytes as ((c + (c >> 3))
    * & 3) - 1 for integers (unsigned 1, 2, 3; signed 8, 9, 10) and c >> 4
    * for HALF (0x10) and FLOAT (0x20).  10-10-10-2
    * is one word, its alpha 2 bits wide.  The host admits no other
    * format over memory (texture_desc.c's check_linear_format). */
   uint32_t vec = cuvk_spirv_val(e, SpvOpISub, u32, fmt, cuvk_spirv_const_u32(e, FMT_VECTORS));
   uint32_t k = cuvk_spirv_val(e, SpvOpUDiv, u32, vec, cuvk_spirv_const_u32(e, 3));
   /* (k & 1) + 1 + 7 * (k >> 1): 0x01, 0x02, 0x08, 0x09 */
   uint32_t classic = cuvk_spirv_val(
      e, SpvOpIAdd, u32,
      cuvk_spirv_val(e, SpvOpIAdd, u32, cuvk_spirv_val(e, SpvOpBitwiseAnd, u32, k, cuvk_spirv_const_u32(e, 1)),
                     cuvk_spirv_const_u32(e, 1)),
      cuvk_spirv_val(e, SpvOpIMul, u32, cuvk_spirv_val(e, SpvOpShiftRightLogical, u32, k, cuvk_spirv_const_u32(e, 1)),
                     cuvk_spirv_const_u32(e, 7)));
   uint32_t c = cuvk_spirv_val(e, SpvOpSelect, u32,
                               cuvk_spirv_val(e, SpvOpULessThan, t_bool, vec, cuvk_spirv_const_u32(e, 12)),
                               classic, fmt);
   uint32_t is_half = u32_eq(e, c, FMT_HALF), is_float = u32_eq(e, c, FMT_FLOAT);
   uint32_t is_1010 = u32_eq(e, c, FMT_UNORM_1010102);
   uint32_t c_sign = cuvk_spirv_val(e, SpvOpShiftRightLogical, u32, c, cuvk_spirv_const_u32(e, 3));
   uint32_t int_log2 = cuvk_spirv_val(
      e, SpvOpISub, u32,
      cuvk_spirv_val(e, SpvOpBitwiseAnd, u32, cuvk_spirv_val(e, SpvOpIAdd, u32, c, c_sign), cuvk_spirv_const_u32(e, 3)),
      cuvk_spirv_const_u32(e, 1));
   uint32_t size_log2 = cuvk_spirv_val(
      e, SpvOpSelect, u32, cuvk_spirv_val(e, SpvOpULessThan, t_bool, c, cuvk_spirv_const_u32(e, FMT_HALF)), int_log2,
      cuvk_spirv_val(e, SpvOpShiftRightLogical, u32, c, cuvk_spirv_const_u32(e, 4)));
   uint32_t is_signed = cuvk_spirv_val(e, SpvOpINotEqual, t_bool,
                                       cuvk_spirv_val(e, SpvOpBitwiseAnd, u32, c, cuvk_spirv_const_u32(e, 8)), zero);
   uint32_t bits = cuvk_spirv_val(e, SpvOpSelect, u32, is_1010, cuvk_spirv_const_u32(e, 10),
                                  cuvk_spirv_val(e, SpvOpShiftLeftLogical, u32, cuvk_spirv_const_u32(e, 8), size_log2));
   uint32_t tsize = cuvk_spirv_val(e, SpvOpSelect, u32, is_1010, cuvk_spirv_const_u32(e, 4),
                                   cuvk_spirv_val(e, SpvOpShiftLeftLogical, u32, channels, size_log2));
   uint32_t in_both = cuvk_spirv_val(e, SpvOpLogicalAnd, t_bool, inside[0], inside[1]);

   /* The texel's bytes, one load of its size (the base is aligned to
    * 256 bytes and the pitch to 512, so a texel is aligned to its size),
    * or two for 16 bytes. */
   struct branch br;
   if_begin(e, &br, in_both, false);
   uint32_t off = cuvk_spirv_val(e, SpvOpIAdd, u64,
                                 cuvk_spirv_val(e, SpvOpIMul, u64, cuvk_spirv_val(e, SpvOpUConvert, u64, at[1]), pitch),
                                 cuvk_spirv_val(e, SpvOpIMul, u64, cuvk_spirv_val(e, SpvOpUConvert, u64, at[0]),
                                                cuvk_spirv_val(e, SpvOpUConvert, u64, tsize)));
   uint32_t addr = cuvk_spirv_val(e, SpvOpIAdd, u64, base, off);
   uint32_t l_case[5], l_merge = new_id(e);
   for (unsigned i = 0; i < 5; i++)
      l_case[i] = new_id(e);
   cuvk_spirv_do(e, SpvOpSelectionMerge, l_merge, SpvSelectionControlMaskNone);
   cuvk_spirv_do(e, SpvOpSwitch, tsize, l_merge, 1, l_case[0], 2, l_case[1], 4, l_case[2], 8, l_case[3], 16,
                 l_case[4]);
   for (unsigned i = 0; i < 5; i++) {
      label(e, l_case[i]);
      uint32_t w[4] = {zero, zero, zero, zero};
      if (i < 3) {
         w[0] = cuvk_spirv_generic_load(e, addr, 8u << i);
         if (i < 2)
            w[0] = cuvk_spirv_val(e, SpvOpUConvert, u32, w[0]);
      } else {
         for (unsigned half = 0; half < i - 2; half++) {
            uint32_t a = half ? cuvk_spirv_val(e, SpvOpIAdd, u64, addr, cuvk_spirv_const_u64(e, 8)) : addr;
            uint32_t v = cuvk_spirv_generic_load(e, a, 64);
            w[2 * half] = cuvk_spirv_val(e, SpvOpUConvert, u32, v);
            w[2 * half + 1] = cuvk_spirv_val(e, SpvOpUConvert, u32,
                                             cuvk_spirv_val(e, SpvOpShiftRightLogical, u64, v,
                                                            cuvk_spirv_const_u64(e, 32)));
         }
      }
      cuvk_spirv_do(e, SpvOpStore, words, cuvk_spirv_emit_value(e, SpvOpCompositeConstruct, uvec4, w, 4));
      cuvk_spirv_do(e, SpvOpBranch, l_merge);
   }
   label(e, l_merge);
   if_end(e, &br);

   /* The four channels at once, as vectors.  Channel i's bits at the
    * bottom of a lane: word (bits * i) / 32 shifted right by the rest. */
   uint32_t raw = cuvk_spirv_val(e, SpvOpLoad, uvec4, words);
   uint32_t lane[4];
   lane[0] = cuvk_spirv_val(e, SpvOpCompositeExtract, u32, raw, 0);
   for (unsigned i = 1; i < 4; i++) {
      uint32_t bit = cuvk_spirv_val(e, SpvOpIMul, u32, bits, cuvk_spirv_const_u32(e, i));
      uint32_t word = cuvk_spirv_val(e, SpvOpVectorExtractDynamic, u32, raw,
                                     cuvk_spirv_val(e, SpvOpShiftRightLogical, u32, bit, cuvk_spirv_const_u32(e, 5)));
      lane[i] = cuvk_spirv_val(e, SpvOpShiftRightLogical, u32, word,
                               cuvk_spirv_val(e, SpvOpBitwiseAnd, u32, bit, cuvk_spirv_const_u32(e, 31)));
   }
   /* Then each channel alone, zero- or sign-extended: shifted up by 32
    * minus its width and back down. */
   uint32_t left = cuvk_spirv_val(e, SpvOpISub, u32, cuvk_spirv_const_u32(e, 32), bits);
   uint32_t left_a = cuvk_spirv_val(e, SpvOpSelect, u32, is_1010, cuvk_spirv_const_u32(e, 30), left);
   uint32_t leftv = cuvk_spirv_emit_value(e, SpvOpCompositeConstruct, uvec4,
                                          (const uint32_t[]){left, left, left, left_a}, 4);
   uint32_t up = cuvk_spirv_val(e, SpvOpShiftLeftLogical, uvec4,
                                cuvk_spirv_emit_value(e, SpvOpCompositeConstruct, uvec4, lane, 4), leftv);
   uint32_t ux = cuvk_spirv_val(e, SpvOpShiftRightLogical, uvec4, up, leftv);
   uint32_t sx = cuvk_spirv_val(e, SpvOpShiftRightArithmetic, uvec4, up, leftv);

   /* Normalised floats: v / (2^width - 1), or max(v / (2^(width-1) - 1),
    * -1) when signed (255, 65535, 1023 and 3; 127, 32767); halves; floats. */
   uint32_t vec4 = cuvk_spirv_type_vector(e, f32, 4);
   uint32_t umax = cuvk_spirv_val(e, SpvOpShiftRightLogical, u32, cuvk_spirv_const_u32(e, UINT32_MAX), left);
   uint32_t fu = cuvk_spirv_val(e, SpvOpConvertUToF, f32, umax);
   uint32_t fu_a = cuvk_spirv_val(e, SpvOpSelect, f32, is_1010,
                                  cuvk_spirv_const_bits(e, CUVK_SPIRV_FLOAT, 32, 0x40400000u), fu);   /* 3 */
   uint32_t fs = cuvk_spirv_val(e, SpvOpConvertUToF, f32,
                                cuvk_spirv_val(e, SpvOpShiftRightLogical, u32, umax, cuvk_spirv_const_u32(e, 1)));
   uint32_t fun = cuvk_spirv_val(e, SpvOpFDiv, vec4, cuvk_spirv_val(e, SpvOpConvertUToF, vec4, ux),
                                 cuvk_spirv_emit_value(e, SpvOpCompositeConstruct, vec4,
                                                       (const uint32_t[]){fu, fu, fu, fu_a}, 4));
   uint32_t fsn = cuvk_spirv_val(e, SpvOpFDiv, vec4, cuvk_spirv_val(e, SpvOpConvertSToF, vec4, sx),
                                 cuvk_spirv_emit_value(e, SpvOpCompositeConstruct, vec4,
                                                       (const uint32_t[]){fs, fs, fs, fs}, 4));
   fsn = cuvk_spirv_glsl(e, GLSLstd450FMax, vec4, fsn, vec4_const(e, 0xbf800000u));
   uint32_t vec2 = cuvk_spirv_type_vector(e, f32, 2);
   uint32_t fhalf = cuvk_spirv_emit_value(
      e, SpvOpCompositeConstruct, vec4,
      (const uint32_t[]){cuvk_spirv_glsl(e, GLSLstd450UnpackHalf2x16, vec2, lane[0]),
                         cuvk_spirv_glsl(e, GLSLstd450UnpackHalf2x16, vec2,
                                         cuvk_spirv_val(e, SpvOpCompositeExtract, u32, raw, 1))},
      2);
   uint32_t fv = cuvk_spirv_val(e, SpvOpSelect, vec4, is_signed, fsn, fun);
   fv = cuvk_spirv_val(e, SpvOpSelect, vec4, is_half, fhalf, fv);
   fv = cuvk_spirv_val(e, SpvOpSelect, vec4, is_float, cuvk_spirv_val(e, SpvOpBitcast, vec4, raw), fv);

   /* sRGB to linear, of red, green and blue and before any filtering, as
    * Vulkan's _SRGB formats: v / 12.92 up to 0.04045, else ((v + 0.055) /
    * 1.055)^2.4.  The record sets the flag only for normalised reads of
    * 8-bit unsigned formats (texture.c). */
   uint32_t srgb = cuvk_spirv_val(e, SpvOpINotEqual, t_bool,
                                  cuvk_spirv_val(e, SpvOpBitwiseAnd, u32, flags,
                                                 cuvk_spirv_const_u32(e, CUVK_KERNEL_TEX_SRGB)),
                                  zero);
   uint32_t bvec4 = cuvk_spirv_type_vector(e, t_bool, 4);
   uint32_t lin = srgb_to_linear(e, fv);
   uint32_t rgb = cuvk_spirv_emit_value(e, SpvOpCompositeConstruct, bvec4,
                                        (const uint32_t[]){srgb, srgb, srgb, cuvk_spirv_const_bool(e, false)}, 4);
   fv = cuvk_spirv_val(e, SpvOpSelect, vec4, rgb, lin, fv);

   /* The read mode (the record's flag is set exactly where tex returns
    * integers, sign-extended); outside, the border colour (integers take
    * it truncated), 0 for linear memory; channels the format lacks 0. */
   uint32_t read_int = cuvk_spirv_val(e, SpvOpINotEqual, t_bool,
                                      cuvk_spirv_val(e, SpvOpBitwiseAnd, u32, flags,
                                                     cuvk_spirv_const_u32(e, CUVK_KERNEL_TEX_READ_AS_INTEGER)),
                                      zero);
   uint32_t iv = cuvk_spirv_val(e, SpvOpSelect, uvec4, is_signed, sx, ux);
   uint32_t v = cuvk_spirv_val(e, SpvOpSelect, uvec4, read_int, iv, cuvk_spirv_val(e, SpvOpBitcast, uvec4, fv));
   uint32_t border = record_field(e, rec, RECORD_BORDER, vec4, 16);
   uint32_t bv = cuvk_spirv_val(e, SpvOpSelect, uvec4, read_int, cuvk_spirv_val(e, SpvOpConvertFToS, uvec4, border),
                                cuvk_spirv_val(e, SpvOpBitcast, uvec4, border));
   bv = cuvk_spirv_val(e, SpvOpSelect, uvec4, linear, zero4, bv);
   v = cuvk_spirv_val(e, SpvOpSelect, uvec4, in_both, v, bv);
   uint32_t present[4] = {cuvk_spirv_const_bool(e, true)};
   for (unsigned i = 1; i < 4; i++)
      present[i] = cuvk_spirv_val(e, SpvOpULessThan, t_bool, cuvk_spirv_const_u32(e, i), channels);
   v = cuvk_spirv_val(e, SpvOpSelect, uvec4, cuvk_spirv_emit_value(e, SpvOpCompositeConstruct, bvec4, present, 4),
                      v, zero4);
   cuvk_spirv_do(e, SpvOpReturnValue, v);
   cuvk_spirv_helper_end(e, &h, "cuvk_tex_texel");
   return id;
}

/*
 * The memory path of a sample helper (kernel_abi.h's LINEAR and PITCH2D
 * kinds), storing into result (a variable of ret): tex1Dfetch is tex.1d
 * with s32 coordinates on linear memory; pitched memory takes tex.2d.
 * Any other pairing is CUVK_KERNEL_FAULT_UNSUPPORTED.
 */
static void
sample_memory(struct cuvk_spirv_emitter *e, uint32_t index, uint32_t coords, enum cuvk_kernel_tex_dim dim,
              bool int_coords, uint32_t ret, uint32_t result)
{
   uint32_t u32 = cuvk_spirv_type_uint(e, 32), f32 = cuvk_spirv_type_float(e, 32);
   uint32_t t_bool = cuvk_spirv_type_bool(e);
   uint32_t uvec4 = cuvk_spirv_type_vector(e, u32, 4), vec4 = cuvk_spirv_type_vector(e, f32, 4);
   uint32_t rec = record_address(e, false, index);
   uint32_t kind = record_field(e, rec, RECORD_KIND, u32, 4);
   uint32_t texel = texel_fn(e);
   uint32_t zero = cuvk_spirv_const_u32(e, 0);
   if (dim == CUVK_KERNEL_DIM_1D && int_coords) {
      fault_unless(e, u32_eq(e, kind, CUVK_KERNEL_RES_LINEAR), CUVK_KERNEL_FAULT_UNSUPPORTED);
      uint32_t x = cuvk_spirv_val(e, SpvOpBitcast, u32, cuvk_spirv_val(e, SpvOpCompositeExtract, f32, coords, 0));
      uint32_t v = cuvk_spirv_val(e, SpvOpFunctionCall, uvec4, texel, index, x, zero);
      cuvk_spirv_do(e, SpvOpStore, result, ret == uvec4 ? v : cuvk_spirv_val(e, SpvOpBitcast, ret, v));
      return;
   }
   if (dim != CUVK_KERNEL_DIM_2D) {
      cuvk_spirv_store_fault(e, CUVK_KERNEL_FAULT_UNSUPPORTED);
      return;
   }
   fault_unless(e, u32_eq(e, kind, CUVK_KERNEL_RES_PITCH2D), CUVK_KERNEL_FAULT_UNSUPPORTED);
   uint32_t half = cuvk_spirv_const_bits(e, CUVK_SPIRV_FLOAT, 32, 0x3f000000u);
   uint32_t f[2];
   for (unsigned i = 0; i < 2; i++) {
      f[i] = cuvk_spirv_val(e, SpvOpCompositeExtract, f32, coords, i);
      if (int_coords) {
         /* s32 texel indices: their centres. */
         f[i] = cuvk_spirv_val(e, SpvOpFAdd, f32,
                               cuvk_spirv_val(e, SpvOpConvertSToF, f32, cuvk_spirv_val(e, SpvOpBitcast, u32, f[i])),
                               half);
      }
   }
   if (!int_coords) {
      uint32_t flags = record_field(e, rec, RECORD_FLAGS, u32, 4);
      uint32_t normalized = cuvk_spirv_val(e, SpvOpINotEqual, t_bool,
                                           cuvk_spirv_val(e, SpvOpBitwiseAnd, u32, flags,
                                                          cuvk_spirv_const_u32(e, CUVK_KERNEL_TEX_NORMALIZED)),
                                           zero);
      for (unsigned i = 0; i < 2; i++) {
         uint32_t n = record_field(e, rec, i ? RECORD_HEIGHT : RECORD_WIDTH, u32, 4);
         uint32_t scaled = cuvk_spirv_val(e, SpvOpFMul, f32, f[i], cuvk_spirv_val(e, SpvOpConvertUToF, f32, n));
         f[i] = cuvk_spirv_val(e, SpvOpSelect, f32, normalized, scaled, f[i]);
      }
   }
   /* Far outside, every mode lands on the same texels long before 2^30:
    * the clamp keeps the conversion to integers defined. */
   uint32_t lo = cuvk_spirv_const_bits(e, CUVK_SPIRV_FLOAT, 32, 0xce800000u);   /* -2^30 */
   uint32_t hi = cuvk_spirv_const_bits(e, CUVK_SPIRV_FLOAT, 32, 0x4e800000u);   /* 2^30 */
   uint32_t filter = record_field(e, rec, RECORD_FILTER, u32, 4);
   struct branch br;
   if_begin(e, &br, u32_eq(e, filter, FILTER_LINEAR), true);
   {
      /* x - 0.5 split into a texel and a weight of 8 fractional bits. */
      uint32_t idx[2], wt[2];
      uint32_t scale = cuvk_spirv_const_bits(e, CUVK_SPIRV_FLOAT, 32, 0x43800000u);   /* 256 */
      uint32_t inv = cuvk_spirv_const_bits(e, CUVK_SPIRV_FLOAT, 32, 0x3b800000u);     /* 1/256 */
      for (unsigned i = 0; i < 2; i++) {
         uint32_t xb = cuvk_spirv_glsl(e, GLSLstd450FClamp, f32, cuvk_spirv_val(e, SpvOpFSub, f32, f[i], half), lo, hi);
         uint32_t fl = cuvk_spirv_glsl(e, GLSLstd450Floor, f32, xb);
         uint32_t frac = cuvk_spirv_val(e, SpvOpFSub, f32, xb, fl);
         uint32_t q = cuvk_spirv_glsl(e, GLSLstd450Floor, f32,
                                      cuvk_spirv_val(e, SpvOpFAdd, f32, cuvk_spirv_val(e, SpvOpFMul, f32, frac, scale),
                                                     half));
         wt[i] = cuvk_spirv_val(e, SpvOpFMul, f32, q, inv);
         idx[i] = cuvk_spirv_val(e, SpvOpConvertFToS, u32, fl);
      }
      uint32_t one = cuvk_spirv_const_u32(e, 1);
      uint32_t x1 = cuvk_spirv_val(e, SpvOpIAdd, u32, idx[0], one), y1 = cuvk_spirv_val(e, SpvOpIAdd, u32, idx[1], one);
      uint32_t t[4];
      const uint32_t xs[4] = {idx[0], x1, idx[0], x1}, ys[4] = {idx[1], idx[1], y1, y1};
      for (unsigned k = 0; k < 4; k++)
         t[k] = cuvk_spirv_val(e, SpvOpBitcast, vec4,
                               cuvk_spirv_val(e, SpvOpFunctionCall, uvec4, texel, index, xs[k], ys[k]));
      uint32_t a = cuvk_spirv_emit_value(e, SpvOpCompositeConstruct, vec4,
                                         (const uint32_t[]){wt[0], wt[0], wt[0], wt[0]}, 4);
      uint32_t b = cuvk_spirv_emit_value(e, SpvOpCompositeConstruct, vec4,
                                         (const uint32_t[]){wt[1], wt[1], wt[1], wt[1]}, 4);
      uint32_t top = cuvk_spirv_glsl(e, GLSLstd450FMix, vec4, t[0], t[1], a);
      uint32_t bottom = cuvk_spirv_glsl(e, GLSLstd450FMix, vec4, t[2], t[3], a);
      uint32_t v = cuvk_spirv_glsl(e, GLSLstd450FMix, vec4, top, bottom, b);
      cuvk_spirv_do(e, SpvOpStore, result, ret == vec4 ? v : cuvk_spirv_val(e, SpvOpBitcast, ret, v));
   }
   if_else(e, &br);
   {
      uint32_t ij[2];
      for (unsigned i = 0; i < 2; i++) {
         uint32_t clamped = cuvk_spirv_glsl(e, GLSLstd450FClamp, f32, f[i], lo, hi);
         ij[i] = cuvk_spirv_val(e, SpvOpConvertFToS, u32, cuvk_spirv_glsl(e, GLSLstd450Floor, f32, clamped));
      }
      uint32_t v = cuvk_spirv_val(e, SpvOpFunctionCall, uvec4, texel, index, ij[0], ij[1]);
      cuvk_spirv_do(e, SpvOpStore, result, ret == uvec4 ? v : cuvk_spirv_val(e, SpvOpBitcast, ret, v));
   }
   if_end(e, &br);
}

/* ---- tex ---- */

/*
 * The level tex.grad.cube and .acube sample: the 2D path's isotropic
 * formula (log2 of the longer gradient in texels of level 0) on the face
 * the direction c (vec3) selects, the gradients (grads: two vec4, x, y,
 * z used) carried onto it as Vulkan's cube map derivatives are: for the
 * major axis m and a face axis a, the face coordinate
 * u = (c[a] / |c[m]| + 1) * size / 2 changes by
 * (g[a] - c[a] * g[m] / c[m]) * size / (2 |c[m]|).  Ties choose z, then
 * y, as Vulkan's face selection.
 */
static uint32_t
cube_grad_lod(struct cuvk_spirv_emitter *e, uint32_t image, enum cuvk_kernel_tex_dim dim, uint32_t c,
              uint32_t grads)
{
   uint32_t u32 = cuvk_spirv_type_uint(e, 32), f32 = cuvk_spirv_type_float(e, 32);
   uint32_t vec4 = cuvk_spirv_type_vector(e, f32, 4), t_bool = cuvk_spirv_type_bool(e);
   /* A cube's size is (width, height), a cube array's (width, height,
    * cubes); faces are square. */
   uint32_t sizes = cuvk_spirv_val(e, SpvOpImageQuerySizeLod,
                                   cuvk_spirv_type_vector(e, u32, dim == CUVK_KERNEL_DIM_CUBE_ARRAY ? 3 : 2), image,
                                   cuvk_spirv_const_u32(e, 0));
   uint32_t size = cuvk_spirv_val(e, SpvOpConvertUToF, f32, cuvk_spirv_val(e, SpvOpCompositeExtract, u32, sizes, 0));
   uint32_t d[3], ad[3];
   for (unsigned i = 0; i < 3; i++) {
      d[i] = cuvk_spirv_val(e, SpvOpCompositeExtract, f32, c, i);
      ad[i] = cuvk_spirv_glsl(e, GLSLstd450FAbs, f32, d[i]);
   }
   uint32_t z_major = cuvk_spirv_val(e, SpvOpLogicalAnd, t_bool,
                                     cuvk_spirv_val(e, SpvOpFOrdGreaterThanEqual, t_bool, ad[2], ad[1]),
                                     cuvk_spirv_val(e, SpvOpFOrdGreaterThanEqual, t_bool, ad[2], ad[0]));
   uint32_t y_major = cuvk_spirv_val(e, SpvOpLogicalAnd, t_bool,
                                     cuvk_spirv_val(e, SpvOpLogicalNot, t_bool, z_major),
                                     cuvk_spirv_val(e, SpvOpFOrdGreaterThanEqual, t_bool, ad[1], ad[0]));
   /* The major axis and the face's two axes: z (x, y), y (x, z), x (y, z). */
#define PICK(v, zi, yi, xi)                                                                                   \
   cuvk_spirv_val(e, SpvOpSelect, f32, z_major, (v)[zi],                                                   \
                  cuvk_spirv_val(e, SpvOpSelect, f32, y_major, (v)[yi], (v)[xi]))
   uint32_t cm = PICK(d, 2, 1, 0), ca = PICK(d, 0, 0, 1), cb = PICK(d, 1, 2, 2);
   uint32_t half = cuvk_spirv_const_bits(e, CUVK_SPIRV_FLOAT, 32, 0x3f000000u);
   /* size / (2 |c[m]|) */
   uint32_t scale = cuvk_spirv_val(e, SpvOpFDiv, f32, cuvk_spirv_val(e, SpvOpFMul, f32, size, half),
                                   cuvk_spirv_glsl(e, GLSLstd450FAbs, f32, cm));
   uint32_t len[2];
   for (unsigned k = 0; k < 2; k++) {
      uint32_t gv = cuvk_spirv_val(e, SpvOpCompositeExtract, vec4, grads, k);
      uint32_t g[3];
      for (unsigned i = 0; i < 3; i++)
         g[i] = cuvk_spirv_val(e, SpvOpCompositeExtract, f32, gv, i);
      uint32_t gm = PICK(g, 2, 1, 0), ga = PICK(g, 0, 0, 1), gb = PICK(g, 1, 2, 2);
      uint32_t ratio = cuvk_spirv_val(e, SpvOpFDiv, f32, gm, cm);
      uint32_t du = cuvk_spirv_val(e, SpvOpFSub, f32, ga, cuvk_spirv_val(e, SpvOpFMul, f32, ca, ratio));
      uint32_t dv = cuvk_spirv_val(e, SpvOpFSub, f32, gb, cuvk_spirv_val(e, SpvOpFMul, f32, cb, ratio));
      du = cuvk_spirv_val(e, SpvOpFMul, f32, du, scale);
      dv = cuvk_spirv_val(e, SpvOpFMul, f32, dv, scale);
      len[k] = cuvk_spirv_glsl(e, GLSLstd450Length, f32,
                               cuvk_spirv_emit_value(e, SpvOpCompositeConstruct, cuvk_spirv_type_vector(e, f32, 2),
                                                     (const uint32_t[]){du, dv}, 2));
   }
#undef PICK
   return cuvk_spirv_glsl(e, GLSLstd450Log2, f32, cuvk_spirv_glsl(e, GLSLstd450FMax, f32, len[0], len[1]));
}

/*
 * vec4 (float, or the bits of int/uint) sample(u64 handle, vec4 coords,
 * float lod) of one sampled binding.  Coordinates come as PTX gives them:
 * floats, or with int_coords s32 texel indices (bit-cast in the vec4),
 * which are sampled at the texel's centre.  Unnormalised coordinates
 * (the record's flag) are divided by the level 0 extent, since samplers
 * take normalised ones (docs/textures.md).
 */
/* A bool specialization constant, true unless the pipeline says
 * otherwise (kernel_abi.h says why each is a constant). */
static uint32_t
spec_bool(struct cuvk_spirv_emitter *e, uint32_t spec_id)
{
   uint32_t id = cuvk_spirv_cache_get(e, CUVK_SPIRV_KEY_HELPER, HELPER_SPEC_BOOL, spec_id, 0);
   if (id)
      return id;
   id = new_id(e);
   cuvk_spirv_global(e, SpvOpSpecConstantTrue, cuvk_spirv_type_bool(e), id);
   cuvk_spirv_op(&e->b, CUVK_SPIRV_ANNOTATIONS, SpvOpDecorate, id, SpvDecorationSpecId, spec_id);
   cuvk_spirv_cache_put(e, CUVK_SPIRV_KEY_HELPER, HELPER_SPEC_BOOL, spec_id, 0, id);
   return id;
}

/* SpecId CUVK_KERNEL_SPEC_TEX_MEMORY: may the context hold textures over
 * memory. */
static uint32_t
spec_tex_memory(struct cuvk_spirv_emitter *e)
{
   return spec_bool(e, CUVK_KERNEL_SPEC_TEX_MEMORY);
}

/* Whether a texture handle has flag (CUVK_KERNEL_HANDLE_MEMORY,
 * CUVK_KERNEL_HANDLE_NORMALIZED). */
static uint32_t
handle_flag(struct cuvk_spirv_emitter *e, uint32_t handle, uint64_t flag)
{
   uint32_t u64 = cuvk_spirv_type_uint(e, 64);
   return cuvk_spirv_val(e, SpvOpINotEqual, cuvk_spirv_type_bool(e),
                         cuvk_spirv_val(e, SpvOpBitwiseAnd, u64, handle, cuvk_spirv_const_u64(e, flag)),
                         cuvk_spirv_const_u64(e, 0));
}

/* SpecId CUVK_KERNEL_SPEC_TEX_CONVERT: may the context hold textures
 * that convert what they sample (kernel_abi.h). */
static uint32_t
spec_tex_convert(struct cuvk_spirv_emitter *e)
{
   return spec_bool(e, CUVK_KERNEL_SPEC_TEX_CONVERT);
}

/* The id of the conversion path of a sample helper (same parameters and
 * result), emitted by cuvk_spirv_texture_finish; 0 when the kernel has
 * too many sample forms. */
static uint32_t
convert_request(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, uint32_t binding, unsigned variant,
                enum cuvk_kernel_tex_dim dim, unsigned ncoords, enum cuvk_kernel_tex_type type, bool int_coords,
                bool grad, int gather, bool uniform)
{
   uint32_t id = cuvk_spirv_cache_get(e, CUVK_SPIRV_KEY_HELPER, HELPER_CONVERT + binding, variant, 0);
   if (id)
      return id;
   if (e->tex_convert_count == CUVK_SPIRV_MAX_TEX_CONVERTS) {
      cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, in, "more than %u forms of texture sampling in one kernel",
                      CUVK_SPIRV_MAX_TEX_CONVERTS);
      return 0;
   }
   id = new_id(e);
   e->tex_converts[e->tex_convert_count++] = (struct cuvk_spirv_tex_convert){
      .id = id, .in = in, .dim = (uint8_t)dim, .ncoords = (uint8_t)ncoords, .type = (uint8_t)type,
      .int_coords = int_coords, .grad = grad, .uniform = uniform, .gather = (int8_t)gather,
   };
   cuvk_spirv_cache_put(e, CUVK_SPIRV_KEY_HELPER, HELPER_CONVERT + binding, variant, 0, id);
   return id;
}

/* Whether the handle operand holds the same handle in every thread of
 * the launch (ir_uniform.c). */
static bool
handle_uniform(const struct cuvk_spirv_emitter *e, const struct cuvk_ir_value *v)
{
   return e->uniform_regs && e->func == e->kernel && v->reg <= e->kernel->reg_count && e->uniform_regs[v->reg];
}

static uint32_t
sample_fn(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, uint32_t binding,
          enum cuvk_kernel_tex_dim dim, unsigned ncoords, enum cuvk_kernel_tex_type type, bool int_coords,
          bool grad, int gather, bool uniform, bool no_convert)
{
   unsigned variant = int_coords | (grad ? 2u : 0u) | (unsigned)(gather + 1) << 2 | (uniform ? 32u : 0u) |
                      (no_convert ? SAMPLE_NO_CONVERT : 0u);
   uint32_t id = cuvk_spirv_cache_get(e, CUVK_SPIRV_KEY_HELPER, HELPER_SAMPLE + binding, variant, 0);
   if (id)
      return id;
   struct binding b;
   if (!binding_get(e, in, binding, dim, false, type, 0, &b))
      return 0;
   uint32_t convert_fn = 0;
   if (!no_convert) {
      convert_fn = convert_request(e, in, binding, variant, dim, ncoords, type, int_coords, grad, gather, uniform);
      if (!convert_fn)
         return 0;
   }
   cuvk_spirv_capability(e, SpvCapabilityImageQuery);
   uint32_t u32 = cuvk_spirv_type_uint(e, 32), u64 = cuvk_spirv_type_uint(e, 64);
   uint32_t f32 = cuvk_spirv_type_float(e, 32), t_bool = cuvk_spirv_type_bool(e);
   uint32_t vec4 = cuvk_spirv_type_vector(e, f32, 4), uvec4 = cuvk_spirv_type_vector(e, u32, 4);
   uint32_t ret = type == CUVK_KERNEL_TEX_FLOAT ? vec4 : uvec4;
   uint32_t sampled_vec = type == CUVK_KERNEL_TEX_FLOAT ? vec4
                          : type == CUVK_KERNEL_TEX_SINT ? cuvk_spirv_type_vector(e, type_sint32(e), 4)
                                                         : uvec4;
   /* The third parameter: the level, or the two gradients (tex.grad). */
   uint32_t grads_type = cuvk_spirv_type_array(e, vec4, cuvk_spirv_const_u32(e, 2));
   uint32_t params[3] = {u64, vec4, grad ? grads_type : f32}, p[3];
   struct cuvk_spirv_helper h;
   id = cuvk_spirv_helper_begin(e, &h, ret, params, 3, p);
   cuvk_spirv_cache_put(e, CUVK_SPIRV_KEY_HELPER, HELPER_SAMPLE + binding, variant, 0, id);

   label(e, new_id(e));
   struct waterfall w;
   uint32_t result = new_id(e);
   cuvk_spirv_do(e, SpvOpVariable, cuvk_spirv_type_pointer(e, SpvStorageClassFunction, ret), result,
                 SpvStorageClassFunction);
   waterfall_init(e, &w, false, uniform);
   uint32_t first = waterfall_begin(e, &w, p[0]);

   uint32_t index, valid;
   handle_slot(e, first, false, &index, &valid);
   fault_unless(e, valid, CUVK_KERNEL_FAULT_ADDRESS);
   /* Linear and pitched memory have no image: the kernel reads them
    * itself (sample_memory), where the context may hold them.  The
    * handle says which (no record load before the sample), and a bad
    * handle samples the stand-in. */
   uint32_t memory = cuvk_spirv_val(e, SpvOpLogicalAnd, t_bool, handle_flag(e, first, CUVK_KERNEL_HANDLE_MEMORY),
                                    spec_tex_memory(e));
   struct branch br;
   uint32_t invalid = cuvk_spirv_val(e, SpvOpLogicalNot, t_bool, valid);
   if_begin(e, &br,
            cuvk_spirv_val(e, SpvOpLogicalOr, t_bool, cuvk_spirv_val(e, SpvOpLogicalNot, t_bool, memory), invalid),
            true);
   /* A view of the image's own format where the texture reads another
    * (kernel_abi.h: CUVK_KERNEL_HANDLE_CONVERT), where the context may
    * hold such textures: the conversion path samples the binding of the
    * view's type. */
   struct branch conv_br;
   if (convert_fn) {
      uint32_t conv = cuvk_spirv_val(e, SpvOpLogicalAnd, t_bool, spec_tex_convert(e),
                                     cuvk_spirv_val(e, SpvOpLogicalAnd, t_bool, valid,
                                                    handle_flag(e, first, CUVK_KERNEL_HANDLE_CONVERT)));
      if_begin(e, &conv_br, conv, true);
      cuvk_spirv_do(e, SpvOpStore, result, cuvk_spirv_val(e, SpvOpFunctionCall, ret, convert_fn, first, p[1], p[2]));
      if_else(e, &conv_br);
   }
   uint32_t si = descriptor_load(e, &b, false, index, &w);

   /* The coordinates as a float vector of the image's dimension. */
   uint32_t cvec = ncoords == 1 ? f32 : cuvk_spirv_type_vector(e, f32, ncoords);
   uint32_t uvec = ncoords == 1 ? u32 : cuvk_spirv_type_vector(e, u32, ncoords);
   uint32_t c;
   if (ncoords == 1) {
      c = cuvk_spirv_val(e, SpvOpCompositeExtract, f32, p[1], 0);
   } else {
      uint32_t parts[4];
      for (unsigned i = 0; i < ncoords; i++)
         parts[i] = cuvk_spirv_val(e, SpvOpCompositeExtract, f32, p[1], i);
      c = cuvk_spirv_emit_value(e, SpvOpCompositeConstruct, cvec, parts, ncoords);
   }
   uint32_t half = cuvk_spirv_const_bits(e, CUVK_SPIRV_FLOAT, 32, 0x3f000000u);
   uint32_t halves = half;
   if (ncoords > 1) {
      uint32_t hs[4] = {half, half, half, half};
      halves = cuvk_spirv_emit_value(e, SpvOpCompositeConstruct, cvec, hs, ncoords);
   }
   if (int_coords) {
      /* s32 texel indices: their centres. */
      uint32_t ints = cuvk_spirv_val(e, SpvOpBitcast, uvec, c);
      c = cuvk_spirv_val(e, SpvOpFAdd, cvec, cuvk_spirv_val(e, SpvOpConvertSToF, cvec, ints), halves);
   }
   /* Whether the sampler takes the coordinates as they are: normalised
    * ones, or texel ones where it takes texel coordinates (the handle
    * says both).  Integer coordinates are texel indices. */
   uint32_t texel_sampler = handle_flag(e, first, CUVK_KERNEL_HANDLE_TEXEL_SAMPLER);
   uint32_t image = cuvk_spirv_val(e, SpvOpImage, b.image_type, si);
   /* The size queries' operand, from the same descriptor. */
   if (w.nonuniform)
      cuvk_spirv_decorate(e, image, SpvDecorationNonUniform, NULL, 0);
   bool cube = dim == CUVK_KERNEL_DIM_CUBE || dim == CUVK_KERNEL_DIM_CUBE_ARRAY;
   bool arrayed = dim_arrayed(dim);
   uint32_t scaled = c;
   uint32_t size_f = 0, normalized = 0;
   if (!cube) {
      /* An arrayed image's size has the layer count last. */
      uint32_t size;
      if (arrayed) {
         uint32_t all = cuvk_spirv_val(e, SpvOpImageQuerySizeLod, cuvk_spirv_type_vector(e, u32, ncoords + 1), image,
                                       cuvk_spirv_const_u32(e, 0));
         if (ncoords == 1) {
            size = cuvk_spirv_val(e, SpvOpCompositeExtract, u32, all, 0);
         } else {
            uint32_t parts[3];
            for (unsigned i = 0; i < ncoords; i++)
               parts[i] = cuvk_spirv_val(e, SpvOpCompositeExtract, u32, all, i);
            size = cuvk_spirv_emit_value(e, SpvOpCompositeConstruct, uvec, parts, ncoords);
         }
      } else {
         size = cuvk_spirv_val(e, SpvOpImageQuerySizeLod, uvec, image, cuvk_spirv_const_u32(e, 0));
      }
      size_f = cuvk_spirv_val(e, SpvOpConvertUToF, cvec, size);
      scaled = cuvk_spirv_val(e, SpvOpFDiv, cvec, c, size_f);
   }
   /* Cubemaps take directions: nothing to scale. */
   if (!cube) {
      uint32_t as_given = texel_sampler;
      if (!int_coords) {
         /* Float coordinates are scaled only for textures counted by
          * CUVK_KERNEL_SPEC_TEX_SCALE: without any, the query above is
          * dead code the driver drops.  (Integer ones are texel indices
          * whatever the description, so they keep the run-time choice.) */
         normalized = handle_flag(e, first, CUVK_KERNEL_HANDLE_NORMALIZED);
         as_given = cuvk_spirv_val(e, SpvOpLogicalOr, t_bool, normalized, texel_sampler);
         as_given = cuvk_spirv_val(e, SpvOpLogicalOr, t_bool, as_given,
                                   cuvk_spirv_val(e, SpvOpLogicalNot, t_bool,
                                                  spec_bool(e, CUVK_KERNEL_SPEC_TEX_SCALE)));
      }
      scaled = cuvk_spirv_val(e, SpvOpSelect, cvec, as_given, c, scaled);
   }
   if (arrayed) {
      /* The layer (u32 bits in the last component) as Vulkan's float
       * array coordinate, which it rounds to the nearest layer. */
      uint32_t layer = cuvk_spirv_val(e, SpvOpConvertUToF, f32,
                                      cuvk_spirv_val(e, SpvOpBitcast, u32,
                                                     cuvk_spirv_val(e, SpvOpCompositeExtract, f32, p[1], 3)));
      uint32_t parts[4];
      if (ncoords == 1) {
         parts[0] = scaled;
      } else {
         for (unsigned i = 0; i < ncoords; i++)
            parts[i] = cuvk_spirv_val(e, SpvOpCompositeExtract, f32, scaled, i);
      }
      parts[ncoords] = layer;
      scaled = cuvk_spirv_emit_value(e, SpvOpCompositeConstruct, cuvk_spirv_type_vector(e, f32, ncoords + 1), parts,
                                     ncoords + 1);
   }
   uint32_t v;
   if (grad && cube) {
      uint32_t lod = cube_grad_lod(e, image, dim, c, p[2]);
      v = cuvk_spirv_val(e, SpvOpImageSampleExplicitLod, sampled_vec, si, scaled, SpvImageOperandsLodMask, lod);
   } else if (grad) {
      /* The level from the gradients, as Vulkan's isotropic formula:
       * log2 of the longer gradient in texels of level 0.  Not Vulkan's
       * Grad operand: llvmpipe's LLVM aborts compiling it ("Cannot
       * emit physreg copy instruction"), and sampling is not
       * anisotropic anyway. */
      uint32_t len[2];
      for (unsigned k = 0; k < 2; k++) {
         uint32_t gv = cuvk_spirv_val(e, SpvOpCompositeExtract, vec4, p[2], k);
         uint32_t g;
         if (ncoords == 1) {
            g = cuvk_spirv_val(e, SpvOpCompositeExtract, f32, gv, 0);
         } else {
            uint32_t parts[3];
            for (unsigned i = 0; i < ncoords; i++)
               parts[i] = cuvk_spirv_val(e, SpvOpCompositeExtract, f32, gv, i);
            g = cuvk_spirv_emit_value(e, SpvOpCompositeConstruct, cvec, parts, ncoords);
         }
         /* Normalised gradients to texels; texel ones are already. */
         g = cuvk_spirv_val(e, SpvOpSelect, cvec, normalized, cuvk_spirv_val(e, SpvOpFMul, cvec, g, size_f), g);
         len[k] = ncoords == 1 ? cuvk_spirv_glsl(e, GLSLstd450FAbs, f32, g)
                               : cuvk_spirv_glsl(e, GLSLstd450Length, f32, g);
      }
      uint32_t lod = cuvk_spirv_glsl(e, GLSLstd450Log2, f32, cuvk_spirv_glsl(e, GLSLstd450FMax, f32, len[0], len[1]));
      v = cuvk_spirv_val(e, SpvOpImageSampleExplicitLod, sampled_vec, si, scaled, SpvImageOperandsLodMask, lod);
   } else if (gather >= 0) {
      /* tld4: the component of the four texels of the bilinear
       * footprint, in Vulkan's order, which CUDA's is (measured on an
       * H100: (i, j+1), (i+1, j+1), (i+1, j), (i, j)). */
      v = cuvk_spirv_val(e, SpvOpImageGather, sampled_vec, si, scaled, cuvk_spirv_const_u32(e, (uint32_t)gather));
   } else {
      v = cuvk_spirv_val(e, SpvOpImageSampleExplicitLod, sampled_vec, si, scaled, SpvImageOperandsLodMask, p[2]);
   }
   if (sampled_vec != ret)
      v = cuvk_spirv_val(e, SpvOpBitcast, ret, v);
   cuvk_spirv_do(e, SpvOpStore, result, v);
   if (convert_fn)
      if_end(e, &conv_br);
   if_else(e, &br);
   /* CUDA gathers only from arrays made with CUDA_ARRAY3D_TEXTURE_GATHER. */
   if (gather >= 0)
      cuvk_spirv_store_fault(e, CUVK_KERNEL_FAULT_UNSUPPORTED);
   else
      sample_memory(e, index, p[1], dim, int_coords, ret, result);
   if_end(e, &br);
   waterfall_end(e, &w);
   cuvk_spirv_do(e, SpvOpReturnValue, cuvk_spirv_val(e, SpvOpLoad, ret, result));
   cuvk_spirv_helper_end(e, &h, "cuvk_tex_sample");
   return id;
}

static int
lower_tex(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in)
{
   enum cuvk_kernel_tex_dim dim;
   unsigned ncoords;
   bool grad = cuvk_spirv_has_mod(in, PTX_MOD_GRAD);
   int gather = -1;
   if (in->op == PTX_OP_TLD4) {
      gather = cuvk_spirv_has_mod(in, PTX_MOD_R)      ? 0
               : cuvk_spirv_has_mod(in, PTX_MOD_G)    ? 1
               : cuvk_spirv_has_mod(in, PTX_MOD_SU_B) ? 2
               : cuvk_spirv_has_mod(in, PTX_MOD_A)    ? 3
                                                      : -1;
      if (gather < 0)
         return cuvk_spirv_fail(e, CUVK_CC_INVALID, in, "tld4 without a component (.r, .g, .b, .a)") ? 1 : -1;
      enum ptx_modifier g = cuvk_spirv_mod_of_class(in, PTX_MODC_GEOM);
      if (g != PTX_MOD_GEOM_2D)
         return fail(e, in, g < PTX_MOD_COUNT ? "tld4 of this geometry" : "tld4 without a geometry") ? 1 : -1;
   }
   if (cuvk_spirv_has_mod(in, PTX_MOD_BASE))
      return fail(e, in, "tex.base") ? 1 : -1;
   if (!geometry(e, in, true, &dim, &ncoords))
      return -1;
   bool level = cuvk_spirv_has_mod(in, PTX_MOD_LEVEL);
   enum ptx_modifier dtype = cuvk_spirv_type_mod(in, 0), ctype = cuvk_spirv_type_mod(in, 1);
   if (!cuvk_spirv_has_mod(in, PTX_MOD_V4) || in->dst_count != 4)
      return fail(e, in, "a texture fetch of other than four components") ? 1 : -1;
   enum cuvk_kernel_tex_type type;
   enum cuvk_spirv_kind kind;
   switch (dtype) {
   case PTX_MOD_F32:
      type = CUVK_KERNEL_TEX_FLOAT;
      kind = CUVK_SPIRV_FLOAT;
      break;
   case PTX_MOD_S32:
      type = CUVK_KERNEL_TEX_SINT;
      kind = CUVK_SPIRV_UINT;
      break;
   case PTX_MOD_U32:
      type = CUVK_KERNEL_TEX_UINT;
      kind = CUVK_SPIRV_UINT;
      break;
   default:
      return fail(e, in, "a texture fetch of this element type") ? 1 : -1;
   }
   if (ctype != PTX_MOD_F32 && ctype != PTX_MOD_S32)
      return cuvk_spirv_fail(e, CUVK_CC_INVALID, in, "tex: coordinates must be .f32 or .s32") ? 1 : -1;
   bool int_coords = ctype == PTX_MOD_S32;
   bool arrayed = dim_arrayed(dim);
   /* Layered geometries give the layer (u32) before the coordinates. */
   unsigned first = arrayed ? 2 : 1;
   /* tex.grad's two gradient vectors follow: .v2 for 2D geometries,
    * .v4 for 3D and cubes, one value for 1D. */
   unsigned gwidth = !grad ? 0 : ncoords == 1 ? 1 : ncoords == 2 ? 2 : 4;
   unsigned given = in->src_count - 1 - (level ? 1 : 0);
   if (in->src_count < 2 + 2 * gwidth || in->src[0].kind != CUVK_IR_VAL_ADDR || !in->src[0].has_reg ||
       (level && grad))
      given = 0;
   else
      given -= 2 * gwidth;
   if (given < ncoords + (arrayed ? 1 : 0) || given > 4 || ((level || grad || gather >= 0) && int_coords) ||
       (int_coords && (dim == CUVK_KERNEL_DIM_CUBE || dim == CUVK_KERNEL_DIM_CUBE_ARRAY)))
      return cuvk_spirv_fail(e, CUVK_CC_INVALID, in, "tex: expected [handle, {coordinates}]%s",
                             level ? " and a level" : grad ? " and two gradients" : "") ? 1 : -1;

   uint32_t fn = sample_fn(e, in, CUVK_KERNEL_TEX_BINDING(dim, type), dim, ncoords, type, int_coords, grad, gather,
                           handle_uniform(e, &in->src[0]), false);
   if (!fn)
      return -1;
   uint32_t f32 = cuvk_spirv_type_float(e, 32), u32 = cuvk_spirv_type_uint(e, 32);
   struct cuvk_ir_value hv = {.kind = CUVK_IR_VAL_REG, .reg = in->src[0].reg};
   uint32_t handle = cuvk_spirv_read(e, &hv, CUVK_SPIRV_UINT, 64);
   uint32_t parts[4];
   for (unsigned i = 0; i < 4; i++) {
      if (i < ncoords)
         parts[i] = int_coords ? cuvk_spirv_val(e, SpvOpBitcast, f32,
                                                cuvk_spirv_read(e, &in->src[first + i], CUVK_SPIRV_UINT, 32))
                               : cuvk_spirv_read(e, &in->src[first + i], CUVK_SPIRV_FLOAT, 32);
      else
         parts[i] = cuvk_spirv_const_bits(e, CUVK_SPIRV_FLOAT, 32, 0);
   }
   /* The layer travels as u32 bits in the last component (no layered
    * geometry has more than three spatial coordinates here). */
   if (arrayed)
      parts[3] = cuvk_spirv_val(e, SpvOpBitcast, f32, cuvk_spirv_read(e, &in->src[1], CUVK_SPIRV_UINT, 32));
   uint32_t vec4 = cuvk_spirv_type_vector(e, f32, 4);
   uint32_t coords = cuvk_spirv_emit_value(e, SpvOpCompositeConstruct, vec4, parts, 4);
   uint32_t lod = level ? cuvk_spirv_read(e, &in->src[in->src_count - 1], CUVK_SPIRV_FLOAT, 32)
                        : cuvk_spirv_const_bits(e, CUVK_SPIRV_FLOAT, 32, 0);
   if (grad) {
      uint32_t g[2];
      for (unsigned k = 0; k < 2; k++) {
         uint32_t gp[4];
         for (unsigned i = 0; i < 4; i++)
            gp[i] = i < ncoords ? cuvk_spirv_read(e, &in->src[1 + given + k * gwidth + i], CUVK_SPIRV_FLOAT, 32)
                                : cuvk_spirv_const_bits(e, CUVK_SPIRV_FLOAT, 32, 0);
         g[k] = cuvk_spirv_emit_value(e, SpvOpCompositeConstruct, vec4, gp, 4);
      }
      lod = cuvk_spirv_emit_value(e, SpvOpCompositeConstruct,
                                  cuvk_spirv_type_array(e, vec4, cuvk_spirv_const_u32(e, 2)), g, 2);
   }
   uint32_t ret = type == CUVK_KERNEL_TEX_FLOAT ? vec4 : cuvk_spirv_type_vector(e, u32, 4);
   uint32_t v = cuvk_spirv_val(e, SpvOpFunctionCall, ret, fn, handle, coords, lod);
   for (unsigned i = 0; i < 4; i++)
      cuvk_spirv_write(e, &in->dst[i], cuvk_spirv_val(e, SpvOpCompositeExtract, kind == CUVK_SPIRV_FLOAT ? f32 : u32,
                                                      v, i),
                       kind, 32);
   return e->failed ? -1 : 1;
}

/* ---- suld.b, sust.b ---- */

/* Clamps, or tells whether, texel coordinates c (a u32 vector of n, s32
 * values) lie inside size. */
static uint32_t
coords_inside(struct cuvk_spirv_emitter *e, uint32_t c, uint32_t size, unsigned n)
{
   uint32_t t_bool = cuvk_spirv_type_bool(e);
   uint32_t bvec = n == 1 ? t_bool : cuvk_spirv_type_vector(e, t_bool, n);
   /* Negative s32 values are huge as unsigned: one comparison. */
   uint32_t lt = cuvk_spirv_val(e, SpvOpULessThan, bvec, c, size);
   return n == 1 ? lt : cuvk_spirv_val(e, SpvOpAll, t_bool, lt);
}

/*
 * uvec4 suld(u64 handle, uvec4 coords) and void sust(u64 handle, uvec4
 * coords, uvec4 texel) of one storage binding: texel coordinates (s32
 * bits), out-of-range accesses per mode (clamped; zero: reads 0, writes
 * dropped; trap: the fault word, reads 0, writes dropped).
 */
static uint32_t
surface_fn(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, bool store, uint32_t binding,
           enum cuvk_kernel_tex_dim dim, unsigned ncoords, unsigned size_log2, enum oob_mode mode, bool uniform)
{
   uint32_t kind = (store ? HELPER_SUST : HELPER_SULD) + binding;
   uint32_t id = cuvk_spirv_cache_get(e, CUVK_SPIRV_KEY_HELPER, kind, mode, uniform);
   if (id)
      return id;
   struct binding b;
   if (!binding_get(e, in, binding, dim, true, CUVK_KERNEL_TEX_UINT, size_log2, &b))
      return 0;
   cuvk_spirv_capability(e, SpvCapabilityImageQuery);
   uint32_t u32 = cuvk_spirv_type_uint(e, 32), u64 = cuvk_spirv_type_uint(e, 64);
   uint32_t uvec4 = cuvk_spirv_type_vector(e, u32, 4);
   uint32_t uvec = ncoords == 1 ? u32 : cuvk_spirv_type_vector(e, u32, ncoords);
   uint32_t params[3] = {u64, uvec4, uvec4}, p[3];
   struct cuvk_spirv_helper h;
   uint32_t ret = store ? cuvk_spirv_type_void(e) : uvec4;
   id = cuvk_spirv_helper_begin(e, &h, ret, params, store ? 3 : 2, p);
   cuvk_spirv_cache_put(e, CUVK_SPIRV_KEY_HELPER, kind, mode, uniform, id);

   label(e, new_id(e));
   struct waterfall w;
   uint32_t result = new_id(e);
   cuvk_spirv_do(e, SpvOpVariable, cuvk_spirv_type_pointer(e, SpvStorageClassFunction, uvec4), result,
                 SpvStorageClassFunction);
   waterfall_init(e, &w, true, uniform);
   uint32_t zero4 = cuvk_spirv_emit_value(e, SpvOpCompositeConstruct, uvec4,
                                          (const uint32_t[]){cuvk_spirv_const_u32(e, 0), cuvk_spirv_const_u32(e, 0),
                                                             cuvk_spirv_const_u32(e, 0), cuvk_spirv_const_u32(e, 0)},
                                          4);
   cuvk_spirv_do(e, SpvOpStore, result, zero4);
   uint32_t first = waterfall_begin(e, &w, p[0]);

   uint32_t index, valid;
   handle_slot(e, first, true, &index, &valid);
   fault_unless(e, valid, CUVK_KERNEL_FAULT_ADDRESS);
   uint32_t image = descriptor_load(e, &b, true, index, &w);
   uint32_t c;
   if (ncoords == 1) {
      c = cuvk_spirv_val(e, SpvOpCompositeExtract, u32, p[1], 0);
   } else {
      uint32_t parts[4];
      for (unsigned i = 0; i < ncoords; i++)
         parts[i] = cuvk_spirv_val(e, SpvOpCompositeExtract, u32, p[1], i);
      c = cuvk_spirv_emit_value(e, SpvOpCompositeConstruct, uvec, parts, ncoords);
   }
   uint32_t size = cuvk_spirv_val(e, SpvOpImageQuerySize, uvec, image);
   uint32_t inside = coords_inside(e, c, size, ncoords);
   if (mode == OOB_CLAMP) {
      /* Signed clamp into [0, size - 1]. */
      uint32_t zero = cuvk_spirv_const_u32(e, 0), one = cuvk_spirv_const_u32(e, 1);
      uint32_t zeros = zero, ones = one;
      if (ncoords > 1) {
         uint32_t z[4] = {zero, zero, zero, zero}, o[4] = {one, one, one, one};
         zeros = cuvk_spirv_emit_value(e, SpvOpCompositeConstruct, uvec, z, ncoords);
         ones = cuvk_spirv_emit_value(e, SpvOpCompositeConstruct, uvec, o, ncoords);
      }
      uint32_t top = cuvk_spirv_val(e, SpvOpISub, uvec, size, ones);
      c = cuvk_spirv_glsl(e, GLSLstd450SClamp, uvec, c, zeros, top);
      inside = cuvk_spirv_const_bool(e, true);
   } else if (mode == OOB_TRAP) {
      fault_unless(e, inside, CUVK_KERNEL_FAULT_ADDRESS);
   }
   uint32_t l_do = new_id(e), l_done = new_id(e);
   cuvk_spirv_do(e, SpvOpSelectionMerge, l_done, SpvSelectionControlMaskNone);
   cuvk_spirv_do(e, SpvOpBranchConditional, inside, l_do, l_done);
   label(e, l_do);
   if (store)
      cuvk_spirv_do(e, SpvOpImageWrite, image, c, p[2]);
   else
      cuvk_spirv_do(e, SpvOpStore, result, cuvk_spirv_val(e, SpvOpImageRead, uvec4, image, c));
   cuvk_spirv_do(e, SpvOpBranch, l_done);
   label(e, l_done);
   waterfall_end(e, &w);
   if (store)
      cuvk_spirv_do(e, SpvOpReturn);
   else
      cuvk_spirv_do(e, SpvOpReturnValue, cuvk_spirv_val(e, SpvOpLoad, uvec4, result));
   cuvk_spirv_helper_end(e, &h, store ? "cuvk_sust" : "cuvk_suld");
   return id;
}

/* ---- sust.p ---- */

/*
 * A formatted store converts each 32-bit value to the surface's format
 * (PTX ISA, sust): f32 for UNORM, SNORM and float formats, u32 for
 * UINT, s32 for SINT.  The format is the surface record's, known only
 * when the kernel runs, and so is the texel size whose storage binding
 * holds the surface: the helper converts and packs the texel, then calls
 * the sust.b helper of that size, so a kernel with sust.p declares the
 * five storage bindings of the geometry (a device allowing fewer a
 * stage refuses it, naming the limit, as any kernel needing too many).
 *
 * CUarray_format values the record holds (the compiler library does not
 * include cuda.h): 0x01-0x03 u8/u16/u32, 0x08-0x0a s8/s16/s32, 0x10
 * half, 0x20 float, 0xc0-0xc2 unorm8 x1/x2/x4, 0xc3-0xc5 unorm16,
 * 0xc6-0xc8 snorm8, 0xc9-0xcb snorm16.  Others (10-10-10-2) fault
 * (CUVK_KERNEL_FAULT_UNSUPPORTED).
 */

/* lo <= v <= hi for u32 value v. */
static uint32_t
u32_in(struct cuvk_spirv_emitter *e, uint32_t v, uint32_t lo, uint32_t hi)
{
   uint32_t t_bool = cuvk_spirv_type_bool(e);
   return cuvk_spirv_val(e, SpvOpLogicalAnd, t_bool,
                         cuvk_spirv_val(e, SpvOpUGreaterThanEqual, t_bool, v, cuvk_spirv_const_u32(e, lo)),
                         cuvk_spirv_val(e, SpvOpULessThanEqual, t_bool, v, cuvk_spirv_const_u32(e, hi)));
}

/* f32 value f to a normalised integer of max steps (255, 65535, 127,
 * 32767): NaN to 0, clamped to [0, 1] ([-1, 1] signed), times max,
 * rounded to nearest even (Vulkan's and D3D's conversion); the bits of
 * the (signed) integer. */
static uint32_t
float_to_norm(struct cuvk_spirv_emitter *e, uint32_t f, bool is_signed, uint32_t max)
{
   uint32_t f32 = cuvk_spirv_type_float(e, 32), u32 = cuvk_spirv_type_uint(e, 32);
   uint32_t zero = cuvk_spirv_const_bits(e, CUVK_SPIRV_FLOAT, 32, 0);
   uint32_t nan = cuvk_spirv_val(e, SpvOpIsNan, cuvk_spirv_type_bool(e), f);
   f = cuvk_spirv_val(e, SpvOpSelect, f32, nan, zero, f);
   uint32_t lo = cuvk_spirv_const_bits(e, CUVK_SPIRV_FLOAT, 32, is_signed ? 0xbf800000u : 0);
   uint32_t one = cuvk_spirv_const_bits(e, CUVK_SPIRV_FLOAT, 32, 0x3f800000u);
   uint32_t c = cuvk_spirv_glsl(e, GLSLstd450FClamp, f32, f, lo, one);
   union {
      float f;
      uint32_t u;
   } m = {.f = (float)max};
   uint32_t r = cuvk_spirv_glsl(e, GLSLstd450RoundEven, f32,
                                cuvk_spirv_val(e, SpvOpFMul, f32, c, cuvk_spirv_const_bits(e, CUVK_SPIRV_FLOAT, 32, m.u)));
   return cuvk_spirv_val(e, is_signed ? SpvOpConvertFToS : SpvOpConvertFToU, u32, r);
}

/*
 * void sust_p(u64 handle, uvec4 coords, uvec4 values) of one geometry
 * and out-of-range mode: coords in texels (s32 bits), values the four
 * 32-bit source elements (0 past the instruction's vector).  Channels
 * the source lacks are written 0 (PTX leaves them unpredictable).
 */
static uint32_t
formatted_store_fn(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, enum cuvk_kernel_tex_dim dim,
                   unsigned ncoords, enum oob_mode mode)
{
   uint32_t id = cuvk_spirv_cache_get(e, CUVK_SPIRV_KEY_HELPER, HELPER_SUST_P + dim, mode, 0);
   if (id)
      return id;
   /* The five stores first: helpers are emitted one at a time. */
   uint32_t fns[CUVK_KERNEL_SURF_SIZE_COUNT];
   for (unsigned size = 0; size < CUVK_KERNEL_SURF_SIZE_COUNT; size++) {
      fns[size] = surface_fn(e, in, true, CUVK_KERNEL_SURF_BINDING(dim, size), dim, ncoords, size, mode, false);
      if (!fns[size])
         return 0;
   }
   uint32_t u32 = cuvk_spirv_type_uint(e, 32), u64 = cuvk_spirv_type_uint(e, 64);
   uint32_t f32 = cuvk_spirv_type_float(e, 32), t_bool = cuvk_spirv_type_bool(e);
   uint32_t uvec4 = cuvk_spirv_type_vector(e, u32, 4), t_void = cuvk_spirv_type_void(e);
   uint32_t params[3] = {u64, uvec4, uvec4}, p[3];
   struct cuvk_spirv_helper h;
   id = cuvk_spirv_helper_begin(e, &h, t_void, params, 3, p);
   cuvk_spirv_cache_put(e, CUVK_SPIRV_KEY_HELPER, HELPER_SUST_P + dim, mode, 0, id);
   label(e, new_id(e));
   uint32_t fmt_var = new_id(e), ch_var = new_id(e);
   uint32_t ptr = cuvk_spirv_type_pointer(e, SpvStorageClassFunction, u32);
   cuvk_spirv_do(e, SpvOpVariable, ptr, fmt_var, SpvStorageClassFunction);
   cuvk_spirv_do(e, SpvOpVariable, ptr, ch_var, SpvStorageClassFunction);
   uint32_t zero = cuvk_spirv_const_u32(e, 0);
   cuvk_spirv_do(e, SpvOpStore, fmt_var, zero);
   cuvk_spirv_do(e, SpvOpStore, ch_var, zero);

   /* The record of a valid handle only (without objects the records'
    * address is 0); a bad one goes to the 4-byte store, which reports
    * it. */
   uint32_t index, valid;
   handle_slot(e, p[0], true, &index, &valid);
   struct branch br;
   if_begin(e, &br, valid, false);
   uint32_t rec = record_address(e, true, index);
   cuvk_spirv_do(e, SpvOpStore, fmt_var, record_field(e, rec, RECORD_FORMAT, u32, 4));
   cuvk_spirv_do(e, SpvOpStore, ch_var, record_field(e, rec, RECORD_CHANNELS, u32, 4));
   if_end(e, &br);
   uint32_t fmt = cuvk_spirv_val(e, SpvOpLoad, u32, fmt_var);
   uint32_t channels = cuvk_spirv_val(e, SpvOpLoad, u32, ch_var);

   uint32_t is_uint = u32_in(e, fmt, 0x01, 0x03), is_sint = u32_in(e, fmt, 0x08, 0x0a);
   uint32_t is_half = u32_eq(e, fmt, 0x10), is_float = u32_eq(e, fmt, 0x20);
   uint32_t is_un8 = u32_in(e, fmt, 0xc0, 0xc2), is_un16 = u32_in(e, fmt, 0xc3, 0xc5);
   uint32_t is_sn8 = u32_in(e, fmt, 0xc6, 0xc8), is_sn16 = u32_in(e, fmt, 0xc9, 0xcb);
   uint32_t bits8 = bool_or(e, bool_or(e, u32_eq(e, fmt, 0x01), u32_eq(e, fmt, 0x08)), bool_or(e, is_un8, is_sn8));
   uint32_t bits16 = bool_or(e, bool_or(e, bool_or(e, u32_eq(e, fmt, 0x02), u32_eq(e, fmt, 0x09)), is_half),
                             bool_or(e, is_un16, is_sn16));
   uint32_t bits = cuvk_spirv_val(e, SpvOpSelect, u32, bits8, cuvk_spirv_const_u32(e, 8),
                                  cuvk_spirv_val(e, SpvOpSelect, u32, bits16, cuvk_spirv_const_u32(e, 16),
                                                 cuvk_spirv_const_u32(e, 32)));
   uint32_t mask = cuvk_spirv_val(e, SpvOpSelect, u32, bits8, cuvk_spirv_const_u32(e, 0xffu),
                                  cuvk_spirv_val(e, SpvOpSelect, u32, bits16, cuvk_spirv_const_u32(e, 0xffffu),
                                                 cuvk_spirv_const_u32(e, 0xffffffffu)));
   /* Integers saturate to the channel's range (as D3D's typed stores;
    * PTX does not say). */
   uint32_t umax = mask;
   uint32_t smax = cuvk_spirv_val(e, SpvOpShiftRightLogical, u32, mask, cuvk_spirv_const_u32(e, 1));
   uint32_t smin = cuvk_spirv_val(e, SpvOpNot, u32, smax);

   uint32_t words[4] = {zero, zero, zero, zero};
   for (unsigned i = 0; i < 4; i++) {
      uint32_t v = cuvk_spirv_val(e, SpvOpCompositeExtract, u32, p[2], i);
      uint32_t f = cuvk_spirv_val(e, SpvOpBitcast, f32, v);
      uint32_t c = v;   /* float: the bits as they are */
      c = cuvk_spirv_val(e, SpvOpSelect, u32, is_uint, cuvk_spirv_glsl(e, GLSLstd450UMin, u32, v, umax), c);
      c = cuvk_spirv_val(e, SpvOpSelect, u32, is_sint, cuvk_spirv_glsl(e, GLSLstd450SClamp, u32, v, smin, smax), c);
      c = cuvk_spirv_val(e, SpvOpSelect, u32, is_half, cuvk_spirv_f32_to_f16_bits(e, f), c);
      c = cuvk_spirv_val(e, SpvOpSelect, u32, is_un8, float_to_norm(e, f, false, 255), c);
      c = cuvk_spirv_val(e, SpvOpSelect, u32, is_un16, float_to_norm(e, f, false, 65535), c);
      c = cuvk_spirv_val(e, SpvOpSelect, u32, is_sn8, float_to_norm(e, f, true, 127), c);
      c = cuvk_spirv_val(e, SpvOpSelect, u32, is_sn16, float_to_norm(e, f, true, 32767), c);
      c = cuvk_spirv_val(e, SpvOpBitwiseAnd, u32, c, mask);
      /* Channel i starts at bit i * bits of the texel. */
      uint32_t at = cuvk_spirv_val(e, SpvOpIMul, u32, cuvk_spirv_const_u32(e, i), bits);
      uint32_t word = cuvk_spirv_val(e, SpvOpShiftRightLogical, u32, at, cuvk_spirv_const_u32(e, 5));
      uint32_t shifted = cuvk_spirv_val(e, SpvOpShiftLeftLogical, u32, c,
                                        cuvk_spirv_val(e, SpvOpBitwiseAnd, u32, at, cuvk_spirv_const_u32(e, 31)));
      uint32_t present = cuvk_spirv_val(e, SpvOpULessThan, t_bool, cuvk_spirv_const_u32(e, i), channels);
      for (unsigned k = 0; k <= i; k++) {
         uint32_t here = cuvk_spirv_val(e, SpvOpLogicalAnd, t_bool, present, u32_eq(e, word, k));
         words[k] = cuvk_spirv_val(e, SpvOpBitwiseOr, u32, words[k],
                                   cuvk_spirv_val(e, SpvOpSelect, u32, here, shifted, zero));
      }
   }
   uint32_t texel = cuvk_spirv_emit_value(e, SpvOpCompositeConstruct, uvec4, words, 4);
   uint32_t size = cuvk_spirv_val(e, SpvOpIMul, u32, cuvk_spirv_val(e, SpvOpShiftRightLogical, u32, bits,
                                                                     cuvk_spirv_const_u32(e, 3)),
                                  channels);
   uint32_t known = bool_or(e, bool_or(e, bool_or(e, is_uint, is_sint), bool_or(e, is_half, is_float)),
                            bool_or(e, bool_or(e, is_un8, is_un16), bool_or(e, is_sn8, is_sn16)));
   /* A bad handle: the 4-byte store reports it. */
   size = cuvk_spirv_val(e, SpvOpSelect, u32, valid, size, cuvk_spirv_const_u32(e, 4));
   uint32_t l_case[CUVK_KERNEL_SURF_SIZE_COUNT], l_default = new_id(e), l_merge = new_id(e);
   for (unsigned i = 0; i < CUVK_KERNEL_SURF_SIZE_COUNT; i++)
      l_case[i] = new_id(e);
   uint32_t ok = cuvk_spirv_val(e, SpvOpLogicalOr, t_bool, known, cuvk_spirv_val(e, SpvOpLogicalNot, t_bool, valid));
   size = cuvk_spirv_val(e, SpvOpSelect, u32, ok, size, zero);
   cuvk_spirv_do(e, SpvOpSelectionMerge, l_merge, SpvSelectionControlMaskNone);
   cuvk_spirv_do(e, SpvOpSwitch, size, l_default, 1, l_case[0], 2, l_case[1], 4, l_case[2], 8, l_case[3], 16,
                 l_case[4]);
   for (unsigned i = 0; i < CUVK_KERNEL_SURF_SIZE_COUNT; i++) {
      label(e, l_case[i]);
      cuvk_spirv_do(e, SpvOpFunctionCall, t_void, new_id(e), fns[i], p[0], p[1], texel);
      cuvk_spirv_do(e, SpvOpBranch, l_merge);
   }
   /* A format sust.p does not convert to (10-10-10-2): a fault, not
    * wrong texels. */
   label(e, l_default);
   cuvk_spirv_store_fault(e, CUVK_KERNEL_FAULT_UNSUPPORTED);
   cuvk_spirv_do(e, SpvOpBranch, l_merge);
   label(e, l_merge);
   cuvk_spirv_do(e, SpvOpReturn);
   cuvk_spirv_helper_end(e, &h, "cuvk_sust_p");
   return id;
}

/* sust.p.{1d,2d,3d,a1d,a2d}{,.v2,.v4}.b32 [handle, {coords}], {values}:
 * x in texels, not bytes. */
static int
lower_formatted_store(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in)
{
   enum cuvk_kernel_tex_dim dim;
   unsigned ncoords;
   if (in->op != PTX_OP_SUST)
      return fail(e, in, "formatted load (suld.p)") ? 1 : -1;
   if (!geometry(e, in, false, &dim, &ncoords))
      return -1;
   bool arrayed = dim_arrayed(dim);
   unsigned given_coords = dim == CUVK_KERNEL_DIM_3D || dim == CUVK_KERNEL_DIM_2D_ARRAY ? 4
                           : dim == CUVK_KERNEL_DIM_1D_ARRAY                            ? 2
                                                                                        : ncoords;
   enum ptx_modifier type = cuvk_spirv_type_mod(in, 0);
   unsigned vec = cuvk_spirv_has_mod(in, PTX_MOD_V4) ? 4 : cuvk_spirv_has_mod(in, PTX_MOD_V2) ? 2 : 1;
   if (type >= PTX_MOD_COUNT || ptx_modifier_table[type].bits != 32 || in->src_count != 1 + given_coords + vec ||
       in->src[0].kind != CUVK_IR_VAL_ADDR || !in->src[0].has_reg)
      return cuvk_spirv_fail(e, CUVK_CC_INVALID, in, "sust.p: expected .b32, [handle, {coordinates}] and %u values",
                             vec) ? 1 : -1;
   enum oob_mode mode = cuvk_spirv_has_mod(in, PTX_MOD_CLAMP) ? OOB_CLAMP
                        : cuvk_spirv_has_mod(in, PTX_MOD_ZERO) ? OOB_ZERO
                                                               : OOB_TRAP;
   uint32_t fn = formatted_store_fn(e, in, dim, ncoords + arrayed, mode);
   if (!fn)
      return -1;
   uint32_t u32 = cuvk_spirv_type_uint(e, 32), uvec4 = cuvk_spirv_type_vector(e, u32, 4);
   struct cuvk_ir_value hv = {.kind = CUVK_IR_VAL_REG, .reg = in->src[0].reg};
   uint32_t handle = cuvk_spirv_read(e, &hv, CUVK_SPIRV_UINT, 64);
   uint32_t zero = cuvk_spirv_const_u32(e, 0);
   uint32_t parts[4] = {zero, zero, zero, zero}, values[4] = {zero, zero, zero, zero};
   unsigned first = arrayed ? 2 : 1;
   for (unsigned i = 0; i < ncoords; i++)
      parts[i] = cuvk_spirv_read(e, &in->src[first + i], CUVK_SPIRV_UINT, 32);
   if (arrayed)
      parts[ncoords] = cuvk_spirv_read(e, &in->src[1], CUVK_SPIRV_UINT, 32);
   for (unsigned i = 0; i < vec; i++)
      values[i] = cuvk_spirv_read(e, &in->src[1 + given_coords + i], CUVK_SPIRV_UINT, 32);
   uint32_t coords = cuvk_spirv_emit_value(e, SpvOpCompositeConstruct, uvec4, parts, 4);
   uint32_t texel = cuvk_spirv_emit_value(e, SpvOpCompositeConstruct, uvec4, values, 4);
   cuvk_spirv_do(e, SpvOpFunctionCall, cuvk_spirv_type_void(e), new_id(e), fn, handle, coords, texel);
   return e->failed ? -1 : 1;
}

static int
lower_surface(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in)
{
   bool store = in->op == PTX_OP_SUST;
   enum cuvk_kernel_tex_dim dim;
   unsigned ncoords;
   if (cuvk_spirv_has_mod(in, PTX_MOD_SU_P))
      return lower_formatted_store(e, in);
   if (!cuvk_spirv_has_mod(in, PTX_MOD_SU_B))
      return fail(e, in, "this form") ? 1 : -1;
   if (!geometry(e, in, false, &dim, &ncoords))
      return -1;
   /* PTX passes .3d and .a2d coordinates as a .v4, .a1d as a .v2; the
    * layered ones start with the layer. */
   bool arrayed = dim_arrayed(dim);
   unsigned given_coords = dim == CUVK_KERNEL_DIM_3D || dim == CUVK_KERNEL_DIM_2D_ARRAY ? 4
                           : dim == CUVK_KERNEL_DIM_1D_ARRAY                            ? 2
                                                                                        : ncoords;
   unsigned first = arrayed ? 2 : 1;
   enum oob_mode mode = cuvk_spirv_has_mod(in, PTX_MOD_CLAMP) ? OOB_CLAMP
                        : cuvk_spirv_has_mod(in, PTX_MOD_ZERO) ? OOB_ZERO
                                                               : OOB_TRAP;
   enum ptx_modifier type = cuvk_spirv_type_mod(in, 0);
   unsigned tbits = type < PTX_MOD_COUNT ? ptx_modifier_table[type].bits : 0;
   unsigned vec = cuvk_spirv_has_mod(in, PTX_MOD_V4) ? 4 : cuvk_spirv_has_mod(in, PTX_MOD_V2) ? 2 : 1;
   unsigned bytes = vec * tbits / 8;
   if ((tbits != 8 && tbits != 16 && tbits != 32 && tbits != 64) || bytes > 16)
      return cuvk_spirv_fail(e, CUVK_CC_INVALID, in, "%s.b: a %u-byte access", ptx_opcode_table[in->op].name,
                             bytes) ? 1 : -1;
   unsigned values = store ? in->src_count - 1 - given_coords : in->dst_count;
   if (in->src_count < 1 + given_coords || in->src[0].kind != CUVK_IR_VAL_ADDR || !in->src[0].has_reg ||
       values != vec)
      return cuvk_spirv_fail(e, CUVK_CC_INVALID, in, "%s: expected [handle, {coordinates}] and %u values",
                             ptx_opcode_table[in->op].name, vec) ? 1 : -1;
   unsigned size_log2 = (unsigned)__builtin_ctz(bytes);
   /* The helper takes the layer as one more coordinate (Vulkan's order:
    * x, y, layer), bounded by the layer count as the others are. */
   uint32_t fn = surface_fn(e, in, store, CUVK_KERNEL_SURF_BINDING(dim, size_log2), dim, ncoords + arrayed,
                            size_log2, mode, handle_uniform(e, &in->src[0]));
   if (!fn)
      return -1;

   uint32_t u32 = cuvk_spirv_type_uint(e, 32), u64 = cuvk_spirv_type_uint(e, 64);
   uint32_t uvec4 = cuvk_spirv_type_vector(e, u32, 4);
   struct cuvk_ir_value hv = {.kind = CUVK_IR_VAL_REG, .reg = in->src[0].reg};
   uint32_t handle = cuvk_spirv_read(e, &hv, CUVK_SPIRV_UINT, 64);
   uint32_t zero = cuvk_spirv_const_u32(e, 0);
   uint32_t parts[4] = {zero, zero, zero, zero};
   for (unsigned i = 0; i < ncoords; i++)
      parts[i] = cuvk_spirv_read(e, &in->src[first + i], CUVK_SPIRV_UINT, 32);
   if (arrayed)
      parts[ncoords] = cuvk_spirv_read(e, &in->src[1], CUVK_SPIRV_UINT, 32);
   /* The x coordinate of .b accesses is in bytes. */
   if (size_log2)
      parts[0] = cuvk_spirv_val(e, SpvOpShiftRightArithmetic, u32, parts[0], cuvk_spirv_const_u32(e, size_log2));
   uint32_t coords = cuvk_spirv_emit_value(e, SpvOpCompositeConstruct, uvec4, parts, 4);

   if (!store) {
      uint32_t raw = cuvk_spirv_val(e, SpvOpFunctionCall, uvec4, fn, handle, coords);
      for (unsigned i = 0; i < vec; i++) {
         uint32_t v;
         if (tbits == 64) {
            uint32_t lo = cuvk_spirv_val(e, SpvOpCompositeExtract, u32, raw, 2 * i);
            uint32_t hi = cuvk_spirv_val(e, SpvOpCompositeExtract, u32, raw, 2 * i + 1);
            v = cuvk_spirv_val(e, SpvOpBitwiseOr, u64, cuvk_spirv_val(e, SpvOpUConvert, u64, lo),
                               cuvk_spirv_val(e, SpvOpShiftLeftLogical, u64, cuvk_spirv_val(e, SpvOpUConvert, u64, hi),
                                              cuvk_spirv_const_u64(e, 32)));
         } else {
            unsigned bit = i * tbits;
            v = cuvk_spirv_val(e, SpvOpCompositeExtract, u32, raw, bit / 32);
            if (bit % 32)
               v = cuvk_spirv_val(e, SpvOpShiftRightLogical, u32, v, cuvk_spirv_const_u32(e, bit % 32));
            if (tbits < 32)
               v = cuvk_spirv_val(e, SpvOpUConvert, cuvk_spirv_type_uint(e, tbits), v);
         }
         cuvk_spirv_write(e, &in->dst[i], v, CUVK_SPIRV_UINT, tbits);
      }
      return e->failed ? -1 : 1;
   }

   uint32_t words[4] = {zero, zero, zero, zero};
   for (unsigned i = 0; i < vec; i++) {
      const struct cuvk_ir_value *sv = &in->src[1 + given_coords + i];
      if (tbits == 64) {
         uint32_t v = cuvk_spirv_read(e, sv, CUVK_SPIRV_UINT, 64);
         words[2 * i] = cuvk_spirv_val(e, SpvOpUConvert, u32, v);
         words[2 * i + 1] = cuvk_spirv_val(e, SpvOpUConvert, u32,
                                           cuvk_spirv_val(e, SpvOpShiftRightLogical, u64, v, cuvk_spirv_const_u64(e, 32)));
         continue;
      }
      uint32_t v = cuvk_spirv_read(e, sv, CUVK_SPIRV_UINT, tbits);
      if (tbits < 32)
         v = cuvk_spirv_val(e, SpvOpUConvert, u32, v);
      unsigned bit = i * tbits;
      if (bit % 32)
         v = cuvk_spirv_val(e, SpvOpShiftLeftLogical, u32, v, cuvk_spirv_const_u32(e, bit % 32));
      words[bit / 32] = words[bit / 32] == zero ? v : cuvk_spirv_val(e, SpvOpBitwiseOr, u32, words[bit / 32], v);
   }
   uint32_t texel = cuvk_spirv_emit_value(e, SpvOpCompositeConstruct, uvec4, words, 4);
   cuvk_spirv_do(e, SpvOpFunctionCall, cuvk_spirv_type_void(e), new_id(e), fn, handle, coords, texel);
   return e->failed ? -1 : 1;
}

/* ---- txq, suq ---- */

/* u32 query(u64 handle, u32 offset): a field of the handle's record. */
static uint32_t
query_fn(struct cuvk_spirv_emitter *e, bool surface)
{
   uint32_t id = cuvk_spirv_cache_get(e, CUVK_SPIRV_KEY_HELPER, HELPER_QUERY + surface, 0, 0);
   if (id)
      return id;
   uint32_t u32 = cuvk_spirv_type_uint(e, 32), u64 = cuvk_spirv_type_uint(e, 64);
   uint32_t params[2] = {u64, u32}, p[2];
   struct cuvk_spirv_helper h;
   id = cuvk_spirv_helper_begin(e, &h, u32, params, 2, p);
   cuvk_spirv_cache_put(e, CUVK_SPIRV_KEY_HELPER, HELPER_QUERY + surface, 0, 0, id);
   label(e, new_id(e));
   uint32_t index, valid;
   handle_slot(e, p[0], surface, &index, &valid);
   fault_unless(e, valid, CUVK_KERNEL_FAULT_ADDRESS);
   uint32_t base = cuvk_spirv_push_load(e, surface ? CUVK_SPIRV_PUSH_SURF_RECORDS : CUVK_SPIRV_PUSH_TEX_RECORDS);
   uint32_t at = cuvk_spirv_val(e, SpvOpIAdd, u64, base,
                                cuvk_spirv_val(e, SpvOpIMul, u64, cuvk_spirv_val(e, SpvOpUConvert, u64, index),
                                               cuvk_spirv_const_u64(e, RECORD_SIZE)));
   at = cuvk_spirv_val(e, SpvOpIAdd, u64, at, cuvk_spirv_val(e, SpvOpUConvert, u64, p[1]));
   /* Only a valid handle's record is read: without objects the
    * records' address is 0. */
   uint32_t l_read = new_id(e), l_zero = new_id(e);
   cuvk_spirv_do(e, SpvOpSelectionMerge, l_zero, SpvSelectionControlMaskNone);
   cuvk_spirv_do(e, SpvOpBranchConditional, valid, l_read, l_zero);
   label(e, l_read);
   cuvk_spirv_do(e, SpvOpReturnValue, cuvk_spirv_device_load(e, at, u32, 4));
   label(e, l_zero);
   cuvk_spirv_do(e, SpvOpReturnValue, cuvk_spirv_const_u32(e, 0));
   cuvk_spirv_helper_end(e, &h, surface ? "cuvk_suq" : "cuvk_txq");
   return id;
}

static int
lower_query(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in)
{
   bool surface = in->op == PTX_OP_SUQ;
   enum ptx_modifier q = cuvk_spirv_mod_of_class(in, PTX_MODC_QUERY);
   unsigned offset;
   switch (q) {
   case PTX_MOD_Q_WIDTH:
      offset = RECORD_WIDTH;
      break;
   case PTX_MOD_Q_HEIGHT:
      offset = RECORD_HEIGHT;
      break;
   case PTX_MOD_Q_DEPTH:
      offset = RECORD_DEPTH;
      break;
   case PTX_MOD_Q_NUM_MIPMAP_LEVELS:
      if (!surface) {
         offset = RECORD_LEVELS;
         break;
      }
      /* fallthrough */
   default:
      return fail(e, in, q < PTX_MOD_COUNT ? ptx_modifier_table[q].name : "this query") ? 1 : -1;
   }
   if (cuvk_spirv_has_mod(in, PTX_MOD_LEVEL))
      return fail(e, in, "txq.level") ? 1 : -1;
   if (in->dst_count != 1 || in->src_count != 1 || in->src[0].kind != CUVK_IR_VAL_ADDR || !in->src[0].has_reg)
      return cuvk_spirv_fail(e, CUVK_CC_INVALID, in, "%s: expected d, [handle]", ptx_opcode_table[in->op].name)
                ? 1 : -1;
   /* A level's extent is not kept: width and height are those of the
    * level the object was made on (level 0 of a mipmapped array). */
   struct cuvk_ir_value hv = {.kind = CUVK_IR_VAL_REG, .reg = in->src[0].reg};
   uint32_t handle = cuvk_spirv_read(e, &hv, CUVK_SPIRV_UINT, 64);
   uint32_t v = cuvk_spirv_val(e, SpvOpFunctionCall, cuvk_spirv_type_uint(e, 32), query_fn(e, surface), handle,
                               cuvk_spirv_const_u32(e, offset));
   cuvk_spirv_write(e, &in->dst[0], v, CUVK_SPIRV_UINT, 32);
   return e->failed ? -1 : 1;
}

int
cuvk_spirv_lower_texture(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in)
{
   if (in->op == PTX_OP_TEX || in->op == PTX_OP_TLD4 || in->op == PTX_OP_SULD || in->op == PTX_OP_SUST || in->op == PTX_OP_TXQ ||
       in->op == PTX_OP_SUQ)
      e->uses_textures = true;
   switch (in->op) {
   case PTX_OP_TEX:
   case PTX_OP_TLD4:
      return lower_tex(e, in);
   case PTX_OP_SULD:
   case PTX_OP_SUST:
      return lower_surface(e, in);
   case PTX_OP_TXQ:
   case PTX_OP_SUQ:
      return lower_query(e, in);
   default:
      return 0;
   }
}

/* ---- conversions: a view of the image's own format (kernel_abi.h) ---- */

/* Four copies of a runtime value, as a vector of vtype. */
static uint32_t
splat(struct cuvk_spirv_emitter *e, uint32_t vtype, uint32_t v)
{
   return cuvk_spirv_emit_value(e, SpvOpCompositeConstruct, vtype, (const uint32_t[]){v, v, v, v}, 4);
}

/* Which of the four results are red, green or blue (sRGB converts those,
 * never alpha): the positions of a sample, or all four texels of a tld4
 * of one of those components. */
static uint32_t
srgb_lanes(struct cuvk_spirv_emitter *e, int gather)
{
   uint32_t t = cuvk_spirv_const_bool(e, true), f = cuvk_spirv_const_bool(e, false);
   uint32_t c[4];
   for (unsigned i = 0; i < 4; i++)
      c[i] = gather >= 0 ? (gather < 3 ? t : f) : (i < 3 ? t : f);
   return cuvk_spirv_emit_value(e, SpvOpCompositeConstruct, cuvk_spirv_type_vector(e, cuvk_spirv_type_bool(e), 4),
                                c, 4);
}

/* The channel bits (u32 vector) behind a float sample of a view whose
 * channels read as `from` (enum cuvk_kernel_channel_kind, u32):
 * normalised values times the channel's maximum, rounded (sRGB ones
 * encoded back first), halves packed, floats as their bits.  Exact: a
 * normalised value is k / max, an sRGB one within a fraction of a step
 * of its code.  Signed normalised reads cannot tell -128 from -127 (both
 * read -1.0): -128 comes back as -127. */
static uint32_t
raw_from_float(struct cuvk_spirv_emitter *e, uint32_t f, uint32_t from, uint32_t is_single, uint32_t mask, int gather)
{
   uint32_t u32 = cuvk_spirv_type_uint(e, 32), f32 = cuvk_spirv_type_float(e, 32);
   uint32_t vec4 = cuvk_spirv_type_vector(e, f32, 4), uvec4 = cuvk_spirv_type_vector(e, u32, 4);
   uint32_t ivec4 = cuvk_spirv_type_vector(e, type_sint32(e), 4), vec2 = cuvk_spirv_type_vector(e, f32, 2);
   uint32_t t_bool = cuvk_spirv_type_bool(e), bvec4 = cuvk_spirv_type_vector(e, t_bool, 4);
   uint32_t maxf = splat(e, vec4, cuvk_spirv_val(e, SpvOpConvertUToF, f32, mask));
   uint32_t smaxf = splat(e, vec4, cuvk_spirv_val(e, SpvOpConvertUToF, f32,
                                                  cuvk_spirv_val(e, SpvOpShiftRightLogical, u32, mask,
                                                                 cuvk_spirv_const_u32(e, 1))));
   /* Linear to sRGB: v * 12.92 up to 0.0031308, else 1.055 v^(1/2.4) - 0.055. */
   uint32_t low = cuvk_spirv_val(e, SpvOpFMul, vec4, f, vec4_const(e, 0x414eb852u));           /* 12.92 */
   uint32_t high = cuvk_spirv_glsl(e, GLSLstd450Fma, vec4,
                                   cuvk_spirv_glsl(e, GLSLstd450Pow, vec4,
                                                   cuvk_spirv_glsl(e, GLSLstd450FMax, vec4, f, vec4_const(e, 0)),
                                                   vec4_const(e, 0x3ed55555u)),                    /* 1 / 2.4 */
                                   vec4_const(e, 0x3f870a3du),                                     /* 1.055 */
                                   vec4_const(e, 0xbd6147aeu));                                    /* -0.055 */
   uint32_t enc = cuvk_spirv_val(e, SpvOpSelect, vec4,
                                 cuvk_spirv_val(e, SpvOpFOrdLessThanEqual, bvec4, f, vec4_const(e, 0x3b4d2e1cu)),
                                 low, high);
   uint32_t srgb = splat(e, bvec4, u32_eq(e, from, CUVK_KERNEL_CHANNEL_SRGB));
   uint32_t norm = cuvk_spirv_val(e, SpvOpSelect, vec4,
                                  cuvk_spirv_val(e, SpvOpLogicalAnd, bvec4, srgb_lanes(e, gather), srgb), enc, f);
   uint32_t unorm = cuvk_spirv_val(e, SpvOpConvertFToU, uvec4,
                                   cuvk_spirv_glsl(e, GLSLstd450RoundEven, vec4,
                                                   cuvk_spirv_val(e, SpvOpFMul, vec4, norm, maxf)));
   uint32_t snorm = cuvk_spirv_val(
      e, SpvOpBitwiseAnd, uvec4,
      cuvk_spirv_val(e, SpvOpBitcast, uvec4,
                     cuvk_spirv_val(e, SpvOpConvertFToS, ivec4,
                                    cuvk_spirv_glsl(e, GLSLstd450RoundEven, vec4,
                                                    cuvk_spirv_val(e, SpvOpFMul, vec4, f, smaxf)))),
      splat(e, uvec4, mask));
   uint32_t halves[4];
   for (unsigned i = 0; i < 4; i++) {
      uint32_t c = cuvk_spirv_val(e, SpvOpCompositeExtract, f32, f, i);
      uint32_t pair = cuvk_spirv_emit_value(e, SpvOpCompositeConstruct, vec2,
                                            (const uint32_t[]){c, cuvk_spirv_const_bits(e, CUVK_SPIRV_FLOAT, 32, 0)},
                                            2);
      halves[i] = cuvk_spirv_glsl(e, GLSLstd450PackHalf2x16, u32, pair);
   }
   uint32_t floats = cuvk_spirv_val(e, SpvOpSelect, uvec4, splat(e, bvec4, is_single),
                                    cuvk_spirv_val(e, SpvOpBitcast, uvec4, f),
                                    cuvk_spirv_emit_value(e, SpvOpCompositeConstruct, uvec4, halves, 4));
   uint32_t v = cuvk_spirv_val(e, SpvOpSelect, uvec4, splat(e, bvec4, u32_eq(e, from, CUVK_KERNEL_CHANNEL_SNORM)),
                               snorm, unorm);
   return cuvk_spirv_val(e, SpvOpSelect, uvec4, splat(e, bvec4, u32_eq(e, from, CUVK_KERNEL_CHANNEL_SFLOAT)),
                         floats, v);
}

/* What the texture reads (u32 vector of the result's bits: integers, or
 * floats' bits) from channel bits raw, as `to` reads them: unsigned
 * integers as they are, signed ones sign-extended from the channel's
 * width, normalised ones over the maximum (signed: not under -1), sRGB
 * ones decoded as Vulkan's _SRGB formats are, halves unpacked. */
static uint32_t
raw_to_result(struct cuvk_spirv_emitter *e, uint32_t raw, uint32_t to, uint32_t bits, uint32_t is_single,
              uint32_t mask, int gather)
{
   uint32_t u32 = cuvk_spirv_type_uint(e, 32), f32 = cuvk_spirv_type_float(e, 32);
   uint32_t vec4 = cuvk_spirv_type_vector(e, f32, 4), uvec4 = cuvk_spirv_type_vector(e, u32, 4);
   uint32_t ivec4 = cuvk_spirv_type_vector(e, type_sint32(e), 4), vec2 = cuvk_spirv_type_vector(e, f32, 2);
   uint32_t t_bool = cuvk_spirv_type_bool(e), bvec4 = cuvk_spirv_type_vector(e, t_bool, 4);
   uint32_t shift = splat(e, uvec4, cuvk_spirv_val(e, SpvOpISub, u32, cuvk_spirv_const_u32(e, 32), bits));
   uint32_t sext = cuvk_spirv_val(e, SpvOpShiftRightArithmetic, ivec4,
                                  cuvk_spirv_val(e, SpvOpBitcast, ivec4,
                                                 cuvk_spirv_val(e, SpvOpShiftLeftLogical, uvec4, raw, shift)),
                                  shift);
   uint32_t maxf = splat(e, vec4, cuvk_spirv_val(e, SpvOpConvertUToF, f32, mask));
   uint32_t smaxf = splat(e, vec4, cuvk_spirv_val(e, SpvOpConvertUToF, f32,
                                                  cuvk_spirv_val(e, SpvOpShiftRightLogical, u32, mask,
                                                                 cuvk_spirv_const_u32(e, 1))));
   uint32_t unorm = cuvk_spirv_val(e, SpvOpFDiv, vec4, cuvk_spirv_val(e, SpvOpConvertUToF, vec4, raw), maxf);
   uint32_t snorm = cuvk_spirv_glsl(e, GLSLstd450FMax, vec4,
                                    cuvk_spirv_val(e, SpvOpFDiv, vec4, cuvk_spirv_val(e, SpvOpConvertSToF, vec4, sext),
                                                   smaxf),
                                    vec4_const(e, 0xbf800000u));                                  /* -1 */
   /* sRGB to linear, as the memory path does (sample_memory). */
   uint32_t lin = srgb_to_linear(e, unorm);
   uint32_t srgb = cuvk_spirv_val(e, SpvOpSelect, vec4, srgb_lanes(e, gather), lin, unorm);
   uint32_t halves[4];
   for (unsigned i = 0; i < 4; i++)
      halves[i] = cuvk_spirv_val(e, SpvOpCompositeExtract, f32,
                                 cuvk_spirv_glsl(e, GLSLstd450UnpackHalf2x16, vec2,
                                                 cuvk_spirv_val(e, SpvOpCompositeExtract, u32, raw, i)),
                                 0);
   uint32_t floats = cuvk_spirv_val(e, SpvOpSelect, uvec4, splat(e, bvec4, is_single), raw,
                                    cuvk_spirv_val(e, SpvOpBitcast, uvec4,
                                                   cuvk_spirv_emit_value(e, SpvOpCompositeConstruct, vec4, halves, 4)));
   static const enum cuvk_kernel_channel_kind kinds[5] = {
      CUVK_KERNEL_CHANNEL_SINT, CUVK_KERNEL_CHANNEL_UNORM, CUVK_KERNEL_CHANNEL_SNORM, CUVK_KERNEL_CHANNEL_SRGB,
      CUVK_KERNEL_CHANNEL_SFLOAT,
   };
   uint32_t vals[5] = {cuvk_spirv_val(e, SpvOpBitcast, uvec4, sext), cuvk_spirv_val(e, SpvOpBitcast, uvec4, unorm),
                       cuvk_spirv_val(e, SpvOpBitcast, uvec4, snorm), cuvk_spirv_val(e, SpvOpBitcast, uvec4, srgb),
                       floats};
   uint32_t v = raw;   /* CUVK_KERNEL_CHANNEL_UINT */
   for (unsigned i = 0; i < 5; i++)
      v = cuvk_spirv_val(e, SpvOpSelect, uvec4, splat(e, bvec4, u32_eq(e, to, kinds[i])), vals[i], v);
   return v;
}

/* Whether binding may be declared now: it is already, or one more
 * sampled binding fits the stage (binding_get's rule). */
static bool
binding_room(struct cuvk_spirv_emitter *e, uint32_t binding)
{
   if (e->tex_bindings >> binding & 1)
      return true;
   unsigned used = 0;
   for (uint32_t b = 0; b < CUVK_KERNEL_SURF_BINDING_BASE; b++)
      used += (unsigned)(e->tex_bindings >> b & 1);
   return (uint64_t)(used + 1) * e->target->tex_slots <= e->target->max_sampled_descriptors;
}

/*
 * The conversion path of one sample helper: ret f(u64 handle, vec4
 * coords, lod or gradients), called with a valid texture handle whose
 * CONVERT flag is set.  It reads the slot's record flags, samples the
 * binding of the view's type (float, uint or sint) with the helper of the
 * same form but no conversion path, takes the channel bits back and
 * reads them as the texture reads.  A view type whose binding does not
 * fit the stage next to the kernel's own (lavapipe's 32 samplers hold
 * two) stores CUVK_KERNEL_FAULT_UNSUPPORTED: the launch fails rather than
 * returning the stand-in's texels.
 */
static bool
convert_fn_emit(struct cuvk_spirv_emitter *e, const struct cuvk_spirv_tex_convert *r)
{
   enum cuvk_kernel_tex_dim dim = (enum cuvk_kernel_tex_dim)r->dim;
   uint32_t u32 = cuvk_spirv_type_uint(e, 32), u64 = cuvk_spirv_type_uint(e, 64);
   uint32_t f32 = cuvk_spirv_type_float(e, 32), t_bool = cuvk_spirv_type_bool(e);
   uint32_t vec4 = cuvk_spirv_type_vector(e, f32, 4), uvec4 = cuvk_spirv_type_vector(e, u32, 4);
   uint32_t ret = r->type == CUVK_KERNEL_TEX_FLOAT ? vec4 : uvec4;
   uint32_t grads_type = cuvk_spirv_type_array(e, vec4, cuvk_spirv_const_u32(e, 2));
   uint32_t params[3] = {u64, vec4, r->grad ? grads_type : f32}, p[3];
   struct cuvk_spirv_helper h;
   cuvk_spirv_helper_begin_id(e, &h, r->id, ret, params, 3, p);
   label(e, new_id(e));
   uint32_t raw_var = new_id(e);
   cuvk_spirv_do(e, SpvOpVariable, cuvk_spirv_type_pointer(e, SpvStorageClassFunction, uvec4), raw_var,
                 SpvStorageClassFunction);

   uint32_t index, valid;
   /* The caller checked the handle. */
   handle_slot(e, p[0], false, &index, &valid);
   (void)valid;
   uint32_t flags = record_field(e, record_address(e, false, index), RECORD_FLAGS, u32, 4);
   uint32_t from = cuvk_spirv_val(e, SpvOpBitwiseAnd, u32,
                                  cuvk_spirv_val(e, SpvOpShiftRightLogical, u32, flags,
                                                 cuvk_spirv_const_u32(e, CUVK_KERNEL_TEX_CONVERT_FROM_SHIFT)),
                                  cuvk_spirv_const_u32(e, 7));
   uint32_t to = cuvk_spirv_val(e, SpvOpBitwiseAnd, u32,
                                cuvk_spirv_val(e, SpvOpShiftRightLogical, u32, flags,
                                               cuvk_spirv_const_u32(e, CUVK_KERNEL_TEX_CONVERT_TO_SHIFT)),
                                cuvk_spirv_const_u32(e, 7));
   uint32_t blog = cuvk_spirv_val(e, SpvOpBitwiseAnd, u32,
                                  cuvk_spirv_val(e, SpvOpShiftRightLogical, u32, flags,
                                                 cuvk_spirv_const_u32(e, CUVK_KERNEL_TEX_CONVERT_BITS_SHIFT)),
                                  cuvk_spirv_const_u32(e, 3));
   uint32_t bits = cuvk_spirv_val(e, SpvOpShiftLeftLogical, u32, cuvk_spirv_const_u32(e, 8), blog);
   uint32_t is_single = cuvk_spirv_val(e, SpvOpIEqual, t_bool, blog, cuvk_spirv_const_u32(e, 2));
   /* The channel's mask; a shift by 32 is undefined in SPIR-V. */
   uint32_t mask = cuvk_spirv_val(e, SpvOpSelect, u32, is_single, cuvk_spirv_const_u32(e, UINT32_MAX),
                                  cuvk_spirv_val(e, SpvOpISub, u32,
                                                 cuvk_spirv_val(e, SpvOpShiftLeftLogical, u32,
                                                                cuvk_spirv_const_u32(e, 1), bits),
                                                 cuvk_spirv_const_u32(e, 1)));
   uint32_t is_uint = u32_eq(e, from, CUVK_KERNEL_CHANNEL_UINT), is_sint = u32_eq(e, from, CUVK_KERNEL_CHANNEL_SINT);
   static const enum cuvk_kernel_tex_type views[3] = {CUVK_KERNEL_TEX_FLOAT, CUVK_KERNEL_TEX_UINT,
                                                      CUVK_KERNEL_TEX_SINT};
   for (unsigned k = 0; k < 3; k++) {
      enum cuvk_kernel_tex_type vt = views[k];
      uint32_t cond = vt == CUVK_KERNEL_TEX_UINT   ? is_uint
                      : vt == CUVK_KERNEL_TEX_SINT ? is_sint
                                                   : cuvk_spirv_val(e, SpvOpLogicalNot, t_bool,
                                                                    bool_or(e, is_uint, is_sint));
      struct branch br;
      if_begin(e, &br, cond, false);
      uint32_t binding = CUVK_KERNEL_TEX_BINDING(dim, vt);
      uint32_t raw;
      if (binding_room(e, binding)) {
         uint32_t fn = sample_fn(e, r->in, binding, dim, r->ncoords, vt, r->int_coords, r->grad, r->gather,
                                 r->uniform, true);
         if (!fn)
            return false;
         uint32_t v = cuvk_spirv_val(e, SpvOpFunctionCall, vt == CUVK_KERNEL_TEX_FLOAT ? vec4 : uvec4, fn, p[0],
                                     p[1], p[2]);
         if (vt == CUVK_KERNEL_TEX_FLOAT)
            raw = raw_from_float(e, v, from, is_single, mask, r->gather);
         else if (vt == CUVK_KERNEL_TEX_SINT)
            raw = cuvk_spirv_val(e, SpvOpBitwiseAnd, uvec4, v, splat(e, uvec4, mask));
         else
            raw = v;
      } else {
         cuvk_spirv_store_fault(e, CUVK_KERNEL_FAULT_UNSUPPORTED);
         raw = splat(e, uvec4, cuvk_spirv_const_u32(e, 0));
      }
      cuvk_spirv_do(e, SpvOpStore, raw_var, raw);
      if_end(e, &br);
   }
   uint32_t v = raw_to_result(e, cuvk_spirv_val(e, SpvOpLoad, uvec4, raw_var), to, bits, is_single, mask,
                              r->gather);
   if (ret != uvec4)
      v = cuvk_spirv_val(e, SpvOpBitcast, ret, v);
   cuvk_spirv_do(e, SpvOpReturnValue, v);
   cuvk_spirv_helper_end(e, &h, "cuvk_tex_convert");
   return !e->failed;
}

bool
cuvk_spirv_texture_finish(struct cuvk_spirv_emitter *e)
{
   for (unsigned i = 0; i < e->tex_convert_count; i++)
      if (!convert_fn_emit(e, &e->tex_converts[i]))
         return false;
   return !e->failed;
}
