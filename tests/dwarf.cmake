# DWARF reader (dwarf/): fixture objects built at test time by
# dwarf_types.sh, checked against the source and against pahole.
if(TARGET btfenc_dwarf)
	add_executable(test_dwarf_types ${TESTS_DIR}/test_dwarf_types.c)
	target_link_libraries(test_dwarf_types PRIVATE btfenc_dwarf btfenc_btf)

	set(DWARF_FIXTURE_OUT ${CMAKE_CURRENT_BINARY_DIR}/dwarf_fixtures)
	# name | compiler | flags
	set(DWARF_VARIANTS
		"gcc_O0_dw4|gcc|-g -O0 -gdwarf-4"
		"gcc_O2_dw5|gcc|-g -O2 -gdwarf-5"
		"gcc_O2_dw4|gcc|-g -O2 -gdwarf-4"
		"gcc_O2_zlib|gcc|-g -O2 -gdwarf-5 -gz=zlib"
		"gcc_shared|gcc|-g -O2 -gdwarf-5 -shared"
		"gcc_shared_zlib|gcc|-g -O2 -gdwarf-5 -gz=zlib -shared"
		"gcc_shared_tu4|gcc|-g -O2 -gdwarf-4 -fdebug-types-section -shared"
		"gcc_shared_tu5|gcc|-g -O2 -gdwarf-5 -fdebug-types-section -shared"
		"clang_O0_dw5|clang|-g -O0 -gdwarf-5"
		"clang_O2_dw4|clang|-g -O2 -gdwarf-4"
		"clang_O2_dw5|clang|-g -O2 -gdwarf-5")
	foreach(variant ${DWARF_VARIANTS})
		string(REPLACE "|" ";" parts "${variant}")
		list(GET parts 0 vname)
		list(GET parts 1 vcc)
		list(GET parts 2 vflags)
		separate_arguments(vflags)
		add_test(NAME dwarf_types_${vname}
			COMMAND sh ${TESTS_DIR}/dwarf_types.sh $<TARGET_FILE:test_dwarf_types>
				${DWARF_FIXTURE_OUT} ${vname} ${vcc} ${vflags})
		set_tests_properties(dwarf_types_${vname} PROPERTIES SKIP_RETURN_CODE 77)
	endforeach()

	# A real module: ET_REL with relocations into .debug_info.  Every named
	# type we decode must be in pahole 1.31's crc7 BTF or its vmlinux base.
	set(KDBG /usr/lib/debug)
	add_test(NAME dwarf_types_crc7_ko
		COMMAND sh -c "test -r \"$1\" && test -r \"$2\" || exit 77; exec \"$0\" --ref \"$3\" --base \"$2\" \"$1\""
			$<TARGET_FILE:test_dwarf_types>
			${KDBG}/lib/modules/6.1.0-57-cloud-amd64/kernel/lib/crc7.ko
			${KDBG}/boot/vmlinux-6.1.0-57-cloud-amd64
			/work/shared/reference/pahole-1.31/crc7.btf)
	set_tests_properties(dwarf_types_crc7_ko PROPERTIES SKIP_RETURN_CODE 77)

	# The whole kernel: our named definitions of all 2172 CUs must equal
	# those in the .BTF Debian's pahole wrote into the same vmlinux (it
	# encodes floats as FLOAT); every 100th CU decodes the same again after
	# the libdw handle is renewed, and every CU split on .debug_str.  About
	# 15 s.
	add_test(NAME dwarf_types_vmlinux
		COMMAND sh -c "test -r \"$1\" || exit 77; exec \"$0\" --float --renew 100 --str-base --ref \"$1\" \"$1\""
			$<TARGET_FILE:test_dwarf_types> ${KDBG}/boot/vmlinux-6.1.0-57-cloud-amd64)
	set_tests_properties(dwarf_types_vmlinux PROPERTIES SKIP_RETURN_CODE 77)
endif()

