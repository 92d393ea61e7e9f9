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
