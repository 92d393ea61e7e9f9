# decl_tag_kfuncs (encoder/kfuncs.c): a fixture whose .BTF_ids section is
# laid out by the kernel's btf_ids.h macros, built at test time as an
# object (ET_REL, section-relative symbols) and as a shared object
# (allocated addresses); the tags and arena attributes in btfenc's output
# are compared with what the fixture declares.
add_executable(test_kfuncs ${TESTS_DIR}/test_kfuncs.c)
target_link_libraries(test_kfuncs PRIVATE btfenc_btf)
foreach(kind obj shared)
	add_test(NAME kfuncs_${kind}
		COMMAND sh ${TESTS_DIR}/kfuncs.sh ${BTFENC_BIN} $<TARGET_FILE:test_kfuncs>
			${TESTS_DIR}/fixtures/kfuncs/kfuncs.c ${kind})
	set_tests_properties(kfuncs_${kind} PROPERTIES SKIP_RETURN_CODE 77)
endforeach()

# Which clones become FUNCs (encoder/funcs.c, dwarf/cu.c): .constprop
# dropping a stack parameter vs. a hot/.cold split clone.
add_test(NAME func_clones
	COMMAND sh ${TESTS_DIR}/func_clones.sh ${BTFENC_BIN} ${TESTS_DIR}/fixtures/kfuncs/clones.c)
set_tests_properties(func_clones PROPERTIES SKIP_RETURN_CODE 77)
