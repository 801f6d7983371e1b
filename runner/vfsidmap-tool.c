/* vfsidmap-tool: the C pieces the shell runner (check) needs.
 *
 *   config FILE --sections          list the sections of a local.config
 *   config FILE --section NAME      its values as shell assignments
 *   mapping SPEC                    validate a mapping spec
 *   fs-in-kernel FSTYPE             exit 0 if the kernel has the filesystem
 *   fs-lack FSTYPE FEATURE          what an operation needing FEATURE gets on
 *                                   FSTYPE by its row: "ERRNO<TAB>rule", or "-"
 *                                   when the row has it
 *   fs-table [names|kconfig-fragment|FIELD]  the filesystem table
 *                                   (lib/fs/fs_table.c): every row tab-separated
 *                                   with a header; names: the names,
 *                                   comma-separated; kconfig-fragment: each row's
 *                                   kconfig and kconfig_also as SYMBOL=y lines;
 *                                   FIELD (make, mkfs, package, kconfig, modules,
 *                                   owner, supports, read_only, mount_variants,
 *                                   fsck, fsck_own_image, fsck_quiet, no_fsck,
 *                                   runs_on, default, kconfig_also,
 *                                   lists_raw_acl): "name<TAB>value", "-" for an
 *                                   empty value
 *   mkimage FSTYPE PATH [MKFS_OPTIONS]  sparse image + mkfs (never overwrites);
 *                                   read-only images (erofs, squashfs) from the
 *                                   staged tree of lib/world/ro_image.c
 *   mkfs FSTYPE DEV [MKFS_OPTIONS]  mkfs on a configured SCRATCH_DEV
 *   device-free DEV                 exit 0 if DEV is safe to use: a block
 *                                   device or file, not mounted, not holding
 *                                   a mounted filesystem (else a reason, exit 2)
 *   probe-idmap                     (inside vfsidmap-exec) can $TEST_DIR be
 *                                   idmapped? exit 0, or 4 with the reason
 *   mutants                         list the model's mutants (model/break.h):
 *                                   id, file, line, model function, kernel function
 *   mutation-score [--fs FSTYPE] [--tsv PATH] [quick|all|matrix/NNN|family]
 *                                   which model mutants those cases kill, from
 *                                   the model alone (no mount, no system call per
 *                                   case); exit 1 if some survive
 *   sample [--fs FSTYPE]            the quick sample's case ids (matrix/011) in
 *                                   the world a default mount of FSTYPE gives
 *                                   here; on stderr whether the build-time
 *                                   table gave it (lib/matrix/sample_table.h)
 * (the last three run tests/matrix/011, which holds every family)
 *   exchange DIR1 DIR2              swap two directories of one parent in one
 *                                   step (renameat2 RENAME_EXCHANGE) and fsync
 *                                   the parent: how check publishes results;
 *                                   exit 3: swapped, but that fsync failed
 *   xml-text [--max BYTES [--see FILE]]  stdin as XML character data
 *                                   (runner/xml-text.h); 2 if writing fails
 *   test-files OUT BASE HEADER      a test's result files from its output
 *                                   and the facts check needs of its KTAP
 *                                   (runner/test-files.h); a file that cannot
 *                                   be written: its path on stderr, exit 3
 *   test-files --xml MAX SEE OUT BASE HEADER ...  either form below, and
 *                                   first OUT.xml: OUT.ktap as xml-text
 *                                   --max MAX --see SEE writes it (none
 *                                   when it cannot be written: no failure)
 *   test-files OUT BASE HEADER START END TAG TROUBLE HITS  the same, and
 *                                   BASE.dmesg as kmsg-cut below writes it,
 *                                   with one more digest line: its exit
 *                                   status, or "error: WHY"; then removes
 *                                   OUT.rules and OUT.status (check's form:
 *                                   the next test must not find them)
 *   kmsg-cut START END TAG TROUBLE HITS  a test's kernel log from stdin, an
 *                                   open /dev/kmsg, read on from where the
 *                                   last read left it (runner/kmsg-cut.h):
 *                                   the lines after the record START up to the
 *                                   record END on stdout, those matching the ERE
 *                                   TROUBLE (not another run's selftest fake
 *                                   warning, TAG) to the file HITS; exit 1 if
 *                                   END was not found
 *   kmsg-cut --probe TEXT [DEV]     read stdin (or DEV, a character device,
 *                                   opened without blocking) up to the record
 *                                   TEXT: exit 0, 1 if it is not there; what is
 *                                   not a kernel log record there: exit 2
 *   ktap-nest NAME KTAP [TYPE DIRECTIVE REASON]...  a failed test's KTAP
 *                                   (a file; "" or missing: none) as
 *                                   results.ktap nests it, made whole, with a
 *                                   failing leaf "test-level:TYPE" for each
 *                                   triple (runner/ktap-nest.h); exit 2 if
 *                                   writing stdout fails
 * Errors are one line on stderr and exit status 2. */
