/* Tests of the pure ring reader over byte images (wrap, bad sizes, lap). */
#include <stdlib.h>
#include <string.h>

#include "src/core/ring.h"
#include "tests/testutil.h"

#define PAGE 4096

/* A fake mapping: control page followed by `size` bytes of data. */
struct image {
	unsigned char *mem;
	size_t size;
	struct perf_event_mmap_page *pg;
};

static void image_init(struct image *im, size_t size)
{
	im->mem = aligned_alloc(PAGE, PAGE + size);
	ck_assert_ptr_nonnull(im->mem);
	memset(im->mem, 0, PAGE + size);
	im->size = size;
	im->pg = (void *)im->mem;
}

/* Writes a record of `size` bytes (type, a counter in the body) at
 * position pos (masked, wrapping), as the kernel would. */
static void put_record(struct image *im, u64 pos, u16 size, u32 type,
		       u64 tag)
{
	unsigned char rec[65536];
	struct perf_event_header *h = (void *)rec;

	memset(rec, 0, size);
	h->type = type;
	h->size = size;
	if (size >= 16)
		memcpy(rec + 8, &tag, 8);
	for (u16 i = 0; i < size; i++)
		im->mem[PAGE + ((pos + i) & (im->size - 1))] = rec[i];
}

static u64 tag_of(const struct perf_event_header *h)
{
	u64 t;

	memcpy(&t, h + 1, 8);
	return t;
}

START_TEST(test_empty)
{
	struct image im;
	struct ring *r = malloc(sizeof(*r));

	image_init(&im, 8192);
	ck_assert_int_eq(ring__init(r, im.mem, PAGE + 8192, PAGE), 0);
	ck_assert_uint_eq(ring__read_init(r), 0);
	ck_assert_ptr_null(ring__next(r));
	free(r);
	free(im.mem);
}
END_TEST

START_TEST(test_bad_geometry)
{
	struct image im;
	struct ring *r = malloc(sizeof(*r));

	image_init(&im, 8192);
	/* not a power of two */
	ck_assert_int_eq(ring__init(r, im.mem, PAGE + 6000, PAGE), -EINVAL);
	/* data_offset/size past the mapping */
	im.pg->data_offset = PAGE;
	im.pg->data_size = 16384;
	ck_assert_int_eq(ring__init(r, im.mem, PAGE + 8192, PAGE), -EINVAL);
	free(r);
	free(im.mem);
}
END_TEST

START_TEST(test_records_and_wrap)
{
	struct image im;
	struct ring *r = malloc(sizeof(*r));
	const struct perf_event_header *h;
	u64 pos, n = 0;

	image_init(&im, 4096);
	ck_assert_int_eq(ring__init(r, im.mem, PAGE + 4096, PAGE), 0);
	/* start near the end so that the 3rd record wraps */
	pos = 4096 * 3 + 4096 - 48;
	im.pg->data_tail = pos;
	put_record(&im, pos, 24, PERF_RECORD_SAMPLE, 1);
	put_record(&im, pos + 24, 16, PERF_RECORD_SAMPLE, 2);
	put_record(&im, pos + 40, 64, PERF_RECORD_MMAP2, 3); /* wraps */
	put_record(&im, pos + 104, 16, PERF_RECORD_SAMPLE, 4);
	im.pg->data_head = pos + 120;

	ck_assert_uint_eq(ring__read_init(r), 120);
	while ((h = ring__next(r))) {
		n++;
		ck_assert_uint_eq(tag_of(h), n);
		ck_assert_uint_eq((uintptr_t)h % 8, 0);
		if (n == 3) {
			ck_assert_uint_eq(h->size, 64);
			ck_assert_uint_eq(h->type, PERF_RECORD_MMAP2);
		}
	}
	ck_assert_uint_eq(n, 4);
	ring__consume(r);
	ck_assert_uint_eq(im.pg->data_tail, pos + 120);
	ck_assert_uint_eq(r->bad_records, 0);
	/* nothing new */
	ck_assert_uint_eq(ring__read_init(r), 0);
	free(r);
	free(im.mem);
}
END_TEST

