/*
 * The structurizer (ir_structure.h) on hand-built graphs, random graphs
 * and every function of nvcc's kernels, each result checked three ways
 * and its meaning checked by running it:
 *
 *  - cuvk_ir_validate: the IR is still well formed;
 *  - cuvk_ir_structure_check: SPIR-V's structured control-flow rules on
 *    the IR;
 *  - spirv-val --target-env vulkan1.2 on a skeleton module written here:
 *    the blocks in the structure's order, their merge instructions, and
 *    each cbr on a bool loaded from a Function variable, each switch on a
 *    uint, unreachable merges as OpUnreachable;
 *  - an interpreter that walks the graph before and after with the same
 *    decisions (each original cbr and switch decided by a seeded oracle
 *    keyed by block and visit count), running only the selector
 *    instructions the structurizer added, must visit the same original
 *    blocks in the same order, for many seeds per graph.
 *
 * test_structurize graphs|random|nvcc|all SPIRV_VAL|- [KERNEL.ptx...]: what to
 * structurize (hand-built graphs and spoiled structures, random graphs,
 * the kernels given, or everything), and spirv-val's path (- for none).
 */
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "compiler/ir_builder.h"
#include "compiler/ir_structure.h"
#include "compiler_test.h"
#include "ir_snippet.h"
#include "unit_test.h"

#define NONE_BLOCK CUVK_IR_NONE

static const char *spirv_val;
static unsigned graphs_checked, skeletons_validated, runs_compared;

/* --- Building graphs ----------------------------------------------------- */

/* A function of n blocks whose successors are given as "0:1,2 1:3 2:3 3:";
 * blocks without successors return.  Every cbr gets a predicate and every
 * switch an index register of its own, so the interpreter can decide each
 * branch alone. */
static struct cuvk_ir_function *
make_cfg(struct cuvk_ir_module *m, unsigned n, const char *spec)
{
   struct cuvk_ir_function *f = cuvk_ir_function_create(m, "f");
   struct cuvk_ir_block **blocks = calloc(n ? n : 1, sizeof(*blocks));
   struct cuvk_ir_block *succ[16];

   if (!f || !blocks)
      goto fail;
   f->has_body = true;
   for (unsigned i = 0; i < n; i++)
      if (!(blocks[i] = cuvk_ir_block_create(f, NULL)))
         goto fail;
   for (const char *s = spec; *s;) {
      char *end;
      unsigned from = (unsigned)strtoul(s, &end, 10), count = 0;
      s = end;
      if (*s++ != ':' || from >= n)
         goto fail;
      while (*s >= '0' && *s <= '9' && count < 16) {
         unsigned to = (unsigned)strtoul(s, &end, 10);
         s = end;
         if (to >= n)
            goto fail;
         succ[count++] = blocks[to];
         if (*s == ',')
            s++;
      }
      while (*s == ' ')
         s++;
      bool ok = true;
      if (count == 0) {
         cuvk_ir_set_end(blocks[from], CUVK_IR_TERM_RET);
      } else if (count == 1) {
         ok = cuvk_ir_set_br(m, blocks[from], succ[0]);
      } else if (count == 2) {
         uint32_t p = cuvk_ir_reg_create(f, "%p", CUVK_IR_PRED);
         ok = p != CUVK_IR_NO_REG &&
              cuvk_ir_set_cbr(m, blocks[from], cuvk_ir_reg_value(p), succ[0], succ[1]);
      } else {
         uint32_t r = cuvk_ir_reg_create(f, "%r", CUVK_IR_B32);
         ok = r != CUVK_IR_NO_REG &&
              cuvk_ir_set_switch(m, blocks[from], cuvk_ir_reg_value(r), succ, count);
      }
      if (!ok)
         goto fail;
   }
   if (!cuvk_ir_compute_preds(f))
      goto fail;
   free(blocks);
   return f;
fail:
   free(blocks);
   return NULL;
}

/* --- The interpreter ----------------------------------------------------- */

/* What the original graph's branches were, kept before structurizing
 * changes the terminators (a loop header's branch may move to a new
 * block, but it still reads the register its block decided). */
struct original {
   unsigned blocks;
   uint32_t regs;
   enum cuvk_ir_term *term;
   struct cuvk_ir_value *cond;
   unsigned *succ_count;
};

