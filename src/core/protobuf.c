/* protobuf: the wire format's writer (pure). */
#include <errno.h>
#include <string.h>

#include "src/core/protobuf.h"

void pb__varint(struct strbuf *sb, u64 v)
{
	char b[10];
	size_t n = 0;

	do {
		b[n] = (char)(v & 0x7f);
		v >>= 7;
		if (v)
			b[n] |= (char)0x80;
		n++;
	} while (v);
	strbuf__add(sb, b, n);
}

void pb__tag(struct strbuf *sb, u32 field, enum pb_wire wire)
{
	pb__varint(sb, (u64)field << 3 | (u64)wire);
}

void pb__uint(struct strbuf *sb, u32 field, u64 v)
{
	pb__tag(sb, field, PB_VARINT);
	pb__varint(sb, v);
}

void pb__int(struct strbuf *sb, u32 field, s64 v)
{
	pb__uint(sb, field, (u64)v);
}

void pb__bool(struct strbuf *sb, u32 field, bool v)
{
	pb__uint(sb, field, v ? 1 : 0);
}

void pb__bytes(struct strbuf *sb, u32 field, const void *p, size_t len)
{
	pb__tag(sb, field, PB_LEN);
	pb__varint(sb, len);
	if (len)
		strbuf__add(sb, p, len);
}

void pb__string(struct strbuf *sb, u32 field, const char *s)
{
	pb__bytes(sb, field, s, strlen(s));
}

static size_t varint_len(u64 v)
{
	size_t n = 1;

	while (v >>= 7)
		n++;
	return n;
}

void pb__packed(struct strbuf *sb, u32 field, const u64 *v, size_t n)
{
	size_t len = 0;

	for (size_t i = 0; i < n; i++)
		len += varint_len(v[i]);
	pb__tag(sb, field, PB_LEN);
	pb__varint(sb, len);
	for (size_t i = 0; i < n; i++)
		pb__varint(sb, v[i]);
}

int pb__read_varint(const u8 **p, const u8 *end, u64 *v)
{
	u64 r = 0;

	for (unsigned int i = 0; i < 10; i++) {
		u8 b;

		if (*p >= end)
			return -EINVAL;
		b = *(*p)++;
		r |= (u64)(b & 0x7f) << (7 * i);
		if (!(b & 0x80)) {
			*v = r;
			return 0;
		}
	}
	return -EINVAL;
}
