/*
 * Address-range allocator over two indexes of the free holes.
 *
 * Policy: best fit.  The smallest hole that can take a request is used, so
 * large holes stay whole for large requests; for the device address space
 * that keeps room for big reservations, and inside a memory block it keeps
 * the block able to take one more big buffer.  Best fit and address-ordered
 * first fit fragment about equally in published allocator studies
 * (Johnstone and Wilson, "The memory fragmentation problem: solved?", 1998),
 * but best fit needs only a size-ordered index to be O(log n), whereas first
 * fit by address needs a tree augmented with subtree maxima.
 *
 * Indexes: every hole is in holes_by_addr, keyed by its start, which finds
 * the neighbours to merge on free and the hole holding a fixed address.
 * The size index must hold many holes of one size while the rb_tree keys
 * are unique, so holes_by_size holds one "leader" per distinct size and the
 * other holes of that size sit in a ring through the leader's size_ring.
 * The ring needs no allocation of its own, which keeps one malloc per hole
 * and makes the only failure point the creation of a new hole.
 */
#include "util/vma_heap.h"

#include <assert.h>
#include <stdlib.h>

#include "util/list.h"
#include "util/log.h"
#include "util/macros.h"

/* How many holes, in increasing size from the smallest that is big enough,
 * cuvk_vma_heap_alloc tries before falling back to a hole that fits at any
 * alignment.  Misaligned holes are rare (most requests share a few
 * alignments), so a handful of tries finds the best fit almost always while
 * bounding the walk when many same-size holes are misaligned. */
#define VMA_FIT_TRIES 8

struct vma_hole {
   struct cuvk_rb_node addr_node; /* key: the hole's first address */
   struct cuvk_rb_node size_node; /* key: size; linked only while leader */
   struct cuvk_list size_ring;    /* the holes of this size, leader included */
   uint64_t size;
   bool leader;
};

static inline struct vma_hole *
vma_hole_from_addr_node(const struct cuvk_rb_node *node)
{
   return cuvk_container_of(node, struct vma_hole, addr_node);
}

static inline struct vma_hole *
vma_hole_from_size_node(const struct cuvk_rb_node *node)
{
   return cuvk_container_of(node, struct vma_hole, size_node);
}

static inline uint64_t
vma_hole_start(const struct vma_hole *hole)
{
   return hole->addr_node.key;
}

static inline uint64_t
vma_hole_end(const struct vma_hole *hole)
{
   return hole->addr_node.key + hole->size;
}

static void
vma_size_index_add(struct cuvk_vma_heap *heap, struct vma_hole *hole)
{
   struct cuvk_rb_node *same = cuvk_rb_tree_search(&heap->holes_by_size, hole->size);

   if (same) {
      cuvk_list_addtail(&hole->size_ring, &vma_hole_from_size_node(same)->size_ring);
      hole->leader = false;
   } else {
      cuvk_list_init(&hole->size_ring);
      cuvk_rb_tree_insert(&heap->holes_by_size, &hole->size_node, hole->size);
      hole->leader = true;
   }
}

static void
vma_size_index_del(struct cuvk_vma_heap *heap, struct vma_hole *hole)
{
   struct vma_hole *heir;

   if (!hole->leader) {
      cuvk_list_del(&hole->size_ring);
      return;
   }

   cuvk_rb_tree_remove(&heap->holes_by_size, &hole->size_node);
   if (cuvk_list_is_empty(&hole->size_ring))
      return;

   /* The next hole of the same size stands for the size from now on. */
   heir = cuvk_container_of(hole->size_ring.next, struct vma_hole, size_ring);
   cuvk_list_del(&hole->size_ring);
   cuvk_rb_tree_insert(&heap->holes_by_size, &heir->size_node, heir->size);
   heir->leader = true;
}

/* Links a new hole into both indexes. */
static void
vma_hole_link(struct cuvk_vma_heap *heap, struct vma_hole *hole, uint64_t start,
              uint64_t size)
{
   bool inserted;

   hole->size = size;
   inserted = cuvk_rb_tree_insert(&heap->holes_by_addr, &hole->addr_node, start);
   assert(inserted);
   (void)inserted;
   vma_size_index_add(heap, hole);
}

bool
cuvk_vma_heap_init(struct cuvk_vma_heap *heap, uint64_t start, uint64_t size)
{
   assert(size <= UINT64_MAX - start);

   cuvk_rb_tree_init(&heap->holes_by_addr);
   cuvk_rb_tree_init(&heap->holes_by_size);
   heap->start = start;
   heap->size = size;
   heap->free_size = size;

   if (size > 0) {
      struct vma_hole *hole = malloc(sizeof(*hole));

      if (!hole)
         return false;
      vma_hole_link(heap, hole, start, size);
   }
   return true;
}

