# Guest programs: C compiled for s390x like z/TPF's GCC-built programs, into static
# big-endian ELF64 images that tpfemu (and qemu-s390x-static) can run.
include(${CMAKE_CURRENT_LIST_DIR}/ProgramSource.cmake)
find_program(GUEST_CC s390x-linux-gnu-gcc REQUIRED)

set(GUEST_CFLAGS -O2 -march=z10 -ffreestanding -nostdlib -fno-pie -fno-stack-protector
    -fno-asynchronous-unwind-tables -Wall -Wno-unused-function)
set(GUEST_LDFLAGS -static -no-pie -nostdlib -Wl,--build-id=none)
set(GUEST_INCLUDE_DIR ${CMAKE_SOURCE_DIR}/os/guest/include)
# TPFEMU_GUEST_FROM: another build's guest/ folder, whose images this build uses instead
# of building its own. Guest code is s390x, the same bytes whatever the host build's
# flags: so the sanitizer build (scripts/test-sanitizers) takes the release build's and
# spends CI's two cores on what its flags change.
set(TPFEMU_GUEST_FROM "" CACHE PATH "use the guest images of another build's guest/ folder instead of building them")
if(TPFEMU_GUEST_FROM)
  set(GUEST_OUT_DIR ${TPFEMU_GUEST_FROM})
else()
  set(GUEST_OUT_DIR ${CMAKE_BINARY_DIR}/guest)
endif()

# With TPFEMU_GUEST_FROM, NAME's target exists (others depend on it) and builds nothing.
macro(guest_taken_from_elsewhere name)
  if(TPFEMU_GUEST_FROM)
    add_custom_target(guest_${name})
    return()
  endif()
endmacro()

# guest_compile(OUTVAR SOURCES src... [CFLAGS flag...] [GROUP name]): one object per
# source under obj/<group>/ (a source may be built into several images), header
# dependencies tracked through the compiler's depfile.
function(guest_compile outvar)
  if(TPFEMU_GUEST_FROM)
    return()
  endif()
  cmake_parse_arguments(G "" "GROUP" "SOURCES;CFLAGS" ${ARGN})
  if(NOT G_GROUP)
    set(G_GROUP common)
  endif()
  set(objs)
  foreach(src ${G_SOURCES})
    get_filename_component(abs ${src} ABSOLUTE)
    file(RELATIVE_PATH rel ${CMAKE_SOURCE_DIR} ${abs})
    set(obj ${GUEST_OUT_DIR}/obj/${G_GROUP}/${rel}.o)
    get_filename_component(objdir ${obj} DIRECTORY)
    add_custom_command(
      OUTPUT ${obj}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${objdir}
      COMMAND ${GUEST_CC} ${GUEST_CFLAGS} ${G_CFLAGS} -isystem ${GUEST_INCLUDE_DIR}
              -MD -MF ${obj}.d -c ${abs} -o ${obj}
      DEPENDS ${abs}
      DEPFILE ${obj}.d
      COMMENT "guest cc ${rel}"
      VERBATIM)
    list(APPEND objs ${obj})
  endforeach()
  set(${outvar} ${objs} PARENT_SCOPE)
endfunction()

