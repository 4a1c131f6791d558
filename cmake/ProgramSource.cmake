# A program's source is named after the program it holds (docs/guest-programs.md,
# "Keep programs outside the source tree": qwds.c holds QWDS): the program's slot comes from the file's
# name, and a file named for one program holding another is the mistake of renaming one
# and not the other. tpf_check_program_source(FILE PROGRAM) stops the configuration with
# a message naming both when FILE defines one program entry (an upper-case function
# taking the message: "int QXYZ(void *msg, long len)") and it is not PROGRAM. A file of
# several programs (qheap.c: QHTT, QHTG, ...) or of helpers (applib.c) is left alone.
function(tpf_check_program_source file program)
  string(TOUPPER ${program} upper)
  file(READ ${file} text)
  string(REGEX MATCHALL "(^|\n)[a-z][a-z0-9_ ]* \\**([A-Z][A-Z0-9]*)[ \t]*\\([^;{)]*void[ \t]*\\*[^;{)]*,[^;{)]*long[^;{)]*\\)[ \t\r\n]*{"
         entries "${text}")
  list(LENGTH entries n)
  if(n EQUAL 1)
    string(REGEX REPLACE ".* \\**([A-Z][A-Z0-9]*)[ \t]*\\(.*" "\\1" defined "${entries}")
    if(NOT defined STREQUAL upper)
      message(FATAL_ERROR "${file}: holds program ${defined}, not ${upper}: a program's source file is named "
              "after the program it holds (${program}.c holds ${upper}); rename the file or the function")
    endif()
  endif()
endfunction()

# cmake -DFILE=path -P cmake/ProgramSource.cmake: the check alone (tests).
if(CMAKE_SCRIPT_MODE_FILE AND DEFINED FILE)
  get_filename_component(program ${FILE} NAME_WE)
  tpf_check_program_source(${FILE} ${program})
  message(STATUS "${FILE}: holds its program")
endif()
