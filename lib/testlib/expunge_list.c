/* The case-level expunge list (expunge_list.h). */
#include "testlib/expunge_list.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void vt_expunges_load(struct vt_expunges *x)
{
	const char *path = getenv("VT_EXPUNGE");
	char line[1024];
	FILE *fp;

	memset(x, 0, sizeof(*x));
	if (!path || !*path || !(fp = fopen(path, "re")))
		return;
	while (fgets(line, sizeof(line), fp)) {
		char *tab = strchr(line, '\t');
		char **nn = realloc(x->name, sizeof(char *) * (size_t)(x->n + 1));
		char **nw = realloc(x->why, sizeof(char *) * (size_t)(x->n + 1));

		if (!nn || !nw) {
			x->name = nn ? nn : x->name;
			x->why = nw ? nw : x->why;
			break;
		}
		x->name = nn;
		x->why = nw;
		line[strcspn(line, "\n")] = '\0';
		if (tab)
			*tab++ = '\0';
		x->name[x->n] = strdup(line);
		x->why[x->n] = strdup(tab ? tab : "listed in an expunge file");
		if (x->name[x->n] && x->why[x->n])
			x->n++;
	}
	fclose(fp);
}

/* Is case NAME expunged, as "name" or as "TEST_ID/name" (TEST_ID: the
 * test the case belongs to, NULL: none)? The reason, or NULL. */
const char *vt_expunged(const struct vt_expunges *x, const char *test_id, const char *name)
{
	size_t tl = test_id ? strlen(test_id) : 0;
	int i;

	for (i = 0; i < x->n; i++) {
		const char *e = x->name[i];

		if (strcmp(e, name) == 0 ||
		    (test_id && strncmp(e, test_id, tl) == 0 && e[tl] == '/' && strcmp(e + tl + 1, name) == 0))
			return x->why[i];
	}
	return NULL;
}
