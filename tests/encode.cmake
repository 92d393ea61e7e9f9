# End-to-end encoder checks on the built-in example (examples/demo.c).
add_test(NAME encode_cli
	COMMAND ${TESTS_DIR}/encode_cli.sh $<TARGET_FILE:btfenc> $<TARGET_FILE:demo>)
