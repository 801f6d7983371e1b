#include "xattr_view.h"

#include <acl/libacl.h>
#include <endian.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/acl.h>
#include <sys/xattr.h>

/* posix_acl_xattr_header / posix_acl_xattr_entry: all little endian. */
#define ACL_XATTR_VERSION 0x0002

static const char *acl_name(bool default_acl)
{
	return default_acl ? "system.posix_acl_default" : "system.posix_acl_access";
}

/* PATH's ACL, or with PATH NULL the ACL of the file open as FD (fgetxattr) */
static int acl_read(const char *path, int fd, bool default_acl, struct vt_acl_entry *out, int max)
{
	unsigned char buf[4 + 8 * VT_ACL_MAX_ENTRIES];
	ssize_t len = path ? lgetxattr(path, acl_name(default_acl), buf, sizeof(buf))
			   : fgetxattr(fd, acl_name(default_acl), buf, sizeof(buf));
	uint32_t version;
	int n, i;

	if (len < 0)
		return -errno;
	if (len < 4 || (len - 4) % 8)
		return -EBADMSG;
	memcpy(&version, buf, 4);
	if (le32toh(version) != ACL_XATTR_VERSION)
		return -EBADMSG;
	n = (int)((len - 4) / 8);
	if (n > max)
		return -ERANGE;
	for (i = 0; i < n; i++) {
		uint16_t tag, perm;
		uint32_t id;
		memcpy(&tag, buf + 4 + 8 * i, 2);
		memcpy(&perm, buf + 6 + 8 * i, 2);
		memcpy(&id, buf + 8 + 8 * i, 4);
		out[i].tag = le16toh(tag);
		out[i].perm = le16toh(perm);
		out[i].id = le32toh(id);
	}
	return n;
}

int vt_acl_read(const char *path, bool default_acl, struct vt_acl_entry *out, int max)
{
	return acl_read(path, -1, default_acl, out, max);
}

int vt_acl_fread(int fd, bool default_acl, struct vt_acl_entry *out, int max)
{
	return acl_read(NULL, fd, default_acl, out, max);
}

/* One "tag:qualifier:perms" entry of TEXT (up to ',' or the end) into a
 * new entry of ACL; returns the text after it, NULL if it is malformed. */
static const char *acl_add_text_entry(acl_t *acl, const char *text)
{
	static const struct { const char *name; acl_tag_t obj, named; } tags[] = {
		{ "u", ACL_USER_OBJ, ACL_USER }, { "user", ACL_USER_OBJ, ACL_USER },
		{ "g", ACL_GROUP_OBJ, ACL_GROUP }, { "group", ACL_GROUP_OBJ, ACL_GROUP },
		{ "m", ACL_MASK, 0 }, { "mask", ACL_MASK, 0 },
		{ "o", ACL_OTHER, 0 }, { "other", ACL_OTHER, 0 },
	};
	const char *colon = strchr(text, ':'), *p;
	acl_entry_t entry;
	acl_permset_t perms;
	acl_tag_t tag = 0;
	unsigned long id = 0;
	bool named;
	size_t i;

	if (!colon)
		return NULL;
	for (i = 0; i < sizeof(tags) / sizeof(tags[0]); i++)
		if (strlen(tags[i].name) == (size_t)(colon - text) &&
		    !strncmp(text, tags[i].name, (size_t)(colon - text)))
			break;
	if (i == sizeof(tags) / sizeof(tags[0]))
		return NULL;
	p = colon + 1;
	named = *p != ':';
	if (named) {
		char *end;
		if (!tags[i].named || *p < '0' || *p > '9')
			return NULL;
		errno = 0;
		id = strtoul(p, &end, 10);
		if (errno || id > UINT32_MAX - 1 || *end != ':')
			return NULL;
		p = end;
	}
	tag = named ? tags[i].named : tags[i].obj;
	p++;
	if (acl_create_entry(acl, &entry) || acl_set_tag_type(entry, tag) ||
	    acl_get_permset(entry, &perms) || acl_clear_perms(perms))
		return NULL;
	if (named) {
		id_t qualifier = (id_t)id;
		if (acl_set_qualifier(entry, &qualifier))
			return NULL;
	}
	for (i = 0; i < 3; i++, p++) {
		static const char letters[] = "rwx";
		static const acl_perm_t bits[] = { ACL_READ, ACL_WRITE, ACL_EXECUTE };
		if (*p == letters[i]) {
			if (acl_add_perm(perms, bits[i]))
				return NULL;
		} else if (*p != '-') {
			return NULL;
		}
	}
	if (*p != ',' && *p)
		return NULL;
	return *p ? p + 1 : p;
}

