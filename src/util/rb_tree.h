/*
 * Intrusive red-black tree keyed by uint64_t.
 *
 * Owners embed a struct cuvk_rb_node and recover themselves with
 * cuvk_container_of, so the tree never allocates and every operation that
 * can fail for lack of memory stays in the caller's hands.  Keys are unique:
 * a second node with a key already present is refused, which is what the
 * address-keyed users (holes of a heap, mapped ranges) want, since two
 * objects starting at one address is always a bug for them.
 *
 * Every operation is O(log n) except cuvk_rb_tree_init and
 * cuvk_rb_tree_is_empty, which are O(1); cuvk_rb_tree_next/prev are O(1)
 * amortised over a whole walk.  Removing a node relinks its neighbours but
 * never moves another node's key, so pointers to other nodes and walks with
 * the next node fetched beforehand stay valid across a removal.
 *
 * Nothing here locks; callers serialise access to a tree.
 */
#ifndef CUVK_UTIL_RB_TREE_H
#define CUVK_UTIL_RB_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum cuvk_rb_color {
   CUVK_RB_RED = 0,
   CUVK_RB_BLACK = 1,
};

struct cuvk_rb_node {
   struct cuvk_rb_node *parent;
   struct cuvk_rb_node *left;
   struct cuvk_rb_node *right;
   enum cuvk_rb_color color;
   /* Set by cuvk_rb_tree_insert; read freely.  A caller may change the key
    * of a linked node in place only if the new key still sorts strictly
    * between the keys of the node's in-order neighbours, since the tree is
    * not reordered. */
   uint64_t key;
};

struct cuvk_rb_tree {
   struct cuvk_rb_node *root;
};

void cuvk_rb_tree_init(struct cuvk_rb_tree *tree);

static inline bool
cuvk_rb_tree_is_empty(const struct cuvk_rb_tree *tree)
{
   return tree->root == NULL;
}

/* Links node under key.  Returns false, leaving node and tree untouched,
 * when a node with that key is already linked. */
bool cuvk_rb_tree_insert(struct cuvk_rb_tree *tree, struct cuvk_rb_node *node,
                         uint64_t key);

/* Unlinks node, which must be linked in tree. */
void cuvk_rb_tree_remove(struct cuvk_rb_tree *tree, struct cuvk_rb_node *node);

/* The node whose key is exactly key, or NULL. */
struct cuvk_rb_node *cuvk_rb_tree_search(const struct cuvk_rb_tree *tree, uint64_t key);

/* The node with the greatest key <= key, or NULL. */
struct cuvk_rb_node *cuvk_rb_tree_floor(const struct cuvk_rb_tree *tree, uint64_t key);

/* The node with the smallest key >= key, or NULL. */
struct cuvk_rb_node *cuvk_rb_tree_ceil(const struct cuvk_rb_tree *tree, uint64_t key);

/* The nodes with the smallest and greatest keys, or NULL when empty. */
struct cuvk_rb_node *cuvk_rb_tree_first(const struct cuvk_rb_tree *tree);
struct cuvk_rb_node *cuvk_rb_tree_last(const struct cuvk_rb_tree *tree);

/* In-order neighbours of a linked node, or NULL past either end. */
struct cuvk_rb_node *cuvk_rb_tree_next(const struct cuvk_rb_node *node);
struct cuvk_rb_node *cuvk_rb_tree_prev(const struct cuvk_rb_node *node);

/* Checks every invariant: parent links, strictly increasing keys, a black
 * root, no red node with a red child and one black height on every path.
 * Logs the first violation and returns false.  O(n); meant for tests and
 * debugging, not for hot paths. */
bool cuvk_rb_tree_validate(const struct cuvk_rb_tree *tree);

#endif
