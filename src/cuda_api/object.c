#include "cuda_api/object.h"

#include <assert.h>
#include <pthread.h>

#include "util/macros.h"

static struct cuvk_rb_tree object_table;
static pthread_rwlock_t object_lock = PTHREAD_RWLOCK_INITIALIZER;
static pthread_once_t object_once = PTHREAD_ONCE_INIT;

static void
object_table_init(void)
{
   cuvk_rb_tree_init(&object_table);
}

void
cuvk_object_add_in(struct cuvk_object *obj, enum cuvk_object_type type, cuvk_object_free_fn free,
                   struct cuvk_object *ctx)
{
   pthread_once(&object_once, object_table_init);
   obj->refs = 1;
   obj->free = free;
   obj->owner = NULL;
   obj->ctx = ctx;
   pthread_rwlock_wrlock(&object_lock);
   obj->type = type;
   cuvk_rb_tree_insert(&object_table, &obj->node, (uint64_t)(uintptr_t)obj);
   pthread_rwlock_unlock(&object_lock);
}

void
cuvk_object_add(struct cuvk_object *obj, enum cuvk_object_type type, cuvk_object_free_fn free)
{
   cuvk_object_add_in(obj, type, free, NULL);
}

void
cuvk_object_add_owned(struct cuvk_object *obj, enum cuvk_object_type type, struct cuvk_object *owner)
{
   pthread_once(&object_once, object_table_init);
   obj->refs = 0;
   obj->free = NULL;
   obj->owner = owner;
   obj->ctx = owner->ctx;
   pthread_rwlock_wrlock(&object_lock);
   obj->type = type;
   cuvk_rb_tree_insert(&object_table, &obj->node, (uint64_t)(uintptr_t)obj);
   pthread_rwlock_unlock(&object_lock);
}

bool
cuvk_object_remove(struct cuvk_object *obj)
{
   bool removed;

   pthread_rwlock_wrlock(&object_lock);
   /* type says whether the node is in the tree; only written under the
    * write lock, so two destroys racing take it out once. */
   removed = obj->type != 0;
   if (removed) {
      cuvk_rb_tree_remove(&object_table, &obj->node);
      obj->type = 0;
   }
   pthread_rwlock_unlock(&object_lock);
   return removed;
}

/* Drops one reference to obj itself (a counted object, not an owned
 * one); the last frees it. */
static void
object_unref(struct cuvk_object *obj)
{
   /* Acquire-release: every use before another thread's put happens
    * before the free on the thread that drops the last reference. */
   if (__atomic_fetch_sub(&obj->refs, 1, __ATOMIC_ACQ_REL) == 1)
      obj->free(obj);
}

bool
cuvk_object_release(struct cuvk_object *obj)
{
   if (!cuvk_object_remove(obj))
      return false;
   /* The table's reference holds no context. */
   object_unref(obj);
   return true;
}

static struct cuvk_object *
object_find_locked(const void *handle, enum cuvk_object_type type)
{
   struct cuvk_rb_node *node = cuvk_rb_tree_search(&object_table, (uint64_t)(uintptr_t)handle);
   if (!node)
      return NULL;
   struct cuvk_object *obj = cuvk_container_of(node, struct cuvk_object, node);
   return obj->type == type ? obj : NULL;
}

bool
cuvk_object_is(const void *handle, enum cuvk_object_type type)
{
   bool found;

   if (!handle)
      return false;
   pthread_once(&object_once, object_table_init);
   pthread_rwlock_rdlock(&object_lock);
   found = object_find_locked(handle, type) != NULL;
   pthread_rwlock_unlock(&object_lock);
   return found;
}

struct cuvk_object *
cuvk_object_get(const void *handle, enum cuvk_object_type type)
{
   struct cuvk_object *obj;

   if (!handle)
      return NULL;
   pthread_once(&object_once, object_table_init);
   pthread_rwlock_rdlock(&object_lock);
   obj = object_find_locked(handle, type);
   /* Under the read lock the table's reference is still held (a release
    * needs the write lock to take it; an owned object leaves the table
    * before its owner's reference there goes), so the count is above
    * zero here and a relaxed increment is enough; lookups run side by
    * side. */
   if (obj) {
      struct cuvk_object *counted = obj->owner ? obj->owner : obj;
      /* A context out of the table is being destroyed: its objects are
       * as good as gone, and its destroy waits only for the references
       * taken before.  Same lock, so the two cannot cross. */
      struct cuvk_object *ctx = counted->ctx;
      if (ctx && ctx->type != CUVK_OBJECT_CONTEXT) {
         obj = NULL;
      } else {
         assert(counted->free);
         __atomic_fetch_add(&counted->refs, 1, __ATOMIC_RELAXED);
         if (ctx)
            __atomic_fetch_add(&ctx->refs, 1, __ATOMIC_RELAXED);
      }
   }
   pthread_rwlock_unlock(&object_lock);
   return obj;
}

void
cuvk_object_put(struct cuvk_object *obj)
{
   if (!obj)
      return;
   if (obj->owner)
      obj = obj->owner;
   /* Read before the put that may free obj; the context goes last, as
    * the object's free may still use it. */
   struct cuvk_object *ctx = obj->ctx;
   object_unref(obj);
   if (ctx)
      object_unref(ctx);
}

void
cuvk_object_keep(struct cuvk_object *obj)
{
   if (obj->owner)
      obj = obj->owner;
   /* The caller holds obj's context by other means (it is the call's
    * own), so this cannot be its last reference. */
   if (obj->ctx)
      object_unref(obj->ctx);
}

void
cuvk_object_put_kept(struct cuvk_object *obj)
{
   if (!obj)
      return;
   if (obj->owner)
      obj = obj->owner;
   object_unref(obj);
}
