# Each Catch2 TEST_CASE as a ctest test of its own, named by the case's name.
#
#   catch_tests(TARGET LABEL label [FIXTURES name...] [LONG_FIXTURES name...])
#
# The cases tagged [long] get the labels "label;long" (scripts/test leaves them out
# unless TPFEMU_LONG_TESTS=1) and require LONG_FIXTURES; the others get "label" and
# require FIXTURES.
#
# Why not Catch.cmake's catch_discover_tests: Debian's Catch2 2.13 splits the list of
# names on ';' as well as on newlines, so a case named "x; y" became two tests that
# match nothing. This file is also the script that lists the cases after each build
# (cmake -P, below); the binary then only needs to start, nothing else.

if(NOT CMAKE_SCRIPT_MODE_FILE)
  function(catch_tests target)
    cmake_parse_arguments(arg "" "LABEL" "FIXTURES;LONG_FIXTURES" ${ARGN})
    set(tests_file ${CMAKE_CURRENT_BINARY_DIR}/${target}_tests.cmake)
    # Lists go to the script with ',' between items (a ';' would split the command).
    string(REPLACE ";" "," fixtures "${arg_FIXTURES}")
    string(REPLACE ";" "," long_fixtures "${arg_LONG_FIXTURES}")
    add_custom_command(TARGET ${target} POST_BUILD BYPRODUCTS ${tests_file}
      COMMAND ${CMAKE_COMMAND} -D EXE=$<TARGET_FILE:${target}> -D OUT=${tests_file}
              -D LABEL=${arg_LABEL} -D FIXTURES=${fixtures} -D LONG_FIXTURES=${long_fixtures}
              -D WORKING_DIR=${CMAKE_CURRENT_BINARY_DIR} -P ${CMAKE_CURRENT_FUNCTION_LIST_FILE}
      VERBATIM)
    # Before the first build there is no list: one test that says so, and fails.
    set(include_file ${CMAKE_CURRENT_BINARY_DIR}/${target}_include.cmake)
    file(WRITE ${include_file}
         "if(EXISTS \"${tests_file}\")\n  include(\"${tests_file}\")\nelse()\n"
         "  add_test(${target}_NOT_BUILT ${target}_NOT_BUILT)\nendif()\n")
    set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${include_file})
  endfunction()
  return()
endif()

# Script mode: EXE, OUT, LABEL, FIXTURES, LONG_FIXTURES (',' between items), WORKING_DIR.
string(REPLACE "," ";" FIXTURES "${FIXTURES}")
string(REPLACE "," ";" LONG_FIXTURES "${LONG_FIXTURES}")
set(script "")
foreach(group short long)
  if(group STREQUAL "long")
    set(spec "[long]")
    set(labels "${LABEL};long")
    set(fixtures "${LONG_FIXTURES}")
  else()
    set(spec "~[long]")
    set(labels "${LABEL}")
    set(fixtures "${FIXTURES}")
  endif()
  execute_process(COMMAND ${EXE} ${spec} --list-test-names-only
                  OUTPUT_VARIABLE out RESULT_VARIABLE rc WORKING_DIRECTORY ${WORKING_DIR})
  # Catch 2 exits with the number of cases listed; anything but a number is a crash.
  if(NOT rc MATCHES "^[0-9]+$")
    message(FATAL_ERROR "${EXE} ${spec} --list-test-names-only: ${rc}\n${out}")
  endif()
  # A ';' inside a name would split it as a CMake list element: hide it until written.
  string(REPLACE ";" "<semicolon>" out "${out}")
  string(REPLACE "\n" ";" names "${out}")
  foreach(name IN LISTS names)
    if(name STREQUAL "")
      continue()
    endif()
    string(REPLACE "<semicolon>" ";" name "${name}")
    # The name as a Catch test spec: a backslash makes ',' '[' ']' '*' '~' '"' and
    # itself plain characters, and a leading '-' no option. --warn NoTests: a spec
    # that matches no case fails.
    string(REGEX REPLACE "([],[*~\"\\\\])" "\\\\\\1" spec_name "${name}")
    if(spec_name MATCHES "^-")
      string(PREPEND spec_name "\\")
    endif()
    string(APPEND script "add_test([==[${name}]==] [==[${EXE}]==] [==[${spec_name}]==] --warn NoTests)\n"
                         "set_tests_properties([==[${name}]==] PROPERTIES LABELS [==[${labels}]==]"
                         " WORKING_DIRECTORY [==[${WORKING_DIR}]==]")
    if(fixtures)
      string(APPEND script " FIXTURES_REQUIRED [==[${fixtures}]==]")
    endif()
    string(APPEND script ")\n")
  endforeach()
endforeach()
file(WRITE ${OUT} "${script}")
