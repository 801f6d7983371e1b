/* Rule coverage accounting (coverage.h). */
#include "matrix/coverage.h"
#include "fs/fs_table.h"
#include "matrix/optowner_fixture.h"
#include "model/optowner_model.h"

#include <stdio.h>
#include <string.h>

void vt_coverage_add(struct vt_coverage *c, const struct vt_trace *t, int err)
{
	int r;

	for (r = 1; r < VT_R__COUNT; r++) {
		if ((t->ev[r] & VT_EV_ALLOW) && err == 0)
			c->allow[r]++;
		if (t->ev[r] & VT_EV_DENY)
			c->deny[r]++;
	}
}

void vt_coverage_items(const struct vt_trace *t, int err, uint64_t *bits)
{
	int r;

	for (r = 1; r < VT_R__COUNT; r++) {
		if ((t->ev[r] & VT_EV_ALLOW) && err == 0)
			bits[(2 * r) / 64] |= 1ULL << ((2 * r) % 64);
		if (t->ev[r] & VT_EV_DENY)
			bits[(2 * r + 1) / 64] |= 1ULL << ((2 * r + 1) % 64);
	}
}

/* The filesystem-table feature without which a rule of need N cannot
 * happen either way (0: none, or not a filesystem's feature). */
static unsigned int need_feature(enum vt_rule_need n)
{
	switch (n) {
	case VT_NEED_POSIXACL: return VT_FSF_POSIX_ACL;
	case VT_NEED_WHITEOUT: return VT_FSF_WHITEOUT;
	case VT_NEED_EXEC: return VT_FSF_WRITE;	/* the fixture writes its exec probe */
	case VT_NEED_FILEATTR: return VT_FSF_FILEATTR;
	case VT_NEED_OVERLAY: return VT_FSF_OVERLAY;
	case VT_NEED_OVL_NO_WHITEOUT: return VT_FSF_OVERLAY;
	default: return 0;
	}
}

/* The refusals the matrix's overlay world cannot make (world_setup.c:
 * both layers idmapped with the case's map, or the lower one and a plain
 * upper or one on VT_OVL_UPPER_OTHER_SPEC; the initial root as the
 * mounter), or NULL. idmapped/006 and unit/test-model-overlay decide some
 * of them. The upper=rotate cases decide ovl_set_attr's refusal (a lower
 * owner the upper map cannot store), so it is not here. */
static const char *ovl_deny_na(enum vt_rule r)
{
	switch (r) {
	case VT_R_OVL_COPYUP_UNMAPPED:
		return "the overlay world's mounter is the initial root, where every valid kuid has an "
		       "id; a lower owner the map does not map is refused before (HAS_UNMAPPED_ID on "
		       "the overlay inode)";
	case VT_R_OVL_COPYUP_CREATE:
		return "a mounter the upper idmap cannot map has no workdir: the overlay is read-only "
		       "(ovl_make_workdir) and copies nothing up";
	case VT_R_OVL_SETATTR_UPPER:
		return "the root mounter changes the copy it made, whose owner and group the upper "
		       "idmap maps: CAP_FOWNER and CAP_FSETID hold (chmod, utimes), the setid kill is "
		       "ATTR_FORCE and ATTR_SIZE asks no owner";
	case VT_R_OVL_RMDIR_READDIR:
		return "the root mounter reads a lower dir whose ids the lower idmap maps "
		       "(CAP_DAC_READ_SEARCH holds): one it does not map is refused before "
		       "(may_delete's EOVERFLOW on the overlay inode)";
	case VT_R_OVL_XATTR_UPPER:
		return "the root mounter sets or removes user.*/trusted.* on the copy it made, whose "
		       "owner the upper idmap maps (may_write_xattr passes; CAP_SYS_ADMIN and "
		       "CAP_DAC_OVERRIDE hold)";
	case VT_R_OVL_CREATE_UPPER_PERM:
		return "the root mounter's CAP_DAC_OVERRIDE fails only on an upper P whose ids the map "
		       "does not map, where the caller's check on the same P refuses first";
	default:
		return NULL;
	}
}