static bool
keep_original(const struct cuvk_ir_function *f, struct original *o)
{
   o->blocks = f->block_count;
   o->regs = f->reg_count;
   o->term = calloc(f->block_count, sizeof(*o->term));
   o->cond = calloc(f->block_count, sizeof(*o->cond));
   o->succ_count = calloc(f->block_count, sizeof(unsigned));
   if (!o->term || !o->cond || !o->succ_count)
      return false;
   for (unsigned i = 0; i < f->block_count; i++) {
      o->term[i] = f->blocks[i]->term;
      o->cond[i] = f->blocks[i]->cond;
      o->succ_count[i] = f->blocks[i]->succ_count;
   }
   return true;
}

static void
drop_original(struct original *o)
{
   free(o->term);
   free(o->cond);
   free(o->succ_count);
}

static uint64_t
oracle(uint64_t seed, unsigned block, unsigned visit)
{
   uint64_t state = seed ^ ((uint64_t)block << 32) ^ (uint64_t)visit * 0x2545f4914f6cdd1dull;
   return unit_rand_r(&state);
}

#define TRACE_LIMIT 300u

/* Walks f from the entry; at each original block its branch register gets
 * the oracle's decision, and only instructions writing registers the
 * structurizer made run.  Returns the count of original blocks visited
 * (stopping at TRACE_LIMIT), or -1 (with a message) when the walk went
 * wrong: an unreachable block, a switch index out of range, or far too
 * many blocks of the structurizer's between two original ones. */
static int
walk(const struct cuvk_ir_function *f, const struct original *o, uint64_t seed,
     unsigned *trace)
{
   uint64_t *regs = calloc(f->reg_count ? f->reg_count : 1, sizeof(uint64_t));
   unsigned *visits = calloc(o->blocks, sizeof(unsigned));
   unsigned len = 0, extra = 0;
   int result = -1;
   const struct cuvk_ir_block *b = f->blocks[0];

   if (!regs || !visits)
      goto out;
   for (;;) {
      if (b->index < o->blocks) {
         unsigned i = b->index;
         trace[len++] = i;
         extra = 0;
         if (len == TRACE_LIMIT)
            break;
         uint64_t d = oracle(seed, i, visits[i]++);
         if (o->term[i] == CUVK_IR_TERM_CBR)
            regs[o->cond[i].reg] = d & 1;
         else if (o->term[i] == CUVK_IR_TERM_SWITCH && o->cond[i].kind == CUVK_IR_VAL_REG)
            regs[o->cond[i].reg] = d % o->succ_count[i];
      } else if (++extra > 4 * f->block_count + 16) {
         fprintf(stderr, "%s: the walk loops in the structurizer's blocks (bb%u)\n", f->name,
                 b->index);
         goto out;
      }
      cuvk_list_for_each_entry(struct cuvk_ir_instr, in, &b->instrs, link) {
         if (in->dst_count != 1 || in->dst[0].kind != CUVK_IR_VAL_REG ||
             in->dst[0].reg < o->regs)
            continue;
         if (in->op == PTX_OP_MOV && in->src[0].kind == CUVK_IR_VAL_IMM) {
            regs[in->dst[0].reg] = in->src[0].imm;
         } else if (in->op == PTX_OP_SETP && in->src[0].kind == CUVK_IR_VAL_REG &&
                    in->src[1].kind == CUVK_IR_VAL_IMM) {
            regs[in->dst[0].reg] = regs[in->src[0].reg] == in->src[1].imm;
         } else {
            fprintf(stderr, "%s: bb%u: an added instruction the test does not know\n", f->name,
                    b->index);
            goto out;
         }
      }
      switch (b->term) {
      case CUVK_IR_TERM_BR:
         b = b->succs[0];
         break;
      case CUVK_IR_TERM_CBR: {
         bool taken = regs[b->cond.reg] != 0;
         b = b->succs[taken != b->cond.negated ? 0 : 1];
         break;
      }
      case CUVK_IR_TERM_SWITCH: {
         uint64_t i = b->cond.kind == CUVK_IR_VAL_IMM ? b->cond.imm : regs[b->cond.reg];
         if (i >= b->succ_count) {
            fprintf(stderr, "%s: bb%u: switch index %llu of %u\n", f->name, b->index,
                    (unsigned long long)i, b->succ_count);
            goto out;
         }
         b = b->succs[i];
         break;
      }
      case CUVK_IR_TERM_UNREACHABLE:
         fprintf(stderr, "%s: the walk reached unreachable bb%u\n", f->name, b->index);
         goto out;
      default:
         result = (int)len;
         goto out;
      }
   }
   result = (int)len;
out:
   free(regs);
   free(visits);
   return result;
}