#include "config/config.h"
#include "fs/fs_table.h"
#include "util/errname.h"
#include "util/exchange.h"
#include "world/fsimage.h"
#include "world/ro_image.h"
#include "world/idmap_spec.h"
#include "world/idmapped_mount.h"
#include "kmsg-cut.h"
#include "ktap-nest.h"
#include "test-files.h"
#include "xml-text.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

static int die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "vfsidmap: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 2;
}

static void print_quoted(const char *v)
{
	putchar('\'');
	for (; *v; v++) {
		if (*v == '\'')
			fputs("'\\''", stdout);
		else
			putchar(*v);
	}
	putchar('\'');
}

static int cmd_config(int argc, char **argv)
{
	static struct vt_config cfg;
	char err[600], *text;
	size_t len = 0, cap = 1 << 16;
	FILE *f;
	int i, k;

	if (argc < 3 || (strcmp(argv[2], "--sections") != 0 && (strcmp(argv[2], "--section") != 0 || argc < 4)))
		return die("usage: vfsidmap-tool config FILE --sections | --section NAME");
	f = fopen(argv[1], "re");
	if (!f)
		return die("%s: %s", argv[1], strerror(errno));
	text = malloc(cap);
	while (text && !feof(f)) {
		len += fread(text + len, 1, cap - len, f);
		if (len == cap) {
			if (cap >= (1 << 24)) {
				fclose(f);
				return die("%s: file too large", argv[1]);
			}
			text = realloc(text, cap *= 2);
		}
	}
	fclose(f);
	if (!text)
		return die("out of memory");
	if (vt_config_parse(text, len, &cfg, err, sizeof(err)) < 0)
		return die("%s: %s", argv[1], err);
	free(text);
	if (strcmp(argv[2], "--sections") == 0) {
		/* once per run (check lists the sections once) */
		for (i = 0; i < cfg.nignored; i++)
			fprintf(stderr, "%s:%d: %s is an xfstests key vfsidmap does not use: ignored\n",
				argv[1], cfg.ignored[i].line, cfg.ignored[i].key);
		for (i = 0; i < cfg.nsections; i++)
			printf("%s\n", cfg.sec[i].name);
		return 0;
	}
	{
		const struct vt_config_section *s = vt_config_find(&cfg, argv[3]);
		if (!s)
			return die("%s: no section [%s]", argv[1], argv[3]);
		for (k = 0; k < VT_CFG_NKEYS; k++) {
			if (!(s->set & (1u << k)))
				continue;
			printf("%s=", vt_config_key_name((enum vt_config_key)k));
			print_quoted(s->value[k]);
			putchar('\n');
		}
	}
	return 0;
}

static int cmd_mapping(int argc, char **argv)
{
	struct vt_mapping m;
	char err[300], buf[8192];

	if (argc != 2)
		return die("usage: vfsidmap-tool mapping SPEC");
	if (vt_mapping_parse(argv[1], &m, err, sizeof(err)) < 0)
		return die("%s", err);
	vt_mapping_format(&m, buf, sizeof(buf));
	printf("%s\n", buf);
	return 0;
}

/* Is any mounted filesystem on device DEVNO or on a device stacked on it? */
static int mounted_on(dev_t devno, char *where, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[8192];
	int found = 0;

	if (!f)
		return -1;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned int maj, min;
		char mnt[4096];
		if (sscanf(line, "%*d %*d %u:%u %*s %4095s", &maj, &min, mnt) == 3 &&
		    makedev(maj, min) == devno) {
			snprintf(where, len, "%s", mnt);
			found = 1;
		}
	}
	fclose(f);
	return found;
}

static int check_holders(dev_t devno, char *why, size_t len)
{
	char path[128];
	DIR *d;
	struct dirent *e;
	int bad = 0;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/holders", major(devno), minor(devno));
	d = opendir(path);
	if (!d)
		return 0;
	while (!bad && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(why, len, "is held by %s (device-mapper, md or similar)", e->d_name);
		bad = 1;
	}
	closedir(d);
	return bad;
}

