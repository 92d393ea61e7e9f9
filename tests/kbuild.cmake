# Drop-in for the kernel build: pahole's command line as kbuild spells it,
# the seeds' gen_btf()/modfinal shell steps with the real objcopy, the
# distilled base for out-of-tree modules, the man page, the progress line.

add_executable(test_distill ${TESTS_DIR}/test_distill.c)
target_include_directories(test_distill PRIVATE ${CMAKE_SOURCE_DIR}/btf)
target_link_libraries(test_distill PRIVATE btfenc_btf)
add_test(NAME distill_unit COMMAND test_distill)

add_test(NAME cli_flags COMMAND ${TESTS_DIR}/cli_flags.sh $<TARGET_FILE:btfenc> $<TARGET_FILE:demo>)

foreach(mode y m)
	add_test(NAME kbuild_steps_btf_extra_${mode}
		COMMAND ${TESTS_DIR}/kbuild_steps.sh $<TARGET_FILE:btfenc> $<TARGET_FILE:test_distill>
			${TESTS_DIR}/fixtures/kbuild ${mode})
endforeach()
