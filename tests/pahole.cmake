# btfenc against pahole (stored 1.31 output, Debian's 1.24 run live) on
# the installed Debian kernel; skipped (77) when it is not installed.
# Allowed differences: docs/pahole-differences.md ("allow" lines).

set(PAHOLE_CMP ${TESTS_DIR}/pahole_compare.sh)
set(PAHOLE_DOCS ${CMAKE_SOURCE_DIR}/docs/pahole-differences.md)
set(PAHOLE_WORK ${CMAKE_CURRENT_BINARY_DIR}/pahole_compare)

foreach(target vmlinux xfs btrfs tunnel6 crc7 ipvtap drop_monitor)
	add_test(NAME pahole131_${target}
		COMMAND ${PAHOLE_CMP} ref131 ${BTFENC_BIN} $<TARGET_FILE:btf_dedup_tool>
			${PAHOLE_DOCS} ${PAHOLE_WORK}/ref131_${target} ${target})
	set_tests_properties(pahole131_${target} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
endforeach()

foreach(target vmlinux btrfs)
	add_test(NAME pahole124_${target}
		COMMAND ${PAHOLE_CMP} pahole124 ${BTFENC_BIN} $<TARGET_FILE:btf_dedup_tool>
			${PAHOLE_DOCS} ${PAHOLE_WORK}/p124_${target} ${target})
	set_tests_properties(pahole124_${target} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
endforeach()

add_test(NAME pahole_jobs_identical COMMAND ${PAHOLE_CMP} jobs ${BTFENC_BIN} ${PAHOLE_WORK}/jobs)
set_tests_properties(pahole_jobs_identical PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)

if(LIBBPF_FOUND)
	add_executable(btf_kernel_load ${TESTS_DIR}/tools/btf_kernel_load.c)
	target_link_libraries(btf_kernel_load PRIVATE PkgConfig::LIBBPF)
	add_test(NAME pahole_libbpf_kernel_load
		COMMAND ${PAHOLE_CMP} libbpf ${BTFENC_BIN} $<TARGET_FILE:btf_kernel_load>
			${PAHOLE_WORK}/libbpf)
	set_tests_properties(pahole_libbpf_kernel_load PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
endif()
