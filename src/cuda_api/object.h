/*
 * Handle validation.
 *
 * Every handle cuvk gives out (context, stream, event, external memory, ...)
 * starts with a cuvk_object and is entered in one process-wide table, so an
 * entry point can tell a live handle of the right type from a stale or
 * garbage pointer without dereferencing it.  That is what lets cuvk answer
 * bad handles with an error code where real CUDA may crash.
 */
#ifndef CUVK_API_OBJECT_H
#define CUVK_API_OBJECT_H

#include <stdbool.h>
#include <stdint.h>

#include "util/rb_tree.h"

enum cuvk_object_type {
   CUVK_OBJECT_CONTEXT = 1,
   CUVK_OBJECT_STREAM,
   CUVK_OBJECT_EVENT,
   CUVK_OBJECT_EXTERNAL_MEMORY,
   CUVK_OBJECT_ARRAY,
   CUVK_OBJECT_MIPMAPPED_ARRAY,
   CUVK_OBJECT_VMM_HANDLE,
   CUVK_OBJECT_EXTERNAL_SEMAPHORE,
   CUVK_OBJECT_MODULE,
   CUVK_OBJECT_FUNCTION,
   CUVK_OBJECT_LIBRARY,
   CUVK_OBJECT_KERNEL,
   CUVK_OBJECT_LINK_STATE,
};

struct cuvk_object {
   struct cuvk_rb_node node; /* keyed by the object's address */
   enum cuvk_object_type type;
};

/* Enters obj in the table; its memory must stay valid until removed. */
void cuvk_object_add(struct cuvk_object *obj, enum cuvk_object_type type);
void cuvk_object_remove(struct cuvk_object *obj);

/* True when handle is a live object of the given type. */
bool cuvk_object_is(const void *handle, enum cuvk_object_type type);

#endif
