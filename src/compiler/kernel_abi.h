/*
 * The contract between a translated kernel and the launch code that runs
 * it (src/cuda_api/): what the kernel finds in its push constants and
 * specialization constants, and how it reaches memory.  Both sides
 * include this header; nothing else passes between them.
 *
 * Memory model.  A CUdeviceptr is an address in cuvk's own device address
 * space (src/mem/va_space.h), not a Vulkan buffer device address, and
 * pinned or registered host memory is named by its host address (docs/
 * design.md).  A kernel keeps PTX's pointers as they are (so pointer
 * arithmetic, pointers stored in memory and comparisons all behave as on
 * CUDA) and translates at each access:
 *
 *   - an address inside [va_base, va_base + va_size) finds the device
 *     address through the page table: one 64-bit entry per
 *     CUVK_KERNEL_PAGE_SIZE page, entry = (buffer device address of the
 *     page) - (its cuvk address), so device = addr + entry.  Every
 *     allocation cuvk places in the space is aligned to a page and keeps
 *     one buffer per page, so one entry serves the whole page;
 *   - any other address is looked up in the host ranges: host_range_count
 *     sorted, disjoint {start, end, delta} triples of pinned and
 *     registered memory, device = addr + delta;
 *   - an entry of 0 or an address found nowhere is a fault: the kernel
 *     stores CUVK_KERNEL_FAULT_ADDRESS in the fault word, and performs
 *     the access on the scratch bytes after it instead (so the process
 *     never touches memory it does not own), and the launch code reports
 *     CUDA_ERROR_ILLEGAL_ADDRESS once the work has run.
 *
 * Spans: a fast path for the common case, an address computed from a
 * pointer the kernel received as a parameter.  After the parameter block,
 * at params + CUVK_KERNEL_SPANS_OFFSET(param_bytes), the launch code
 * writes one struct cuvk_kernel_span per 8-byte word of the block (the
 * first CUVK_KERNEL_SPAN_WORDS words, CUVK_KERNEL_SPAN_COUNT of them):
 * for a word whose value lies in memory the page table or a host range
 * reaches, the span around it that one delta translates (a run of pages
 * with the same entry, or the host range less its last 31 bytes); for
 * any other word, size 0.  Every address a with a - base < size (64-bit,
 * unsigned) is reachable at a + delta by an access of up to 32 bytes, as
 * the page table would have said when the launch was recorded.  A kernel
 * may test an address against any span and take the page table when it
 * is outside: spans are never needed, only faster (an address outside
 * every allocation is outside every span).
 *
 * Generic addresses of .shared and .local memory (cvta.shared,
 * cvta.local, generic ld/st) live in windows no device or host pointer can
 * fall in (x86-64 and AArch64 user addresses stay below 2^48), so a
 * generic access tells the three apart by the address alone.
 */
#ifndef CUVK_COMPILER_KERNEL_ABI_H
#define CUVK_COMPILER_KERNEL_ABI_H

#include <stdint.h>

#define CUVK_KERNEL_PAGE_SHIFT 21
#define CUVK_KERNEL_PAGE_SIZE (UINT64_C(1) << CUVK_KERNEL_PAGE_SHIFT)

/* Generic windows of .shared and .local memory: offset + window. */
#define CUVK_KERNEL_SHARED_WINDOW UINT64_C(0xffff800000000000)
#define CUVK_KERNEL_LOCAL_WINDOW UINT64_C(0xffff900000000000)
#define CUVK_KERNEL_WINDOW_SIZE (UINT64_C(1) << 40)

/* Bytes of scratch after the fault word that faulting accesses land in.
 * A faulting access is redirected to fault + 16 + (addr % (SCRATCH_SIZE
 * - 32)): an access of up to 16 bytes keeps the alignment it had (the
 * fault word's address must be 16-byte aligned) and stays inside the
 * 4 + CUVK_KERNEL_SCRATCH_SIZE bytes the launch code allocates. */
#define CUVK_KERNEL_SCRATCH_SIZE 256u

