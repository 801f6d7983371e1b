/* The reference FUSE server's inodes: each node id the kernel holds names
 * an O_PATH descriptor of a file in the backing directory, counted by
 * lookups (LOOKUP and creation add one, FORGET takes them back). One
 * node per backing inode (device and inode number), so a hard link is
 * the same node. Node 1 is the backing directory (FUSE_ROOT_ID). */
#ifndef VT_FUSE_NODES_H
#define VT_FUSE_NODES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

struct vt_fuse_node {
	int fd;			/* O_PATH | O_NOFOLLOW; -1: free */
	dev_t dev;
	ino_t ino;
	uint64_t nlookup;
};

struct vt_fuse_nodes {
	struct vt_fuse_node *v;	/* indexed by node id; 0 unused */
	uint64_t n, cap;
};

/* Node 1 on ROOT_FD (taken over). 0 or -errno. */
int vt_fuse_nodes_init(struct vt_fuse_nodes *t, int root_fd);
void vt_fuse_nodes_free(struct vt_fuse_nodes *t);

/* The node of NODEID, NULL if the kernel holds no such id. */
struct vt_fuse_node *vt_fuse_node_get(struct vt_fuse_nodes *t, uint64_t nodeid);

/* One more lookup of the file FD (O_PATH, taken over) with status ST:
 * its node (FD closed if the inode has one already). The node id, or
 * -errno. */
int64_t vt_fuse_node_ref(struct vt_fuse_nodes *t, int fd, const struct stat *st);

/* FORGET: NLOOKUP lookups fewer; the node is freed at none. */
void vt_fuse_node_forget(struct vt_fuse_nodes *t, uint64_t nodeid, uint64_t nlookup);

/* "/proc/self/fd/N" of the node's descriptor, for calls that take a path. */
void vt_fuse_node_path(const struct vt_fuse_node *n, char *buf, size_t len);

#endif
