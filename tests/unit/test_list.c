/* util/list.h: ordering of add/addtail, deletion, and both walks. */
#include "unit_test.h"
#include "util/list.h"

struct item {
   int value;
   struct cuvk_list link;
};

/* Compares the list's values, in order, with want[0..n). */
static void
check_values(struct cuvk_list *head, const int *want, unsigned n)
{
   unsigned i = 0;

   cuvk_list_for_each_entry(struct item, it, head, link) {
      UNIT_CHECK(i < n && it->value == want[i]);
      i++;
   }
   UNIT_CHECK(i == n);
   UNIT_CHECK(cuvk_list_is_empty(head) == (n == 0));
}

int
main(void)
{
   struct item items[6];
   struct cuvk_list head;

   cuvk_list_init(&head);
   check_values(&head, NULL, 0);

   for (int i = 0; i < 6; i++)
      items[i].value = i;
   cuvk_list_addtail(&items[2].link, &head);
   cuvk_list_addtail(&items[3].link, &head);
   cuvk_list_add(&items[1].link, &head);
   cuvk_list_add(&items[0].link, &head);
   cuvk_list_addtail(&items[4].link, &head);
   cuvk_list_addtail(&items[5].link, &head);
   check_values(&head, (const int[]){ 0, 1, 2, 3, 4, 5 }, 6);
   UNIT_CHECK(cuvk_list_first_entry(&head, struct item, link) == &items[0]);

   cuvk_list_del(&items[3].link);
   check_values(&head, (const int[]){ 0, 1, 2, 4, 5 }, 5);

   /* The safe walk survives deleting every other entry, then all. */
   cuvk_list_for_each_entry_safe(struct item, it, &head, link) {
      if (it->value % 2 == 0)
         cuvk_list_del(&it->link);
   }
   check_values(&head, (const int[]){ 1, 5 }, 2);
   cuvk_list_for_each_entry_safe(struct item, it, &head, link)
      cuvk_list_del(&it->link);
   check_values(&head, NULL, 0);

   /* A ring of peers without a head: a lone item is "empty". */
   cuvk_list_init(&items[0].link);
   UNIT_CHECK(cuvk_list_is_empty(&items[0].link));
   cuvk_list_addtail(&items[1].link, &items[0].link);
   UNIT_CHECK(!cuvk_list_is_empty(&items[0].link) && !cuvk_list_is_empty(&items[1].link));
   cuvk_list_del(&items[0].link);
   UNIT_CHECK(cuvk_list_is_empty(&items[1].link));

   return unit_report("unit.util.list");
}