enum cuvk_kernel_fault {
   CUVK_KERNEL_FAULT_NONE = 0,
   CUVK_KERNEL_FAULT_ADDRESS = 1,    /* an access outside every allocation */
   CUVK_KERNEL_FAULT_TRAP = 2,       /* trap, or a failed assertion */
   CUVK_KERNEL_FAULT_UNSUPPORTED = 3, /* a texture access the translation
                                       * cannot serve (kernel_abi.h's
                                       * texture records) */
   CUVK_KERNEL_FAULT_LOOP_LIMIT = 4,  /* the kernel's loops ran into the
                                       * driver's limit on iterations
                                       * (cuvk_cc_target.loop_limit:
                                       * lavapipe), which ended them early;
                                       * the launch fails with
                                       * CUDA_ERROR_LAUNCH_FAILED */
};

/* Specialization constants: SpecId 0, 1, 2 are the block shape (x, y, z)
 * behind WorkgroupSize; 3 is the bytes of dynamic shared memory; 4 (a
 * bool, true unless given) says whether the context may hold textures
 * over linear or pitched memory.  Where it is false the driver drops the
 * code that reads them from every sample: lavapipe runs both sides of a
 * branch whatever the lanes take, and that code made every sample of an
 * array about 70 times slower there. */
#define CUVK_KERNEL_SPEC_BLOCK_X 0
#define CUVK_KERNEL_SPEC_BLOCK_Y 1
#define CUVK_KERNEL_SPEC_BLOCK_Z 2
#define CUVK_KERNEL_SPEC_DYNAMIC_SHARED 3
#define CUVK_KERNEL_SPEC_TEX_MEMORY 4
/* 5 (a bool, true unless given): whether the context may hold a texture
 * over an image whose float texel coordinates the kernel must scale to
 * normalised ones (neither CUVK_KERNEL_HANDLE_NORMALIZED nor
 * CUVK_KERNEL_HANDLE_TEXEL_SAMPLER).  Where it is false the driver drops
 * the size query and division from every sample: on NVIDIA the query is
 * a texture-unit instruction, nine of them a thread in the vulkanImageCUDA
 * box filter, and selecting past it at run time does not remove it. */
#define CUVK_KERNEL_SPEC_TEX_SCALE 5
/* 6 (a bool, true unless given): whether the context may hold textures
 * whose view is not of the format they read (CUVK_KERNEL_HANDLE_CONVERT
 * below); false drops the conversion path from every sample. */
#define CUVK_KERNEL_SPEC_TEX_CONVERT 6

/* Push constants, std430 layout, in this order (Offset decorations in the
 * module equal offsetof here).  Vulkan guarantees 128 bytes. */
struct cuvk_kernel_push {
   uint64_t params;           /* device address of the parameter block: the
                               * kernel's .param space, laid out at the
                               * offsets cuvk_cc_kernel_info lists */
   uint64_t globals;          /* device address of a uint64_t per module
                               * variable (.global, .const), by index in
                               * the module: its CUdeviceptr */
   uint64_t page_table;       /* device address of the page table */
   uint64_t va_base;          /* cuvk address of page 0 */
   uint64_t va_size;          /* bytes the page table covers */
   uint64_t host_ranges;      /* device address of the host ranges */
   uint64_t fault;            /* device address of the fault word (uint32_t,
                               * then CUVK_KERNEL_SCRATCH_SIZE bytes) */
   uint32_t host_range_count;
   uint32_t grid_base[3];     /* %ctaid of this dispatch's first workgroup
                               * (grids beyond maxComputeWorkGroupCount are
                               * split into several dispatches) */
   uint32_t nctaid[3];        /* the whole grid: %nctaid */
   uint32_t reserved;
   uint64_t printf_buffer;    /* device address of the context's printf
                               * buffer (below); 0 for kernels that do
                               * not print */
   uint64_t tex_records;      /* device address of the context's texture
                               * records (below), one per texture slot;
                               * 0 for kernels without textures */
   uint64_t surf_records;     /* the same for surface slots */
};

struct cuvk_kernel_host_range {
   uint64_t start, end, delta;
};

_Static_assert(sizeof(struct cuvk_kernel_push) == 112, "push constant layout");

