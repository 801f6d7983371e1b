/* XML character data from arbitrary bytes (test output, config values):
 * markup escaped, and what XML 1.0 cannot hold (invalid UTF-8, control
 * characters, U+FFFE/U+FFFF) replaced by U+FFFD, so result.xml stays
 * well-formed whatever a test or a local.config printed. */
#ifndef VT_XML_TEXT_H
#define VT_XML_TEXT_H

#include <stdio.h>

/* Copies IN to OUT escaped. With MAX > 0, stops after about MAX bytes of
 * input (at a character boundary) and appends a note naming how many bytes
 * were cut and SEE (the file that has them all). Returns 0, or -1 when
 * writing OUT failed. */
int vt_xml_text(FILE *in, FILE *out, long long max, const char *see);

#endif
