/* The reference FUSE server's node table (fuse_nodes.h). */
#include "fuse/fuse_nodes.h"
#include "fuse/fuse_wire.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int grow(struct vt_fuse_nodes *t)
{
	uint64_t cap = t->cap ? t->cap * 2 : 64, i;
	struct vt_fuse_node *v = realloc(t->v, cap * sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (i = t->cap; i < cap; i++)
		v[i] = (struct vt_fuse_node){ .fd = -1 };
	t->v = v;
	t->cap = cap;
	return 0;
}

int vt_fuse_nodes_init(struct vt_fuse_nodes *t, int root_fd)
{
	struct stat st;
	int ret;

	*t = (struct vt_fuse_nodes){ 0 };
	if (fstat(root_fd, &st) < 0)
		return -errno;
	ret = grow(t);
	if (ret < 0)
		return ret;
	/* never forgotten: the kernel holds the root for the mount's life */
	t->v[VT_FUSE_ROOT_ID] = (struct vt_fuse_node){ root_fd, st.st_dev, st.st_ino, 1 };
	t->n = VT_FUSE_ROOT_ID + 1;
	return 0;
}

void vt_fuse_nodes_free(struct vt_fuse_nodes *t)
{
	for (uint64_t i = 0; i < t->n; i++)
		if (t->v[i].fd >= 0)
			close(t->v[i].fd);
	free(t->v);
	*t = (struct vt_fuse_nodes){ 0 };
}

struct vt_fuse_node *vt_fuse_node_get(struct vt_fuse_nodes *t, uint64_t nodeid)
{
	if (nodeid == 0 || nodeid >= t->n || t->v[nodeid].fd < 0)
		return NULL;
	return &t->v[nodeid];
}

int64_t vt_fuse_node_ref(struct vt_fuse_nodes *t, int fd, const struct stat *st)
{
	uint64_t i;
	int ret;

	for (i = 1; i < t->n; i++) {
		struct vt_fuse_node *n = &t->v[i];

		if (n->fd >= 0 && n->dev == st->st_dev && n->ino == st->st_ino) {
			close(fd);
			n->nlookup++;
			return (int64_t)i;
		}
	}
	/* node ids are not reused: a forgotten id could still be on its way
	 * in a request the kernel queued before the FORGET */
	if (t->n == t->cap && (ret = grow(t)) < 0) {
		close(fd);
		return ret;
	}
	t->v[t->n] = (struct vt_fuse_node){ fd, st->st_dev, st->st_ino, 1 };
	return (int64_t)t->n++;
}

void vt_fuse_node_forget(struct vt_fuse_nodes *t, uint64_t nodeid, uint64_t nlookup)
{
	struct vt_fuse_node *n = vt_fuse_node_get(t, nodeid);

	if (!n || nodeid == VT_FUSE_ROOT_ID)
		return;
	n->nlookup = nlookup >= n->nlookup ? 0 : n->nlookup - nlookup;
	if (n->nlookup == 0) {
		close(n->fd);
		n->fd = -1;
	}
}

void vt_fuse_node_path(const struct vt_fuse_node *n, char *buf, size_t len)
{
	snprintf(buf, len, "/proc/self/fd/%d", n->fd);
}