# guest_compile_le(OUTVAR SOURCE src [CFLAGS flag...] GROUP name): as guest_compile, for
# a program that is LE-conforming (issue 25, item 3): compiled to assembly with
# -fno-shrink-wrap (a function with a frame allocates it at its entry), given LE's
# prologue check by cmake/le_prologue.py (and its own copy of __le_dsa_check,
# le/guest/le_dsa_check.S), then assembled. Only such programs' own functions get it:
# the TPF runtime, the heap and the locks, shared by all, are compiled as before.
find_program(GUEST_PYTHON3 NAMES python3 REQUIRED)
file(STRINGS ${GUEST_INCLUDE_DIR}/tpf_evm.h anchor_line REGEX "^#define TPF_EVM_LE_ANCHOR ")
string(REGEX REPLACE "^#define TPF_EVM_LE_ANCHOR +(0x[0-9A-Fa-f]+).*" "\\1" TPF_LE_ANCHOR "${anchor_line}")
function(guest_compile_le outvar)
  if(TPFEMU_GUEST_FROM)
    return()
  endif()
  cmake_parse_arguments(G "" "GROUP;SOURCE" "CFLAGS" ${ARGN})
  get_filename_component(abs ${G_SOURCE} ABSOLUTE)
  file(RELATIVE_PATH rel ${CMAKE_SOURCE_DIR} ${abs})
  set(obj ${GUEST_OUT_DIR}/obj/${G_GROUP}/${rel}.o)
  get_filename_component(objdir ${obj} DIRECTORY)
  set(routine ${CMAKE_SOURCE_DIR}/le/guest/le_dsa_check.S)
  set(script ${CMAKE_SOURCE_DIR}/cmake/le_prologue.py)
  add_custom_command(
    OUTPUT ${obj}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${objdir}
    COMMAND ${GUEST_CC} ${GUEST_CFLAGS} ${G_CFLAGS} -fno-shrink-wrap -isystem ${GUEST_INCLUDE_DIR}
            -MD -MF ${obj}.d -MT ${obj} -S ${abs} -o ${obj}.s
    COMMAND ${GUEST_CC} -E -P -x assembler-with-cpp -isystem ${GUEST_INCLUDE_DIR}
            -isystem ${CMAKE_SOURCE_DIR}/le/guest ${routine} -o ${obj}.check.s
    COMMAND ${GUEST_PYTHON3} ${script} --anchor ${TPF_LE_ANCHOR} --routine ${obj}.check.s ${obj}.s ${obj}.le.s
    COMMAND ${GUEST_CC} -c ${obj}.le.s -o ${obj}
    DEPENDS ${abs} ${routine} ${script} ${CMAKE_SOURCE_DIR}/le/guest/le_stack.h
    DEPFILE ${obj}.d
    COMMENT "guest cc ${rel} (LE-conforming: LE's prologue)"
    VERBATIM)
  set(${outvar} ${obj} PARENT_SCOPE)
endfunction()

# add_guest_executable(NAME SOURCES src... [CFLAGS ...]) -> ${GUEST_OUT_DIR}/NAME.elf,
# linked with the guest runtime (start code, libc subset) and libgcc.
function(add_guest_executable name)
  guest_taken_from_elsewhere(${name})
  cmake_parse_arguments(G "" "" "SOURCES;CFLAGS" ${ARGN})
  guest_compile(objs SOURCES ${G_SOURCES} CFLAGS ${G_CFLAGS} GROUP ${name})
  set(elf ${GUEST_OUT_DIR}/${name}.elf)
  get_property(rt_objs GLOBAL PROPERTY GUEST_RUNTIME_OBJECTS)
  add_custom_command(
    OUTPUT ${elf}
    COMMAND ${GUEST_CC} ${GUEST_LDFLAGS} -o ${elf} ${rt_objs} ${objs} -lgcc
    DEPENDS ${rt_objs} ${objs}
    COMMENT "guest link ${name}.elf"
    VERBATIM)
  add_custom_target(guest_${name} ALL DEPENDS ${elf})
endfunction()

# tpf_program_slot(PROGRAM OUTVAR): the program area slot of a program of that name, a
# hash of the name (so no other program's name or presence moves it).
file(STRINGS ${GUEST_INCLUDE_DIR}/tpf_evm.h slots_line REGEX "^#define TPF_EVM_PROGRAM_SLOTS ")
string(REGEX REPLACE "^#define TPF_EVM_PROGRAM_SLOTS +([0-9]+).*" "\\1" TPF_PROGRAM_SLOTS "${slots_line}")
function(tpf_program_slot program outvar)
  string(MD5 hash ${program})
  string(SUBSTRING ${hash} 0 8 hash)
  math(EXPR slot "0x${hash} % ${TPF_PROGRAM_SLOTS}")
  set(${outvar} ${slot} PARENT_SCOPE)
