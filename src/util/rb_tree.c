/*
 * Red-black tree with NULL leaves.
 *
 * The rebalancing follows the textbook formulation (Cormen et al., chapter
 * 13): NULL children count as black, and removal of a node with two children
 * splices its in-order successor into its place by relinking pointers rather
 * than by copying keys, because the nodes are embedded in their owners and
 * an owner's node must never start to stand for another owner's key.
 */
#include "util/rb_tree.h"

#include <stddef.h>

#include "util/log.h"

static inline bool
rb_is_red(const struct cuvk_rb_node *node)
{
   return node != NULL && node->color == CUVK_RB_RED;
}

/* Points whatever linked to old (its parent, or the root) at new instead. */
static void
rb_replace_child(struct cuvk_rb_tree *tree, struct cuvk_rb_node *parent,
                 struct cuvk_rb_node *old, struct cuvk_rb_node *new)
{
   if (parent == NULL)
      tree->root = new;
   else if (parent->left == old)
      parent->left = new;
   else
      parent->right = new;
}

/*
 *     x              y
 *    / \            / \
 *   a   y    ->    x   c
 *      / \        / \
 *     b   c      a   b
 */
static void
rb_rotate_left(struct cuvk_rb_tree *tree, struct cuvk_rb_node *x)
{
   struct cuvk_rb_node *y = x->right;

   x->right = y->left;
   if (y->left)
      y->left->parent = x;
   y->parent = x->parent;
   rb_replace_child(tree, x->parent, x, y);
   y->left = x;
   x->parent = y;
}

/* The mirror image of rb_rotate_left. */
static void
rb_rotate_right(struct cuvk_rb_tree *tree, struct cuvk_rb_node *x)
{
   struct cuvk_rb_node *y = x->left;

   x->left = y->right;
   if (y->right)
      y->right->parent = x;
   y->parent = x->parent;
   rb_replace_child(tree, x->parent, x, y);
   y->right = x;
   x->parent = y;
}

static struct cuvk_rb_node *
rb_min(struct cuvk_rb_node *node)
{
   while (node->left)
      node = node->left;
   return node;
}

static struct cuvk_rb_node *
rb_max(struct cuvk_rb_node *node)
{
   while (node->right)
      node = node->right;
   return node;
}

void
cuvk_rb_tree_init(struct cuvk_rb_tree *tree)
{
   tree->root = NULL;
}

/* Restores the invariants after linking the red leaf node: the only possible
 * violation is a red node under a red parent, which is pushed up the tree by
 * recolouring while the uncle is red, and resolved by at most two rotations
 * once it is black. */
static void
rb_insert_fixup(struct cuvk_rb_tree *tree, struct cuvk_rb_node *node)
{
   struct cuvk_rb_node *parent;

   while ((parent = node->parent) != NULL && parent->color == CUVK_RB_RED) {
      /* A red parent is never the root, so the grandparent exists. */
      struct cuvk_rb_node *grand = parent->parent;

      if (parent == grand->left) {
         struct cuvk_rb_node *uncle = grand->right;

         if (rb_is_red(uncle)) {
            parent->color = CUVK_RB_BLACK;
            uncle->color = CUVK_RB_BLACK;
            grand->color = CUVK_RB_RED;
            node = grand;
            continue;
         }
         if (node == parent->right) {
            rb_rotate_left(tree, parent);
            node = parent;
            parent = node->parent;
         }
         parent->color = CUVK_RB_BLACK;
         grand->color = CUVK_RB_RED;
         rb_rotate_right(tree, grand);
      } else {
         struct cuvk_rb_node *uncle = grand->left;

         if (rb_is_red(uncle)) {
            parent->color = CUVK_RB_BLACK;
            uncle->color = CUVK_RB_BLACK;
            grand->color = CUVK_RB_RED;
            node = grand;
            continue;
         }
         if (node == parent->left) {
            rb_rotate_right(tree, parent);
            node = parent;
            parent = node->parent;
         }
         parent->color = CUVK_RB_BLACK;
         grand->color = CUVK_RB_RED;
         rb_rotate_left(tree, grand);
      }
   }
   tree->root->color = CUVK_RB_BLACK;
}