/*
 * The printf buffer (device printf, vprintf): a header of
 * CUVK_KERNEL_PRINTF_HEADER bytes, { uint32_t head; uint32_t capacity; },
 * then capacity bytes of records.  A thread that prints reserves a record
 * by adding its size to head (only while head < capacity, so head stays
 * near capacity once it is full) and writes it only when the whole record
 * fits; what does not fit is dropped, as on CUDA.  A record is
 *
 *   uint32_t size;        total bytes, a multiple of 8; stored last with
 *                         release semantics, so 0 means "being written"
 *   uint32_t arg_bytes;   bytes of arguments that follow
 *   uint64_t format;      CUdeviceptr of the format string
 *   uint8_t  args[];      nvcc's argument buffer as vprintf got it
 *
 * The host (src/cuda_api/printf.c) prints complete records in order at
 * synchronisations and resets head to 0 when no printing kernel can run.
 */
#define CUVK_KERNEL_PRINTF_HEADER 16u
#define CUVK_KERNEL_PRINTF_RECORD 16u

struct cuvk_kernel_span {
   uint64_t base, size, delta;
};

#define CUVK_KERNEL_SPAN_WORDS 32u
#define CUVK_KERNEL_SPANS_OFFSET(param_bytes) (((uint64_t)(param_bytes) + 15) / 16 * 16)
#define CUVK_KERNEL_SPAN_COUNT(param_bytes)                                        \
   ((param_bytes) / 8 < CUVK_KERNEL_SPAN_WORDS ? (uint32_t)(param_bytes) / 8        \
                                               : CUVK_KERNEL_SPAN_WORDS)
/* The bytes a span must leave at its end for the widest access (v4.b64,
 * v8.b32) to stay inside a host range. */
#define CUVK_KERNEL_SPAN_ACCESS 32u

/*
 * Texture and surface objects (docs/textures.md).
 *
 * A CUtexObject or CUsurfObject is a 64-bit value naming a slot of its
 * context's texture table or surface table (two tables, two slot
 * spaces):
 *
 *   bits  0..15  slot + 1
 *   bits 16..43  the slot's generation when the object was made
 *   bit  44      CUVK_KERNEL_HANDLE_CONVERT: the texture's view is of the
 *                image's own format, not of the one it reads; the
 *                kernel converts each sample (the record's flags say how)
 *   bit  45      CUVK_KERNEL_HANDLE_TEXEL_SAMPLER: the texture's sampler
 *                takes texel coordinates (unnormalizedCoordinates)
 *   bit  46      CUVK_KERNEL_HANDLE_MEMORY: a texture over linear or
 *                pitched memory (no descriptor; the kernel reads memory)
 *   bit  47      CUVK_KERNEL_HANDLE_NORMALIZED: a texture sampled with
 *                normalised coordinates
 *   bits 48..63  CUVK_KERNEL_HANDLE_TEX or CUVK_KERNEL_HANDLE_SURF
 *
 * so the value alone (a parameter, or loaded from memory) finds the
 * descriptor, and a sample of an array needs no load before it: the
 * flag bits are all it would otherwise read from the slot's record, and
 * on NVIDIA that dependent load before each sample cost the box filter
 * of nvcc_programs.vulkan_image a third of its time (docs/textures.md).
 * Surfaces have neither flag.  A kernel takes the slot from the low bits; a value whose
 * tag is not its kind's, or whose slot is not below the table's slot
 * count (cuvk_cc_target.tex_slots / surf_slots), is a fault: the kernel
 * stores CUVK_KERNEL_FAULT_ADDRESS, reads zeros and writes nothing.  A
 * stale handle (its slot freed, maybe reused) is not told apart in the
 * kernel: the host calls are where generations are checked.
 *
 * Descriptor set CUVK_KERNEL_TEX_SET of a kernel that uses textures or
 * surfaces holds only the bindings its instructions need, each an array
 * of tex_slots (surf_slots) descriptors indexed by slot:
 *
 *   - binding CUVK_KERNEL_TEX_BINDING(dim, type): combined image samplers
 *     of that view dimension whose sampled type is float, sint or uint
 *     (the slot's view format decides which; a texture is written into
 *     the one binding of each dimension its type selects, the others
 *     hold the dummy there);
 *   - binding CUVK_KERNEL_SURF_BINDING(dim, size): storage images viewed
 *     as the unsigned format of 1 << size bytes per texel (R8, R16, R32,
 *     RG32, RGBA32 _UINT), which suld.b/sust.b read and write as raw
 *     bits (declared formats: storage reads without a format are not
 *     everywhere, lavapipe lacks them).
 *
 * Every element of a bound set is written: slots without an object of
 * that binding's kind hold a 1x1 dummy image.  Without the device's
 * non-uniform indexing features (cuvk_cc_target.tex_nonuniform,
 * surf_nonuniform), the index is made subgroup-uniform by a loop: the
 * lanes whose handle equals the first active lane's
 * (subgroupBroadcastFirst) do the access, the others repeat.  With them
 * each lane indexes with its own slot, decorated NonUniform.
 *
 * Texture records: per slot, what a kernel needs that is not in a
 * descriptor: the resource kind (linear and pitched memory have no
 * image: tex1Dfetch reads them through the page table), its format and
 * extent, and the sampling state txq reports.  A sampling instruction on a
 * slot whose kind is not CUVK_KERNEL_RES_IMAGE, where the translation has
 * no path for that kind and instruction (tex.1d with .s32 coordinates
 * reads LINEAR, tex.2d reads PITCH2D), stores
 * CUVK_KERNEL_FAULT_UNSUPPORTED and reads zeros, so the launch fails
 * instead of returning wrong texels.
 */
