# Inline sites: location-expression mapping (dwarf/loc.c) and site
# extraction (dwarf/sites.c) against fixtures built from tests/fixtures/inline.

add_executable(test_loc ${TESTS_DIR}/test_loc.c)
target_include_directories(test_loc PRIVATE ${CMAKE_SOURCE_DIR}/dwarf)
target_link_libraries(test_loc PRIVATE btfenc_dwarf)
add_test(NAME sites_loc_rules COMMAND test_loc)
