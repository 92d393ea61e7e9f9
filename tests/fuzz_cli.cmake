# libFuzzer targets beside fuzz_btf_read (tests/fuzz.cmake): the command
# line (fuzz_cli) and the location-expression mapper (fuzz_loc, built in
# tests/sites.cmake), each with seeds and a 60 s ctest run (label fuzz).
if(BTFENC_FUZZ AND CMAKE_C_COMPILER_ID MATCHES "Clang")
	set(FUZZ_CLI_FLAGS -fsanitize=fuzzer,address,undefined -fno-omit-frame-pointer
		-fno-sanitize-recover=all)
	# Everything the command line reaches, instrumented; not main.c.
	set(FUZZ_CLI_SOURCES ${CMD_SOURCES})
	list(FILTER FUZZ_CLI_SOURCES EXCLUDE REGEX "/main\\.c$")
	add_executable(fuzz_cli ${TESTS_DIR}/fuzz/fuzz_cli.c ${FUZZ_CLI_SOURCES}
		${ENCODER_SOURCES} ${DWARF_SOURCES} ${BTF_SOURCES})
	target_include_directories(fuzz_cli PRIVATE ${CMAKE_SOURCE_DIR}/cmd)
	target_compile_definitions(fuzz_cli PRIVATE BTFENC_VERSION="${PROJECT_VERSION}")
	target_compile_options(fuzz_cli PRIVATE ${FUZZ_CLI_FLAGS})
	target_link_options(fuzz_cli PRIVATE ${FUZZ_CLI_FLAGS})
	target_link_libraries(fuzz_cli PRIVATE PkgConfig::LIBDW PkgConfig::LIBELF Threads::Threads)

	# Seeds: the command lines kbuild and the README use, NUL-separated.
	set(FUZZ_CLI_DIR ${CMAKE_CURRENT_BINARY_DIR}/fuzz_cli.work)
	add_test(NAME fuzz_cli_seeds
		COMMAND sh -c "rm -rf seeds && mkdir -p seeds && n=0 && while IFS= read -r l; do n=$((n+1)); printf '%s' \"$l\" | tr ' ' '\\000' > seeds/seed-$n; done < \"$0\""
			${TESTS_DIR}/fuzz/cli_seeds.txt
		WORKING_DIRECTORY ${FUZZ_CLI_DIR})
	file(MAKE_DIRECTORY ${FUZZ_CLI_DIR})
	set_tests_properties(fuzz_cli_seeds PROPERTIES FIXTURES_SETUP fuzz_cli_corpus LABELS fuzz)
	# -close_fd_mask=3: the parsers' usage texts would drown libFuzzer's output;
# -timeout=10: a hang (--btf_features=+ once looped) is an artifact, not a ctest timeout.
	add_test(NAME fuzz_cli
		COMMAND sh -c "mkdir -p corpus artifacts && exec \"$0\" -max_total_time=60 -timeout=10 -max_len=4096 -close_fd_mask=3 -artifact_prefix=artifacts/ -print_final_stats=1 corpus seeds"
			$<TARGET_FILE:fuzz_cli>
		WORKING_DIRECTORY ${FUZZ_CLI_DIR})
	set_tests_properties(fuzz_cli PROPERTIES FIXTURES_REQUIRED fuzz_cli_corpus LABELS fuzz TIMEOUT 300)

	if(EXISTS ${TESTS_DIR}/fuzz/fuzz_loc.c)
		add_executable(fuzz_loc_seeds ${TESTS_DIR}/fuzz/fuzz_loc_seeds.c)
		target_link_libraries(fuzz_loc_seeds PRIVATE PkgConfig::LIBDW)
		set(FUZZ_LOC_DIR ${CMAKE_CURRENT_BINARY_DIR}/fuzz_loc.work)
		file(MAKE_DIRECTORY ${FUZZ_LOC_DIR})
		# Seeds: the location expressions of the demo (gcc -O2, with lists).
		add_test(NAME fuzz_loc_seeds
			COMMAND sh -c "rm -rf seeds && mkdir seeds && \"$0\" \"$1\" seeds"
				$<TARGET_FILE:fuzz_loc_seeds> $<TARGET_FILE:demo>
			WORKING_DIRECTORY ${FUZZ_LOC_DIR})
		set_tests_properties(fuzz_loc_seeds PROPERTIES FIXTURES_SETUP fuzz_loc_corpus LABELS fuzz)
		add_test(NAME fuzz_loc
			COMMAND sh -c "mkdir -p corpus artifacts && exec \"$0\" -max_total_time=60 -artifact_prefix=artifacts/ -print_final_stats=1 corpus seeds"
				$<TARGET_FILE:fuzz_loc>
			WORKING_DIRECTORY ${FUZZ_LOC_DIR})
		set_tests_properties(fuzz_loc PROPERTIES FIXTURES_REQUIRED fuzz_loc_corpus LABELS fuzz TIMEOUT 300)
	endif()
endif()
