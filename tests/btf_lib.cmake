# BTF library: builders, writer, reader and dump against the RFC seeds
# (005-007), byte-order round trips, and bpftool.

add_executable(test_seeds ${TESTS_DIR}/test_seeds.c)
target_include_directories(test_seeds PRIVATE ${CMAKE_SOURCE_DIR}/btf)
target_link_libraries(test_seeds PRIVATE btfenc_btf)
add_test(NAME btf_seeds COMMAND test_seeds)
