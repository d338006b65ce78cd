/*
 * array/format.c's plane table against Vulkan-Hpp's format traits
 * (vulkan_format_traits.hpp, generated from the Vulkan registry's
 * vk.xml): every multi-planar format the headers know is in the table,
 * with the same plane count, compatible format and extent divisors for
 * each plane, and the table holds nothing else.  No device is needed: the
 * CPU-only driver has no multi-planar formats to create images of.
 *
 * C++ only because the traits are; the code under test is C.
 */
#include <cstdio>

#include <vulkan/vulkan.hpp>
#include <vulkan/vulkan_format_traits.hpp>

extern "C" {
#include "array/format.h"
}

static unsigned failures;

#define CHECK(cond, ...)                                                     \
   do {                                                                      \
      if (!(cond)) {                                                         \
         std::fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
         std::fprintf(stderr, __VA_ARGS__);                                  \
         std::fprintf(stderr, "\n");                                         \
         failures++;                                                         \
      }                                                                      \
   } while (0)

/* The VkFormat ranges that hold every multi-planar format: the
 * VK_KHR_sampler_ycbcr_conversion block and VK_EXT_ycbcr_2plane_444's. */
static const struct { int first, last; } ranges[] = {
   { 1000156000, 1000156033 },
   { 1000330000, 1000330003 },
};

static void
check_format(VkFormat vk)
{
   vk::Format f = static_cast<vk::Format>(vk);
   unsigned count = vk::planeCount(f);
   const struct cuvk_vk_planes *p = cuvk_vk_format_planes(vk);
   if (count < 2) {
      CHECK(!p, "VkFormat %d has one plane but is in the table", (int)vk);
      return;
   }
   CHECK(p, "multi-planar VkFormat %d (%s) is missing", (int)vk, vk::to_string(f).c_str());
   if (!p)
      return;
   CHECK(p->count == count, "%s: %u planes, Vulkan says %u", vk::to_string(f).c_str(), p->count, count);
   for (unsigned i = 0; i < count && i < 3; i++) {
      vk::Format want = vk::planeCompatibleFormat(f, (uint8_t)i);
      CHECK(p->plane[i] == static_cast<VkFormat>(want), "%s plane %u: VkFormat %d, Vulkan says %s",
            vk::to_string(f).c_str(), i, (int)p->plane[i], vk::to_string(want).c_str());
      CHECK(p->width_div[i] == vk::planeWidthDivisor(f, (uint8_t)i), "%s plane %u: width / %u, Vulkan says / %u",
            vk::to_string(f).c_str(), i, p->width_div[i], vk::planeWidthDivisor(f, (uint8_t)i));
      CHECK(p->height_div[i] == vk::planeHeightDivisor(f, (uint8_t)i),
            "%s plane %u: height / %u, Vulkan says / %u", vk::to_string(f).c_str(), i, p->height_div[i],
            vk::planeHeightDivisor(f, (uint8_t)i));
      unsigned elem;
      cuvk_vk_plane_format_size(p->plane[i], &elem);
      CHECK(elem == vk::blockSize(want), "%s plane %u: %u bytes per texel, Vulkan says %u",
            vk::to_string(f).c_str(), i, elem, (unsigned)vk::blockSize(want));
   }
}

int
main()
{
   unsigned multi = 0;
   for (const auto &r : ranges) {
      for (int v = r.first; v <= r.last; v++) {
         check_format(static_cast<VkFormat>(v));
         multi += vk::planeCount(static_cast<vk::Format>(v)) > 1;
      }
   }
   /* Nothing in the table outside those ranges, and nothing twice. */
   for (unsigned i = 0; i < cuvk_vk_plane_format_count(); i++) {
      const struct cuvk_vk_planes *p = cuvk_vk_plane_format_get(i);
      CHECK(vk::planeCount(static_cast<vk::Format>(p->format)) == p->count, "entry %u (VkFormat %d)", i,
            (int)p->format);
      for (unsigned j = 0; j < i; j++)
         CHECK(cuvk_vk_plane_format_get(j)->format != p->format, "VkFormat %d twice", (int)p->format);
   }
   CHECK(cuvk_vk_plane_format_count() == multi, "%u entries, the headers have %u multi-planar formats",
         cuvk_vk_plane_format_count(), multi);
   CHECK(!cuvk_vk_format_planes(VK_FORMAT_R8_UNORM), "R8 is not multi-planar");
   CHECK(!cuvk_vk_format_planes(VK_FORMAT_G8B8G8R8_422_UNORM), "G8B8G8R8_422 has one plane");
   std::printf("%u multi-planar formats checked, %u failure(s)\n", multi, failures);
   return failures ? 1 : 0;
}