/* The text is parsed here, not by acl_from_text(): that one looks names
 * up (getpwnam), which a statically linked program (configure.ac: static
 * programs) cannot do; the suite's ACLs have numeric qualifiers only. */
int vt_acl_write_text(const char *path, bool default_acl, const char *text)
{
	acl_t acl = acl_init(8);
	int ret;

	if (!acl)
		return -errno;
	while (*text) {
		text = acl_add_text_entry(&acl, text);
		if (!text) {
			acl_free(acl);
			return -EINVAL;
		}
	}
	ret = acl_set_file(path, default_acl ? ACL_TYPE_DEFAULT : ACL_TYPE_ACCESS, acl);
	ret = ret < 0 ? -errno : 0;
	acl_free(acl);
	return ret;
}

int vt_acl_find(const struct vt_acl_entry *e, int n, uint16_t tag, uint32_t id)
{
	int i;

	for (i = 0; i < n; i++)
		if (e[i].tag == tag && e[i].id == id)
			return e[i].perm;
	return -1;
}

/* struct vfs_cap_data / vfs_ns_cap_data, include/uapi/linux/capability.h */
#define VFS_CAP_REVISION_MASK 0xFF000000u
#define VFS_CAP_REVISION_2 0x02000000u
#define VFS_CAP_REVISION_3 0x03000000u
#define VFS_CAP_FLAGS_EFFECTIVE 0x000001u
#define XATTR_CAPS_SZ_2 20
#define XATTR_CAPS_SZ_3 24

/* PATH's capabilities, or with PATH NULL those of the file open as FD */
static int fcaps_read(const char *path, int fd, struct vt_fcaps *out)
{
	uint32_t w[6];
	ssize_t len = path ? lgetxattr(path, "security.capability", w, sizeof(w))
			   : fgetxattr(fd, "security.capability", w, sizeof(w));
	uint32_t magic;

	if (len < 0)
		return -errno;
	if (len < 4)
		return -EBADMSG;
	magic = le32toh(w[0]);
	memset(out, 0, sizeof(*out));
	if ((magic & VFS_CAP_REVISION_MASK) == VFS_CAP_REVISION_2 && len == XATTR_CAPS_SZ_2) {
		out->version = VT_CAP_V2;
	} else if ((magic & VFS_CAP_REVISION_MASK) == VFS_CAP_REVISION_3 && len == XATTR_CAPS_SZ_3) {
		out->version = VT_CAP_V3;
		out->rootid = le32toh(w[5]);
	} else {
		return -EBADMSG;
	}
	out->effective = magic & VFS_CAP_FLAGS_EFFECTIVE;
	out->permitted = (uint64_t)le32toh(w[1]) | ((uint64_t)le32toh(w[3]) << 32);
	out->inheritable = (uint64_t)le32toh(w[2]) | ((uint64_t)le32toh(w[4]) << 32);
	return 0;
}

int vt_fcaps_read(const char *path, struct vt_fcaps *out)
{
	return fcaps_read(path, -1, out);
}

int vt_fcaps_fread(int fd, struct vt_fcaps *out)
{
	return fcaps_read(NULL, fd, out);
}

static int fcaps_write(const char *path, int fd, const struct vt_fcaps *c)
{
	uint32_t w[6];
	size_t len = c->version == VT_CAP_V3 ? XATTR_CAPS_SZ_3 : XATTR_CAPS_SZ_2;

	w[0] = htole32((c->version == VT_CAP_V3 ? VFS_CAP_REVISION_3 : VFS_CAP_REVISION_2) |
		       (c->effective ? VFS_CAP_FLAGS_EFFECTIVE : 0));
	w[1] = htole32((uint32_t)c->permitted);
	w[2] = htole32((uint32_t)c->inheritable);
	w[3] = htole32((uint32_t)(c->permitted >> 32));
	w[4] = htole32((uint32_t)(c->inheritable >> 32));
	w[5] = htole32(c->rootid);
	return (path ? lsetxattr(path, "security.capability", w, len, 0)
		     : fsetxattr(fd, "security.capability", w, len, 0)) < 0 ? -errno : 0;
}

int vt_fcaps_write(const char *path, const struct vt_fcaps *c)
{
	return fcaps_write(path, -1, c);
}

int vt_fcaps_fwrite(int fd, const struct vt_fcaps *c)
{
	return fcaps_write(NULL, fd, c);
}
