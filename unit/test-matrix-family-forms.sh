#!/bin/bash
# Every matrix family has a form for every owner source of the filesystem
# table (TAP): matrix/011, which links all the families, prints each
# family's form per source (--family-forms: "form", "n/a: WHY" or
# "MISSING") and exits 1 if one is missing; every family of the table's
# sources is listed; and every program of tests/matrix runs a family that
# 011 holds, so none escapes the check. unit/test-matrix-forms.c shows the
# check fails for a family without a form.
set -u
. "$(dirname "$0")/tap-status.sh"
echo "1..3"
tool=$top/runner/vfsidmap-tool
forms=$("$top/tests/matrix/011" --family-forms); rc=$?
ok $rc "matrix/011 --family-forms: no family lacks a form${forms:+ ($(printf '%s\n' "$forms" | grep -c MISSING) missing)}"
[ $rc = 0 ] || printf '%s\n' "$forms" | grep MISSING | sed 's/^/# /'

sources=$("$tool" fs-table owner | cut -f2 | sort -u)
fams=$(printf '%s\n' "$forms" | cut -f1 | sort -u)
want=$(for f in $fams; do for s in $sources; do echo "$f $s"; done; done | sort)
got=$(printf '%s\n' "$forms" | awk -F '\t' '{ print $1 " " $2 }' | sort)
[ -n "$sources" ] && [ -n "$fams" ] && [ "$want" = "$got" ]
ok $? "each of $(echo $fams | wc -w) families has a line for each owner source of the table ($(echo $sources))"

missing=""
for p in "$top"/tests/matrix/[0-9][0-9][0-9]; do
	case ${p##*/} in 011) continue ;; esac
	fam=$(FSTYP=tmpfs "$p" --list-cases | head -n 1 | cut -d/ -f1)
	printf '%s\n' "$fams" | grep -qx "$fam" || missing="$missing ${p##*/}:$fam"
done
[ -z "$missing" ]; ok $? "every tests/matrix program's family is in matrix/011's check${missing:+ (not:$missing)}"
exit $((failed > 0))
