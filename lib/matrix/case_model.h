/* A case of the matrix as the model sees it: the case space of a
 * program, a case's name, its model world and the model's verdict (no
 * system call). Internal to lib/matrix. */
#ifndef VT_MX_CASE_MODEL_H
#define VT_MX_CASE_MODEL_H

#include "matrix/world_setup.h"
#include "model/rules.h"

#include <stddef.h>

/* The case space of a program: its families one after another. */
struct mx_space {
	const struct vt_family *const *fams;
	int nfam, total, base[16];
};

/* The family of case G of the space, and its index there (*IDX). */
const struct vt_family *mx_space_case(const struct mx_space *sp, int g, int *idx);
/* "family/map=M/caller=C/what" */
void mx_case_name(const struct vt_family *f, int idx, char *buf, size_t len);
/* The model's verdict and trace for case IDX of F. */
void mx_model_case(const struct mx_world *rw, const struct vt_family *f, int idx,
		   struct vt_mcase *c, struct vt_world *w, struct vt_expect *e,
		   struct vt_trace *tr);

#endif