endfunction()

# add_tpf_image(NAME SYSTEM src... PROGRAMS src... [LE_CONFORMING name...] [CFLAGS ...]
# [OUTPUT file]) ->
# ${GUEST_OUT_DIR}/NAME.elf (or OUTPUT), a TPF application image, laid out so that no
# program's placement depends on the other programs (os/guest/include/tpf_evm.h,
# "image"): the SYSTEM sources (the TPF runtime, the lock, the heap) come first, at
# TPF_EVM_IMAGE, their static storage at TPF_EVM_IMAGE_DATA; each PROGRAMS source is a
# program of its own, named by its file (qzz0.c: qzz0), in its own slot of the program
# area (tpf_program_slot): its code and constants at the slot's start, its static
# storage from the next page. So adding, removing or changing a program moves no other
# program's code or data, virtual or absolute (the control program gives image pages
# frames by address), and no other program's figures. Two programs of one name, or of
# one slot, are an error naming both. The programs LE_CONFORMING names (qle5) are built
# with LE's prologue (guest_compile_le): what makes a program LE-conforming is how it is
# compiled, as LE's is, not its configuration (system.le.programs says whether it runs on
# LE storage).
function(add_tpf_image name)
  guest_taken_from_elsewhere(${name})
  cmake_parse_arguments(G "" "OUTPUT" "SYSTEM;PROGRAMS;CFLAGS;LE_CONFORMING" ${ARGN})
  guest_compile(system_objs SOURCES ${G_SYSTEM} CFLAGS ${G_CFLAGS} GROUP ${name})
  string(CONCAT script "/* Generated by add_tpf_image (cmake/Guest.cmake) for ${name}.elf: one slot per program. */\n"
                "#include <tpf_evm.h>\nSECTIONS {\n")
  set(program_objs)
  set(taken)
  foreach(src ${G_PROGRAMS})
    get_filename_component(abs ${src} ABSOLUTE)
    get_filename_component(program ${src} NAME_WE)
    string(TOLOWER ${program} program)
    tpf_check_program_source(${abs} ${program})
    tpf_program_slot(${program} slot)
    foreach(other ${taken})
      string(REPLACE "=" ";" other ${other})
      list(GET other 0 other_name)
      list(GET other 1 other_slot)
      list(GET other 2 other_src)
      if(other_name STREQUAL program)
        message(FATAL_ERROR "${name}.elf: two programs named ${program}: ${other_src} and ${abs}")
      elseif(other_slot EQUAL slot)
        message(FATAL_ERROR "${name}.elf: programs ${other_name} (${other_src}) and ${program} (${abs}) "
                "hash to the same program slot (${slot}); rename one of them")
      endif()
    endforeach()
    list(APPEND taken "${program}=${slot}=${abs}")
    if(program IN_LIST G_LE_CONFORMING)
      guest_compile_le(obj SOURCE ${abs} CFLAGS ${G_CFLAGS} GROUP ${name})
    else()
      guest_compile(obj SOURCES ${abs} CFLAGS ${G_CFLAGS} GROUP ${name})
    endif()
    list(APPEND program_objs ${obj})
    math(EXPR next "${slot} + 1")
    set(at "TPF_EVM_PROGRAMS + ${slot} * TPF_EVM_PROGRAM_SLOT")
    string(APPEND script
      "  .prog.${program} ${at} : { \"${obj}\"(.text .text.* .rodata .rodata.*) }\n"
      "  .prog.${program}.data ALIGN(0x1000) : { \"${obj}\"(.data .data.* .bss .bss.* COMMON) }\n"
      "  ASSERT(. <= TPF_EVM_PROGRAMS + ${next} * TPF_EVM_PROGRAM_SLOT, \"program ${program} (${abs}) is larger "
      "than its program slot (TPF_EVM_PROGRAM_SLOT bytes): split it into programs\")\n")
  endforeach()
  # The system part's static storage at a fixed address too: where ld would put it
  # depends on the size of everything after it (DATA_SEGMENT_ALIGN), programs included.
  string(APPEND script
    "}\nINSERT AFTER .bss;\n"
    "SECTIONS { . = TPF_EVM_IMAGE_DATA; }\nINSERT AFTER .rodata;\n"
    "ASSERT(ADDR(.data) == TPF_EVM_IMAGE_DATA, \"${name}.elf: the static storage of the TPF runtime, lock and heap "
    "does not start at TPF_EVM_IMAGE_DATA (their code and constants outgrow the space before it?)\")\n"
    "ASSERT(ADDR(.text) == TPF_EVM_IMAGE + 0x1000, \"${name}.elf: the TPF runtime does not start at TPF_EVM_IMAGE + 4K "
    "(too many program headers?)\")\n"
    "ASSERT(ADDR(.bss) + SIZEOF(.bss) <= TPF_EVM_PROGRAMS, \"${name}.elf: the TPF runtime, lock and heap "
    "outgrow the space before the program area\")\n")
  set(script_in ${GUEST_OUT_DIR}/${name}.ld.S)
  set(script_out ${GUEST_OUT_DIR}/${name}.ld)
  file(CONFIGURE OUTPUT ${script_in} CONTENT "${script}" @ONLY)  # rewritten only when it changes
  add_custom_command(
    OUTPUT ${script_out}
    COMMAND ${GUEST_CC} -E -P -x assembler-with-cpp -isystem ${GUEST_INCLUDE_DIR} ${script_in} -o ${script_out}
    DEPENDS ${script_in} ${GUEST_INCLUDE_DIR}/tpf_evm.h
    COMMENT "guest layout ${name}.ld"
    VERBATIM)
  set(elf ${GUEST_OUT_DIR}/${name}.elf)
  if(G_OUTPUT)
    set(elf ${G_OUTPUT})
  endif()
  get_property(rt_objs GLOBAL PROPERTY GUEST_RUNTIME_OBJECTS)
  # -z separate-code: the code starts on a page of its own, whatever the size of the
  # program headers (one more per program).
  add_custom_command(
    OUTPUT ${elf}
    COMMAND ${GUEST_CC} ${GUEST_LDFLAGS} -Wl,-z,separate-code -Wl,-T,${script_out} -o ${elf} ${rt_objs}
            ${system_objs} ${program_objs} -lgcc
    DEPENDS ${rt_objs} ${system_objs} ${program_objs} ${script_out}
    COMMENT "guest link ${name}.elf"
    VERBATIM)
  add_custom_target(guest_${name} ALL DEPENDS ${elf})
