# BTF library: builders, writer, reader and dump against the RFC seeds
# (005-007), byte-order round trips, and bpftool.

add_executable(test_seeds ${TESTS_DIR}/test_seeds.c)
target_include_directories(test_seeds PRIVATE ${CMAKE_SOURCE_DIR}/btf)
target_link_libraries(test_seeds PRIVATE btfenc_btf)
add_test(NAME btf_seeds COMMAND test_seeds)

add_executable(test_roundtrip ${TESTS_DIR}/test_roundtrip.c)
target_include_directories(test_roundtrip PRIVATE ${CMAKE_SOURCE_DIR}/btf)
target_link_libraries(test_roundtrip PRIVATE btfenc_btf)
add_test(NAME btf_roundtrip_kinds COMMAND test_roundtrip kinds)

# Debian's linux-image-6.1.0-57-cloud-amd64-dbg; absent in CI.
set(BTF_LIB_VMLINUX /usr/lib/debug/boot/vmlinux-6.1.0-57-cloud-amd64)
set(BTF_LIB_REFERENCE ${CMAKE_SOURCE_DIR}/../shared/reference CACHE PATH
    "reference outputs: pahole-1.31/ and rfc-pahole/ (tests skip if absent)")
add_test(NAME btf_roundtrip_vmlinux COMMAND test_roundtrip elf ${BTF_LIB_VMLINUX})
add_test(NAME btf_roundtrip_rfc COMMAND test_roundtrip rfc ${BTF_LIB_REFERENCE}/rfc-pahole)
set_tests_properties(btf_roundtrip_vmlinux btf_roundtrip_rfc PROPERTIES SKIP_RETURN_CODE 77)

# `btfenc dump` against `bpftool btf dump file`, line for line.
set(BTF_LIB_DUMP_VS_BPFTOOL sh ${TESTS_DIR}/dump_vs_bpftool.sh)
set(BTF_LIB_MODDIR /usr/lib/debug/lib/modules/6.1.0-57-cloud-amd64/kernel)
add_test(NAME btf_dump_bpftool_fixture
	 COMMAND ${BTF_LIB_DUMP_VS_BPFTOOL} fixture ${BTFENC_BIN} ${TESTS_DIR}
		 $<TARGET_FILE:test_roundtrip>)
add_test(NAME btf_dump_bpftool_sys COMMAND ${BTF_LIB_DUMP_VS_BPFTOOL} sys ${BTFENC_BIN})
add_test(NAME btf_dump_bpftool_vmlinux
	 COMMAND ${BTF_LIB_DUMP_VS_BPFTOOL} vmlinux ${BTFENC_BIN} ${BTF_LIB_VMLINUX}
		 ${BTF_LIB_MODDIR})
add_test(NAME btf_dump_bpftool_pahole131
	 COMMAND ${BTF_LIB_DUMP_VS_BPFTOOL} pahole131 ${BTFENC_BIN}
		 ${BTF_LIB_REFERENCE}/pahole-1.31 ${BTF_LIB_VMLINUX})
add_test(NAME btf_dump_multisplit_rfc
	 COMMAND ${BTF_LIB_DUMP_VS_BPFTOOL} multisplit ${BTFENC_BIN}
		 ${BTF_LIB_REFERENCE}/rfc-pahole)
set_tests_properties(btf_dump_bpftool_fixture btf_dump_bpftool_sys btf_dump_bpftool_vmlinux
		     btf_dump_bpftool_pahole131 btf_dump_multisplit_rfc
		     PROPERTIES SKIP_RETURN_CODE 77)

# Errors of `btfenc dump`: status 1, nothing on stdout, one line naming the file.
add_test(NAME btf_dump_cli
	 COMMAND sh ${TESTS_DIR}/test_dump_cli.sh ${BTFENC_BIN} $<TARGET_FILE:test_roundtrip>)

# The merge's names: .debug_str offsets, memo kept or dropped.
add_executable(test_merge_names ${TESTS_DIR}/test_merge_names.c)
target_include_directories(test_merge_names PRIVATE ${CMAKE_SOURCE_DIR}/btf)
target_link_libraries(test_merge_names PRIVATE btfenc_btf)
add_test(NAME btf_merge_names COMMAND test_merge_names)

add_executable(test_merge_exact ${TESTS_DIR}/test_merge_exact.c)
target_include_directories(test_merge_exact PRIVATE ${CMAKE_SOURCE_DIR}/btf)
target_link_libraries(test_merge_exact PRIVATE btfenc_btf)
add_test(NAME btf_merge_exact COMMAND test_merge_exact)
