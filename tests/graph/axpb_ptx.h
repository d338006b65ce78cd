/*
 * axpb(y, a, b, n): y[i] = a * y[i] + b for i < n, one thread an element,
 * as hand-written PTX, so that the graph tests and the graph codes probe
 * run where nvcc is absent (CI).
 */
#ifndef CUVK_TESTS_GRAPH_AXPB_PTX_H
#define CUVK_TESTS_GRAPH_AXPB_PTX_H

static const char axpb_ptx[] =
   ".version 8.0\n.target sm_75\n.address_size 64\n"
   ".visible .entry axpb(.param .u64 y, .param .f32 a, .param .f32 b, .param .u32 n)\n"
   "{\n"
   "   .reg .pred %p<2>;\n"
   "   .reg .b32 %r<6>;\n"
   "   .reg .f32 %f<5>;\n"
   "   .reg .b64 %rd<5>;\n"
   "   ld.param.u64 %rd1, [y];\n"
   "   ld.param.f32 %f1, [a];\n"
   "   ld.param.f32 %f2, [b];\n"
   "   ld.param.u32 %r1, [n];\n"
   "   mov.u32 %r2, %ctaid.x;\n"
   "   mov.u32 %r3, %ntid.x;\n"
   "   mov.u32 %r4, %tid.x;\n"
   "   mad.lo.s32 %r5, %r2, %r3, %r4;\n"
   "   setp.ge.u32 %p1, %r5, %r1;\n"
   "   @%p1 bra $done;\n"
   "   cvta.to.global.u64 %rd2, %rd1;\n"
   "   mul.wide.u32 %rd3, %r5, 4;\n"
   "   add.s64 %rd4, %rd2, %rd3;\n"
   "   ld.global.f32 %f3, [%rd4];\n"
   "   fma.rn.f32 %f4, %f1, %f3, %f2;\n"
   "   st.global.f32 [%rd4], %f4;\n"
   "$done:\n"
   "   ret;\n"
   "}\n";

#endif
