/* Filesystems to test on: loop-backed images the suite makes itself, tmpfs,
 * and (when configured) a user's device. */
#ifndef VT_FSIMAGE_H
#define VT_FSIMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Filesystem types the suite knows how to make. */
bool vt_fstype_known(const char *fstype);
/* true for filesystems that need a block device (all but tmpfs). */
bool vt_fstype_needs_device(const char *fstype);
/* Is FSTYPE in /proc/filesystems (loading its module first where possible)? */
bool vt_fstype_in_kernel(const char *fstype);

/* Creates a sparse image file of SIZE bytes at PATH (O_EXCL: never an
 * existing file) and runs mkfs for FSTYPE on it with the extra options
 * MKFS_OPTIONS (may be NULL). Output of mkfs goes to LOG_FD (or /dev/null
 * if -1). Returns 0 or -errno; -ENOEXEC if mkfs failed. */
int vt_image_create(const char *path, const char *fstype, off_t size, const char *mkfs_options,
		    int log_fd);

/* Runs ARGV (a program from PATH) with stdout/stderr to LOG_FD (or
 * /dev/null if -1): 0, -ENOEXEC if it failed, or -errno. */
int vt_run_program(char *const argv[], int log_fd);
/* Is PROG an executable file in a directory of $PATH (the default path
 * where PATH is unset)? What vt_run_program would find. */
bool vt_program_in_path(const char *prog);

/* Runs mkfs on an existing block device or file (SCRATCH_DEV). */
int vt_mkfs(const char *dev, const char *fstype, const char *mkfs_options, int log_fd);

/* Attaches a loop device to the image file with LO_FLAGS_AUTOCLEAR so it
 * detaches itself when its last user (mount or fd) is gone. Returns an fd
 * on the loop device and its path in DEV. */
int vt_loop_attach(const char *image, char *dev, size_t devlen);

/* Mounts FSTYPE from SOURCE (image file, block device, or ignored for
 * tmpfs) at TARGET with OPTIONS (comma list, may be NULL). An image file
 * gets an autoclear loop device. Returns 0 or -errno. */
int vt_fs_mount(const char *fstype, const char *source, const char *target,
		const char *options);

/* Default image size for FSTYPE (btrfs needs more than the others). */
off_t vt_image_default_size(const char *fstype);

/* The size of an image of FSTYPE to be made in directory DIR: the
 * default, or less where DIR's filesystem has less room for it. A file
 * need not fit a sparse-capable filesystem (ext4, xfs: holes cost
 * nothing), but ntfs3 allocates a plain file's clusters when it grows
 * and refuses one larger than its volume (ntfs_set_size: EFBIG), so the
 * size is bounded by the space free to the caller (statvfs f_bavail)
 * less a margin for what else the test writes there. 0 with *SIZE;
 * -ENOSPC if even the row's image_min_mib does not fit (*SIZE: the room
 * there is); -errno of statvfs. */
int vt_image_size_within(const char *fstype, const char *dir, off_t *size);

#endif
