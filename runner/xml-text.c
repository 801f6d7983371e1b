#include "xml-text.h"

#include <stdbool.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at S (N bytes left) that XML 1.0 may
 * hold (production Char), or 0. RFC 3629 section 4 gives the valid
 * sequences: no overlong forms, no surrogates (ED A0..BF), nothing past
 * U+10FFFF (F4 90..). */
static int xml_char_len(const unsigned char *s, size_t n)
{
	unsigned c = s[0];
	int len, i;
	unsigned lo = 0x80, hi = 0xBF;

	if (c < 0x80) /* XML Char: #x9 | #xA | #xD | [#x20-...] */
		return (c >= 0x20 || c == '\t' || c == '\n' || c == '\r') && c != 0x7F ? 1 : 0;
	if (c >= 0xC2 && c <= 0xDF)
		len = 2;
	else if (c >= 0xE0 && c <= 0xEF)
		len = 3;
	else if (c >= 0xF0 && c <= 0xF4)
		len = 4;
	else
		return 0;
	if (c == 0xE0)
		lo = 0xA0;
	else if (c == 0xED)
		hi = 0x9F;
	else if (c == 0xF0)
		lo = 0x90;
	else if (c == 0xF4)
		hi = 0x8F;
	if (n < (size_t)len || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xBF)
			return 0;
	/* U+FFFE and U+FFFF are not XML characters */
	if (len == 3 && c == 0xEF && s[1] == 0xBF && (s[2] == 0xBE || s[2] == 0xBF))
		return 0;
	return len;
}

int vt_xml_text(FILE *in, FILE *out, long long max, const char *see)
{
	unsigned char buf[65536 + 4];
	size_t have = 0, i, got;
	long long done = 0, cut = 0;
	bool eof = false, stop = false;

	while (!eof || have) {
		if (!eof) {
			got = fread(buf + have, 1, sizeof(buf) - 4 - have, in);
			have += got;
			if (got == 0)
				eof = true;
		}
		for (i = 0; i < have;) {
			int len;

			/* keep an incomplete sequence at the end for the next read */
			if (!eof && have - i < 4 && buf[i] >= 0xC0)
				break;
			len = xml_char_len(buf + i, have - i);
			if (stop) {
				cut += len ? len : 1;
				i += len ? (size_t)len : 1;
				continue;
			}
			if (max > 0 && done >= max) {
				stop = true;
				continue;
			}
			if (len == 0) {
				fputs("\xEF\xBF\xBD", out);
				len = 1;
			} else if (buf[i] == '&') {
				fputs("&amp;", out);
			} else if (buf[i] == '<') {
				fputs("&lt;", out);
			} else if (buf[i] == '>') {
				fputs("&gt;", out);
			} else if (buf[i] == '"') {
				fputs("&quot;", out);
			} else if (buf[i] == '\'') {
				fputs("&apos;", out);
			} else {
				fwrite(buf + i, 1, (size_t)len, out);
			}
			i += (size_t)len;
			done += len;
		}
		memmove(buf, buf + i, have - i);
		have -= i;
		if (eof && have == 0)
			break;
	}
	if (cut)
		fprintf(out, "\n[... %lld bytes cut%s%s]\n", cut, see ? ", see " : "", see ? see : "");
	if (fflush(out) != 0 || ferror(out))
		return -1;
	return 0;
}