static int check_partitions(dev_t devno, char *why, size_t len)
{
	char path[128], where[4000];
	DIR *d;
	struct dirent *e;
	int bad = 0;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(devno), minor(devno));
	d = opendir(path);
	if (!d)
		return 0;
	while (!bad && (e = readdir(d))) {
		char devfile[512], buf[32];
		unsigned int maj, min;
		FILE *f;
		snprintf(devfile, sizeof(devfile), "%s/%s/partition", path, e->d_name);
		if (access(devfile, F_OK) != 0)
			continue;
		snprintf(devfile, sizeof(devfile), "%s/%s/dev", path, e->d_name);
		f = fopen(devfile, "re");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f) && sscanf(buf, "%u:%u", &maj, &min) == 2 &&
		    mounted_on(makedev(maj, min), where, sizeof(where)) > 0) {
			snprintf(why, len, "has partition %s mounted on %s", e->d_name, where);
			bad = 1;
		}
		fclose(f);
	}
	closedir(d);
	return bad;
}

static int cmd_device_free(int argc, char **argv)
{
	char where[4096], why[5000];
	struct stat st;

	if (argc != 2)
		return die("usage: vfsidmap-tool device-free DEV");
	if (stat(argv[1], &st) < 0)
		return die("%s: %s", argv[1], strerror(errno));
	if (S_ISREG(st.st_mode))
		return 0; /* an image file: mounted only through our own loop device */
	if (!S_ISBLK(st.st_mode))
		return die("%s: not a block device or regular file", argv[1]);
	if (mounted_on(st.st_rdev, where, sizeof(where)) > 0)
		return die("%s: refusing: it is mounted on %s", argv[1], where);
	if (check_holders(st.st_rdev, why, sizeof(why)) || check_partitions(st.st_rdev, why, sizeof(why)))
		return die("%s: refusing: it %s", argv[1], why);
	return 0;
}

/* The super options of the mount on DIR (the last in mountinfo) into
 * BUF: the field after the filesystem type and source. false: not found. */
static bool super_options(const char *dir, char *buf, size_t len)
{
	char real[4096], line[8192];
	FILE *f;
	bool found = false;

	if (!realpath(dir, real) || !(f = fopen("/proc/self/mountinfo", "re")))
		return false;
	while (fgets(line, sizeof(line), f)) {
		char mnt[4096], opts[4096];
		const char *sep = strstr(line, " - ");

		/* id parent major:minor root mountpoint ... - fstype source superopts */
		if (!sep || sscanf(line, "%*s %*s %*s %*s %4095s", mnt) != 1 ||
		    sscanf(sep + 3, "%*s %*s %4095s", opts) != 1 || strcmp(mnt, real) != 0)
			continue;
		snprintf(buf, len, "%s", opts);
		found = true;
	}
	fclose(f);
	return found;
}

/* Why an idmapped mount of the FUSE mount (FSTYPE fuse, fuse.SUBTYPE,
 * fuseblk) on DIR gives EINVAL, from Linux 6.12: fuse_fill_super_common
 * sets SB_I_NOIDMAP, which can_idmap_mount refuses (fs/namespace.c), and
 * only process_init_reply clears it, when the server's INIT reply has
 * FUSE_ALLOW_IDMAP (a bit of flags2) and the mount has
 * default_permissions (fs/fuse/inode.c); before 6.12 fuse had no
 * FS_ALLOW_IDMAP. The server is blamed only when the kernel and the mount
 * would allow it. */
static void print_fuse_why(const char *dir, const char *fs)
{
	struct utsname u;
	unsigned int major = 0, minor = 0;
	char opts[4096];

	if (uname(&u) == 0 && sscanf(u.release, "%u.%u", &major, &minor) == 2 &&
	    (major < 6 || (major == 6 && minor < 12))) {
		printf("%s cannot be idmapped on this kernel (%s): FUSE allows idmapped mounts "
		       "since Linux 6.12 (mount_setattr gives EINVAL)\n", fs, u.release);
		return;
	}
	if (super_options(dir, opts, sizeof(opts)) &&
	    !strstr(opts, "default_permissions")) {
		printf("the FUSE mount (%s) has no default_permissions, without which Linux 6.12 "
		       "refuses to idmap it (fs/fuse/inode.c process_init_reply; mount_setattr "
		       "gives EINVAL)\n", fs);
		return;
	}
	printf("the FUSE server (%s) did not ask FUSE_ALLOW_IDMAP in its INIT reply (flags2; "
	       "fs/fuse/inode.c process_init_reply keeps SB_I_NOIDMAP, so mount_setattr gives "
	       "EINVAL): the server must ask for idmapped mounts (Debian's libfuse 3.14 cannot; "
	       "runner/vfsidmap-fuse-server does)\n", fs);
}

