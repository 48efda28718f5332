/* libwlcg.so: the library function of cgwork, called from two callers. */
volatile unsigned long wlcg_sink;

__attribute__((noinline)) void lib_work(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		wlcg_sink += i * i;
}