bool
cuvk_rb_tree_insert(struct cuvk_rb_tree *tree, struct cuvk_rb_node *node,
                    uint64_t key)
{
   struct cuvk_rb_node *parent = NULL;
   struct cuvk_rb_node **link = &tree->root;

   while (*link) {
      parent = *link;
      if (key == parent->key)
         return false;
      link = key < parent->key ? &parent->left : &parent->right;
   }

   node->parent = parent;
   node->left = NULL;
   node->right = NULL;
   node->color = CUVK_RB_RED;
   node->key = key;
   *link = node;

   rb_insert_fixup(tree, node);
   return true;
}

/* Puts the subtree rooted at v (possibly empty) where u was; u's own child
 * links are left for the caller to reuse. */
static void
rb_transplant(struct cuvk_rb_tree *tree, struct cuvk_rb_node *u,
              struct cuvk_rb_node *v)
{
   rb_replace_child(tree, u->parent, u, v);
   if (v)
      v->parent = u->parent;
}

/* Restores the black height after a black node left the path through node.
 * node may be NULL (an empty leaf), which is why its parent is passed
 * separately.  The sibling cannot be NULL: the side that lost a black node
 * had a black height of at least one, so the other side still has one. */
static void
rb_remove_fixup(struct cuvk_rb_tree *tree, struct cuvk_rb_node *node,
                struct cuvk_rb_node *parent)
{
   while (node != tree->root && !rb_is_red(node)) {
      if (node == parent->left) {
         struct cuvk_rb_node *sib = parent->right;

         if (rb_is_red(sib)) {
            sib->color = CUVK_RB_BLACK;
            parent->color = CUVK_RB_RED;
            rb_rotate_left(tree, parent);
            sib = parent->right;
         }
         if (!rb_is_red(sib->left) && !rb_is_red(sib->right)) {
            sib->color = CUVK_RB_RED;
            node = parent;
            parent = node->parent;
            continue;
         }
         if (!rb_is_red(sib->right)) {
            sib->left->color = CUVK_RB_BLACK;
            sib->color = CUVK_RB_RED;
            rb_rotate_right(tree, sib);
            sib = parent->right;
         }
         sib->color = parent->color;
         parent->color = CUVK_RB_BLACK;
         sib->right->color = CUVK_RB_BLACK;
         rb_rotate_left(tree, parent);
      } else {
         struct cuvk_rb_node *sib = parent->left;

         if (rb_is_red(sib)) {
            sib->color = CUVK_RB_BLACK;
            parent->color = CUVK_RB_RED;
            rb_rotate_right(tree, parent);
            sib = parent->left;
         }
         if (!rb_is_red(sib->left) && !rb_is_red(sib->right)) {
            sib->color = CUVK_RB_RED;
            node = parent;
            parent = node->parent;
            continue;
         }
         if (!rb_is_red(sib->left)) {
            sib->right->color = CUVK_RB_BLACK;
            sib->color = CUVK_RB_RED;
            rb_rotate_left(tree, sib);
            sib = parent->left;
         }
         sib->color = parent->color;
         parent->color = CUVK_RB_BLACK;
         sib->left->color = CUVK_RB_BLACK;
         rb_rotate_right(tree, parent);
      }
      /* The rotation absorbed the missing black: done. */
      node = tree->root;
   }
   if (node)
      node->color = CUVK_RB_BLACK;
}

void
cuvk_rb_tree_remove(struct cuvk_rb_tree *tree, struct cuvk_rb_node *node)
{
   struct cuvk_rb_node *child, *child_parent;
   enum cuvk_rb_color removed_color = node->color;

   if (node->left == NULL) {
      child = node->right;
      child_parent = node->parent;
      rb_transplant(tree, node, child);
   } else if (node->right == NULL) {
      child = node->left;
      child_parent = node->parent;
      rb_transplant(tree, node, child);
   } else {
      /* Two children: the successor (leftmost of the right subtree, so it
       * has no left child) takes node's place and colour, and the colour
       * that actually leaves the tree is the successor's. */
      struct cuvk_rb_node *succ = rb_min(node->right);

      removed_color = succ->color;
      child = succ->right;
      if (succ->parent == node) {
         child_parent = succ;
      } else {
         child_parent = succ->parent;
         rb_transplant(tree, succ, child);
         succ->right = node->right;
         succ->right->parent = succ;
      }
      rb_transplant(tree, node, succ);
      succ->left = node->left;
      succ->left->parent = succ;
      succ->color = node->color;
   }

   if (removed_color == CUVK_RB_BLACK)
      rb_remove_fixup(tree, child, child_parent);

   /* A stale node must not look linked to a later walk. */
   node->parent = node->left = node->right = NULL;
}

