/* The world library on a real tmpfs, in a private mount namespace: user
 * namespaces from specs (no zombie, no fd leak), idmapped mounts, callers
 * with their credentials, the idmap support probe and loop images. Needs
 * root; skips each check otherwise. */
#include "unit.h"
#include "world/caller.h"
#include "world/fsimage.h"
#include "world/idmapped_mount.h"
#include "world/userns.h"
#include "world/xattr_view.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define PLAN 15

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n++;
	if (d)
		closedir(d);
	return n;
}

struct ids {
	uid_t uid, euid, fsuid;
	gid_t gid, fsgid;
	int ngroups;
	gid_t groups[8];
	mode_t umask;
	struct stat st;
	int stat_err;
};

static int report_ids(void *arg, void *data, size_t len)
{
	struct ids *ids = data;

	ids->uid = getuid();
	ids->euid = geteuid();
	ids->gid = getgid();
	ids->fsuid = (uid_t)setfsuid((uid_t)-1);
	ids->fsgid = (gid_t)setfsgid((gid_t)-1);
	ids->ngroups = getgroups(8, ids->groups);
	ids->umask = umask(0);
	ids->stat_err = stat(arg, &ids->st) < 0 ? errno : 0;
	return 0;
}

static int crash(void *arg, void *data, size_t len)
{
	abort();
}

int main(void)
{
	char dir[] = "/tmp/vfsidmap-unit.XXXXXX", mnt[4200], file[4200], img[4200];
	struct vt_caller c;
	struct ids ids;
	struct vt_run r;
	int ns, fds, zombie, i, ret;

	unit_begin(PLAN);
	if (geteuid() != 0) {
		for (i = 0; i < PLAN; i++)
			unit_skip("world library", "needs root");
		return 0;
	}
	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    !mkdtemp(dir) || mount("tmpfs", dir, "tmpfs", 0, "mode=0755") < 0) {
		printf("# setup failed: %s\n", strerror(errno));
		return 1;
	}
	snprintf(file, sizeof(file), "%s/f", dir);
	snprintf(mnt, sizeof(mnt), "%s/m", dir);
	close(open(file, O_CREAT | O_WRONLY, 0644));
	chown(file, 1000, 1000);
	mkdir(mnt, 0755);

	fds = count_fds();
	ns = vt_userns_from_spec(-1, "b:0:10000:1000");
	unit_check(ns >= 0, "user namespace from a spec");
	unit_check(count_fds() == fds + 1, "only the namespace fd is left open");
	zombie = waitpid(-1, NULL, WNOHANG);
	unit_check(zombie == -1 && errno == ECHILD, "no child or zombie left behind");

	unit_check(vt_probe_idmap_support(dir) == 0, "tmpfs can be idmapped (probe)");
	ret = vt_idmapped_mount_spec(dir, mnt, "b:1000:1001:1", false);
	unit_check(ret == 0, "idmapped mount b:1000:1001:1");
	{
		struct stat st;
		char via[8400];
		snprintf(via, sizeof(via), "%s/f", mnt);
		unit_check(stat(via, &st) == 0 && st.st_uid == 1001 && st.st_gid == 1001,
			   "file owned 1000 shows as 1001 through the mount");
	}

	c = vt_caller_user(1001, 1002);
	c.fsuid = 1003;
	c.ngroups = 2;
	c.groups[0] = 5;
	c.groups[1] = 6;
	c.set_umask = true;
	c.umask = 027;
	r = vt_run_as(&c, report_ids, file, &ids, sizeof(ids));
	unit_check(r.status == VT_RAN && ids.uid == 1001 && ids.euid == 1001 && ids.gid == 1002 &&
			   ids.fsuid == 1003 && ids.fsgid == 1002 && ids.ngroups == 2 &&
			   ids.groups[1] == 6 && ids.umask == 027,
		   "caller credentials: uid, gid, fsuid, groups, umask");

	c = vt_caller_root();
	c.userns_fd = ns;
	r = vt_run_as(&c, report_ids, file, &ids, sizeof(ids));
	/* file is 1000:1000, outside 0:10000:1000 -> overflow id in the ns. */
	unit_check(r.status == VT_RAN && ids.uid == 0 && ids.st.st_uid == 65534,
		   "caller in a user namespace: uid 0 there, unmapped owner shows as 65534");

	c.uid = 5000; /* not mapped in the namespace */
	r = vt_run_as(&c, report_ids, file, &ids, sizeof(ids));
	unit_check(r.status == VT_SETUP_FAILED && strstr(r.msg, "setresuid") != NULL,
		   "an unmapped uid is a setup failure naming the step");

	c = vt_caller_root();
	r = vt_run_as(&c, crash, NULL, NULL, 0);
	unit_check(r.status == VT_CRASHED && strstr(r.msg, "ABRT") != NULL,
		   "a crashing caller is reported with the signal");
	close(ns);
	unit_check(count_fds() == fds, "no fd leaked by callers");

	/* vt_acl_write_text parses setfacl's long text form itself (numeric
	 * qualifiers); what it writes is read back raw. */
	{
		struct vt_acl_entry e[VT_ACL_MAX_ENTRIES];
		static const char *const bad[] = {
			"u:alice:rwx,g::r--,o::---",	/* a name: not looked up */
			"x::rwx,g::r--,o::---",		/* unknown tag */
			"u::rwz,g::r--,o::---",		/* unknown permission */
			"u::rw,g::r--,o::---",		/* short permissions */
			"m:5:rwx,u::rw-,g::r--,o::---",	/* a mask has no qualifier */
			"u::rw-;g::r--,o::---",		/* wrong separator */
		};
		int n, bad_ok = 1;
		size_t k;

		ret = vt_acl_write_text(file, false, "user::rw-,u:5000:rwx,g::r--,group:70:-w-,m::rwx,o::--x");
		n = ret == 0 ? vt_acl_read(file, false, e, VT_ACL_MAX_ENTRIES) : ret;
		unit_check(n == 6 && vt_acl_find(e, n, VT_ACL_USER, 5000) == 7 &&
				   vt_acl_find(e, n, VT_ACL_GROUP, 70) == 2 &&
				   vt_acl_find(e, n, VT_ACL_OTHER, (uint32_t)-1) == 1,
			   "an ACL in text form is written as given (u:5000:rwx, g:70:-w-, o::--x)");
		for (k = 0; k < sizeof(bad) / sizeof(bad[0]); k++)
			if (vt_acl_write_text(file, false, bad[k]) != -EINVAL) {
				printf("# accepted: %s\n", bad[k]);
				bad_ok = 0;
			}
		unit_check(bad_ok, "malformed ACL texts are refused with EINVAL");
	}

	/* A loop-backed ext4 image, when mkfs.ext4 is there. */
	snprintf(img, sizeof(img), "%s/img", dir);
	ret = vt_image_create(img, "ext4", 64 << 20, NULL, -1);
	if (ret == -ENOENT || ret == -ENOEXEC) {
		unit_skip("loop image", "mkfs.ext4 unavailable");
		unit_skip("loop image refuses to overwrite", "mkfs.ext4 unavailable");
	} else {
		unit_check(ret == 0 && vt_fs_mount("ext4", img, mnt, NULL) == 0,
			   "ext4 image on an autoclear loop device mounts");
		umount2(mnt, 0);
		unit_check(vt_image_create(img, "ext4", 64 << 20, NULL, -1) == -EEXIST,
			   "image creation never overwrites an existing file");
	}
	umount2(mnt, MNT_DETACH);
	umount2(dir, MNT_DETACH);
	rmdir(dir);
	return unit_end();
}
