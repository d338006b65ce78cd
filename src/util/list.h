/*
 * Intrusive doubly linked circular list.
 *
 * A list is a struct cuvk_list head that links to itself when empty; items
 * embed a struct cuvk_list and are recovered with cuvk_container_of, so
 * linking an object never allocates and unlinking it is O(1) from the object
 * alone.  The head and the item links are the same type, which also lets a
 * ring of peers (no distinguished head) be built from items only.
 */
#ifndef CUVK_UTIL_LIST_H
#define CUVK_UTIL_LIST_H

#include <stdbool.h>
#include <stddef.h>

#include "util/macros.h"

struct cuvk_list {
   struct cuvk_list *prev, *next;
};

static inline void
cuvk_list_init(struct cuvk_list *list)
{
   list->prev = list;
   list->next = list;
}

/* Links item between two adjacent entries; the building block of add and
 * addtail. */
static inline void
cuvk_list_link_between(struct cuvk_list *item, struct cuvk_list *prev,
                          struct cuvk_list *next)
{
   item->prev = prev;
   item->next = next;
   prev->next = item;
   next->prev = item;
}

/* Links item right after head, making it the first entry. */
static inline void
cuvk_list_add(struct cuvk_list *item, struct cuvk_list *head)
{
   cuvk_list_link_between(item, head, head->next);
}

/* Links item right before head, making it the last entry. */
static inline void
cuvk_list_addtail(struct cuvk_list *item, struct cuvk_list *head)
{
   cuvk_list_link_between(item, head->prev, head);
}

/* Unlinks item.  Its links are cleared so that a second cuvk_list_del, or a
 * walk through a stale item, faults at once instead of corrupting the list;
 * call cuvk_list_init before reusing it as a head. */
static inline void
cuvk_list_del(struct cuvk_list *item)
{
   item->prev->next = item->next;
   item->next->prev = item->prev;
   item->prev = NULL;
   item->next = NULL;
}

/* True when head links to nothing but itself; for a ring of peers, true when
 * item is alone. */
static inline bool
cuvk_list_is_empty(const struct cuvk_list *head)
{
   return head->next == head;
}

/* The first entry of a list that must not be empty. */
#define cuvk_list_first_entry(head, type, member) \
   cuvk_container_of((head)->next, type, member)

/* Walks every entry; pos is declared by the macro and scoped to the loop.
 * The body must not unlink pos: use the _safe variant for that. */
#define cuvk_list_for_each_entry(type, pos, head, member)               \
   for (type *pos = cuvk_container_of((head)->next, type, member);      \
        &pos->member != (head);                                         \
        pos = cuvk_container_of(pos->member.next, type, member))

/* Like cuvk_list_for_each_entry, but reads the next entry before the body
 * runs, so the body may unlink (and free) pos.  It must not unlink any other
 * entry. */
#define cuvk_list_for_each_entry_safe(type, pos, head, member)                 \
   for (type *pos = cuvk_container_of((head)->next, type, member),             \
             *pos##_next_ = cuvk_container_of(pos->member.next, type, member); \
        &pos->member != (head);                                                \
        pos = pos##_next_,                                                     \
             pos##_next_ = cuvk_container_of(pos##_next_->member.next, type, member))

#endif
