# Sourced by the script tests that read KTAP with the kernel's own parser
# (tools/testing/kunit/kunit.py parse), after tap.sh and unit_workdir.
#
# kunit_find: $kunit, the path of kunit.py, and $kunit_from, where it came
# from: the kernel tree of KSFT_KERNEL_SELFTESTS (its ../kunit), else the
# newest /usr/src/linux-source-*.tar.xz (Debian's linux-source-X.Y),
# extracted into $work/ksrc. Fails (status 1) with neither.
kunit_find() {
	local tarball
	kunit="" kunit_from=""
	if [ -n "${KSFT_KERNEL_SELFTESTS:-}" ] && [ -f "$KSFT_KERNEL_SELFTESTS/../kunit/kunit.py" ]; then
		kunit=$(cd "$KSFT_KERNEL_SELFTESTS/../kunit" && pwd)/kunit.py
		kunit_from="KSFT_KERNEL_SELFTESTS ($KSFT_KERNEL_SELFTESTS)"
	else
		tarball=$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -n 1)
		if [ -n "$tarball" ]; then
			mkdir -p "$work/ksrc"
			tar -xJf "$tarball" -C "$work/ksrc" --wildcards '*/tools/testing/kunit/*' 2>/dev/null
			kunit=$(find "$work/ksrc" -path '*/tools/testing/kunit/kunit.py' | head -n 1)
			kunit_from=$tarball
		fi
	fi
	[ -n "$kunit" ] && [ -f "$kunit" ]
}

# kunit.py's summary line "Ran N tests: passed: P, failed: F, crashed: C,
# skipped: S, errors: E" (kunit_parser.py prints only the non-zero ones)
# in its output FILE -> "P F C S E".
kunit_counts() { # file
	sed -n 's/.*Testing complete\. Ran \([0-9]*\) tests*: *//p' "$1" | tail -n 1 |
		awk -F', *' '{ for (i = 1; i <= NF; i++) { split($i, kv, ": *"); c[kv[1]] = kv[2] }
			print c["passed"] + 0, c["failed"] + 0, c["crashed"] + 0, c["skipped"] + 0, c["errors"] + 0 }'
}
