#!/bin/bash
# Model mutants (lib/model/break.h) and the offline mutation score (TAP).
# No root: nothing is mounted, the model alone is asked.
#  1-3: the mutation points are the model's code: every call of a
#       translation, capability-scope or s_user_ns helper in a rule file, and every
#       refusal, is a registered point (a grep of the sources against the
#       registry), ids are unique, and no refusal bypasses VT_REFUSE.
#  4:   the quick sample kills every mutant some case of the matrix kills.
#  5:   the score can fail: a sample chosen without the cases that kill
#       one mutant (VT_SAMPLE_WITHOUT_MUTANT) shows it surviving, exit 1.
#  6:   the first hand-written mutant, chown-skip-mount-translation, is
#       one of the generated ones and quick kills it.
#  7:   bad input (an unknown mutant, group or fs) is exit 2.
#  8:   scripts/idmap-inventory on a two-file kernel tree: a modelled site
#       names its mutants, a comment is no call, an unknown one is not modelled.
set -u
. "$(dirname "$0")/tap-status.sh"
tool=$top/runner/vfsidmap-tool
echo "1..8"
tmp=$(mktemp -d /tmp/vfsidmap-mut.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# overlay_*.c: the matrix's overlay world asks them (their points are scored)
rules=$(ls "$src"/lib/model/*_rules.c "$src"/lib/model/model.c "$src"/lib/model/overlay_*.c)

# 1: each helper's call sites (grep) = its registered points (registry)
"$tool" mutants >"$tmp/list" || echo "# vfsidmap-tool mutants failed"
good=0
while read -r helper kfn; do
	calls=$(grep -ho "\bvt_$helper(" $rules | wc -l)
	echo "$calls" >>"$tmp/calls.$kfn"
done <<'HELPERS'
make_vfsuid make_vfsuid
make_vfsgid make_vfsgid
from_vfsuid from_vfsuid
from_vfsgid from_vfsgid
i_uid_into_vfsuid i_uid_into_vfsuid
i_gid_into_vfsgid i_gid_into_vfsgid
vfsuid_has_fsmapping vfsuid_has_fsmapping
vfsgid_has_fsmapping vfsgid_has_fsmapping
vfsuid_has_mapping vfsuid_has_mapping
vfsgid_has_mapping vfsgid_has_mapping
make_kuid make_kuid
make_kgid make_kgid
from_kuid from_kuid
from_kgid from_kgid
from_kuid_munged from_kuid_munged
from_kgid_munged from_kgid_munged
capable_wrt capable_wrt_inode_uidgid
capable_wrt_inode_uidgid capable_wrt_inode_uidgid
inode_owner_or_capable inode_owner_or_capable
in_group_or_capable in_group_or_capable
in_group_or_capable_hit in_group_or_capable
sb_kuid_has_mapping kuid_has_mapping
sb_kgid_has_mapping kgid_has_mapping
sb_ns_capable ns_capable
current_in_sb_userns current_in_userns
lower_layer_idmap lower_idmap
upper_layer_idmap upper_idmap
HELPERS
total=0
for f in "$tmp"/calls.*; do
	kfn=${f##*/calls.}
	want=$(awk "{ s += \$1 } END { print s }" "$f")
	total=$((total + want))
	got=$(cut -f1 "$tmp/list" | sed 's/#.*//' | sort -u | grep -c "/$kfn\(\.[0-9]*\)\?$")
	[ "$want" = "$got" ] || { good=1; echo "# $kfn: $want calls in the rule files, $got mutation points"; }
done
[ "$total" -gt 0 ] || good=1
ok $good "every translation and capability-scope call in the model is a mutation point ($total)"

# 2: every refusal is a guard point; ids unique
refusals=$(cat $rules | grep -o 'VT_FAIL([^;]*' | grep -vc 'VT_R_NONE')
refusals=$((refusals + $(cat $rules | grep -o 'VT_REFUSES\?_\?(' | wc -l)))
guards=$(cut -f1 "$tmp/list" | grep -c '/guard\[.*#removed$')
dups=$(cut -f1 "$tmp/list" | sort | uniq -d)
[ "$refusals" = "$guards" ] && [ -z "$dups" ]
ok $? "every refusal is a guard point ($refusals VT_FAIL/VT_REFUSE, $guards guard mutants) and ids are unique${dups:+ (dups: $dups)}"

# 3: no refusal written around the guard macros ("*rule = X; return -E...")
bare=$(awk 'FNR == 1 { prev = "" } /return -E[A-Z]+;/ && prev ~ /\*rule = / { print FILENAME ":" FNR } { prev = $0 }' $rules)
[ -z "$bare" ]
ok $? "no refusal bypasses VT_REFUSE${bare:+ ($bare)}"

# 4: quick kills every killable mutant
"$tool" mutation-score --fs tmpfs --tsv "$tmp/q.tsv" quick >"$tmp/q.out"; rc=$?
surv=$(awk -F'\t' 'NR > 1 && $7 == "survived"' "$tmp/q.tsv" | wc -l)
killed=$(awk -F'\t' 'NR > 1 && $7 == "killed"' "$tmp/q.tsv" | wc -l)
noreason=$(awk -F'\t' 'NR > 1 && $7 == "equivalent" && $8 == ""' "$tmp/q.tsv" | wc -l)
[ $rc = 0 ] && [ "$surv" = 0 ] && [ "$killed" -gt 0 ] && [ "$noreason" = 0 ] && grep -q '(100.0%)' "$tmp/q.out"
ok $? "the quick sample kills all $killed killable mutants on tmpfs; every equivalent one has a reason"

# 5: a sample without one mutant's cases lets it survive
m='attr_rules.c:vt_setattr_copy/from_vfsuid#identity'
VT_SAMPLE_WITHOUT_MUTANT=$m "$tool" mutation-score --fs tmpfs --tsv "$tmp/w.tsv" quick >"$tmp/w.out"; rc=$?
st=$(awk -F'\t' -v m="$m" '$1 == m { print $7 }' "$tmp/w.tsv")
[ $rc = 1 ] && [ "$st" = survived ] && grep -q "^    $m " "$tmp/w.out"
ok $? "a sample chosen without the cases killing $m shows it surviving (exit $rc, status '$st')"

# 6: the old name is an alias of a generated mutant, killed by quick
row=$(awk -F'\t' -v m="$m" '$1 == m' "$tmp/q.tsv")
sel=$(echo "$row" | cut -f4) full=$(echo "$row" | cut -f5)
grep -q '"chown-skip-mount-translation", "attr_rules.c:vt_setattr_copy/from_vfsuid#identity"' \
	"$src/lib/model/mutant.c" && [ "${sel:-0}" -gt 0 ] && [ "${full:-0}" -ge "${sel:-1}" ]
ok $? "chown-skip-mount-translation = $m: killed by ${sel:-0} quick cases (${full:-0} in the whole matrix)"

# 7: bad input
good=0
VT_MODEL_BREAK=no-such-mutant "$top/tests/matrix/002" >/dev/null 2>&1; [ $? = 2 ] || good=1
"$tool" mutation-score no-such-group >/dev/null 2>&1; [ $? = 2 ] || good=1
"$tool" mutation-score --fs nofs quick >/dev/null 2>&1; [ $? = 2 ] || good=1
ok $good "an unknown mutant, group or filesystem is exit 2"
# 8: the inventory on a tiny tree
mkdir -p "$tmp/k/fs/zzfs"
cat >"$tmp/k/fs/attr.c" <<'C'
static bool chown_ok(struct mnt_idmap *idmap, const struct inode *inode, vfsuid_t ia_vfsuid)
{
	/* i_uid_into_vfsuid() in a comment is no call */
	vfsuid_t vfsuid = i_uid_into_vfsuid(idmap, inode);
	return vfsuid_eq_kuid(vfsuid, current_fsuid());
}
C
cat >"$tmp/k/fs/zzfs/inode.c" <<'C'
int zzfs_thing(struct inode *inode)
{
	return i_gid_into_vfsgid(&nop_mnt_idmap, inode).val;
}
C
"$src/scripts/idmap-inventory" "$tmp/k" "$tmp/list" >"$tmp/inv.tsv" 2>"$tmp/inv.err"; rc=$?
a=$(awk -F'\t' '$1 == "fs/attr.c" && $4 == "i_uid_into_vfsuid" { print $3 "|" $6 "|" $7 }' "$tmp/inv.tsv")
b=$(awk -F'\t' '$1 == "fs/zzfs/inode.c" { print $3 "|" $7 }' "$tmp/inv.tsv")
rows=$(($(wc -l <"$tmp/inv.tsv") - 1))
[ $rc = 0 ] && [ $rows = 3 ] && case $a in "chown_ok|"*"attr_rules.c:chown_ok/i_uid_into_vfsuid#identity"*"|modelled") true ;; *) false ;; esac &&
	[ "$b" = "zzfs_thing|not modelled" ]
ok $? "idmap-inventory: chown_ok's call is modelled with its mutants, zzfs's is not, the comment is no row ($rows rows)"
[ $failed = 0 ]