endfunction()

# add_glibc_executable(NAME SOURCES src... [CFLAGS ...] [LIBS ...]) -> ${GUEST_OUT_DIR}/NAME.elf:
# an ordinary static Linux program, built against the cross glibc
# (libc6-dev-s390x-cross) the way a user builds one for `tpfemu exec`.
set(GLIBC_CFLAGS -O2 -march=z10 -static -Wall -Wl,--build-id=none)
function(add_glibc_executable name)
  guest_taken_from_elsewhere(${name})
  cmake_parse_arguments(G "" "" "SOURCES;CFLAGS;LIBS" ${ARGN})
  set(elf ${GUEST_OUT_DIR}/${name}.elf)
  set(srcs)
  foreach(src ${G_SOURCES})
    get_filename_component(abs ${src} ABSOLUTE)
    list(APPEND srcs ${abs})
  endforeach()
  add_custom_command(
    OUTPUT ${elf}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${GUEST_OUT_DIR}
    COMMAND ${GUEST_CC} ${GLIBC_CFLAGS} ${G_CFLAGS} -o ${elf} ${srcs} ${G_LIBS}
    DEPENDS ${srcs}
    COMMENT "guest cc+ld (static glibc) ${name}.elf"
    VERBATIM)
  add_custom_target(guest_${name} ALL DEPENDS ${elf})
endfunction()
