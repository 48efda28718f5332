/* oom: the live view's one out-of-memory path (see oom.h). */
#include <stdio.h>
#include <stdlib.h>

#include "ui/tui/oom.h"

void oom__die(void)
{
	perror("ptop");
	abort();
}
