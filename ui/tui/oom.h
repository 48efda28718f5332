/* oom: the live view's one out-of-memory path.  Only main.c and ui/ may
 * treat running out of memory as fatal (STYLE.md): where the view cannot
 * go on without the memory, it says so on stderr and aborts. */
#ifndef PTOP_OOM_H
#define PTOP_OOM_H

void oom__die(void) __attribute__((noreturn));

#endif