static int cmd_probe_idmap(void)
{
	const char *dir = getenv("TEST_DIR"), *fs = getenv("FSTYP");
	int ret;

	if (!dir || !fs)
		return die("probe-idmap runs inside vfsidmap-exec (TEST_DIR unset)");
	ret = vt_probe_idmap_support(dir);
	if (ret == 0)
		return 0;
	if (ret == -ENOSYS)
		printf("the kernel has no mount_setattr() (ENOSYS): idmapped mounts need 5.12+\n");
	else if (ret == -EINVAL && (strcmp(fs, "fuse") == 0 || strncmp(fs, "fuse.", 5) == 0 ||
				    strcmp(fs, "fuseblk") == 0))
		print_fuse_why(dir, fs);
	else if (ret == -EINVAL)
		printf("%s cannot be idmapped on this kernel (mount_setattr(MOUNT_ATTR_IDMAP) gives EINVAL)\n", fs);
	else
		printf("idmapped mount of %s failed: %s\n", fs, vt_errname(-ret));
	return 4;
}

/* mutants, mutation-score: tests/matrix/011 next to this program's
 * runner/ directory holds every family and the model. */
static void print_supports(const struct vt_fs_row *r)
{
	int k, n = 0;

	for (k = 0; k < VT_FSF__COUNT; k++)
		if (r->supports & (1u << k))
			printf("%s%s", n++ ? "," : "", vt_fs_feature_name(1u << k));
	if (!n)
		printf("-");
}

/* One field of row R; false for a field that does not exist. */
static bool print_field(const struct vt_fs_row *r, const char *field)
{
	if (strcmp(field, "make") == 0)
		printf("%s", vt_fs_make_name(r->make));
	else if (strcmp(field, "mkfs") == 0)
		printf("%s", *r->mkfs ? r->mkfs : "-");
	else if (strcmp(field, "package") == 0)
		printf("%s", *r->package ? r->package : "-");
	else if (strcmp(field, "kconfig") == 0)
		printf("%s", *r->kconfig ? r->kconfig : "-");
	else if (strcmp(field, "modules") == 0)
		printf("%s", *r->modules ? r->modules : "-");
	else if (strcmp(field, "owner") == 0)
		printf("%s", vt_fs_owner_source_name(r->owner));
	else if (strcmp(field, "supports") == 0)
		print_supports(r);
	else if (strcmp(field, "read_only") == 0)
		printf("%s", r->read_only ? "yes" : "no");
	else if (strcmp(field, "mount_variants") == 0)
		printf("%s", *r->mount_variants ? r->mount_variants : "-");
	else if (strcmp(field, "fsck") == 0)
		printf("%s", *r->fsck ? r->fsck : "-");
	else if (strcmp(field, "fsck_own_image") == 0)
		printf("%s", *r->fsck_own_image ? r->fsck_own_image : "-");
	else if (strcmp(field, "fsck_quiet") == 0)
		printf("%s", *r->fsck_quiet ? r->fsck_quiet : "-");
	else if (strcmp(field, "no_fsck") == 0)
		printf("%s", *r->no_fsck ? r->no_fsck : "-");
	else if (strcmp(field, "runs_on") == 0)
		printf("%s", r->runs_on == VT_FS_ON_GUEST ? "guest" : "host");
	else if (strcmp(field, "default") == 0)
		printf("%s", r->default_run ? "yes" : "no");
	else if (strcmp(field, "kconfig_also") == 0)
		printf("%s", r->kconfig_also && *r->kconfig_also ? r->kconfig_also : "-");
	else if (strcmp(field, "lists_raw_acl") == 0)
		printf("%s", r->lists_raw_acl ? "yes" : "no");
	else
		return false;
	return true;
}

/* The table's columns, in the order fs-table prints them. */
static const char *const fs_fields[] = { "make", "mkfs", "package", "kconfig", "modules",
					 "owner", "supports", "read_only", "mount_variants",
					 "fsck", "fsck_own_image", "fsck_quiet", "no_fsck",
					 "runs_on", "default", "kconfig_also", "lists_raw_acl" };
#define N_FS_FIELDS (sizeof(fs_fields) / sizeof(fs_fields[0]))

/* The kernel config fragment of the table: "SYMBOL=y" for each row's
 * kconfig and kconfig_also, each symbol once, in the table's order
 * (run/build-kernel merges it). */
