# The merged location layout (issue 8): BTF library golden dumps and round
# trips, and the encoder's two writers compared site by site.

add_executable(test_merged ${TESTS_DIR}/test_merged.c)
target_include_directories(test_merged PRIVATE ${CMAKE_SOURCE_DIR}/btf)
target_link_libraries(test_merged PRIVATE btfenc_btf)
add_test(NAME btf_merged_layout COMMAND test_merged)

# Both writers from the same sites: the demo and the inline fixtures
# (sites.cmake builds them), each encoded in both layouts and compared.
add_executable(test_layouts ${TESTS_DIR}/test_layouts.c)
target_include_directories(test_layouts PRIVATE ${CMAKE_SOURCE_DIR}/btf)
target_link_libraries(test_layouts PRIVATE btfenc_btf)
set(MERGED_FIXTURE_DIR ${CMAKE_CURRENT_BINARY_DIR}/fixtures-inline)
foreach(obj demo basic-gcc-O2 args-gcc-O2 args-clang-O2 basic-gcc-O3 consts-gcc-O2 consts-clang-O2
		consts-gcc-O1)
	if(obj STREQUAL "demo")
		set(path $<TARGET_FILE:demo>)
	else()
		set(path ${MERGED_FIXTURE_DIR}/${obj})
	endif()
	add_test(NAME merged_vs_seed_${obj}
		 COMMAND sh -c "set -e; d=$(mktemp -d); trap 'rm -rf $d' EXIT; \"$0\" --btf_encode_detached $d/s --btf_features=default,inline \"$1\"; \"$0\" --btf_encode_detached $d/m --btf_features=default,inline,layout \"$1\"; \"$2\" $d/s $d/m"
			 ${BTFENC_BIN} ${path} $<TARGET_FILE:test_layouts>)
endforeach()

# The Debian kernel (absent in CI: skipped): every .text site agrees.
set(MERGED_VMLINUX /usr/lib/debug/boot/vmlinux-6.1.0-57-cloud-amd64)
add_test(NAME merged_vs_seed_vmlinux
	 COMMAND sh -c "[ -r \"$1\" ] || exit 77; set -e; d=$(mktemp -d); trap 'rm -rf $d' EXIT; \"$0\" -j2 --btf_encode_detached $d/s --btf_features=default,inline \"$1\" 2>/dev/null; \"$0\" -j2 --btf_encode_detached $d/m --btf_features=default,inline,layout \"$1\" 2>/dev/null; \"$2\" $d/s $d/m"
		 ${BTFENC_BIN} ${MERGED_VMLINUX} $<TARGET_FILE:test_layouts>)
set_tests_properties(merged_vs_seed_vmlinux PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)

# btf__permute / btf__sort_by_name (btf/permute.c): the merged layout's
# type order, as bpf-next's resolve_btfids --btf_sort makes it.
add_executable(test_permute ${TESTS_DIR}/test_permute.c)
target_include_directories(test_permute PRIVATE ${CMAKE_SOURCE_DIR}/btf)
target_link_libraries(test_permute PRIVATE btfenc_btf)
add_test(NAME btf_permute COMMAND test_permute)

# With "layout", inline.extra's split section is bpf-next's .BTF.inline
# (OUT.inline detached); without it, the seeds' .BTF.extra.
add_test(NAME btf_inline_section
	 COMMAND ${TESTS_DIR}/btf_inline_section.sh ${BTFENC_BIN} $<TARGET_FILE:demo>)