struct cuvk_rb_node *
cuvk_rb_tree_search(const struct cuvk_rb_tree *tree, uint64_t key)
{
   struct cuvk_rb_node *node = tree->root;

   while (node && node->key != key)
      node = key < node->key ? node->left : node->right;
   return node;
}

struct cuvk_rb_node *
cuvk_rb_tree_floor(const struct cuvk_rb_tree *tree, uint64_t key)
{
   struct cuvk_rb_node *node = tree->root, *best = NULL;

   while (node) {
      if (node->key == key)
         return node;
      if (node->key < key) {
         best = node;
         node = node->right;
      } else {
         node = node->left;
      }
   }
   return best;
}

struct cuvk_rb_node *
cuvk_rb_tree_ceil(const struct cuvk_rb_tree *tree, uint64_t key)
{
   struct cuvk_rb_node *node = tree->root, *best = NULL;

   while (node) {
      if (node->key == key)
         return node;
      if (node->key > key) {
         best = node;
         node = node->left;
      } else {
         node = node->right;
      }
   }
   return best;
}

struct cuvk_rb_node *
cuvk_rb_tree_first(const struct cuvk_rb_tree *tree)
{
   return tree->root ? rb_min(tree->root) : NULL;
}

struct cuvk_rb_node *
cuvk_rb_tree_last(const struct cuvk_rb_tree *tree)
{
   return tree->root ? rb_max(tree->root) : NULL;
}

struct cuvk_rb_node *
cuvk_rb_tree_next(const struct cuvk_rb_node *node)
{
   if (node->right)
      return rb_min(node->right);
   while (node->parent && node == node->parent->right)
      node = node->parent;
   return node->parent;
}

struct cuvk_rb_node *
cuvk_rb_tree_prev(const struct cuvk_rb_node *node)
{
   if (node->left)
      return rb_max(node->left);
   while (node->parent && node == node->parent->left)
      node = node->parent;
   return node->parent;
}

/* Validates the subtree at node, whose keys must lie in the open interval
 * (lo, hi) where has_lo/has_hi say whether each bound exists.  Returns its
 * black height (counting the NULL leaves as one), or -1 on a violation. */
static int
rb_validate_subtree(const struct cuvk_rb_node *node, const struct cuvk_rb_node *parent,
                    bool has_lo, uint64_t lo, bool has_hi, uint64_t hi)
{
   int left_height, right_height;

   if (node == NULL)
      return 1;

   if (node->parent != parent) {
      cuvk_loge("rb_tree: node %#llx has a wrong parent link",
                (unsigned long long)node->key);
      return -1;
   }
   if ((has_lo && node->key <= lo) || (has_hi && node->key >= hi)) {
      cuvk_loge("rb_tree: node %#llx is out of order", (unsigned long long)node->key);
      return -1;
   }
   if (node->color != CUVK_RB_RED && node->color != CUVK_RB_BLACK) {
      cuvk_loge("rb_tree: node %#llx has no valid colour", (unsigned long long)node->key);
      return -1;
   }
   if (node->color == CUVK_RB_RED && (rb_is_red(node->left) || rb_is_red(node->right))) {
      cuvk_loge("rb_tree: red node %#llx has a red child", (unsigned long long)node->key);
      return -1;
   }

   left_height = rb_validate_subtree(node->left, node, has_lo, lo, true, node->key);
   if (left_height < 0)
      return -1;
   right_height = rb_validate_subtree(node->right, node, true, node->key, has_hi, hi);
   if (right_height < 0)
      return -1;
   if (left_height != right_height) {
      cuvk_loge("rb_tree: node %#llx has black heights %d (left) and %d (right)",
                (unsigned long long)node->key, left_height, right_height);
      return -1;
   }
   return left_height + (node->color == CUVK_RB_BLACK);
}

bool
cuvk_rb_tree_validate(const struct cuvk_rb_tree *tree)
{
   if (rb_is_red(tree->root)) {
      cuvk_loge("rb_tree: the root is red");
      return false;
   }
   return rb_validate_subtree(tree->root, NULL, false, 0, false, 0) >= 0;
}
