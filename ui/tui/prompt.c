/* prompt: the footer's line editor. */
#include <stdio.h>
#include <string.h>

#include "ui/tui/keytypes.h"
#include "ui/tui/prompt.h"

void prompt__open(struct prompt *p, enum prompt_kind kind, const char *label,
		  const char *initial)
{
	memset(p, 0, sizeof(*p));
	p->kind = kind;
	snprintf(p->label, sizeof(p->label), "%s", label);
	snprintf(p->buf, sizeof(p->buf), "%s", initial ? initial : "");
	p->len = strlen(p->buf);
	snprintf(p->saved, sizeof(p->saved), "%s", p->buf);
}

bool prompt__is_text(int key)
{
	return key >= 0x20 && key != 0x7f && key < K_BASE &&
	       !(key >= 0x80 && key < 0xa0) &&
	       !(key >= 0xd800 && key <= 0xdfff);
}

bool prompt__insert(struct prompt *p, u32 cp)
{
	char enc[4];
	size_t n;

	if (!prompt__is_text((int)cp))
		return false;
	if (cp < 0x80) {
		enc[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		enc[0] = (char)(0xc0 | cp >> 6);
		enc[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		enc[0] = (char)(0xe0 | cp >> 12);
		enc[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		enc[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		enc[0] = (char)(0xf0 | cp >> 18);
		enc[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		enc[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		enc[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	if (p->len + n >= sizeof(p->buf))
		return false;
	memcpy(p->buf + p->len, enc, n);
	p->len += n;
	p->buf[p->len] = '\0';
	return true;
}

bool prompt__erase(struct prompt *p)
{
	if (!p->len)
		return false;
	do
		p->len--;
	while (p->len && ((unsigned char)p->buf[p->len] & 0xc0) == 0x80);
	p->buf[p->len] = '\0';
	return true;
}

void prompt__kill(struct prompt *p)
{
	p->len = 0;
	p->buf[0] = '\0';
}