void
cuvk_vma_heap_finish(struct cuvk_vma_heap *heap)
{
   struct cuvk_rb_node *node;

   /* The size index only links holes that die here, so it is dropped as is. */
   while ((node = cuvk_rb_tree_first(&heap->holes_by_addr)) != NULL) {
      cuvk_rb_tree_remove(&heap->holes_by_addr, node);
      free(vma_hole_from_addr_node(node));
   }
   cuvk_rb_tree_init(&heap->holes_by_size);
   heap->free_size = 0;
   heap->size = 0;
}

/* Picks where in hole an aligned range of size bytes goes; false if it does
 * not fit. */
static bool
vma_hole_place(const struct vma_hole *hole, uint64_t size, uint64_t alignment,
               uint64_t *addr)
{
   uint64_t start = vma_hole_start(hole);
   uint64_t pad = (0 - start) & (alignment - 1);
   uint64_t end_addr;

   if (hole->size < size || pad > hole->size - size)
      return false;

   /* A misaligned start would leave two remainders, the padding and the
    * tail.  If the range can instead end flush with the hole, only one
    * remainder is left: no new node, and no sliver too small for anything
    * but tiny requests. */
   end_addr = vma_hole_end(hole) - size;
   if (pad != 0 && (end_addr & (alignment - 1)) == 0)
      *addr = end_addr;
   else
      *addr = start + pad;
   return true;
}

/* Takes [addr, addr + size), which lies inside hole, out of the free space.
 * Returns false, changing nothing, when the remainders need a node that
 * cannot be allocated. */
static bool
vma_carve(struct cuvk_vma_heap *heap, struct vma_hole *hole, uint64_t addr, uint64_t size)
{
   uint64_t front = addr - vma_hole_start(hole);
   uint64_t back = vma_hole_end(hole) - (addr + size);
   struct vma_hole *tail = NULL;

   if (front != 0 && back != 0) {
      tail = malloc(sizeof(*tail));
      if (!tail)
         return false;
   }

   vma_size_index_del(heap, hole);
   if (front != 0) {
      hole->size = front;
      vma_size_index_add(heap, hole);
      if (tail)
         vma_hole_link(heap, tail, addr + size, back);
   } else if (back != 0) {
      /* The hole keeps its place among its neighbours, so its key can move
       * up in place. */
      hole->addr_node.key = addr + size;
      hole->size = back;
      vma_size_index_add(heap, hole);
   } else {
      cuvk_rb_tree_remove(&heap->holes_by_addr, &hole->addr_node);
      free(hole);
   }

   heap->free_size -= size;
   return true;
}

bool
cuvk_vma_heap_alloc(struct cuvk_vma_heap *heap, uint64_t size, uint64_t alignment,
                    uint64_t *addr)
{
   struct cuvk_rb_node *node;
   struct vma_hole *hole;
   unsigned tries = 0;
   uint64_t at;

   assert(size > 0);
   assert(CUVK_IS_POW2(alignment));

   if (size == 0 || size > heap->free_size)
      return false;

   for (node = cuvk_rb_tree_ceil(&heap->holes_by_size, size);
        node && tries < VMA_FIT_TRIES; node = cuvk_rb_tree_next(node)) {
      struct vma_hole *leader = vma_hole_from_size_node(node);

      hole = leader;
      do {
         if (vma_hole_place(hole, size, alignment, &at))
            goto found;
         tries++;
         hole = cuvk_container_of(hole->size_ring.next, struct vma_hole, size_ring);
      } while (hole != leader && tries < VMA_FIT_TRIES);
   }

   /* Any hole this big fits: aligning its start wastes at most
    * alignment - 1 bytes. */
   if (size > UINT64_MAX - (alignment - 1))
      return false;
   node = cuvk_rb_tree_ceil(&heap->holes_by_size, size + alignment - 1);
   if (!node)
      return false;
   hole = vma_hole_from_size_node(node);
   if (!vma_hole_place(hole, size, alignment, &at))
      return false;

found:
   if (!vma_carve(heap, hole, at, size))
      return false;
   *addr = at;
   return true;
}

bool
cuvk_vma_heap_alloc_addr(struct cuvk_vma_heap *heap, uint64_t addr, uint64_t size)
{
   struct cuvk_rb_node *node;
   struct vma_hole *hole;

   assert(size > 0);

   if (size == 0 || size > UINT64_MAX - addr)
      return false;

   /* Only the hole starting at or before addr can hold the range, since
    * holes never overlap. */
   node = cuvk_rb_tree_floor(&heap->holes_by_addr, addr);
   if (!node)
      return false;
   hole = vma_hole_from_addr_node(node);
   if (addr + size > vma_hole_end(hole))
      return false;

   return vma_carve(heap, hole, addr, size);
}

