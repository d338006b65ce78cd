/*
 * Handle validation and lifetime.
 *
 * Every handle cuvk gives out (context, stream, event, external memory, ...)
 * starts with a cuvk_object and is entered in one process-wide table, so an
 * entry point can tell a live handle of the right type from a stale or
 * garbage pointer without dereferencing it.  That is what lets cuvk answer
 * bad handles with an error code where real CUDA may crash.
 *
 * An object entered with a free function is reference counted: the table
 * holds one reference, and cuvk_object_get hands out another under the
 * table's lock.  A destroy takes the entry out of the table and drops the
 * table's reference (cuvk_object_release), so later lookups fail as for
 * any dead handle, while a call that found the object before keeps it
 * alive until its cuvk_object_put; the last reference frees it.  Without
 * this, a destroy on another thread would free the object under a call
 * that had already checked it.
 *
 * An object of a context (entered with cuvk_object_add_in) also holds
 * that context for the call: cuvk_object_get takes a reference to both
 * under the table's lock, and fails once the context has left the table.
 * A context's destroy waits for its references to drain before it tears
 * anything down (context.c), so a call never finds its object's context
 * freed under it.
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
   CUVK_OBJECT_GRAPH,
   CUVK_OBJECT_GRAPH_NODE,
   CUVK_OBJECT_GRAPH_EXEC,
};

struct cuvk_object;

/* Frees an object once its last reference is dropped; runs on the thread
 * that dropped it, with none of cuvk's locks held by that put. */
typedef void (*cuvk_object_free_fn)(struct cuvk_object *obj);

struct cuvk_object {
   struct cuvk_rb_node node; /* keyed by the object's address */
   enum cuvk_object_type type; /* 0 once out of the table */
   uint32_t refs;
   cuvk_object_free_fn free; /* NULL: not counted, freed by its owner */
   /* Set: references to this object are references to owner, whose
    * memory holds it (a module's functions); it must leave the table
    * before owner's reference there goes. */
   struct cuvk_object *owner;
   /* The context a lookup of this object also holds (NULL: none); an
    * owned object's is its owner's. */
   struct cuvk_object *ctx;
};

/* Enters obj in the table, holding the table's reference; its memory must
 * stay valid until removed (free NULL) or until its last put. */
void cuvk_object_add(struct cuvk_object *obj, enum cuvk_object_type type, cuvk_object_free_fn free);

/* cuvk_object_add for an object of a context: a lookup holds ctx too,
 * and finds nothing once ctx has left the table. */
void cuvk_object_add_in(struct cuvk_object *obj, enum cuvk_object_type type, cuvk_object_free_fn free,
                        struct cuvk_object *ctx);

/* Enters obj, which lives as long as owner does (a counted object). */
void cuvk_object_add_owned(struct cuvk_object *obj, enum cuvk_object_type type, struct cuvk_object *owner);

/* Takes obj out of the table; false when it was out already (another
 * thread destroyed it first).  Does not touch the references: for objects
 * their owner frees directly (a context's, at its teardown). */
bool cuvk_object_remove(struct cuvk_object *obj);

/* cuvk_object_remove, then drops the table's reference when it was this
 * call that took the object out. */
bool cuvk_object_release(struct cuvk_object *obj);

/* True when handle is a live object of the given type. */
bool cuvk_object_is(const void *handle, enum cuvk_object_type type);

/* The object handle names, with a reference the caller must put, when it
 * is a live object of the given type (counted) whose context, if it has
 * one, is live too; NULL otherwise. */
struct cuvk_object *cuvk_object_get(const void *handle, enum cuvk_object_type type);

/* Drops a reference cuvk_object_get took (obj's owner's, for an owned
 * object, and its context's); the last one frees the object.  NULL is
 * ignored. */
void cuvk_object_put(struct cuvk_object *obj);

/* Turns a reference cuvk_object_get took into one that holds obj alone,
 * not its context: for an object of the context that keeps it (a texture
 * slot keeps its array), which would otherwise hold its own context and
 * keep the context's destroy waiting for it forever.  The caller must
 * hold obj's context otherwise while it calls this.  Dropped with
 * cuvk_object_put_kept, before the context's teardown frees obj. */
void cuvk_object_keep(struct cuvk_object *obj);
void cuvk_object_put_kept(struct cuvk_object *obj);

#endif