START_TEST(test_peek_then_next)
{
	struct image im;
	struct ring *r = malloc(sizeof(*r));
	const struct perf_event_header *a, *b;

	image_init(&im, 4096);
	ck_assert_int_eq(ring__init(r, im.mem, PAGE + 4096, PAGE), 0);
	put_record(&im, 0, 32, PERF_RECORD_SAMPLE, 7);
	im.pg->data_head = 32;
	ring__read_init(r);
	a = ring__peek(r);
	b = ring__next(r);
	ck_assert_ptr_eq(a, b);
	ck_assert_uint_eq(tag_of(b), 7);
	ck_assert_ptr_null(ring__next(r));
	free(r);
	free(im.mem);
}
END_TEST

/* Sizes that cannot be trusted: the rest of the window is dropped and
 * counted; the reader goes on at the next read. */
static void bad_size_case(u16 size)
{
	struct image im;
	struct ring *r = malloc(sizeof(*r));
	const struct perf_event_header *h;

	image_init(&im, 4096);
	ck_assert_int_eq(ring__init(r, im.mem, PAGE + 4096, PAGE), 0);
	put_record(&im, 0, 16, PERF_RECORD_SAMPLE, 1);
	/* the header of the bad record */
	memset(im.mem + PAGE + 16, 0, 8);
	memcpy(im.mem + PAGE + 16 + 6, &size, 2);
	im.pg->data_head = 16 + 32;
	ring__read_init(r);
	h = ring__next(r);
	ck_assert_ptr_nonnull(h);
	ck_assert_uint_eq(tag_of(h), 1);
	ck_assert_ptr_null(ring__next(r));
	ck_assert_uint_eq(r->bad_records, 1);
	ck_assert_uint_eq(r->dropped_bytes, 32);
	ring__consume(r);
	ck_assert_uint_eq(im.pg->data_tail, 48);
	/* a good record after that is read normally */
	put_record(&im, 48, 16, PERF_RECORD_SAMPLE, 9);
	im.pg->data_head = 64;
	ring__read_init(r);
	h = ring__next(r);
	ck_assert_ptr_nonnull(h);
	ck_assert_uint_eq(tag_of(h), 9);
	free(r);
	free(im.mem);
}

START_TEST(test_bad_sizes)
{
	bad_size_case(0);	/* zero */
	bad_size_case(4);	/* under the header */
	bad_size_case(20);	/* not a multiple of 8 */
	bad_size_case(40);	/* past what was published */
	bad_size_case(8192);	/* larger than the ring */
}
END_TEST

START_TEST(test_lapped)
{
	struct image im;
	struct ring *r = malloc(sizeof(*r));

	image_init(&im, 4096);
	ck_assert_int_eq(ring__init(r, im.mem, PAGE + 4096, PAGE), 0);
	im.pg->data_head = 3 * 4096;
	ck_assert_uint_eq(ring__read_init(r), 0);
	ck_assert_uint_eq(r->lapped, 1);
	ck_assert_ptr_null(ring__next(r));
	free(r);
	free(im.mem);
}
END_TEST

START_TEST(test_data_offset)
{
	struct image im;
	struct ring *r = malloc(sizeof(*r));
	const struct perf_event_header *h;

	/* the kernel's data_offset/data_size are honoured */
	image_init(&im, 8192);
	im.pg->data_offset = PAGE;
	im.pg->data_size = 8192;
	ck_assert_int_eq(ring__init(r, im.mem, PAGE + 8192, PAGE), 0);
	ck_assert_uint_eq(r->size, 8192);
	put_record(&im, 8192 - 8, 16, PERF_RECORD_SAMPLE, 5);
	im.pg->data_tail = 8192 - 8;
	im.pg->data_head = 8192 + 8;
	ring__read_init(r);
	h = ring__next(r);
	ck_assert_ptr_nonnull(h);
	ck_assert_uint_eq(tag_of(h), 5);
	free(r);
	free(im.mem);
}
END_TEST

Suite *ring_suite(void)
{
	Suite *s = suite_create("ring");
	TCase *tc = tcase_create("ring");

	tcase_add_test(tc, test_empty);
	tcase_add_test(tc, test_bad_geometry);
	tcase_add_test(tc, test_records_and_wrap);
	tcase_add_test(tc, test_peek_then_next);
	tcase_add_test(tc, test_bad_sizes);
	tcase_add_test(tc, test_lapped);
	tcase_add_test(tc, test_data_offset);
	suite_add_tcase(s, tc);
	return s;
}