/* --- The SPIR-V skeleton ------------------------------------------------- */

struct words {
   uint32_t *w;
   size_t count, cap;
   bool failed;
};

static void
put(struct words *w, SpvOp op, unsigned n, const uint32_t *operands)
{
   if (w->count + n + 1 > w->cap) {
      size_t cap = w->cap ? w->cap * 2 : 256;
      while (cap < w->count + n + 1)
         cap *= 2;
      uint32_t *p = realloc(w->w, cap * sizeof(uint32_t));
      if (!p) {
         w->failed = true;
         return;
      }
      w->w = p;
      w->cap = cap;
   }
   w->w[w->count++] = ((n + 1) << 16) | (uint32_t)op;
   if (n)
      memcpy(w->w + w->count, operands, n * sizeof(uint32_t));
   w->count += n;
}

#define PUT(w, op, ...)                                                  \
   put((w), (op), sizeof((uint32_t[]){ __VA_ARGS__ }) / sizeof(uint32_t), \
       (uint32_t[]){ __VA_ARGS__ })


/* The control flow of f as a SPIR-V compute shader: ids 1..9 are types,
 * the function and two Function variables, 10 + b block b's label. */
static bool
skeleton_valid(const char *name, const struct cuvk_ir_function *f,
               const struct cuvk_ir_structure *s)
{
   struct words w = { 0 };
   uint32_t next = 10 + f->block_count;
   enum { VOID = 1, FN_TYPE, BOOL, UINT, PTR_BOOL, PTR_UINT, MAIN, VAR_BOOL, VAR_UINT };

   PUT(&w, SpvOpCapability, SpvCapabilityShader);
   PUT(&w, SpvOpMemoryModel, SpvAddressingModelLogical, SpvMemoryModelGLSL450);
   PUT(&w, SpvOpEntryPoint, SpvExecutionModelGLCompute, MAIN, 0x6e69616d, 0); /* "main" */
   PUT(&w, SpvOpExecutionMode, MAIN, SpvExecutionModeLocalSize, 1, 1, 1);
   PUT(&w, SpvOpTypeVoid, VOID);
   PUT(&w, SpvOpTypeFunction, FN_TYPE, VOID);
   PUT(&w, SpvOpTypeBool, BOOL);
   PUT(&w, SpvOpTypeInt, UINT, 32, 0);
   PUT(&w, SpvOpTypePointer, PTR_BOOL, SpvStorageClassFunction, BOOL);
   PUT(&w, SpvOpTypePointer, PTR_UINT, SpvStorageClassFunction, UINT);
   PUT(&w, SpvOpFunction, VOID, MAIN, SpvFunctionControlMaskNone, FN_TYPE);
   for (unsigned i = 0; i < s->order_count; i++) {
      unsigned b = s->order[i];
      const struct cuvk_ir_block *blk = f->blocks[b];
      PUT(&w, SpvOpLabel, 10 + b);
      if (i == 0) {
         PUT(&w, SpvOpVariable, PTR_BOOL, VAR_BOOL, SpvStorageClassFunction);
         PUT(&w, SpvOpVariable, PTR_UINT, VAR_UINT, SpvStorageClassFunction);
      }
      uint32_t id = 0;
      if (blk->term == CUVK_IR_TERM_CBR && blk->succs[0] != blk->succs[1]) {
         id = next++;
         PUT(&w, SpvOpLoad, BOOL, id, VAR_BOOL);
      } else if (blk->term == CUVK_IR_TERM_SWITCH) {
         id = next++;
         PUT(&w, SpvOpLoad, UINT, id, VAR_UINT);
      }
      if (s->kind[b] == CUVK_IR_CONSTRUCT_SELECTION)
         PUT(&w, SpvOpSelectionMerge, 10 + s->merge[b], SpvSelectionControlMaskNone);
      else if (s->kind[b] == CUVK_IR_CONSTRUCT_LOOP)
         PUT(&w, SpvOpLoopMerge, 10 + s->merge[b], 10 + s->continue_target[b],
             SpvLoopControlMaskNone);
      switch (blk->term) {
      case CUVK_IR_TERM_BR:
         PUT(&w, SpvOpBranch, 10 + blk->succs[0]->index);
         break;
      case CUVK_IR_TERM_CBR:
         if (id)
            PUT(&w, SpvOpBranchConditional, id, 10 + blk->succs[0]->index,
                10 + blk->succs[1]->index);
         else
            PUT(&w, SpvOpBranch, 10 + blk->succs[0]->index);
         break;
      case CUVK_IR_TERM_SWITCH: {
         /* Index i goes to succs[i]; the last target is the default. */
         unsigned n = blk->succ_count;
         uint32_t *ops = calloc(2 + 2 * n, sizeof(uint32_t));
         if (!ops) {
            w.failed = true;
            break;
         }
         ops[0] = id;
         ops[1] = 10 + blk->succs[n - 1]->index;
         for (unsigned k = 0; k + 1 < n; k++) {
            ops[2 + 2 * k] = k;
            ops[3 + 2 * k] = 10 + blk->succs[k]->index;
         }
         put(&w, SpvOpSwitch, 2 + 2 * (n - 1), ops);
         free(ops);
         break;
      }
      case CUVK_IR_TERM_UNREACHABLE:
         put(&w, SpvOpUnreachable, 0, NULL);
         break;
      default:
         put(&w, SpvOpReturn, 0, NULL);
         break;
      }
   }
   put(&w, SpvOpFunctionEnd, 0, NULL);
   if (w.failed) {
      free(w.w);
      return false;
   }
   /* The header, now that the id bound is known. */
   uint32_t *module = malloc((w.count + 5) * sizeof(uint32_t));
   if (!module) {
      free(w.w);
      return false;
   }
   module[0] = SpvMagicNumber;
   module[1] = 0x00010500;
   module[2] = 0;
   module[3] = next;
   module[4] = 0;
   memcpy(module + 5, w.w, w.count * sizeof(uint32_t));
   bool ok = compiler_test_spirv_val(spirv_val, name, module, w.count + 5);
   free(module);
   free(w.w);
   return ok;
}