static int cmd_fs_kconfig_fragment(void)
{
	static char seen[8192] = " ";	/* " SYM1 SYM2 ... " */
	size_t i;

	printf("# the filesystem table's kernel config (vfsidmap-tool fs-table kconfig-fragment)\n");
	for (i = 0; i < vt_fs_table_count; i++) {
		const struct vt_fs_row *r = &vt_fs_table[i];
		char syms[1024], key[160], *sym, *save = NULL;

		/* (a row may leave kconfig_also out: NULL) */
		snprintf(syms, sizeof(syms), "%s %s", r->kconfig,
			 r->kconfig_also ? r->kconfig_also : "");
		for (sym = strtok_r(syms, " ", &save); sym; sym = strtok_r(NULL, " ", &save)) {
			if (strncmp(sym, "CONFIG_", 7) != 0 || strlen(sym) + 2 >= sizeof(key))
				return die("fs-table kconfig-fragment: %s: '%s' is not a config symbol",
					   r->name, sym);
			snprintf(key, sizeof(key), " %s ", sym);
			if (strstr(seen, key))
				continue;
			if (strlen(seen) + strlen(sym) + 2 >= sizeof(seen))
				return die("fs-table kconfig-fragment: too many symbols");
			strcat(seen, sym);
			strcat(seen, " ");
			printf("%s=y\n", sym);
		}
	}
	return fflush(stdout) == 0 ? 0 : 2;
}

static int cmd_fs_table(int argc, char **argv)
{
	size_t i, f;

	if (argc > 2)
		return die("usage: vfsidmap-tool fs-table [names|kconfig-fragment|FIELD]");
	if (argc == 2 && strcmp(argv[1], "names") == 0) {
		for (i = 0; i < vt_fs_table_count; i++)
			printf("%s%s", i ? "," : "", vt_fs_table[i].name);
		printf("\n");
		return fflush(stdout) == 0 ? 0 : 2;
	}
	if (argc == 2 && strcmp(argv[1], "kconfig-fragment") == 0)
		return cmd_fs_kconfig_fragment();
	for (f = 0; argc == 2 && f < N_FS_FIELDS; f++)
		if (strcmp(argv[1], fs_fields[f]) == 0)
			break;
	if (argc == 2 && f == N_FS_FIELDS) {
		fprintf(stderr, "vfsidmap: fs-table: no field '%s' (names kconfig-fragment",
			argv[1]);
		for (f = 0; f < N_FS_FIELDS; f++)
			fprintf(stderr, " %s", fs_fields[f]);
		fprintf(stderr, ")\n");
		return 2;
	}
	if (argc == 1) {
		printf("name");
		for (f = 0; f < N_FS_FIELDS; f++)
			printf("\t%s", fs_fields[f]);
		printf("\n");
	}
	for (i = 0; i < vt_fs_table_count; i++) {
		printf("%s", vt_fs_table[i].name);
		for (f = 0; f < N_FS_FIELDS; f++) {
			if (argc == 2 && strcmp(argv[1], fs_fields[f]) != 0)
				continue;
			printf("\t");
			print_field(&vt_fs_table[i], fs_fields[f]);
		}
		printf("\n");
	}
	return fflush(stdout) == 0 ? 0 : 2;
}

/* fs-lack FSTYPE FEATURE: what an operation needing FEATURE (a name of
 * vt_fs_feature_name) gets on FSTYPE when the row lacks it:
 * "ERRNO<TAB>rule", or "-" when the row has it (vt_fs_lack_errno). */
static int cmd_fs_lack(const char *fstype, const char *feature)
{
	const char *rule;
	int k, err;

	if (!vt_fs_row(fstype))
		return die("fs-lack: %s is not in the filesystem table", fstype);
	for (k = 0; k < VT_FSF__COUNT; k++)
		if (strcmp(vt_fs_feature_name(1u << k), feature) == 0)
			break;
	if (k == VT_FSF__COUNT)
		return die("fs-lack: no feature '%s' (the names of fs-table's supports column)",
			   feature);
	err = vt_fs_lack_errno(fstype, 1u << k, &rule);
	if (err)
		printf("%s\t%s\n", vt_errname(err), rule);
	else
		printf("-\n");
	return fflush(stdout) == 0 ? 0 : 2;
}

/* A read-only image (erofs, squashfs) from the staged tree of
 * lib/world/ro_image.c; its executables are copies of exec-probe, the
 * program next to this one's tests/matrix. */