#define CUVK_KERNEL_TEX_SET 0u

#define CUVK_KERNEL_HANDLE_TEX UINT64_C(0x7e70)
#define CUVK_KERNEL_HANDLE_SURF UINT64_C(0x5e70)
#define CUVK_KERNEL_HANDLE_TAG_SHIFT 48
#define CUVK_KERNEL_HANDLE_GEN_SHIFT 16
#define CUVK_KERNEL_HANDLE_GEN_MASK UINT64_C(0xfffffff)
#define CUVK_KERNEL_HANDLE_CONVERT (UINT64_C(1) << 44)
#define CUVK_KERNEL_HANDLE_TEXEL_SAMPLER (UINT64_C(1) << 45)
#define CUVK_KERNEL_HANDLE_MEMORY (UINT64_C(1) << 46)
#define CUVK_KERNEL_HANDLE_NORMALIZED (UINT64_C(1) << 47)
#define CUVK_KERNEL_HANDLE_SLOT_MASK UINT64_C(0xffff)

enum cuvk_kernel_tex_dim {
   CUVK_KERNEL_DIM_1D,
   CUVK_KERNEL_DIM_2D,
   CUVK_KERNEL_DIM_3D,
   CUVK_KERNEL_DIM_CUBE,
   CUVK_KERNEL_DIM_1D_ARRAY,
   CUVK_KERNEL_DIM_2D_ARRAY,
   CUVK_KERNEL_DIM_CUBE_ARRAY,
   CUVK_KERNEL_DIM_COUNT,
};

enum cuvk_kernel_tex_type {
   CUVK_KERNEL_TEX_FLOAT,    /* float, unorm, snorm, sRGB views */
   CUVK_KERNEL_TEX_SINT,
   CUVK_KERNEL_TEX_UINT,
   CUVK_KERNEL_TEX_TYPE_COUNT,
};

/* log2 of a surface view's bytes per texel: 0..4 */
#define CUVK_KERNEL_SURF_SIZE_COUNT 5u

#define CUVK_KERNEL_TEX_BINDING(dim, type) ((uint32_t)(dim) * CUVK_KERNEL_TEX_TYPE_COUNT + (uint32_t)(type))
#define CUVK_KERNEL_SURF_BINDING_BASE 32u
#define CUVK_KERNEL_SURF_BINDING(dim, size) \
   (CUVK_KERNEL_SURF_BINDING_BASE + (uint32_t)(dim) * CUVK_KERNEL_SURF_SIZE_COUNT + (uint32_t)(size))
/* Surfaces have no cube dimensions (CUDA addresses a cubemap's faces as
 * the layers of a 2D array), so every binding number is below 64 and
 * cuvk_cc_kernel.tex_bindings holds them as bits. */
