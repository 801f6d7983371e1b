#!/bin/bash
# lib/'s layers (TAP). Each folder of lib/ is a layer and depends only on
# the layers below it, bottom up: util, fs, fuse, config, world, model,
# report, testlib, matrix (architecture: a world is built by lib/world, the model
# says what the kernel must do in it, the matrix and the test library use
# both). Checked two ways: the #include lines of the sources, and the
# symbols each built object takes from another (nm), so a call through a
# prototype written by hand is seen too. And the option-owner rules are
# reached by the generic rules only through a world's fs_ops hooks
# (lib/model/fs_ops.h), never by name.
set -u
. "$(dirname "$0")/tap-status.sh"
layers="util fs fuse config world model report testlib matrix"
rank() { local i=0 l; for l in $layers; do [ "$l" = "$1" ] && { echo $i; return; }; i=$((i + 1)); done; echo -1; }
echo "1..4"

# 1: every folder of lib/ has a place in the order
unknown=""
for d in "$src"/lib/*/; do
	d=$(basename "$d")
	[ "$(rank "$d")" -ge 0 ] || unknown="$unknown $d"
done
ok $([ -z "$unknown" ] && echo 0 || echo 1) "every folder of lib/ is a layer${unknown:+ (not placed:$unknown)}"

# 2: no #include of a higher layer
up=""
for f in "$src"/lib/*/*.[ch]; do
	from=${f#"$src"/lib/}; from=${from%%/*}
	while read -r inc; do
		to=${inc%%/*}
		[ "$(rank "$to")" -gt "$(rank "$from")" ] && up="$up ${f#"$src"/}->$inc"
	done < <(sed -n 's/^#include "\([a-z_]*\/[a-z_0-9]*\.h\)".*/\1/p' "$f")
done
ok $([ -z "$up" ] && echo 0 || echo 1) "no #include runs up the layers${up:+:$up}"

# 3: no object takes a symbol from a higher layer
if ! command -v nm >/dev/null || ! ls "$top"/lib/*/*.o >/dev/null 2>&1; then
	skip "no object takes a symbol from a higher layer" "no nm or no built objects"
else
	defs=$(for o in "$top"/lib/*/*.o; do
		l=${o#"$top"/lib/}; l=${l%%/*}
		nm --defined-only -g "$o" | awk -v l="$l" -v o="${o#"$top"/}" 'NF == 3 { print $3, l, o }'
	done | sort -k1,1)
	uses=$(for o in "$top"/lib/*/*.o; do
		l=${o#"$top"/lib/}; l=${l%%/*}
		nm -u "$o" | awk -v l="$l" -v o="${o#"$top"/}" '{ print $2, l, o }'
	done | sort -k1,1)
	up=$(join <(echo "$uses") <(echo "$defs") | while read -r sym ul uo dl do_; do
		[ "$(rank "$dl")" -gt "$(rank "$ul")" ] && echo "$uo->$do_($sym)"
	done | sort -u | tr '\n' ' ')
	ok $([ -z "$up" ] && echo 0 || echo 1) "no object takes a symbol from a higher layer${up:+: $up}"
fi

# 4: the generic rules name no option-owner rule (they ask fs_ops)
named=$(grep -ln 'vt_optowner_[a-z_]*(' "$src"/lib/model/*.c | grep -v '/optowner_rules\.c$' | tr '\n' ' ')
ok $([ -z "$named" ] && echo 0 || echo 1) "the generic rules call no vt_optowner_* function${named:+: $named}"
exit $((failed > 0))
