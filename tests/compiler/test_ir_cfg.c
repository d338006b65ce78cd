/*
 * The CFG analyses on graphs built with the IR builder, each small enough
 * that the expected dominators, post-dominators, loops and reducibility
 * were worked out by hand: a diamond, a switch, a loop with break and
 * continue, nested loops, an irreducible cycle, an endless loop and an
 * unreachable block.
 */
#include <string.h>

#include "compiler/ir_builder.h"
#include "compiler/ir_cfg.h"
#include "compiler_test.h"
#include "unit_test.h"

#define N CUVK_IR_NONE

/* A function of n blocks whose successors are given as "0:1,2 1:3 2:3 3:";
 * blocks without successors return. */
static struct cuvk_ir_function *
make_cfg(struct cuvk_ir_module *m, unsigned n, const char *spec)
{
   struct cuvk_ir_function *f = cuvk_ir_function_create(m, "f");
   struct cuvk_ir_block *blocks[16];

   if (!f || n > 16)
      return NULL;
   f->has_body = true;
   uint32_t p = cuvk_ir_reg_create(f, "%p", CUVK_IR_PRED);
   uint32_t r = cuvk_ir_reg_create(f, "%r", CUVK_IR_B32);
   for (unsigned i = 0; i < n; i++)
      if (!(blocks[i] = cuvk_ir_block_create(f, NULL)))
         return NULL;
   for (const char *s = spec; *s;) {
      unsigned from = (unsigned)strtoul(s, (char **)&s, 10), count = 0;
      struct cuvk_ir_block *succ[16];
      if (*s++ != ':')
         return NULL;
      while (*s >= '0' && *s <= '9') {
         succ[count++] = blocks[strtoul(s, (char **)&s, 10)];
         if (*s == ',')
            s++;
      }
      while (*s == ' ')
         s++;
      bool ok = true;
      if (count == 0)
         cuvk_ir_set_end(blocks[from], CUVK_IR_TERM_RET);
      else if (count == 1)
         ok = cuvk_ir_set_br(m, blocks[from], succ[0]);
      else if (count == 2)
         ok = cuvk_ir_set_cbr(m, blocks[from], cuvk_ir_reg_value(p), succ[0], succ[1]);
      else
         ok = cuvk_ir_set_switch(m, blocks[from], cuvk_ir_reg_value(r), succ, count);
      if (!ok)
         return NULL;
   }
   if (!cuvk_ir_compute_preds(f))
      return NULL;
   return f;
}

struct analysis {
   struct cuvk_ir_module *m;
   struct cuvk_ir_function *f;
   struct cuvk_arena arena;
   struct cuvk_ir_domtree dom, pdom;
   struct cuvk_ir_loops loops;
   bool reducible;
   unsigned from, to;
};

static bool
analyse(struct analysis *a, unsigned n, const char *spec)
{
   struct cuvk_cc_error err = { 0 };

   memset(a, 0, sizeof(*a));
   cuvk_arena_init(&a->arena);
   a->m = cuvk_ir_module_create();
   UNIT_CHECK(a->m != NULL);
   if (!a->m || !(a->f = make_cfg(a->m, n, spec))) {
      UNIT_CHECK(!"could not build the CFG");
      return false;
   }
   if (!cuvk_ir_validate(a->m, &err)) {
      compiler_test_print_error(spec, &err);
      UNIT_CHECK(!"CFG does not validate");
      return false;
   }
   bool ok = cuvk_ir_dominators(a->f, &a->arena, &a->dom) &&
             cuvk_ir_post_dominators(a->f, &a->arena, &a->pdom) &&
             cuvk_ir_is_reducible(a->f, &a->dom, &a->arena, &a->reducible, &a->from, &a->to) &&
             cuvk_ir_find_loops(a->f, &a->dom, &a->arena, &a->loops);
   UNIT_CHECK(ok);
   return ok;
}

static void
finish(struct analysis *a)
{
   cuvk_arena_finish(&a->arena);
   cuvk_ir_module_destroy(a->m);
}

static void
check_idoms(const char *what, const struct cuvk_ir_domtree *d, const unsigned *expected,
            unsigned n)
{
   for (unsigned i = 0; i < n; i++) {
      if (d->idom[i] != expected[i]) {
         fprintf(stderr, "%s: block %u: immediate %sdominator %d, expected %d\n", what, i,
                 d->post ? "post-" : "", (int)d->idom[i], (int)expected[i]);
         UNIT_CHECK(!"wrong immediate dominator");
      }
   }
}

static void
test_diamond(void)
{
   struct analysis a;
   if (analyse(&a, 4, "0:1,2 1:3 2:3 3:")) {
      check_idoms("diamond", &a.dom, (unsigned[]){ N, 0, 0, 0 }, 4);
      check_idoms("diamond", &a.pdom, (unsigned[]){ 3, 3, 3, 4 }, 4);
      UNIT_CHECK(a.reducible && a.loops.count == 0);
      UNIT_CHECK(cuvk_ir_dominates(&a.dom, 0, 3) && !cuvk_ir_dominates(&a.dom, 1, 3));
      UNIT_CHECK(cuvk_ir_dominates(&a.dom, 2, 2));
      UNIT_CHECK(cuvk_ir_dominates(&a.pdom, 3, 0) && !cuvk_ir_dominates(&a.pdom, 1, 0));
   }
   finish(&a);
}

