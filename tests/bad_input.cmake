# Hostile input: a corpus of damaged files generated from the fixtures by
# tests/bad_input/gen_cases.py, run by run_cases.py (one test per group):
# exit 1 with one line naming the file, or a valid output; never a crash,
# a hang, a changed input or a temporary file left behind.  Then atomic
# output of `btfenc -J` under a full disk, a file size limit and SIGKILL.
find_package(Python3 COMPONENTS Interpreter)
find_program(BAD_INPUT_GCC gcc)
find_program(BAD_INPUT_CLANG clang)
if(Python3_FOUND AND BAD_INPUT_GCC)
	set(BAD_DIR ${CMAKE_CURRENT_BINARY_DIR}/bad_input)
	set(BAD_GEN_ARGS --btfenc ${BTFENC_BIN} --cc ${BAD_INPUT_GCC}
		--demo $<TARGET_FILE:demo> --fixtures ${TESTS_DIR}/fixtures
		--ref ${CMAKE_SOURCE_DIR}/../shared/reference/rfc-pahole/vmlinux.BTF)
	if(BAD_INPUT_CLANG)
		list(APPEND BAD_GEN_ARGS --clang ${BAD_INPUT_CLANG})
	endif()
	add_test(NAME bad_input_corpus
		COMMAND ${Python3_EXECUTABLE} ${TESTS_DIR}/bad_input/gen_cases.py
			${BAD_DIR}/corpus ${BAD_GEN_ARGS})
	set_tests_properties(bad_input_corpus PROPERTIES FIXTURES_SETUP bad_input_corpus)

	foreach(group truncate section header dwarf btf base file perm)
		add_test(NAME bad_input_${group}
			COMMAND ${Python3_EXECUTABLE} ${TESTS_DIR}/bad_input/run_cases.py
				${BTFENC_BIN} ${BAD_DIR}/corpus ${BAD_DIR}/work-${group} --group ${group})
		set_tests_properties(bad_input_${group} PROPERTIES
			FIXTURES_REQUIRED bad_input_corpus TIMEOUT 900 LABELS bad_input)
	endforeach()

	# A sample (every 8th run) under valgrind memcheck: no errors, no
	# definite leaks.  Not in sanitizer builds, which valgrind cannot run.
	if(NOT BTFENC_SANITIZE AND NOT BTFENC_TSAN AND NOT BTFENC_FUZZ)
		add_test(NAME bad_input_valgrind
			COMMAND ${Python3_EXECUTABLE} ${TESTS_DIR}/bad_input/run_cases.py
				${BTFENC_BIN} ${BAD_DIR}/corpus ${BAD_DIR}/work-valgrind --valgrind 8)
		set_tests_properties(bad_input_valgrind PROPERTIES FIXTURES_REQUIRED bad_input_corpus
			SKIP_RETURN_CODE 77 TIMEOUT 1200 LABELS "bad_input;valgrind")
	endif()
endif()

# Atomic output of the whole command: ulimit -f, a full tmpfs (root), SIGKILL.
add_test(NAME bad_input_atomic
	COMMAND ${TESTS_DIR}/bad_input/atomic.sh ${BTFENC_BIN} $<TARGET_FILE:demo>
		${CMAKE_CURRENT_BINARY_DIR}/bad_input/atomic)
set_tests_properties(bad_input_atomic PROPERTIES TIMEOUT 600 LABELS bad_input)
