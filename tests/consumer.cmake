# Issue 5, acceptance 2: seed 010's consumer walk (collect_loc_targets,
# parse_loc_spec) over btfenc's LOCSECs finds, by binary search on the name
# order, every inline site the DWARF has (read by readelf), for the inline
# fixtures (sites.cmake builds them) and the demo, with the sites in
# .BTF.extra (as seed 010 reads them) and in .BTF.

add_executable(test_consumer ${TESTS_DIR}/test_consumer.c)
target_include_directories(test_consumer PRIVATE ${CMAKE_SOURCE_DIR}/btf)
target_link_libraries(test_consumer PRIVATE btfenc_btf)

find_package(Python3 COMPONENTS Interpreter)
if(Python3_FOUND)
	set(CONSUMER_FIXTURES)
	foreach(src basic args consts)
		foreach(cc gcc clang)
			foreach(opt O1 O2 O3)
				list(APPEND CONSUMER_FIXTURES
				     ${CMAKE_CURRENT_BINARY_DIR}/fixtures-inline/${src}-${cc}-${opt})
			endforeach()
		endforeach()
	endforeach()
	foreach(feat inline.extra inline)
		add_test(NAME consumer_walk_${feat}
			COMMAND ${Python3_EXECUTABLE} ${TESTS_DIR}/consumer_sites.py ${BTFENC_BIN}
				$<TARGET_FILE:test_consumer> default,${feat}
				$<TARGET_FILE:demo> ${CONSUMER_FIXTURES})
	endforeach()
endif()