static int cmd_mkimage_ro(const char *fstype, const char *path, const char *opts)
{
	char self[4096], probe[4200], *slash;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	const char *what = "";
	int ret;

	if (n < 0)
		return die("mkimage: cannot find this program: %s", strerror(errno));
	self[n] = 0;
	slash = strrchr(self, '/');
	if (slash)
		*slash = 0;
	snprintf(probe, sizeof(probe), "%s/../tests/matrix/exec-probe", self);
	ret = vt_ro_image_create(path, fstype, opts, probe, 2, &what);
	if (ret < 0)
		return die("mkimage %s: %s: %s", path, what,
			   ret == -ENOEXEC ? "failed" : vt_errname(-ret));
	return 0;
}

static int run_sample_program(const char *mode, int argc, char **argv)
{
	char self[4096], prog[4200], *slash;
	char **args = calloc((size_t)argc + 2, sizeof(char *));
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int i;

	if (n < 0 || !args)
		return die("%s: cannot find this program: %s", mode, strerror(errno));
	self[n] = 0;
	slash = strrchr(self, '/');
	if (slash)
		*slash = 0;
	snprintf(prog, sizeof(prog), "%s/../tests/matrix/011", self);
	args[0] = prog;
	args[1] = (char *)mode;
	for (i = 1; i < argc; i++)
		args[i + 1] = argv[i];
	execv(prog, args);
	return die("%s: cannot run %s: %s", mode, prog, strerror(errno));
}

/* A count of bytes (digits, >= 0) into *OUT; false if TEXT is none. */
static bool parse_bytes(const char *text, long long *out)
{
	char *end;

	errno = 0;
	*out = strtoll(text, &end, 10);
	return !errno && end != text && !*end && *out >= 0;
}

static int cmd_xml_text(int argc, char **argv)
{
	long long max = 0;
	const char *see = NULL;
	int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--max") == 0 && i + 1 < argc) {
			if (!parse_bytes(argv[++i], &max))
				return die("xml-text: --max wants a number of bytes");
		} else if (strcmp(argv[i], "--see") == 0 && i + 1 < argc) {
			see = argv[++i];
		} else {
			return die("usage: vfsidmap-tool xml-text [--max BYTES [--see FILE]]");
		}
	}
	if (vt_xml_text(stdin, stdout, max, see) < 0)
		return die("xml-text: writing failed: %s", strerror(errno));
	return 0;
}

static void remove_out_file(const char *out, const char *suffix)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s.%s", out, suffix);
	unlink(path);
}

/* test-files' optional part: BASE.dmesg and the lines of trouble from the
 * open /dev/kmsg on stdin (runner/kmsg-cut.h), ARGV START END TAG TROUBLE
 * HITS; one more digest line: "0", "1" (END not found) or "error: WHY".
 * A BASE.dmesg that cannot be written goes to *FAILED (when given). */
/* Why vt_kmsg_cut() returned RET (< 0). */
static const char *kmsg_error(int ret)
{
	if (ret == -EBADMSG)
		return "a read gave no kernel log record (/dev/kmsg gives one "
		       "\"PRIO,SEQ,USEC,FLAGS;TEXT\" a read)";
	return strerror(-ret);
}

static void test_files_kmsg(const char *base, char **argv, const char **failed)
{
	static char dmesg[4096];
	struct vt_kmsg_cut c = { .start = argv[0], .end = argv[1], .tag = argv[2],
				 .trouble = argv[3] };
	FILE *out, *hits;
	int ret;

	snprintf(dmesg, sizeof(dmesg), "%s.dmesg", base);
	out = fopen(dmesg, "we");
	hits = fopen(argv[4], "we");
	if (!out || !hits) {
		printf("error: %s: %s\n", out ? argv[4] : dmesg, strerror(errno));
		if (!out && failed)
			*failed = dmesg;
		if (out)
			fclose(out);
		if (hits)
			fclose(hits);
		return;
	}
	c.out = out;
	c.hits = hits;
	ret = vt_kmsg_cut(0, &c);
	if (fclose(hits) != 0 && ret >= 0)
		ret = -errno;
	if (fclose(out) != 0) {
		if (ret >= 0)
			ret = -errno;
		if (failed)
			*failed = dmesg;
	}
	if (ret < 0)
		printf("error: reading the kernel log: %s\n", kmsg_error(ret));
	else
		printf("%d\n", ret);
}

/* OUT.xml from OUT.ktap as xml-text --max MAX --see SEE writes it, or no
 * OUT.xml: it only saves check an xml-text process, which check runs when
 * the file is not there (VT_RUN_BASE full, say), so that is no failure. */
