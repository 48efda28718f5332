/* protobuf: the wire format's writer (pure): varints, tags, lengths. */
#ifndef PTOP_PROTOBUF_H
#define PTOP_PROTOBUF_H

#include "src/core/util.h"

/*
 * Appends fields to a strbuf (its oom flag says a write failed).  A
 * nested message is written into a strbuf of its own, then added with
 * pb__bytes under its field number (the length comes first on the
 * wire).  Scalars equal to zero are still written: proto3 readers take
 * them as the default, so the caller leaves out what it wants absent.
 *
 *	pb__uint(&loc, 1, id);
 *	pb__bytes(&profile, 4, loc.buf, loc.len);
 */
enum pb_wire {
	PB_VARINT = 0,
	PB_I64 = 1,
	PB_LEN = 2,
	PB_I32 = 5,
};

void pb__varint(struct strbuf *sb, u64 v);
void pb__tag(struct strbuf *sb, u32 field, enum pb_wire wire);
/* uint64, int64 (two's complement, 10 bytes when negative), bool */
void pb__uint(struct strbuf *sb, u32 field, u64 v);
void pb__int(struct strbuf *sb, u32 field, s64 v);
void pb__bool(struct strbuf *sb, u32 field, bool v);
/* length-delimited: bytes, string, an encoded message */
void pb__bytes(struct strbuf *sb, u32 field, const void *p, size_t len);
void pb__string(struct strbuf *sb, u32 field, const char *s);
/* packed repeated uint64 / int64 */
void pb__packed(struct strbuf *sb, u32 field, const u64 *v, size_t n);

/* Decoding, for the tests: a varint at *p (advanced) below end;
 * -EINVAL when it runs past end or past 10 bytes. */
int pb__read_varint(const u8 **p, const u8 *end, u64 *v);

#endif
