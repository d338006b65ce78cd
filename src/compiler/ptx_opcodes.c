/*
 * Lookups into the tables of ptx_opcodes.h.  Both tables are short enough
 * that a linear scan with a length check first costs less than the lexer's
 * work on the same token, so there is no hash.
 */
#include "compiler/ptx_opcodes.h"

#include <string.h>

const struct ptx_opcode_info ptx_opcode_table[PTX_OP_COUNT] = {
#define PTX_OP_ROW(e, text, mn, mx, fl) [PTX_OP_##e] = { text, mn, mx, fl },
   PTX_OPCODES(PTX_OP_ROW)
#undef PTX_OP_ROW
};

const struct ptx_modifier_info ptx_modifier_table[PTX_MOD_COUNT] = {
#define PTX_MOD_ROW(e, text, c, tk, b) [PTX_MOD_##e] = { text, c, tk, b },
   PTX_MODIFIERS(PTX_MOD_ROW)
#undef PTX_MOD_ROW
};

enum ptx_opcode
ptx_opcode_lookup(const char *name, size_t len)
{
   for (unsigned i = 0; i < PTX_OP_COUNT; i++) {
      const char *n = ptx_opcode_table[i].name;
      if (strlen(n) == len && memcmp(n, name, len) == 0)
         return (enum ptx_opcode)i;
   }
   return PTX_OP_COUNT;
}

enum ptx_modifier
ptx_modifier_lookup(const char *name, size_t len)
{
   for (unsigned i = 0; i < PTX_MOD_COUNT; i++) {
      const char *n = ptx_modifier_table[i].name;
      if (strlen(n) == len && memcmp(n, name, len) == 0)
         return (enum ptx_modifier)i;
   }
   return PTX_MOD_COUNT;
}
