// The same dump from a C++ compiler: adds mangled function and type names,
// and proves the header works in C++ at all.
#include "abi_dump.c"
