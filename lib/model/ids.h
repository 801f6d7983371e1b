/* The three id spaces of an idmapped-mount world, as distinct C types so
 * that an id used in the wrong space is a compile error (the kernel does the
 * same with kuid_t and vfsuid_t, include/linux/mnt_idmapping.h):
 *
 *   vt_kuid_t   kernel id (kuid_t): what the inode holds. For a filesystem
 *               whose s_user_ns is the initial namespace this is the id
 *               stored on disk.
 *   vt_vfsuid_t mount-view id (vfsuid_t): the inode's id after the mount's
 *               idmap, compared with the caller's fsuid.
 *   vt_cuid_t   caller-view id (uid_t in the caller's user namespace): what
 *               system calls take as arguments and what stat() reports.
 *
 * An invalid id is 0xffffffff in every space (INVALID_UID, (uid_t)-1). */
#ifndef VT_MODEL_IDS_H
#define VT_MODEL_IDS_H

#include <stdbool.h>
#include <stdint.h>

#define VT_ID_INVALID 0xffffffffu

typedef struct { uint32_t val; } vt_kuid_t;
typedef struct { uint32_t val; } vt_kgid_t;
typedef struct { uint32_t val; } vt_vfsuid_t;
typedef struct { uint32_t val; } vt_vfsgid_t;
typedef struct { uint32_t val; } vt_cuid_t;
typedef struct { uint32_t val; } vt_cgid_t;

static inline vt_kuid_t vt_kuid(uint32_t v) { return (vt_kuid_t){ v }; }
static inline vt_kgid_t vt_kgid(uint32_t v) { return (vt_kgid_t){ v }; }
static inline vt_vfsuid_t vt_vfsuid(uint32_t v) { return (vt_vfsuid_t){ v }; }
static inline vt_vfsgid_t vt_vfsgid(uint32_t v) { return (vt_vfsgid_t){ v }; }
static inline vt_cuid_t vt_cuid(uint32_t v) { return (vt_cuid_t){ v }; }
static inline vt_cgid_t vt_cgid(uint32_t v) { return (vt_cgid_t){ v }; }

/* uid_valid(), vfsuid_valid() */
static inline bool vt_kuid_valid(vt_kuid_t k) { return k.val != VT_ID_INVALID; }
static inline bool vt_kgid_valid(vt_kgid_t k) { return k.val != VT_ID_INVALID; }
static inline bool vt_vfsuid_valid(vt_vfsuid_t v) { return v.val != VT_ID_INVALID; }
static inline bool vt_vfsgid_valid(vt_vfsgid_t v) { return v.val != VT_ID_INVALID; }

/* vfsuid_eq(): two invalid ids are NOT equal (4d0548a7b806). */
static inline bool vt_vfsuid_eq(vt_vfsuid_t a, vt_vfsuid_t b)
{
	return vt_vfsuid_valid(a) && a.val == b.val;
}
static inline bool vt_vfsgid_eq(vt_vfsgid_t a, vt_vfsgid_t b)
{
	return vt_vfsgid_valid(a) && a.val == b.val;
}
/* vfsuid_eq_kuid(): a mount-view id against a kernel id (current_fsuid()). */
static inline bool vt_vfsuid_eq_kuid(vt_vfsuid_t v, vt_kuid_t k)
{
	return vt_vfsuid_valid(v) && v.val == k.val;
}
static inline bool vt_vfsgid_eq_kgid(vt_vfsgid_t v, vt_kgid_t k)
{
	return vt_vfsgid_valid(v) && v.val == k.val;
}
/* vfsuid_into_kuid(): a vfsuid is a kuid in the initial namespace's terms. */
static inline vt_kuid_t vt_vfsuid_into_kuid(vt_vfsuid_t v) { return vt_kuid(v.val); }
static inline vt_kgid_t vt_vfsgid_into_kgid(vt_vfsgid_t v) { return vt_kgid(v.val); }
/* VFSUIDT_INIT(kuid): a kernel id taken as a mount-view id (chown_common,
 * posix_acl_from_xattr + vfs_set_acl_idmapped_mnt, rootid_from_xattr). */
static inline vt_vfsuid_t vt_vfsuid_from_kuid(vt_kuid_t k) { return vt_vfsuid(k.val); }
static inline vt_vfsgid_t vt_vfsgid_from_kgid(vt_kgid_t k) { return vt_vfsgid(k.val); }

#endif
