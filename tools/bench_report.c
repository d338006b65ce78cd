/*
 * cuvk-bench results: one table per benchmark, printed as it completes,
 * and all of them as JSON at the end.
 */
#include "bench.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

const char *const bench_impl_names[BENCH_IMPL_COUNT] = {
   [BENCH_IMPL_CUVK] = "cuvk",
   [BENCH_IMPL_CUDA] = "CUDA",
   [BENCH_IMPL_VULKAN] = "Vulkan",
   [BENCH_IMPL_HOST] = "host",
};

static const char *const bench_impl_json_names[BENCH_IMPL_COUNT] = {
   [BENCH_IMPL_CUVK] = "cuvk",
   [BENCH_IMPL_CUDA] = "cuda",
   [BENCH_IMPL_VULKAN] = "vulkan",
   [BENCH_IMPL_HOST] = "host",
};

static void
note_v(char notes[][BENCH_NOTE_LEN], unsigned *count, const char *fmt, va_list ap)
{
   if (*count >= BENCH_MAX_NOTES)
      return;
   vsnprintf(notes[*count], BENCH_NOTE_LEN, fmt, ap);
   /* The same note from every size or implementation once is enough. */
   for (unsigned i = 0; i < *count; i++)
      if (strcmp(notes[i], notes[*count]) == 0)
         return;
   (*count)++;
}

void
bench_report_note(struct bench_report *rep, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   note_v(rep->notes, &rep->note_count, fmt, ap);
   va_end(ap);
}

void
bench_table_note(struct bench_table *t, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   note_v(t->notes, &t->note_count, fmt, ap);
   va_end(ap);
}

double
bench_gbps(const struct bench_table *t, const struct bench_row *row, enum bench_impl impl)
{
   const struct bench_result *r = &row->r[impl];
   if (!r->valid || r->median_s <= 0.0)
      return NAN;
   if (t->kind == BENCH_KIND_LATENCY)
      return row->bytes ? (double)row->bytes / r->median_s / 1e9 : NAN;
   return (double)row->size * t->bytes_factor / r->median_s / 1e9;
}

/* The figure a table shows: GB/s or microseconds. */
static double
figure(const struct bench_table *t, const struct bench_row *row, enum bench_impl impl)
{
   if (t->kind == BENCH_KIND_BANDWIDTH)
      return bench_gbps(t, row, impl);
   return row->r[impl].valid ? row->r[impl].median_s * 1e6 : NAN;
}

static bool
column_shown(const struct bench_report *rep, const struct bench_table *t, enum bench_impl impl)
{
   return rep->has_impl[impl] && t->impl_what[impl];
}

static void
print_cell(FILE *f, double v)
{
   if (!isfinite(v))
      fprintf(f, " %10s", "-");
   else if (v >= 100.0)
      fprintf(f, " %10.1f", v);
   else if (v >= 0.01)
      fprintf(f, " %10.2f", v);
   else
      fprintf(f, " %10.4f", v);
}

void
bench_report_print_header(const struct bench_report *rep, FILE *f)
{
   char size[32];

   fprintf(f, "cuvk-bench on %s", rep->device_name);
   if (rep->device_uuid[0])
      fprintf(f, " (UUID %s)", rep->device_uuid);
   fprintf(f, "\n");
   if (rep->vulkan_driver[0])
      fprintf(f, "  Vulkan driver: %s\n", rep->vulkan_driver);
   fprintf(f, "  cuvk: %s\n", rep->cuvk_lib);
   if (rep->has_impl[BENCH_IMPL_CUDA])
      fprintf(f, "  CUDA: %s (%s)\n", rep->cuda_lib, rep->cuda_device_name);
   tool_format_size(rep->max_size, size, sizeof(size));
   fprintf(f, "  sizes up to %s; median of at least 3 runs and %.0f ms per size after %.0f ms of "
           "warm-up%s\n", size, rep->min_time_s * 1e3, rep->warmup_s * 1e3, rep->quick ? " (--quick)" : "");
   if (rep->cuda_first && rep->has_impl[BENCH_IMPL_CUDA])
      fprintf(f, "  order: CUDA measured before cuvk in each table (--cuda-first)\n");
   for (unsigned i = 0; i < rep->note_count; i++)
      fprintf(f, "  note: %s\n", rep->notes[i]);
}

