# Script mode (cmake -P), run at every build: writes OUT, a C++ file defining
# app::tpfemu_version(), as "VERSION (git COMMIT[-dirty])" from the source tree's git, or
# "VERSION" where there is no git. The file is rewritten only when the text changes, so
# a build that changes nothing recompiles nothing.
#   -D SRC=source dir -D OUT=file -D VERSION=project version
set(text "${VERSION}")
find_program(GIT git)
if(GIT AND EXISTS "${SRC}/.git")
  execute_process(COMMAND ${GIT} -C "${SRC}" describe --always --dirty --abbrev=12
                  OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc ERROR_QUIET)
  if(rc EQUAL 0 AND commit)
    set(text "${VERSION} (git ${commit})")
  endif()
endif()
set(content "// Written by cmake/version.cmake at build time.\n#include \"app/version.h\"\nstd::string_view app::tpfemu_version() { return \"${text}\"; }\n")
set(old "")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL content)
  file(WRITE "${OUT}" "${content}")
endif()
