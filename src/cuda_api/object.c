#include "cuda_api/object.h"

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
cuvk_object_add(struct cuvk_object *obj, enum cuvk_object_type type)
{
   pthread_once(&object_once, object_table_init);
   obj->type = type;
   pthread_rwlock_wrlock(&object_lock);
   cuvk_rb_tree_insert(&object_table, &obj->node, (uint64_t)(uintptr_t)obj);
   pthread_rwlock_unlock(&object_lock);
}

void
cuvk_object_remove(struct cuvk_object *obj)
{
   pthread_rwlock_wrlock(&object_lock);
   cuvk_rb_tree_remove(&object_table, &obj->node);
   pthread_rwlock_unlock(&object_lock);
   obj->type = 0;
}

bool
cuvk_object_is(const void *handle, enum cuvk_object_type type)
{
   struct cuvk_rb_node *node;
   bool found;

   if (!handle)
      return false;
   pthread_once(&object_once, object_table_init);
   pthread_rwlock_rdlock(&object_lock);
   node = cuvk_rb_tree_search(&object_table, (uint64_t)(uintptr_t)handle);
   found = node && cuvk_container_of(node, struct cuvk_object, node)->type == type;
   pthread_rwlock_unlock(&object_lock);
   return found;
}
