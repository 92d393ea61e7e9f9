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
set(BTF_LIB_REFERENCE ${CMAKE_SOURCE_DIR}/../shared/reference)
add_test(NAME btf_roundtrip_vmlinux COMMAND test_roundtrip elf ${BTF_LIB_VMLINUX})
add_test(NAME btf_roundtrip_rfc COMMAND test_roundtrip rfc ${BTF_LIB_REFERENCE}/rfc-pahole)
set_tests_properties(btf_roundtrip_vmlinux btf_roundtrip_rfc PROPERTIES SKIP_RETURN_CODE 77)