static void test_files_xml(const char *out, long long max, const char *see)
{
	char ktap[4096], xml[4096], tmp[4200];
	FILE *in, *f;
	int ret = -1;

	snprintf(ktap, sizeof(ktap), "%s.ktap", out);
	snprintf(xml, sizeof(xml), "%s.xml", out);
	snprintf(tmp, sizeof(tmp), "%s.tmp", xml);
	unlink(xml);	/* never the last test's */
	f = fopen(tmp, "we");
	if (!f)
		return;
	in = fopen(ktap, "re");
	if (in) {
		ret = vt_xml_text(in, f, max, see);
		fclose(in);
	}
	if (fclose(f) != 0)
		ret = -1;
	if (ret < 0 || rename(tmp, xml) < 0)
		unlink(tmp);
}

/* test-files [--xml MAX SEE] OUT BASE HEADER [START END TAG TROUBLE HITS] */
static int cmd_test_files(int argc, char **argv)
{
	const char *failed = NULL;
	int ret;

	if (argc >= 4 && strcmp(argv[1], "--xml") == 0) {
		/* --xml MAX SEE: OUT.xml too, the KTAP as JUnit's system-out
		 * (xml-text --max MAX --see SEE): one process less a test */
		long long max;

		if (!parse_bytes(argv[2], &max))
			return die("test-files: --xml wants a number of bytes");
		argc -= 3;
		argv += 3;
		if (argc == 4 || argc == 9)
			test_files_xml(argv[1], max, argv[0]);
	}
	if (argc != 4 && argc != 9)
		return die("usage: vfsidmap-tool test-files [--xml MAX SEE] OUT BASE HEADER [START END TAG TROUBLE HITS]");
	ret = vt_test_files(argv[1], argv[2], argv[3], stdout, &failed);
	/* check's form: the kernel log in the same process, and OUT's
	 * files that the next test's redirections do not truncate
	 * removed (check has read OUT.status): two forks less a test */
	if (argc == 9) {
		test_files_kmsg(argv[2], argv + 4, ret == 0 ? &failed : NULL);
		remove_out_file(argv[1], "rules");
		remove_out_file(argv[1], "status");
	}
	if (ret == 0 && (argc == 4 || !failed))
		return 0;
	fprintf(stderr, "%s\n", failed ? failed : "(the digest on stdout)");
	return 3;
}

/* ktap-nest NAME KTAP [TYPE DIRECTIVE REASON]... (runner/ktap-nest.h) */
static int cmd_ktap_nest(int argc, char **argv)
{
	struct vt_ktap_leaf *leaves;
	size_t n, i;
	FILE *in = NULL;
	int ret;

	if (argc < 3 || (argc - 3) % 3 != 0)
		return die("usage: vfsidmap-tool ktap-nest NAME KTAP [TYPE DIRECTIVE REASON]...");
	n = (size_t)(argc - 3) / 3;
	leaves = calloc(n ? n : 1, sizeof(*leaves));
	if (!leaves)
		return die("ktap-nest: out of memory");
	for (i = 0; i < n; i++) {
		leaves[i].type = argv[3 + 3 * i];
		leaves[i].directive = argv[4 + 3 * i];
		leaves[i].reason = argv[5 + 3 * i];
	}
	/* no file (the test never started, or its output is gone): a test
	 * that wrote nothing */
	if (argv[2][0])
		in = fopen(argv[2], "re");
	ret = vt_ktap_nest(in, argv[1], leaves, n, stdout);
	if (in)
		fclose(in);
	free(leaves);
	return ret == 0 ? 0 : 2;
}