void
bench_report_print_table(const struct bench_report *rep, const struct bench_table *t, FILE *f)
{
   bool bw = t->kind == BENCH_KIND_BANDWIDTH;
   bool ratio_cuda = column_shown(rep, t, BENCH_IMPL_CUVK) && column_shown(rep, t, BENCH_IMPL_CUDA);
   bool ratio_vk = column_shown(rep, t, BENCH_IMPL_CUVK) && column_shown(rep, t, BENCH_IMPL_VULKAN);
   bool ratio_host = column_shown(rep, t, BENCH_IMPL_CUVK) && column_shown(rep, t, BENCH_IMPL_HOST);

   fprintf(f, "\n%s: %s", t->id, t->title);
   if (bw)
      fprintf(f, "; GB/s counting %s", t->counted);
   else
      fprintf(f, "; microseconds");
   fprintf(f, "\n");
   for (int i = 0; i < BENCH_IMPL_COUNT; i++)
      if (column_shown(rep, t, i))
         fprintf(f, "   %-7s %s\n", bench_impl_names[i], t->impl_what[i]);
   if (ratio_cuda || ratio_vk || ratio_host)
      fprintf(f, "   ratios: %s\n", bw ? "of bandwidths, above 1 means cuvk is faster"
                                      : "of times, above 1 means cuvk is slower");

   /* The first column is as wide as the longest operation's name. */
   int width = 22;
   for (unsigned r = 0; !bw && r < t->row_count; r++)
      width = TOOL_MAX(width, (int)strlen(t->rows[r].label));
   fprintf(f, "   %-*s", width, bw ? "size" : "operation");
   for (int i = 0; i < BENCH_IMPL_COUNT; i++)
      if (column_shown(rep, t, i))
         fprintf(f, " %10s", bench_impl_names[i]);
   if (ratio_cuda)
      fprintf(f, " %10s", "cuvk/CUDA");
   if (ratio_vk)
      fprintf(f, " %10s", "cuvk/vk");
   if (ratio_host)
      fprintf(f, " %10s", "cuvk/host");
   fprintf(f, "\n");

   for (unsigned r = 0; r < t->row_count; r++) {
      const struct bench_row *row = &t->rows[r];
      char label[64];

      if (bw)
         tool_format_size(row->size, label, sizeof(label));
      else
         snprintf(label, sizeof(label), "%s", row->label);
      fprintf(f, "   %-*s", width, label);
      for (int i = 0; i < BENCH_IMPL_COUNT; i++)
         if (column_shown(rep, t, i))
            print_cell(f, figure(t, row, i));
      double cuvk = figure(t, row, BENCH_IMPL_CUVK);
      if (ratio_cuda)
         print_cell(f, cuvk / figure(t, row, BENCH_IMPL_CUDA));
      if (ratio_vk)
         print_cell(f, cuvk / figure(t, row, BENCH_IMPL_VULKAN));
      if (ratio_host)
         print_cell(f, cuvk / figure(t, row, BENCH_IMPL_HOST));
      fprintf(f, "\n");
   }
   for (unsigned i = 0; i < t->note_count; i++)
      fprintf(f, "   note: %s\n", t->notes[i]);
   fflush(f);
}

static void
json_result(struct tool_json *j, const struct bench_table *t, const struct bench_row *row,
            enum bench_impl impl)
{
   const struct bench_result *r = &row->r[impl];

   if (!r->valid) {
      tool_json_null(j, bench_impl_json_names[impl]);
      return;
   }
   tool_json_object_begin(j, bench_impl_json_names[impl]);
   tool_json_double(j, "median_us", r->median_s * 1e6);
   tool_json_double(j, "min_us", r->min_s * 1e6);
   if (t->kind == BENCH_KIND_BANDWIDTH || row->bytes)
      tool_json_double(j, "gbps", bench_gbps(t, row, impl));
   tool_json_uint(j, "samples", r->samples);
   tool_json_uint(j, "ops_per_sample", r->reps);
   if (r->sm_mhz)
      tool_json_uint(j, "sm_mhz", r->sm_mhz);
   else
      tool_json_null(j, "sm_mhz");
   if (r->mem_mhz)
      tool_json_uint(j, "mem_mhz", r->mem_mhz);
   else
      tool_json_null(j, "mem_mhz");
   if (r->has_clock_reasons) {
      const char *names[16];
      unsigned count;
      unsigned long long unknown;
      char hex[32];
      bench_clock_reason_names(r->clock_reasons, names, 16, &count, &unknown);
      tool_json_array_begin(j, "clock_reasons");
      for (unsigned k = 0; k < count; k++)
         tool_json_string(j, NULL, names[k]);
      if (unknown) {
         snprintf(hex, sizeof(hex), "0x%llx", unknown);
         tool_json_string(j, NULL, hex);
      }
      tool_json_array_end(j);
   } else {
      tool_json_null(j, "clock_reasons");
   }
   tool_json_object_end(j);
}