/* --- One function through everything ------------------------------------- */

struct stats {
   unsigned blocks_before, blocks_after, selectors, loops, selections;
};

/* Structurizes f and checks the result; the module must hold f only (or
 * f with other functions that validate). */
static bool
check_function(const char *name, struct cuvk_ir_function *f, unsigned seeds, bool print,
               struct stats *st)
{
   struct cuvk_cc_error err = { 0 };
   struct original o = { 0 };
   struct cuvk_arena arena;
   struct cuvk_ir_structure s;
   unsigned (*traces)[TRACE_LIMIT] = calloc(seeds ? seeds : 1, sizeof(*traces));
   int *lengths = calloc(seeds ? seeds : 1, sizeof(int));
   unsigned *trace = calloc(TRACE_LIMIT, sizeof(unsigned));
   bool ok = false;

   cuvk_arena_init(&arena);
   if (!traces || !lengths || !trace || !keep_original(f, &o)) {
      UNIT_CHECK(!"out of memory");
      goto out;
   }
   for (unsigned i = 0; i < seeds; i++) {
      lengths[i] = walk(f, &o, 0x1234 + i * 7919ull, traces[i]);
      if (lengths[i] < 0) {
         UNIT_CHECK(!"the original graph cannot be walked");
         goto out;
      }
   }
   uint32_t regs_before = f->reg_count;
   if (!cuvk_ir_structurize(f, &arena, &s, &err)) {
      compiler_test_print_error(name, &err);
      UNIT_CHECK(!"structurize failed");
      goto out;
   }
   if (print || getenv("CUVK_PRINT_STRUCTURE")) {
      char *text = cuvk_ir_print(f->module);
      printf("%s: structured:\n%s   order:", name, text ? text : "(no memory)");
      for (unsigned i = 0; i < s.order_count; i++) {
         unsigned b = s.order[i];
         printf(" bb%u", b);
         if (s.kind[b] == CUVK_IR_CONSTRUCT_SELECTION)
            printf("(sel merge bb%u)", s.merge[b]);
         else if (s.kind[b] == CUVK_IR_CONSTRUCT_LOOP)
            printf("(loop merge bb%u cont bb%u)", s.merge[b], s.continue_target[b]);
      }
      printf("\n");
      free(text);
   }
   if (!cuvk_ir_validate(f->module, &err)) {
      compiler_test_print_error(name, &err);
      UNIT_CHECK(!"the structured IR does not validate");
      goto out;
   }
   if (!cuvk_ir_structure_check(f, &s, &arena, &err)) {
      compiler_test_print_error(name, &err);
      UNIT_CHECK(!"the structure breaks a rule");
      goto out;
   }
   if (spirv_val) {
      bool valid = skeleton_valid(name, f, &s);
      UNIT_CHECK(valid);
      if (!valid)
         goto out;
      skeletons_validated++;
   }
   for (unsigned i = 0; i < seeds; i++) {
      int len = walk(f, &o, 0x1234 + i * 7919ull, trace);
      bool same = len == lengths[i] && !memcmp(trace, traces[i], (size_t)len * sizeof(unsigned));
      if (!same) {
         fprintf(stderr, "%s: seed %u: the structured graph walks differently:\n  before:", name,
                 i);
         for (int k = 0; k < lengths[i] && k < 40; k++)
            fprintf(stderr, " %u", traces[i][k]);
         fprintf(stderr, "\n  after: ");
         for (int k = 0; k < len && k < 40; k++)
            fprintf(stderr, " %u", trace[k]);
         fprintf(stderr, "\n");
         UNIT_CHECK(!"the structured graph means something else");
         goto out;
      }
      runs_compared++;
   }
   if (st) {
      st->blocks_before += o.blocks;
      st->blocks_after += f->block_count;
      for (uint32_t r = regs_before; r < f->reg_count; r++)
         st->selectors += f->regs[r].type == CUVK_IR_B32;
      for (unsigned b = 0; b < s.block_count; b++) {
         st->loops += s.kind[b] == CUVK_IR_CONSTRUCT_LOOP;
         st->selections += s.kind[b] == CUVK_IR_CONSTRUCT_SELECTION;
      }
   }
   /* Structurizing a structured function again must keep it right (a
    * pass after the first may need to): the rules and the walks again. */
   if (!cuvk_ir_structurize(f, &arena, &s, &err) || !cuvk_ir_structure_check(f, &s, &arena, &err)) {
      compiler_test_print_error(name, &err);
      UNIT_CHECK(!"the second structurize failed or broke a rule");
      goto out;
   }
   /* The registers both passes made are named once each. */
   for (uint32_t r = regs_before; r < f->reg_count; r++)
      for (uint32_t q = regs_before; q < r; q++)
         if (!strcmp(f->regs[r].name, f->regs[q].name)) {
            fprintf(stderr, "%s: two registers named %s\n", name, f->regs[r].name);
            UNIT_CHECK(!"register names repeat");
            goto out;
         }
   for (unsigned i = 0; i < seeds; i++) {
      int len = walk(f, &o, 0x1234 + i * 7919ull, trace);
      if (len != lengths[i] || memcmp(trace, traces[i], (size_t)len * sizeof(unsigned))) {
         fprintf(stderr, "%s: seed %u: structurized twice, the graph walks differently\n", name,
                 i);
         UNIT_CHECK(!"the twice structured graph means something else");
         goto out;
      }
   }
   graphs_checked++;
   ok = true;
out:
   if (!ok)
      fprintf(stderr, "%s: failed\n", name);
   drop_original(&o);
   free(traces);
   free(lengths);
   free(trace);
   cuvk_arena_finish(&arena);
   return ok;
}