static void
test_switch(void)
{
   struct analysis a;
   if (analyse(&a, 5, "0:1,2,3 1:4 2:4 3:4 4:")) {
      check_idoms("switch", &a.dom, (unsigned[]){ N, 0, 0, 0, 0 }, 5);
      check_idoms("switch", &a.pdom, (unsigned[]){ 4, 4, 4, 4, 5 }, 5);
      UNIT_CHECK(a.reducible && a.loops.count == 0);
   }
   finish(&a);
}

/* for (...) { if (a) break; if (b) continue; ... }: header 1, the
 * condition 2 breaks to 4 or goes on to the latch 3. */
static void
test_loop_break_continue(void)
{
   struct analysis a;
   if (analyse(&a, 6, "0:1 1:2,5 2:3,4 3:1 4:5 5:")) {
      check_idoms("loop", &a.dom, (unsigned[]){ N, 0, 1, 2, 2, 1 }, 6);
      check_idoms("loop", &a.pdom, (unsigned[]){ 1, 5, 5, 1, 5, 6 }, 6);
      UNIT_CHECK(a.reducible);
      UNIT_CHECK(a.loops.count == 1);
      if (a.loops.count == 1) {
         const struct cuvk_ir_loop *l = &a.loops.loops[0];
         UNIT_CHECK(l->header == 1 && l->block_count == 3);
         UNIT_CHECK(l->blocks[0] == 1 && l->blocks[1] == 2 && l->blocks[2] == 3);
         UNIT_CHECK(l->latch_count == 1 && l->latches[0] == 3);
         UNIT_CHECK(l->exit_edges == 2 && l->depth == 1 && l->parent == N);
      }
      UNIT_CHECK(a.loops.innermost[0] == N && a.loops.innermost[2] == 0 &&
                 a.loops.innermost[4] == N);
   }
   finish(&a);
}

/* An outer loop 1..3 around a self-loop at 2, and a second latch (a
 * continue) into the outer header from 4. */
static void
test_nested(void)
{
   struct analysis a;
   if (analyse(&a, 6, "0:1 1:2 2:2,3 3:4,5 4:1 5:1")) {
      UNIT_CHECK(a.reducible);
      UNIT_CHECK(a.loops.count == 2);
      if (a.loops.count == 2) {
         const struct cuvk_ir_loop *outer = &a.loops.loops[0], *inner = &a.loops.loops[1];
         UNIT_CHECK(outer->header == 1 && outer->block_count == 5 && outer->latch_count == 2);
         UNIT_CHECK(outer->exit_edges == 0 && outer->depth == 1);
         UNIT_CHECK(inner->header == 2 && inner->block_count == 1 && inner->latch_count == 1);
         UNIT_CHECK(inner->parent == 0 && inner->depth == 2 && inner->exit_edges == 1);
         UNIT_CHECK(a.loops.innermost[2] == 1 && a.loops.innermost[3] == 0);
      }
      /* No block leaves the outer loop: nothing reaches an exit. */
      check_idoms("nested", &a.pdom, (unsigned[]){ N, N, N, N, N, N }, 6);
   }
   finish(&a);
}

/* A cycle 1 <-> 2 entered at both blocks from 0. */
static void
test_irreducible(void)
{
   struct analysis a;
   if (analyse(&a, 4, "0:1,2 1:2 2:1,3 3:")) {
      check_idoms("irreducible", &a.dom, (unsigned[]){ N, 0, 0, 2 }, 4);
      UNIT_CHECK(!a.reducible);
      UNIT_CHECK(a.from == 2 && a.to == 1);
      /* Neither block dominates the other, so there is no natural loop. */
      UNIT_CHECK(a.loops.count == 0);
   }
   finish(&a);
}

/* 1 loops forever; 3 is unreachable. */
static void
test_endless_and_unreachable(void)
{
   struct analysis a;
   if (analyse(&a, 4, "0:1,2 1:1 2: 3:2")) {
      check_idoms("endless", &a.dom, (unsigned[]){ N, 0, 0, N }, 4);
      check_idoms("endless", &a.pdom, (unsigned[]){ 2, N, 4, 2 }, 4);
      UNIT_CHECK(a.dom.order_count == 3 && a.dom.order_index[3] == N);
      UNIT_CHECK(!cuvk_ir_dominates(&a.dom, 3, 3) && !cuvk_ir_dominates(&a.dom, 0, 3));
      UNIT_CHECK(a.reducible && a.loops.count == 1 && a.loops.loops[0].header == 1);
   }
   finish(&a);
}

int
main(void)
{
   test_diamond();
   test_switch();
   test_loop_break_continue();
   test_nested();
   test_irreducible();
   test_endless_and_unreachable();
   return unit_report("compiler.ir.cfg");
}