void
cuvk_vma_heap_free(struct cuvk_vma_heap *heap, uint64_t addr, uint64_t size)
{
   struct cuvk_rb_node *prev_node, *next_node;
   struct vma_hole *prev, *next, *hole;
   bool merge_prev, merge_next;

   assert(size > 0);
   assert(addr >= heap->start && size <= heap->start + heap->size - addr);

   prev_node = cuvk_rb_tree_floor(&heap->holes_by_addr, addr);
   next_node = prev_node ? cuvk_rb_tree_next(prev_node)
                         : cuvk_rb_tree_first(&heap->holes_by_addr);
   prev = prev_node ? vma_hole_from_addr_node(prev_node) : NULL;
   next = next_node ? vma_hole_from_addr_node(next_node) : NULL;

   /* Overlapping a hole means part of the range is already free. */
   assert(!prev || vma_hole_end(prev) <= addr);
   assert(!next || addr + size <= vma_hole_start(next));

   merge_prev = prev && vma_hole_end(prev) == addr;
   merge_next = next && addr + size == vma_hole_start(next);

   if (merge_prev && merge_next) {
      vma_size_index_del(heap, prev);
      vma_size_index_del(heap, next);
      prev->size += size + next->size;
      cuvk_rb_tree_remove(&heap->holes_by_addr, &next->addr_node);
      free(next);
      vma_size_index_add(heap, prev);
   } else if (merge_prev) {
      vma_size_index_del(heap, prev);
      prev->size += size;
      vma_size_index_add(heap, prev);
   } else if (merge_next) {
      /* next grows down to addr, still above prev's end: its order among
       * the holes holds, so its key moves in place. */
      vma_size_index_del(heap, next);
      next->addr_node.key = addr;
      next->size += size;
      vma_size_index_add(heap, next);
   } else {
      hole = malloc(sizeof(*hole));
      if (!hole) {
         cuvk_loge("vma_heap: out of memory freeing [%#llx, +%#llx); the range stays allocated",
                   (unsigned long long)addr, (unsigned long long)size);
         return;
      }
      vma_hole_link(heap, hole, addr, size);
   }

   heap->free_size += size;
}

uint64_t
cuvk_vma_heap_largest_free(const struct cuvk_vma_heap *heap)
{
   struct cuvk_rb_node *node = cuvk_rb_tree_last(&heap->holes_by_size);

   return node ? node->key : 0;
}

bool
cuvk_vma_heap_validate(const struct cuvk_vma_heap *heap)
{
   uint64_t sum = 0, addr_count = 0, size_count = 0;
   const struct vma_hole *prev = NULL;

   if (!cuvk_rb_tree_validate(&heap->holes_by_addr) ||
       !cuvk_rb_tree_validate(&heap->holes_by_size))
      return false;

   for (struct cuvk_rb_node *node = cuvk_rb_tree_first(&heap->holes_by_addr); node;
        node = cuvk_rb_tree_next(node)) {
      const struct vma_hole *hole = vma_hole_from_addr_node(node);
      uint64_t start = vma_hole_start(hole);

      if (hole->size == 0 || start < heap->start ||
          hole->size > heap->start + heap->size - start) {
         cuvk_loge("vma_heap: hole [%#llx, +%#llx) is empty or out of bounds",
                   (unsigned long long)start, (unsigned long long)hole->size);
         return false;
      }
      if (prev && vma_hole_end(prev) >= start) {
         cuvk_loge("vma_heap: hole at %#llx overlaps or touches the one before",
                   (unsigned long long)start);
         return false;
      }
      if (hole->leader &&
          cuvk_rb_tree_search(&heap->holes_by_size, hole->size) != &hole->size_node) {
         cuvk_loge("vma_heap: hole at %#llx leads no size", (unsigned long long)start);
         return false;
      }
      sum += hole->size;
      addr_count++;
      prev = hole;
   }

   for (struct cuvk_rb_node *node = cuvk_rb_tree_first(&heap->holes_by_size); node;
        node = cuvk_rb_tree_next(node)) {
      struct vma_hole *leader = vma_hole_from_size_node(node);

      if (!leader->leader || leader->size != node->key) {
         cuvk_loge("vma_heap: size %#llx has a bad leader", (unsigned long long)node->key);
         return false;
      }
      size_count++;
      cuvk_list_for_each_entry(struct vma_hole, member, &leader->size_ring, size_ring) {
         if (member->leader || member->size != leader->size ||
             cuvk_rb_tree_search(&heap->holes_by_addr, vma_hole_start(member)) !=
                &member->addr_node) {
            cuvk_loge("vma_heap: hole at %#llx is misfiled under size %#llx",
                      (unsigned long long)vma_hole_start(member),
                      (unsigned long long)leader->size);
            return false;
         }
         size_count++;
      }
   }

   if (addr_count != size_count || sum != heap->free_size) {
      cuvk_loge("vma_heap: %llu holes by address, %llu by size, %#llx bytes free of %#llx counted",
                (unsigned long long)addr_count, (unsigned long long)size_count,
                (unsigned long long)sum, (unsigned long long)heap->free_size);
      return false;
   }
   return true;
}