/* A hand-built graph; expect_selectors is how many selector registers the
 * construction needs (0 for graphs the fast path keeps). */
static void
graph(const char *name, unsigned n, const char *spec, int expect_selectors)
{
   struct cuvk_ir_module *m = cuvk_ir_module_create();
   struct cuvk_ir_function *f = m ? make_cfg(m, n, spec) : NULL;
   struct cuvk_cc_error err = { 0 };
   struct stats st = { 0 };

   if (!f) {
      UNIT_CHECK(!"could not build the graph");
      cuvk_ir_module_destroy(m);
      return;
   }
   if (!cuvk_ir_validate(m, &err)) {
      compiler_test_print_error(name, &err);
      UNIT_CHECK(!"the graph does not validate");
   } else if (check_function(name, f, 200, false, &st)) {
      printf("%-28s %2u blocks -> %2u, %u loops, %u selections, %u selectors\n", name, n,
             st.blocks_after, st.loops, st.selections, st.selectors);
      if (expect_selectors >= 0 && st.selectors != (unsigned)expect_selectors) {
         fprintf(stderr, "%s: %u selectors, expected %d\n", name, st.selectors,
                 expect_selectors);
         UNIT_CHECK(!"unexpected selector count");
      }
   }
   cuvk_ir_module_destroy(m);
}

