# Guest programs: C compiled for s390x like z/TPF's GCC-built programs, into static
# big-endian ELF64 images that tpfemu (and qemu-s390x-static) can run.
find_program(GUEST_CC s390x-linux-gnu-gcc REQUIRED)

set(GUEST_CFLAGS -O2 -march=z10 -ffreestanding -nostdlib -fno-pie -fno-stack-protector
    -fno-asynchronous-unwind-tables -Wall -Wno-unused-function)
set(GUEST_LDFLAGS -static -no-pie -nostdlib -Wl,--build-id=none)
set(GUEST_INCLUDE_DIR ${CMAKE_SOURCE_DIR}/os/guest/include)
set(GUEST_OUT_DIR ${CMAKE_BINARY_DIR}/guest)

# guest_compile(OUTVAR SOURCES src... [CFLAGS flag...] [GROUP name]): one object per
# source under obj/<group>/ (a source may be built into several images), header
# dependencies tracked through the compiler's depfile.
function(guest_compile outvar)
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

# add_guest_executable(NAME SOURCES src... [CFLAGS ...]) -> ${GUEST_OUT_DIR}/NAME.elf,
# linked with the guest runtime (start code, libc subset) and libgcc.
function(add_guest_executable name)
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
  set_property(GLOBAL APPEND PROPERTY GUEST_PROGRAMS ${name})
endfunction()

# add_glibc_executable(NAME SOURCES src... [CFLAGS ...] [LIBS ...]) -> ${GUEST_OUT_DIR}/NAME.elf:
# an ordinary static Linux program, built against the cross glibc
# (libc6-dev-s390x-cross) the way a user builds one for `tpfemu exec`.
set(GLIBC_CFLAGS -O2 -march=z10 -static -Wall -Wl,--build-id=none)
function(add_glibc_executable name)
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