const char *vt_coverage_na(const struct vt_world_facts *f, enum vt_rule r, bool deny)
{
	static char lack_why[400];
	const struct vt_rule_info *ri = vt_rule_info(r);
	unsigned int feature = need_feature(ri->need);

	if (ri->kind == VT_RK_OUTCOME && deny)
		return "an outcome has one way";
	/* the filesystem the worlds are of (vt_optowner_use, from FSTYP) */
	if (f->optowner && vt_optowner_rule_na(vt_optowner_current(), r, deny))
		return vt_optowner_rule_na(vt_optowner_current(), r, deny);
	if (feature && vt_fs_row(f->fstype) && !vt_fs_supports(f->fstype, feature))
		return vt_fs_lack_why(f->fstype, feature, lack_why, sizeof(lack_why));
	if (deny && ri->need == VT_NEED_OVERLAY && ovl_deny_na(r))
		return ovl_deny_na(r);
	/* an upper layer without RENAME_WHITEOUT fails every rename of a
	 * lower file that ovl_can_move lets through (op_rename: EINVAL), so
	 * these two allow only on the way to that failure */
	if (!deny && !f->whiteout && (r == VT_R_OVL_RENAME_EXDEV || r == VT_R_OVL_RENAME_OK))
		return "the filesystem has no whiteouts: as the overlay's upper layer it fails every "
		       "rename of a lower file (ovl_rename.upper-rename-whiteout)";
	switch (ri->need) {
	case VT_NEED_POSIXACL:
		return f->posixacl ? NULL : vt_rule_need_text(ri->need);
	case VT_NEED_NOACL_DENY:
		if (deny)
			return f->posixacl ? vt_rule_need_text(ri->need) : NULL;
		return f->posixacl ? NULL : vt_rule_need_text(VT_NEED_POSIXACL);
	case VT_NEED_HARDLINKS:
		return f->protected_hardlinks ? NULL : vt_rule_need_text(ri->need);
	case VT_NEED_SYMLINKS:
		return f->protected_symlinks ? NULL : vt_rule_need_text(ri->need);
	case VT_NEED_FIFOS:
		return f->protected_fifos ? NULL : vt_rule_need_text(ri->need);
	case VT_NEED_REGULAR:
		return f->protected_regular ? NULL : vt_rule_need_text(ri->need);
	case VT_NEED_WHITEOUT:
		return f->whiteout ? NULL : vt_rule_need_text(ri->need);
	case VT_NEED_OVL_NO_WHITEOUT:
		/* the upper layer refuses RENAME_WHITEOUT only where the
		 * filesystem has none, and passes it only where it has */
		if (deny)
			return f->whiteout ? vt_rule_need_text(ri->need) : NULL;
		return f->whiteout ? NULL : vt_rule_need_text(VT_NEED_WHITEOUT);
	case VT_NEED_EXEC:
		return f->exec ? NULL : vt_rule_need_text(ri->need);
	case VT_NEED_READ_ONLY:
		/* recorded only as a refusal: a writable sb passes unrecorded */
		if (!deny)
			return "the read-only rules only refuse (a writable sb passes them)";
		return f->read_only ? NULL : vt_rule_need_text(ri->need);
	case VT_NEED_SB_USERNS:
		return deny && f->sb_userns_init ? vt_rule_need_text(ri->need) : NULL;
	case VT_NEED_FAT:
		return f->optowner ? NULL : vt_rule_need_text(ri->need);
	case VT_NEED_FILEOPS:
		return f->optowner ? vt_rule_need_text(ri->need) : NULL;
	case VT_NEED_LEASE:
		return f->optowner || !f->leases ? vt_rule_need_text(ri->need) : NULL;
	case VT_NEED_FILEATTR:
		return f->optowner || !f->fileattr ? vt_rule_need_text(ri->need) : NULL;
	case VT_NEED_DEDUPE:
		return f->optowner || !f->dedupe ? vt_rule_need_text(ri->need) : NULL;
	case VT_NEED_ATIME:
		return f->optowner || !f->atime ? vt_rule_need_text(ri->need) : NULL;
	case VT_NEED_CACHESTAT:
		return f->optowner || !f->cachestat ? vt_rule_need_text(ri->need) : NULL;
	case VT_NEED_FSCRYPT:
	case VT_NEED_COREDUMP:
	case VT_NEED_FHANDLE:
		return vt_rule_need_text(ri->need);
	case VT_NEED_FAT_LACKS:
		if (!deny)
			return vt_rule_need_text(ri->need);
		return f->optowner ? NULL : vt_rule_need_text(VT_NEED_FAT);
	default:
		return NULL;
	}
}

int vt_coverage_write(const struct vt_coverage *c, const struct vt_world_facts *f,
		      const char *path)
{
	FILE *fp = fopen(path, "ae");
	int r;

	if (!fp)
		return -1;
	for (r = 1; r < VT_R__COUNT; r++) {
		const struct vt_rule_info *ri = vt_rule_info((enum vt_rule)r);
		const char *na = vt_coverage_na(f, (enum vt_rule)r, false);
		const char *nd = vt_coverage_na(f, (enum vt_rule)r, true);

		fprintf(fp, "%s\t%s\t%u\t%u\t%s\t%s\n", ri->slug, vt_rule_kind_name(ri->kind),
			c->allow[r], c->deny[r], na ? na : "-", nd ? nd : "-");
	}
	return fclose(fp) == 0 ? 0 : -1;
}

void vt_coverage_summary(const struct vt_coverage *c, const struct vt_world_facts *f, char *buf,
			 size_t len)
{
	int r, total = 0, both = 0, na = 0, gaps = 0;
	char gapbuf[2048] = "";
	size_t goff = 0;

	for (r = 1; r < VT_R__COUNT; r++) {
		const struct vt_rule_info *ri = vt_rule_info((enum vt_rule)r);
		bool a_ok, d_ok;

		if (ri->kind == VT_RK_OUTCOME)
			continue;
		total++;
		a_ok = c->allow[r] > 0 || vt_coverage_na(f, (enum vt_rule)r, false);
		d_ok = c->deny[r] > 0 || vt_coverage_na(f, (enum vt_rule)r, true);
		if (vt_coverage_na(f, (enum vt_rule)r, false) || vt_coverage_na(f, (enum vt_rule)r, true))
			na++;
		if (a_ok && d_ok) {
			both++;
			continue;
		}
		gaps++;
		if (goff < sizeof(gapbuf) - 1)
			goff += (size_t)snprintf(gapbuf + goff, sizeof(gapbuf) - goff, " %s(%s)",
						 ri->slug, c->allow[r] ? "no deny" : c->deny[r] ? "no allow" : "never");
	}
	snprintf(buf, len, "%d of %d decision rules decided both ways (%d with a way this world cannot express); %d gaps%s%s",
		 both, total, na, gaps, gaps ? ":" : "", gapbuf);
}