static void
hand_built_graphs(void)
{
   graph("diamond", 4, "0:1,2 1:3 2:3 3:", 0);
   graph("if without else", 3, "0:1,2 1:2 2:", 0);
   graph("nested ifs, one merge", 4, "0:1,3 1:2,3 2:3 3:", 0);
   graph("both arms return", 3, "0:1,2 1: 2:", 0);
   graph("both arms return, nested", 5, "0:1,4 1:2,3 2: 3: 4:", 0);
   graph("switch, shared targets", 4, "0:1,2,2,3 1:3 2:3 3:", 0);
   graph("switch, case into case", 5, "0:1,2,3 1:2 2:4 3:4 4:", 1);
   graph("switch to return blocks", 4, "0:1,2,3 1: 2: 3:", 0);
   graph("loop, break and continue", 6, "0:1 1:2,5 2:1,3 3:5,4 4:1 5:", 0);
   graph("do-while", 3, "0:1 1:1,2 2:", 0);
   graph("several latches", 5, "0:1 1:2,3 2:1 3:1,4 4:", 0);
   graph("nested loops, outer break", 6, "0:1 1:2 2:3,5 3:2,4 4:1,5 5:", 1);
   graph("nested loops, outer continue", 6, "0:1 1:2,5 2:3,1 3:2,4 4:1 5:", 1);
   graph("loop in an if, exit to merge", 4, "0:1,3 1:2 2:1,3 3:", 0);
   graph("loop header is a switch", 5, "0:1 1:2,3,4 2:1 3:1 4:", 0);
   graph("multi-exit loop", 5, "0:1 1:2,3 2:1,4 3: 4:", 1);
   graph("multi-exit loop, shared tail", 6, "0:1 1:2,4 2:3,5 3:1 4:5 5:", 1);
   graph("early return in a loop", 7, "0:1 1:2,4 2:3,5 3:1 4:6 5: 6:", 1);
   graph("early return in nested loops", 7, "0:1 1:2 2:3,6 3:2,4 4:1,5 5: 6:", 2);
   graph("selection entered in the middle", 6, "0:1,2 1:3,4 2:4 3:5 4:5 5:", 1);
   graph("two selections crossing", 7, "0:1,2 1:3,4 2:4,5 3:6 4:6 5:6 6:", -1);
   graph("irreducible two-entry cycle", 4, "0:1,2 1:2,3 2:1,3 3:", 1);
   graph("irreducible three entries", 5, "0:1,2,3 1:2,4 2:3,4 3:1,4 4:", 1);
   graph("irreducible in a loop", 6, "0:1 1:2,3 2:3,4 3:2,4 4:1,5 5:", 1);
   graph("endless loop", 2, "0:1 1:1", 0);
   graph("endless loop with a branch", 4, "0:1 1:2,3 2:1 3:1", 0);
   graph("endless loop in one arm", 3, "0:1,2 1:1 2:", 0);
   graph("unreachable block", 4, "0:1 1: 2:3 3:1", 0);
   graph("unreachable cycle", 4, "0:1 1: 2:3 3:2,1", 0);
   graph("branch to the same block", 3, "0:1,1 1:2 2:", 0);
   graph("if-break and if-continue", 6, "0:1 1:2 2:5,3 3:1,4 4:1 5:", 0);
}

/* The structure check must catch what it claims to: a correct structure,
 * spoiled one way, is refused with the rule named. */
