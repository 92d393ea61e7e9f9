# Drop-in for the kernel build: pahole's command line as kbuild spells it,
# the seeds' gen_btf()/modfinal shell steps with the real objcopy, the
# distilled base for out-of-tree modules, the man page, the progress line.

add_executable(test_distill ${TESTS_DIR}/test_distill.c)
target_include_directories(test_distill PRIVATE ${CMAKE_SOURCE_DIR}/btf)
target_link_libraries(test_distill PRIVATE btfenc_btf)
add_test(NAME distill_unit COMMAND test_distill)

add_test(NAME cli_flags COMMAND ${TESTS_DIR}/cli_flags.sh $<TARGET_FILE:btfenc> $<TARGET_FILE:demo>)

foreach(mode y m)
	add_test(NAME kbuild_steps_btf_extra_${mode}
		COMMAND ${TESTS_DIR}/kbuild_steps.sh $<TARGET_FILE:btfenc> $<TARGET_FILE:test_distill>
			${TESTS_DIR}/fixtures/kbuild ${mode})
endforeach()

add_test(NAME progress_line
	COMMAND ${TESTS_DIR}/cli_flags.sh progress $<TARGET_FILE:btfenc>
		/usr/lib/debug/boot/vmlinux-6.1.0-57-cloud-amd64)
set_tests_properties(progress_line PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)

# The man page renders without a warning; install puts binary and page in place.
add_test(NAME man_page_groff
	COMMAND sh -c "out=$(groff -man -Tutf8 -ww \"$1\" 2>&1 >/dev/null) && [ -z \"$out\" ] || { echo \"$out\"; exit 1; }"
		sh ${CMAKE_SOURCE_DIR}/man/btfenc.1)
add_test(NAME install_bin_and_man
	COMMAND sh -c "d=$(mktemp -d) && \"$1\" --install \"$2\" --prefix \"$d\" >/dev/null && \"$d/bin/btfenc\" --version | grep -qx v1.31 && cmp -s \"$d/share/man/man1/btfenc.1\" \"$3\"; r=$?; rm -rf \"$d\"; exit $r"
		sh ${CMAKE_COMMAND} ${CMAKE_BINARY_DIR} ${CMAKE_SOURCE_DIR}/man/btfenc.1)

# distilled_base on a real module against the real vmlinux .BTF, when installed.
set(KBUILD_REAL_VMLINUX /usr/lib/debug/boot/vmlinux-6.1.0-57-cloud-amd64)
set(KBUILD_REAL_MODULE
	/usr/lib/debug/lib/modules/6.1.0-57-cloud-amd64/kernel/net/netfilter/nf_conntrack_netlink.ko)
add_test(NAME distill_real_module
	COMMAND sh -c "[ -r \"$3\" ] && [ -r \"$4\" ] || exit 77; d=$(mktemp -d); cp \"$4\" $d/full.ko && cp \"$4\" $d/m.ko && \"$1\" -j2 --btf_features=default --btf_base \"$3\" --btf_encode_detached $d/full.btf $d/full.ko && \"$1\" -J -j2 --btf_features=default,distilled_base --btf_base \"$3\" $d/m.ko && \"$2\" module \"$3\" $d/full.btf $d/m.ko; r=$?; rm -rf $d; exit $r"
		sh $<TARGET_FILE:btfenc> $<TARGET_FILE:test_distill> ${KBUILD_REAL_VMLINUX}
		${KBUILD_REAL_MODULE})
set_tests_properties(distill_real_module PROPERTIES SKIP_RETURN_CODE 77)
