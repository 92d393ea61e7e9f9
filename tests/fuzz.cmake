# libFuzzer target for the BTF reader (-DBTFENC_FUZZ=ON, clang only).
# The btf/ sources are compiled again into a fuzzer-instrumented static
# library, so the normal btfenc_btf stays uninstrumented.

if(BTFENC_FUZZ)
	if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
		message(FATAL_ERROR "BTFENC_FUZZ=ON needs clang (configure with CC=clang)")
	endif()
	set(FUZZ_FLAGS -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
		-fno-sanitize-recover=all)
	add_library(btfenc_btf_fuzz STATIC ${BTF_SOURCES})
	target_compile_options(btfenc_btf_fuzz PRIVATE ${FUZZ_FLAGS})
	target_link_libraries(btfenc_btf_fuzz PUBLIC PkgConfig::LIBELF)

	add_executable(fuzz_btf_read ${TESTS_DIR}/fuzz/fuzz_btf_read.c)
	target_include_directories(fuzz_btf_read PRIVATE ${CMAKE_SOURCE_DIR}/btf)
	target_compile_options(fuzz_btf_read PRIVATE -fsanitize=fuzzer,address,undefined
		-fno-omit-frame-pointer -fno-sanitize-recover=all)
	target_link_options(fuzz_btf_read PRIVATE -fsanitize=fuzzer,address,undefined)
	target_link_libraries(fuzz_btf_read PRIVATE btfenc_btf_fuzz)

	add_executable(fuzz_gen_seeds ${TESTS_DIR}/fuzz/gen_seeds.c)
	target_include_directories(fuzz_gen_seeds PRIVATE ${CMAKE_SOURCE_DIR}/btf)
	target_link_libraries(fuzz_gen_seeds PRIVATE btfenc_btf)

	# Seeds: builders, the RFC pahole outputs and the debug vmlinux's .BTF,
	# each if present and at most 1 MiB (larger inputs slow mutation down).
	set(FUZZ_REF ${CMAKE_SOURCE_DIR}/../shared/reference/rfc-pahole)
	set(FUZZ_DIR ${CMAKE_CURRENT_BINARY_DIR}/fuzz_btf_read.work)
	file(MAKE_DIRECTORY ${FUZZ_DIR})
	add_test(NAME fuzz_btf_read_seeds
		COMMAND fuzz_gen_seeds ${FUZZ_DIR}/seeds 1048576
			${FUZZ_REF}/drop_monitor.BTF ${FUZZ_REF}/drop_monitor.BTF.extra
			${FUZZ_REF}/xfs.BTF ${FUZZ_REF}/xfs.BTF.extra ${FUZZ_REF}/vmlinux.BTF
			/usr/lib/debug/boot/vmlinux-6.1.0-57-cloud-amd64)
	set_tests_properties(fuzz_btf_read_seeds PROPERTIES
		FIXTURES_SETUP fuzz_btf_corpus LABELS fuzz)
	# New inputs go to corpus/ (first directory); crashes to artifacts/.
	add_test(NAME fuzz_btf_read
		COMMAND sh -c "mkdir -p corpus artifacts && exec \"$0\" -max_total_time=60 -max_len=1048576 -artifact_prefix=artifacts/ -print_final_stats=1 corpus seeds"
			$<TARGET_FILE:fuzz_btf_read>
		WORKING_DIRECTORY ${FUZZ_DIR})
	set_tests_properties(fuzz_btf_read PROPERTIES
		FIXTURES_REQUIRED fuzz_btf_corpus LABELS fuzz TIMEOUT 300)
endif()
