/* libwlhot.so: the hot function of the dlopen workload. */
volatile unsigned long wlhot_sink;

__attribute__((noinline)) void wlhot_spin(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		wlhot_sink += i ^ (i >> 3);
}