void
bench_report_write_json(const struct bench_report *rep, FILE *f)
{
   struct tool_json j;

   tool_json_init(&j, f);
   tool_json_object_begin(&j, NULL);
   tool_json_string(&j, "tool", "cuvk-bench");
   tool_json_object_begin(&j, "device");
   tool_json_string(&j, "name", rep->device_name);
   tool_json_string(&j, "uuid", rep->device_uuid[0] ? rep->device_uuid : NULL);
   tool_json_string(&j, "vulkan_driver", rep->vulkan_driver[0] ? rep->vulkan_driver : NULL);
   tool_json_object_end(&j);
   tool_json_string(&j, "cuvk_lib", rep->cuvk_lib);
   tool_json_string(&j, "cuda_lib", rep->has_impl[BENCH_IMPL_CUDA] ? rep->cuda_lib : NULL);
   tool_json_string(&j, "cuda_device", rep->has_impl[BENCH_IMPL_CUDA] ? rep->cuda_device_name : NULL);
   tool_json_uint(&j, "max_size", rep->max_size);
   tool_json_double(&j, "min_time_ms", rep->min_time_s * 1e3);
   tool_json_double(&j, "warmup_ms", rep->warmup_s * 1e3);
   tool_json_bool(&j, "cuda_first", rep->cuda_first);
   tool_json_bool(&j, "quick", rep->quick);
   tool_json_array_begin(&j, "notes");
   for (unsigned i = 0; i < rep->note_count; i++)
      tool_json_string(&j, NULL, rep->notes[i]);
   tool_json_array_end(&j);

   tool_json_array_begin(&j, "benchmarks");
   for (unsigned ti = 0; ti < rep->table_count; ti++) {
      const struct bench_table *t = &rep->tables[ti];
      bool bw = t->kind == BENCH_KIND_BANDWIDTH;

      tool_json_object_begin(&j, NULL);
      tool_json_string(&j, "id", t->id);
      tool_json_string(&j, "title", t->title);
      tool_json_string(&j, "kind", bw ? "bandwidth" : "latency");
      if (bw) {
         tool_json_string(&j, "bytes_counted", t->counted);
         tool_json_uint(&j, "bytes_factor", t->bytes_factor);
      }
      tool_json_object_begin(&j, "implementations");
      for (int i = 0; i < BENCH_IMPL_COUNT; i++)
         if (column_shown(rep, t, i))
            tool_json_string(&j, bench_impl_json_names[i], t->impl_what[i]);
      tool_json_object_end(&j);
      tool_json_array_begin(&j, "notes");
      for (unsigned i = 0; i < t->note_count; i++)
         tool_json_string(&j, NULL, t->notes[i]);
      tool_json_array_end(&j);

      tool_json_array_begin(&j, "rows");
      for (unsigned r = 0; r < t->row_count; r++) {
         const struct bench_row *row = &t->rows[r];
         tool_json_object_begin(&j, NULL);
         tool_json_uint(&j, "size", row->size);
         if (!bw)
            tool_json_string(&j, "operation", row->label);
         if (!bw && row->bytes)
            tool_json_uint(&j, "bytes", row->bytes);
         if (row->impls) {
            tool_json_array_begin(&j, "measures");
            for (int i = 0; i < BENCH_IMPL_COUNT; i++)
               if (row->impls & (1u << i))
                  tool_json_string(&j, NULL, bench_impl_json_names[i]);
            tool_json_array_end(&j);
         }
         tool_json_object_begin(&j, "results");
         for (int i = 0; i < BENCH_IMPL_COUNT; i++)
            if (column_shown(rep, t, i))
               json_result(&j, t, row, i);
         tool_json_object_end(&j);
         if (column_shown(rep, t, BENCH_IMPL_CUDA)) {
            double a = figure(t, row, BENCH_IMPL_CUVK), b = figure(t, row, BENCH_IMPL_CUDA);
            tool_json_double(&j, bw ? "cuvk_over_cuda_bandwidth" : "cuvk_over_cuda_time", a / b);
         }
         tool_json_object_end(&j);
      }
      tool_json_array_end(&j);
      tool_json_object_end(&j);
   }
   tool_json_array_end(&j);
   tool_json_object_end(&j);
}
