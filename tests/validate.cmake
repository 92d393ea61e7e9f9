# BTF validator: a table of malformed raw inputs, each rejected with its own
# message; every kind from the builders, the kernel's BTF and the RFC pahole
# outputs (split and multi-split) validate clean.

add_executable(test_validate ${TESTS_DIR}/test_validate.c)
target_include_directories(test_validate PRIVATE ${CMAKE_SOURCE_DIR}/btf ${TESTS_DIR})
target_link_libraries(test_validate PRIVATE btfenc_btf)
add_test(NAME validate_table COMMAND test_validate table)
add_test(NAME validate_builders COMMAND test_validate builders)
add_test(NAME validate_system COMMAND test_validate system)
add_test(NAME validate_reference
	COMMAND test_validate reference ${CMAKE_SOURCE_DIR}/../shared/reference/rfc-pahole)
set_tests_properties(validate_system validate_reference PROPERTIES SKIP_RETURN_CODE 77)
