/* matrix/011: the matrix's quick sample, chosen by the rules it decides.
 *
 * All the families (matrix/001-010, 012, 013) in one program. Before running, the
 * model is asked about every one of their cases in this world (no system
 * call), and a greedy set cover keeps the fewest cases that together
 * decide every rule of lib/model/rule_table.h both ways (allow in a case
 * that succeeds, deny in a case it fails or strips), with every mount
 * idmap and every caller present in each family. Those cases then run
 * exactly as in their family's test, and the run reports its rule
 * coverage. The sample is deterministic for a given world (fs, POSIX ACLs,
 * whiteouts, exec, the fs.protected_* sysctls and whether they may
 * change, expunges). Case ids are the
 * families' own: `./check --case matrix/011/chown/...` replays one. */
#include "matrix/matrix.h"

int main(int argc, char **argv)
{
	static const struct vt_family *const fams[] = {
		&vt_family_create, &vt_family_chown, &vt_family_chmod, &vt_family_permission,
		&vt_family_acl, &vt_family_fscaps, &vt_family_delete, &vt_family_setattr,
		&vt_family_xattr, &vt_family_exec,    &vt_family_protected, &vt_family_fileops,
	};

	return vt_matrix_sample_main(fams, (int)(sizeof(fams) / sizeof(fams[0])), argc, argv);
}
