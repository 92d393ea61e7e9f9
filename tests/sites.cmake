# Inline sites: location-expression mapping (dwarf/loc.c) and site
# extraction (dwarf/sites.c) against fixtures built from tests/fixtures/inline.

add_executable(test_loc ${TESTS_DIR}/test_loc.c)
target_include_directories(test_loc PRIVATE ${CMAKE_SOURCE_DIR}/dwarf)
target_link_libraries(test_loc PRIVATE btfenc_dwarf)
add_test(NAME sites_loc_rules COMMAND test_loc)

# libFuzzer target, clang only: cmake -DBTFENC_FUZZ=ON -DCMAKE_C_COMPILER=clang;
# run: build/tests/fuzz_loc -max_total_time=60 tests/fuzz/corpus-loc
if(BTFENC_FUZZ AND CMAKE_C_COMPILER_ID STREQUAL "Clang")
	add_executable(fuzz_loc ${TESTS_DIR}/fuzz/fuzz_loc.c ${CMAKE_SOURCE_DIR}/dwarf/loc.c)
	target_include_directories(fuzz_loc PRIVATE ${CMAKE_SOURCE_DIR}/dwarf)
	target_compile_options(fuzz_loc PRIVATE -fsanitize=fuzzer,address,undefined)
	target_link_options(fuzz_loc PRIVATE -fsanitize=fuzzer,address,undefined)
	target_link_libraries(fuzz_loc PRIVATE PkgConfig::LIBDW)
endif()

# Site extraction against readelf: each fixture built with gcc and clang
# at -O1/-O2/-O3, decoded by test_sites, checked by check_sites.py.
add_executable(test_sites ${TESTS_DIR}/test_sites.c)
target_include_directories(test_sites PRIVATE ${CMAKE_SOURCE_DIR}/dwarf)
target_link_libraries(test_sites PRIVATE btfenc_dwarf)

find_package(Python3 COMPONENTS Interpreter)
find_program(SITES_GCC gcc)
find_program(SITES_CLANG clang)
set(SITES_FIXTURE_DIR ${CMAKE_CURRENT_BINARY_DIR}/fixtures-inline)
file(MAKE_DIRECTORY ${SITES_FIXTURE_DIR})
set(SITES_FIXTURES)
foreach(src basic args consts)
	foreach(cc GCC CLANG)
		if(NOT SITES_${cc})
			continue()
		endif()
		string(TOLOWER ${cc} ccname)
		foreach(opt O1 O2 O3)
			set(out ${SITES_FIXTURE_DIR}/${src}-${ccname}-${opt})
			# The compiler command, recorded: <cc> -<opt> -g -o OUT SRC.
			# Not PIE: gdb's run-time addresses are the link-time ones.
			add_custom_command(OUTPUT ${out}
				COMMAND ${SITES_${cc}} -${opt} -g -fno-pie -no-pie -o ${out}
					${TESTS_DIR}/fixtures/inline/${src}.c
				DEPENDS ${TESTS_DIR}/fixtures/inline/${src}.c
				COMMENT "inline fixture ${src} ${ccname} -${opt}")
			list(APPEND SITES_FIXTURES ${out})
			if(Python3_FOUND)
				add_test(NAME sites_${src}_${ccname}_${opt}
					COMMAND ${Python3_EXECUTABLE} ${TESTS_DIR}/check_sites.py
						$<TARGET_FILE:test_sites> ${out})
			endif()
		endforeach()
	endforeach()
endforeach()
add_custom_target(sites_fixtures ALL DEPENDS ${SITES_FIXTURES})

# Issue 5 acceptance 1: every encoded site of every fixture, run under gdb,
# each located parameter compared with gdb's value in the inline frame.
find_program(SITES_GDB gdb)
if(Python3_FOUND AND SITES_GDB)
	add_test(NAME sites_gdb_values
		COMMAND ${Python3_EXECUTABLE} ${TESTS_DIR}/inline_gdb.py ${BTFENC_BIN}
			${SITES_FIXTURES})
	set_tests_properties(sites_gdb_values PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
	# Issue 8: the same check on the merged (bpf-next) layout, reg + offset
	# and frame-base values included; prints the merged-only count compared.
	add_test(NAME sites_gdb_values_merged
		COMMAND ${Python3_EXECUTABLE} ${TESTS_DIR}/inline_gdb.py --layout merged
			${BTFENC_BIN} ${SITES_FIXTURES})
	set_tests_properties(sites_gdb_values_merged PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
endif()

# The real kernel: totals only (coverage is reported, the structure is what
# the fixtures check).  Debian's vmlinux-6.1.0-57-cloud-amd64; absent in CI.
add_test(NAME sites_vmlinux_stats
	COMMAND test_sites /usr/lib/debug/boot/vmlinux-6.1.0-57-cloud-amd64 --stats)
set_tests_properties(sites_vmlinux_stats PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900)

# An inlined function with an unnamed parameter (C23): seed layout keeps
# its sites, the merged layout leaves them out; both encode.
add_test(NAME unnamed_inline_param
	COMMAND sh ${TESTS_DIR}/unnamed_inline_param.sh ${BTFENC_BIN}
		${CMAKE_CURRENT_BINARY_DIR}/unnamed_inline_param)
set_tests_properties(unnamed_inline_param PROPERTIES SKIP_RETURN_CODE 77)
