/* main: command line, wiring of source, session and front end. */
#include <stdio.h>

int main(void)
{
	fprintf(stderr, "ptop: under construction\n");
	return 1;
}