enum spoil {
   SPOIL_NO_HEADER,        /* the diamond's branch loses its construct */
   SPOIL_SHARED_MERGE,     /* two headers, one merge */
   SPOIL_ORDER,            /* the merge before the arms */
   SPOIL_CONTINUE,         /* the continue target moved into one arm */
   SPOIL_MERGE_OUTSIDE,    /* a merge the header does not dominate */
};

static void
expect_refused(const char *name, unsigned n, const char *spec, enum spoil spoil,
               const char *needle)
{
   struct cuvk_ir_module *m = cuvk_ir_module_create();
   struct cuvk_ir_function *f = m ? make_cfg(m, n, spec) : NULL;
   struct cuvk_cc_error err = { 0 };
   struct cuvk_ir_structure s;
   struct cuvk_arena arena;

   cuvk_arena_init(&arena);
   UNIT_CHECK(f != NULL);
   if (!f || !cuvk_ir_structurize(f, &arena, &s, &err) ||
       !cuvk_ir_structure_check(f, &s, &arena, &err)) {
      UNIT_CHECK(!"the unspoiled structure is not accepted");
      goto out;
   }
   unsigned header = NONE_BLOCK, inner = NONE_BLOCK;
   for (unsigned i = 0; i < s.order_count; i++) {
      unsigned b = s.order[i];
      if (s.kind[b] == CUVK_IR_CONSTRUCT_NONE)
         continue;
      if (header == NONE_BLOCK)
         header = b;
      else if (inner == NONE_BLOCK)
         inner = b;
   }
   switch (spoil) {
   case SPOIL_NO_HEADER:
      s.kind[header] = CUVK_IR_CONSTRUCT_NONE;
      s.merge[header] = NONE_BLOCK;
      break;
   case SPOIL_SHARED_MERGE:
      s.merge[inner] = s.merge[header];
      break;
   case SPOIL_ORDER:
      for (unsigned i = 1; i < s.order_count; i++)
         if (s.order[i] == s.merge[header]) {
            s.order[i] = s.order[1];
            s.order[1] = s.merge[header];
            break;
         }
      break;
   case SPOIL_CONTINUE:
      for (unsigned i = 0; i < s.order_count; i++)
         if (s.kind[s.order[i]] == CUVK_IR_CONSTRUCT_LOOP) {
            unsigned h = s.order[i];
            s.continue_target[h] = f->blocks[h]->succs[0]->succs[0]->index;
            break;
         }
      break;
   case SPOIL_MERGE_OUTSIDE:
      s.merge[inner] = s.merge[header];
      s.merge[header] = f->block_count - 1;
      break;
   }
   memset(&err, 0, sizeof(err));
   if (cuvk_ir_structure_check(f, &s, &arena, &err) || !strstr(err.message, needle)) {
      fprintf(stderr, "%s: expected a refusal containing \"%s\", got \"%s\"\n", name, needle,
              err.message);
      UNIT_CHECK(!"the structure check let a broken structure through");
   } else {
      printf("%-28s refused: %s\n", name, err.message);
   }
out:
   cuvk_arena_finish(&arena);
   cuvk_ir_module_destroy(m);
}

static void
spoiled_structures(void)
{
   expect_refused("no header", 4, "0:1,2 1:3 2:3 3:", SPOIL_NO_HEADER, "which is no header");
   expect_refused("shared merge", 5, "0:1,4 1:2,3 2:3 3:4 4:", SPOIL_SHARED_MERGE,
                  "merge or continue target of both");
   expect_refused("merge first", 4, "0:1,2 1:3 2:3 3:", SPOIL_ORDER, "goes back in the order");
   /* Moved into an arm, the continue target splits the selection around
    * it: its merge is no longer dominated by its header. */
   expect_refused("continue in one arm", 7, "0:1 1:2,6 2:3,4 3:5 4:5 5:1 6:", SPOIL_CONTINUE,
                  "does not dominate its merge");
   expect_refused("merge outside", 6, "0:1,4 1:2,3 2:3 3:4 4:5 5:", SPOIL_MERGE_OUTSIDE,
                  "does not dominate its merge");
}

/* Random graphs: each block branches to up to four random blocks (never
 * the entry), which gives irreducible cycles, loops with many exits and
 * selections entered anywhere in a few lines. */
