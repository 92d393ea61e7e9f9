# The merged location layout (issue 8): BTF library golden dumps and round
# trips, and the encoder's two writers compared site by site.

add_executable(test_merged ${TESTS_DIR}/test_merged.c)
target_include_directories(test_merged PRIVATE ${CMAKE_SOURCE_DIR}/btf)
target_link_libraries(test_merged PRIVATE btfenc_btf)
add_test(NAME btf_merged_layout COMMAND test_merged)