#define CUVK_KERNEL_BINDING_COUNT 64u
_Static_assert(CUVK_KERNEL_SURF_BINDING(CUVK_KERNEL_DIM_2D_ARRAY, CUVK_KERNEL_SURF_SIZE_COUNT - 1) <
                  CUVK_KERNEL_BINDING_COUNT, "surface bindings fit a 64-bit mask");

enum cuvk_kernel_tex_kind {
   CUVK_KERNEL_RES_NONE = 0,     /* a free slot */
   CUVK_KERNEL_RES_IMAGE = 1,    /* an array or mipmapped array: descriptors */
   CUVK_KERNEL_RES_LINEAR = 2,   /* linear memory: address, width */
   CUVK_KERNEL_RES_PITCH2D = 3,  /* pitched memory: address, width, height, pitch */
};

/* Bits of cuvk_kernel_tex_record.flags: CUDA's flags as the texture
 * description resolves them for the record's format, so a kernel reading
 * memory need not know which formats each applies to:
 *   READ_AS_INTEGER  tex returns integers: 8/16-bit integers with
 *                    CU_TRSF_READ_AS_INTEGER, and 32-bit integers always
 *                    (never HALF, FLOAT or the UNORM/SNORM formats);
 *   NORMALIZED       CU_TRSF_NORMALIZED_COORDINATES;
 *   SRGB             CU_TRSF_SRGB where it converts: normalised-float
 *                    reads of 8-bit unsigned formats (UNSIGNED_INT8,
 *                    UNORM_INT8X*: red, green and blue, not alpha) and,
 *                    over arrays, BC1/2/3/7 (the view converts those);
 *   TEXEL_SAMPLER    cuvk's: the sampler takes texel coordinates;
 *   CONVERT          cuvk's: the view is of the image's own format (an
 *                    imported image that cannot be viewed as the format
 *                    the texture reads), of the same channels and bits:
 *                    the kernel samples the binding of the view's type,
 *                    takes each channel's bits back from the sampled
 *                    value as the view's kind reads them (CONVERT_FROM),
 *                    and reads those bits as the texture's kind
 *                    (CONVERT_TO), channels CONVERT_BITS wide
 *                    (8 << the field).  Kinds are
 *                    enum cuvk_kernel_channel_kind. */
#define CUVK_KERNEL_TEX_READ_AS_INTEGER 0x01u
#define CUVK_KERNEL_TEX_NORMALIZED 0x02u
#define CUVK_KERNEL_TEX_SRGB 0x10u
#define CUVK_KERNEL_TEX_TEXEL_SAMPLER 0x100u
#define CUVK_KERNEL_TEX_CONVERT 0x200u
#define CUVK_KERNEL_TEX_CONVERT_FROM_SHIFT 12u
#define CUVK_KERNEL_TEX_CONVERT_TO_SHIFT 16u
#define CUVK_KERNEL_TEX_CONVERT_BITS_SHIFT 20u
enum cuvk_kernel_channel_kind {
   CUVK_KERNEL_CHANNEL_UINT,
   CUVK_KERNEL_CHANNEL_SINT,
   CUVK_KERNEL_CHANNEL_UNORM,
   CUVK_KERNEL_CHANNEL_SNORM,
   CUVK_KERNEL_CHANNEL_SRGB,
   CUVK_KERNEL_CHANNEL_SFLOAT,
};

struct cuvk_kernel_tex_record {
   uint32_t kind;             /* enum cuvk_kernel_tex_kind */
   uint32_t format;           /* CUarray_format of the elements */
   uint32_t channels;
   uint32_t flags;            /* CUVK_KERNEL_TEX_* */
   uint32_t width, height, depth; /* elements (level 0); layers in depth
                                   * for layered arrays */
   uint32_t levels;
   uint64_t address;          /* LINEAR, PITCH2D: the cuvk address */
   uint64_t pitch;            /* PITCH2D: bytes from a row to the next */
   uint32_t address_mode[3];  /* CUaddress_mode */
   uint32_t filter_mode;      /* CUfilter_mode */
   float border_color[4];
};

_Static_assert(sizeof(struct cuvk_kernel_tex_record) == 80, "texture record layout");

#endif
