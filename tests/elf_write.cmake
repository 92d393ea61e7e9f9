# encoder/elf_write.c: adding/replacing sections in place, atomic files.
# The driver is built from elf_write.c itself so that this group does not
# depend on the rest of encoder/ compiling.
add_executable(test_elf_write ${TESTS_DIR}/test_elf_write.c ${CMAKE_SOURCE_DIR}/encoder/elf_write.c)
target_link_libraries(test_elf_write PRIVATE btfenc_btf PkgConfig::LIBELF)

add_test(NAME elf_write COMMAND ${TESTS_DIR}/elf_write_checks.sh
	$<TARGET_FILE:test_elf_write> ${TESTS_DIR}/fixtures/elf ${CMAKE_CURRENT_BINARY_DIR}/elf_write.d)
set_tests_properties(elf_write PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)

add_test(NAME elf_write_vmlinux COMMAND ${TESTS_DIR}/elf_write_checks.sh --vmlinux
	$<TARGET_FILE:test_elf_write> ${TESTS_DIR}/fixtures/elf ${CMAKE_CURRENT_BINARY_DIR}/elf_write_vmlinux.d)
set_tests_properties(elf_write_vmlinux PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900)