static void
random_graphs(unsigned count)
{
   char spec[1024], name[64];
   unsigned selectors = 0, irreducible = 0;

   for (unsigned g = 0; g < count; g++) {
      /* Mostly small graphs, where every shape comes up; every fourth
       * one larger, where constructs nest deeper. */
      unsigned n = g % 4 == 3 ? 13 + (unsigned)unit_rand_below(28)
                              : 2 + (unsigned)unit_rand_below(11);
      size_t len = 0;
      for (unsigned b = 0; b < n; b++) {
         unsigned succs = (unsigned)unit_rand_below(b == 0 ? 3 : 5);
         if (b == 0 && succs == 0)
            succs = 1;
         len += (size_t)snprintf(spec + len, sizeof(spec) - len, "%s%u:", b ? " " : "", b);
         for (unsigned k = 0; k < succs; k++)
            len += (size_t)snprintf(spec + len, sizeof(spec) - len, "%s%u", k ? "," : "",
                                    1 + (unsigned)unit_rand_below(n - 1));
      }
      snprintf(name, sizeof(name), "random %u", g);
      struct cuvk_ir_module *m = cuvk_ir_module_create();
      struct cuvk_ir_function *f = m ? make_cfg(m, n, spec) : NULL;
      struct stats st = { 0 };
      UNIT_CHECK(f != NULL);
      if (f) {
         struct cuvk_arena a;
         struct cuvk_ir_domtree dom;
         bool reducible = true;
         unsigned from, to;
         cuvk_arena_init(&a);
         if (cuvk_ir_dominators(f, &a, &dom))
            cuvk_ir_is_reducible(f, &dom, &a, &reducible, &from, &to);
         cuvk_arena_finish(&a);
         irreducible += !reducible;
         if (!check_function(name, f, 60, false, &st))
            fprintf(stderr, "%s: the graph was %s\n", name, spec);
         selectors += st.selectors;
      }
      cuvk_ir_module_destroy(m);
   }
   printf("%u random graphs (%u irreducible), %u selectors in all\n", count, irreducible,
          selectors);
}

/* Every function of nvcc's kernels. */
static void
kernel_file(const char *path)
{
   size_t len;
   char *text = compiler_test_read(path, &len);

   UNIT_CHECK(text != NULL);
   if (!text)
      return;
   struct cuvk_ir_module *ir = ir_snippet_module(path, text, len);
   free(text);
   if (!ir)
      return;
   for (size_t i = 0; i < ir->func_count; i++) {
      struct cuvk_ir_function *f = ir->funcs[i];
      struct stats st = { 0 };
      char name[256];
      if (!f->has_body)
         continue;
      snprintf(name, sizeof(name), "%s: %s", path, f->name);
      if (check_function(name, f, 200, false, &st))
         printf("%s: %u blocks -> %u, %u loops, %u selections, %u selectors\n", name,
                st.blocks_before, st.blocks_after, st.loops, st.selections, st.selectors);
   }
   cuvk_ir_module_destroy(ir);
}

int
main(int argc, char **argv)
{
   static const char *const modes[] = { "graphs", "random", "nvcc", "all" };
   unsigned mode = 4;

   for (unsigned m = 0; argc >= 3 && m < 4; m++)
      if (!strcmp(argv[1], modes[m]))
         mode = m;
   if (mode == 4) {
      fprintf(stderr, "usage: test_structurize graphs|random|nvcc|all SPIRV_VAL|- "
              "[KERNEL.ptx...]\n");
      return 2;
   }
   if (strcmp(argv[2], "-") != 0)
      spirv_val = argv[2];
   else
      printf("spirv-val not found (Debian package spirv-tools): skeletons not validated\n");
   unit_seed();

   if (mode == 0 || mode == 3) {
      hand_built_graphs();
      spoiled_structures();
   }
   if (mode == 1 || mode == 3) {
      const char *env = getenv("CUVK_STRUCTURE_RANDOM");
      random_graphs(env ? (unsigned)atoi(env) : 400);
   }
   if (mode == 2 || mode == 3) {
      if (argc == 3 && mode == 2) {
         printf("skipped: nvcc not found, no kernels\n");
         return 77;
      }
      for (int i = 3; i < argc; i++)
         kernel_file(argv[i]);
   }
   printf("%u graphs structured, %u skeletons accepted by spirv-val, %u walks compared\n",
          graphs_checked, skeletons_validated, runs_compared);
   return unit_report("compiler.structurize");
}
