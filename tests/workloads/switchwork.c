/* switchwork: two threads that hand a byte back and forth through two
 * pipes as fast as they can, so that each blocks and wakes the other:
 * tens of thousands of context switches a second (the --off-cpu bench).
 * argv[1]: round trips (default 1000000; 0: until killed). */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

static int ping[2], pong[2];

static void *echo(void *arg)
{
	char c;

	(void)arg;
	while (read(ping[0], &c, 1) == 1 && write(pong[1], &c, 1) == 1)
		;
	return NULL;
}

static void round_trip(void)
{
	char c = 'x';

	if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1)
		exit(1);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000;
	pthread_t t;

	if (pipe(ping) || pipe(pong) || pthread_create(&t, NULL, echo, NULL))
		return 1;
	for (long i = 0; n == 0 || i < n; i++)
		round_trip();
	return 0;
}