static int cmd_kmsg_cut(int argc, char **argv)
{
	struct vt_kmsg_cut c = { .out = stdout };
	FILE *hits = NULL;
	int ret, fd = 0;

	if ((argc == 3 || argc == 4) && strcmp(argv[1], "--probe") == 0) {
		struct stat st;

		c.start = argv[2];
		/* DEV: opened here without blocking (a FIFO or a tty would
		 * block check's own open), character devices only */
		if (argc == 4) {
			fd = open(argv[3], O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
			if (fd < 0)
				return die("kmsg-cut: %s: %s", argv[3], strerror(errno));
			if (fstat(fd, &st) < 0 || !S_ISCHR(st.st_mode))
				return die("kmsg-cut: %s: not a character device", argv[3]);
		}
	} else if (argc == 6) {
		c.start = argv[1];
		c.end = argv[2];
		c.tag = argv[3];
		c.trouble = argv[4];
		hits = fopen(argv[5], "we");
		if (!hits)
			return die("kmsg-cut: %s: %s", argv[5], strerror(errno));
		c.hits = hits;
	} else {
		return die("usage: kmsg-cut START END TAG TROUBLE HITS | kmsg-cut --probe TEXT [DEV]");
	}
	ret = vt_kmsg_cut(fd, &c);
	if (hits && fclose(hits) != 0 && ret == 0)
		ret = -errno;
	if (fflush(stdout) != 0 && ret == 0)
		ret = -errno;
	if (ret < 0)
		return die("kmsg-cut: reading the kernel log: %s", kmsg_error(ret));
	return ret;
}

int main(int argc, char **argv)
{
	/* Called from check: when check dies (SIGTERM while we read a config,
	 * say), so do we, and no orphan is left. */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (argc < 2)
		return die("usage: vfsidmap-tool config|mapping|fs-table|fs-lack|fs-in-kernel|mkimage|mkfs|device-free|probe-idmap|mutants|mutation-score|sample ...");
	if (strcmp(argv[1], "config") == 0)
		return cmd_config(argc - 1, argv + 1);
	if (strcmp(argv[1], "mapping") == 0)
		return cmd_mapping(argc - 1, argv + 1);
	if (strcmp(argv[1], "fs-table") == 0)
		return cmd_fs_table(argc - 1, argv + 1);
	if (strcmp(argv[1], "fs-lack") == 0 && argc == 4)
		return cmd_fs_lack(argv[2], argv[3]);
	if (strcmp(argv[1], "fs-in-kernel") == 0 && argc == 3)
		return vt_fstype_in_kernel(argv[2]) ? 0 : 1;
	if (strcmp(argv[1], "mkimage") == 0 && (argc == 4 || argc == 5)) {
		int ret;
		if (!vt_fstype_known(argv[2]) || !vt_fstype_needs_device(argv[2]))
			return die("mkimage: %s is not an image filesystem", argv[2]);
		if (vt_fs_row(argv[2])->make == VT_FS_IMAGE)
			return cmd_mkimage_ro(argv[2], argv[3], argc == 5 ? argv[4] : NULL);
		ret = vt_image_create(argv[3], argv[2], vt_image_default_size(argv[2]),
				      argc == 5 ? argv[4] : NULL, 2);
		if (ret < 0)
			return die("mkimage %s: %s", argv[3], ret == -ENOEXEC ? "mkfs failed" : vt_errname(-ret));
		return 0;
	}
	if (strcmp(argv[1], "mkfs") == 0 && (argc == 4 || argc == 5)) {
		int ret;
		if (!vt_fstype_known(argv[2]) || !vt_fstype_needs_device(argv[2]))
			return die("mkfs: %s is not a block filesystem", argv[2]);
		ret = vt_mkfs(argv[3], argv[2], argc == 5 ? argv[4] : NULL, 2);
		if (ret < 0)
			return die("mkfs %s: %s", argv[3], ret == -ENOEXEC ? "mkfs failed" : vt_errname(-ret));
		return 0;
	}
	if (strcmp(argv[1], "device-free") == 0)
		return cmd_device_free(argc - 1, argv + 1);
	if (strcmp(argv[1], "probe-idmap") == 0)
		return cmd_probe_idmap();
	if (strcmp(argv[1], "mutants") == 0 && argc == 2)
		return run_sample_program("--list-mutants", argc - 1, argv + 1);
	if (strcmp(argv[1], "mutation-score") == 0)
		return run_sample_program("--mutation-score", argc - 1, argv + 1);
	if (strcmp(argv[1], "sample") == 0)
		return run_sample_program("--list-sample", argc - 1, argv + 1);
	if (strcmp(argv[1], "exchange") == 0 && argc == 4) {
		int ret = vt_exchange_dirs(argv[2], argv[3]);
		if (ret == VT_EXCHANGED_NOT_DURABLE) {
			fprintf(stderr, "vfsidmap: exchange %s %s: swapped, but fsync of their parent failed: %s\n",
				argv[2], argv[3], strerror(errno));
			return 3;
		}
		if (ret < 0)
			return die("exchange %s %s: %s", argv[2], argv[3], strerror(-ret));
		return 0;
	}
	if (strcmp(argv[1], "xml-text") == 0)
		return cmd_xml_text(argc - 1, argv + 1);
	if (strcmp(argv[1], "test-files") == 0)
		return cmd_test_files(argc - 1, argv + 1);
	if (strcmp(argv[1], "kmsg-cut") == 0)
		return cmd_kmsg_cut(argc - 1, argv + 1);
	if (strcmp(argv[1], "ktap-nest") == 0)
		return cmd_ktap_nest(argc - 1, argv + 1);
	return die("unknown command '%s'", argv[1]);
}
