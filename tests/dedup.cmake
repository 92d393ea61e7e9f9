# BTF dedup: the RFC split_loc selftest (seed 006), unit cases, and a
# differential against the system libbpf's btf__dedup().

add_executable(test_dedup ${TESTS_DIR}/test_dedup.c)
target_include_directories(test_dedup PRIVATE ${CMAKE_SOURCE_DIR}/btf)
target_link_libraries(test_dedup PRIVATE btfenc_btf)
add_test(NAME dedup_unit COMMAND test_dedup)

add_executable(btf_dedup_tool ${TESTS_DIR}/tools/btf_dedup_tool.c)
target_include_directories(btf_dedup_tool PRIVATE ${CMAKE_SOURCE_DIR}/btf)
target_link_libraries(btf_dedup_tool PRIVATE btfenc_btf)

pkg_check_modules(LIBBPF IMPORTED_TARGET libbpf)
if(LIBBPF_FOUND)
	add_executable(libbpf_dedup ${TESTS_DIR}/tools/libbpf_dedup.c)
	target_link_libraries(libbpf_dedup PRIVATE PkgConfig::LIBBPF)
	add_test(NAME dedup_diff_fixtures
		COMMAND ${TESTS_DIR}/dedup_diff.sh fixtures $<TARGET_FILE:btf_dedup_tool>
			$<TARGET_FILE:libbpf_dedup> ${TESTS_DIR}/fixtures/dedup
			${CMAKE_CURRENT_BINARY_DIR}/dedup_diff_fixtures)
	set_tests_properties(dedup_diff_fixtures PROPERTIES SKIP_RETURN_CODE 77)
	add_test(NAME dedup_diff_vmlinux
		COMMAND ${TESTS_DIR}/dedup_diff.sh vmlinux $<TARGET_FILE:btf_dedup_tool>
			$<TARGET_FILE:libbpf_dedup> /usr/lib/debug/boot/vmlinux-6.1.0-57-cloud-amd64
			${CMAKE_CURRENT_BINARY_DIR}/dedup_diff_vmlinux)
	set_tests_properties(dedup_diff_vmlinux PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
endif()

# The encoder's own pre-dedup BTF: the fixtures linked into one relocatable
# object (several CUs, as in a module) in CI, vmlinux when installed.
add_executable(predup_btf ${TESTS_DIR}/tools/predup_btf.c)
target_link_libraries(predup_btf PRIVATE btfenc_encoder)
if(LIBBPF_FOUND)
	add_test(NAME dedup_diff_encoder_fixtures
		COMMAND ${TESTS_DIR}/dedup_diff.sh encoder $<TARGET_FILE:btf_dedup_tool>
			$<TARGET_FILE:libbpf_dedup> ${TESTS_DIR}/fixtures/dedup
			${CMAKE_CURRENT_BINARY_DIR}/dedup_diff_encoder_fixtures $<TARGET_FILE:predup_btf>)
	add_test(NAME dedup_diff_encoder_vmlinux
		COMMAND ${TESTS_DIR}/dedup_diff.sh encoder $<TARGET_FILE:btf_dedup_tool>
			$<TARGET_FILE:libbpf_dedup> /usr/lib/debug/boot/vmlinux-6.1.0-57-cloud-amd64
			${CMAKE_CURRENT_BINARY_DIR}/dedup_diff_encoder_vmlinux $<TARGET_FILE:predup_btf>)
	set_tests_properties(dedup_diff_encoder_fixtures dedup_diff_encoder_vmlinux
		PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900)
endif()

# The struct phase on two threads against one, on btfenc's own sources
# linked into one object (in CI) and on vmlinux (when installed).
add_test(NAME dedup_rounds
	COMMAND ${TESTS_DIR}/dedup_rounds.sh $<TARGET_FILE:btf_dedup_tool>
		$<TARGET_FILE:predup_btf> ${CMAKE_SOURCE_DIR}
		${CMAKE_CURRENT_BINARY_DIR}/dedup_rounds
		/usr/lib/debug/boot/vmlinux-6.1.0-57-cloud-amd64)
set_tests_properties(dedup_rounds PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900)