# die.c's reader against libdw, DIE by DIE: the fixture in every variant
# above, a module (ET_REL) and the whole kernel (about 40 s).
if(TARGET btfenc_dwarf)
	add_executable(test_die_reader ${TESTS_DIR}/test_die_reader.c)
	target_link_libraries(test_die_reader PRIVATE btfenc_dwarf btfenc_btf)
	set(DIE_READER_OUT ${CMAKE_CURRENT_BINARY_DIR}/die_reader)
	foreach(variant ${DWARF_VARIANTS})
		string(REPLACE "|" ";" parts "${variant}")
		list(GET parts 0 vname)
		list(GET parts 1 vcc)
		list(GET parts 2 vflags)
		add_test(NAME die_reader_${vname}
			COMMAND sh -c "command -v $2 >/dev/null || exit 77; mkdir -p $1 && case \"$4\" in *-shared*) extra='-fPIC -nostdlib';; *) extra=-c;; esac && $2 $4 $extra -o $1/$3.o ${TESTS_DIR}/fixtures/types/types.c && exec $0 $1/$3.o"
				$<TARGET_FILE:test_die_reader> ${DIE_READER_OUT} ${vcc} ${vname} "${vflags}")
		set_tests_properties(die_reader_${vname} PROPERTIES SKIP_RETURN_CODE 77)
	endforeach()
	add_test(NAME die_reader_kernel
		COMMAND sh -c "test -r \"$1\" && test -r \"$2\" || exit 77; exec \"$0\" \"$1\" \"$2\""
			$<TARGET_FILE:test_die_reader>
			${KDBG}/lib/modules/6.1.0-57-cloud-amd64/kernel/fs/xfs/xfs.ko
			${KDBG}/boot/vmlinux-6.1.0-57-cloud-amd64)
	set_tests_properties(die_reader_kernel PROPERTIES SKIP_RETURN_CODE 77)
endif()

# Measuring tool (not a test): dw_decode_bench VMLINUX [--inlines].
if(TARGET btfenc_dwarf)
	add_executable(dw_decode_bench ${TESTS_DIR}/tools/dw_decode_bench.c)
	target_link_libraries(dw_decode_bench PRIVATE btfenc_dwarf btfenc_btf)
endif()

# Type units (gcc -fdebug-types-section, DWARF 4 and 5): the same BTF as
# without them.
add_test(NAME type_units
	COMMAND ${TESTS_DIR}/type_units.sh ${BTFENC_BIN} $<TARGET_FILE:btf_dedup_tool>
		${CMAKE_CURRENT_BINARY_DIR}/type_units)
set_tests_properties(type_units PROPERTIES SKIP_RETURN_CODE 77)

# Classes nested in classes (C++): each struct gets exactly its own members.
add_test(NAME nested_types
	COMMAND sh ${TESTS_DIR}/nested_types.sh ${BTFENC_BIN} ${CMAKE_CURRENT_BINARY_DIR}/nested_types)
set_tests_properties(nested_types PROPERTIES SKIP_RETURN_CODE 77)

# Abbreviation tables libdw reads its own way (32-bit codes, 10-byte
# LEB128s): the reader must read them as libdw does.
add_test(NAME odd_abbrevs
	COMMAND sh ${TESTS_DIR}/odd_abbrevs.sh ${BTFENC_BIN} $<TARGET_FILE:test_die_reader>
		${CMAKE_CURRENT_BINARY_DIR}/odd_abbrevs)
set_tests_properties(odd_abbrevs PROPERTIES SKIP_RETURN_CODE 77)

# A name emptied in .debug_str: unnamed member, function left out.
add_test(NAME empty_names
	COMMAND sh ${TESTS_DIR}/empty_names.sh ${BTFENC_BIN} ${CMAKE_CURRENT_BINARY_DIR}/empty_names)
set_tests_properties(empty_names PROPERTIES SKIP_RETURN_CODE 77)

# gcc and clang CUs in one binary: a name at two offsets of .debug_str's merge.
add_test(NAME mixed_strings
	COMMAND sh ${TESTS_DIR}/mixed_strings.sh ${BTFENC_BIN} ${CMAKE_CURRENT_BINARY_DIR}/mixed_strings)
set_tests_properties(mixed_strings PROPERTIES SKIP_RETURN_CODE 77)
