# Kernel trouble per test, as xfstests checks dmesg: a marker line into the
# kernel log (/dev/kmsg) before and after each test, the log between the
# markers saved as NNN.dmesg in the test's results, and scanned for what a
# kernel prints when it is in trouble. A hit fails the test with the lines,
# unless a noise pattern (expunge/dmesg/noise, VT_DMESG_NOISE) matches it.
# Without a usable kernel log (no /dev/kmsg to write, dmesg refused) the
# check is off with a notice on the terminal and in check.log, never a
# silent pass.

VT_KMSG_OK=0
VT_KMSG_WHY="not probed"
VT_KMSG_TAG=""
# What a kernel in trouble prints (lib/bug.c, kernel/panic.c __warn,
# arch fault handlers, mm/kasan, lib/ubsan.c, kernel/locking/lockdep.c,
# kernel/hung_task.c, kernel/rcu stall warnings).
VT_KMSG_TROUBLE='WARNING:|BUG:|Oops|KASAN|UBSAN|kernel BUG|general protection fault|Unable to handle kernel|possible circular locking|possible recursive locking|inconsistent lock state|INFO: task .* blocked for more than|rcu: INFO: .* detected stalls|self-detected stall'

# Once per run: can we write a marker and read it back?
vt_kmsg_begin() {
	local probe
	VT_KMSG_OK=0
	if ! { echo "vfsidmap: probe $$" >/dev/kmsg; } 2>/dev/null; then
		VT_KMSG_WHY="cannot write to /dev/kmsg"
	elif ! probe=$(dmesg 2>&1); then
		VT_KMSG_WHY="cannot read the kernel log (dmesg: $(echo "$probe" | head -n 1))"
	elif ! grep -qF "vfsidmap: probe $$" <<<"$probe"; then
		VT_KMSG_WHY="a line written to /dev/kmsg does not show in dmesg"
	else
		VT_KMSG_OK=1 VT_KMSG_WHY=""
	fi
	# the noise patterns, once per run
	vt_kmsg_noise >"$VT_RUNDIR/kmsg.noise"
	if [ "$VT_KMSG_OK" = 0 ]; then
		echo "KERNEL LOG    -- not checked per test: $VT_KMSG_WHY"
		echo "kernel log: not checked per test: $VT_KMSG_WHY" >>"$VT_STAGE/check.log"
	fi
}

# VT_KMSG_PHASES=1 (a debug knob, e.g. `run/vm --append VT_KMSG_PHASES=1`):
# a line "vfsidmap: phase SECTION TEST PHASE" into the kernel log as each
# part of check's work around a test ends, so that the kernel's timestamps
# (dmesg, run/vm's console) say where a run's wall time goes
# (run/phase-times sums them). Written outside the section's own test
# markers; under -j another section's lines land in a test's NNN.dmesg,
# as that section's kernel messages already do (they match no trouble
# pattern).
vt_phase() { # section test phase
	[ "${VT_KMSG_PHASES:-0}" = 1 ] && [ "$VT_KMSG_OK" = 1 ] || return 0
	echo "vfsidmap: phase $1 $2 $3" >/dev/kmsg 2>/dev/null
	return 0
}

vt_kmsg_mark() { # start|end section test
	[ "$VT_KMSG_OK" = 1 ] || return 0
	[ "$1" = start ] && VT_KMSG_TAG="$BASHPID-${EPOCHREALTIME/[.,]/}"
	echo "vfsidmap: run $2 $3 $VT_KMSG_TAG $1" >/dev/kmsg 2>/dev/null
}

# The noise patterns, comment lines and blank lines left out.
vt_kmsg_noise() {
	local f files=("$VT_TOP/expunge/dmesg/noise")
	[ -n "${VT_DMESG_NOISE:-}" ] && IFS=: read -ra f <<<"$VT_DMESG_NOISE" && files+=("${f[@]}")
	for f in "${files[@]}"; do
		[ -r "$f" ] && grep -vE '^[[:space:]]*(#|$)' "$f"
	done
}

# After the test: NNN.dmesg, and VT_KMSG_HITS (the trouble lines, one a
# line) or VT_KMSG_NOTE (why the test's log could not be checked).
# One dmesg and one awk per test (forks are dear in a TCG guest); the
# noise patterns are applied with grep -E, as the user wrote them, only to
# lines of trouble.
vt_kmsg_collect() { # section test base
	VT_KMSG_HITS="" VT_KMSG_NOTE=""
	if [ "$VT_KMSG_OK" != 1 ]; then
		VT_KMSG_NOTE="kernel log not checked: $VT_KMSG_WHY"
		return 0
	fi
	vt_kmsg_mark end "$1" "$2"
	local start="vfsidmap: run $1 $2 $VT_KMSG_TAG start" end="vfsidmap: run $1 $2 $VT_KMSG_TAG end"
	local log="${VT_WORKDIR:-$VT_RUNDIR}/kmsg" hits="${VT_WORKDIR:-$VT_RUNDIR}/kmsg.hits" first=""
	if ! dmesg >"$log" 2>&1; then
		[ -r "$log" ] && IFS= read -r first <"$log"
		VT_KMSG_NOTE="kernel log not checked: dmesg failed: $first"
		return 0
	fi
	# From the start marker to the end marker; a start marker the ring
	# buffer lost leaves what is there before the end marker, said so.
	# The lines of trouble go to HITS; a fake warning of another run's
	# selftest/004 names that run's tag: provably not this test's kernel.
	# (Both files are overwritten by the next test and go with the run
	# directory.)
	: >"$hits"
	awk -v s="$start" -v e="$end" -v trouble="$VT_KMSG_TROUBLE" -v tag="$VT_KMSG_TAG" -v hits="$hits" '
		function keep(line) {
			print line
			if (line ~ trouble && !(line ~ /vfsidmap-selftest fake warning \(run / && index(line, "(run " tag ")") == 0))
				print line >hits
		}
		index($0, s) { on = 1; seen = 1; next }
		index($0, e) { exit }
		on { keep($0) }
		!seen { pre[++n] = $0 }
		END { if (!seen) { keep("vfsidmap: the start marker is no longer in the kernel log (ring buffer overrun); what is left:"); for (i = 1; i <= n; i++) keep(pre[i]) } }' \
		"$log" >"$3.dmesg"
	if [ -s "$hits" ]; then
		if [ -s "$VT_RUNDIR/kmsg.noise" ]; then
			VT_KMSG_HITS=$(grep -vE -f "$VT_RUNDIR/kmsg.noise" "$hits")
		else
			VT_KMSG_HITS=$(<"$hits")
		fi
	fi
}
