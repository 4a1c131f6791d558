// Where tpfemu's guest images are: the folder a relative system.image (and any other
// relative path in a configuration that its own folder does not hold) is looked for
// in, so that a configuration runs from any directory (configs/README.md).
#pragma once
#include <string>

namespace os {

// In order, the first that exists:
//   $TPFEMU_GUEST_DIR, if set and not empty (for unusual layouts, and for test
//     programs that do not sit beside the images);
//   <folder of the running tpfemu>/guest, a build tree (build/tpfemu, build/guest/);
//   <folder of the running tpfemu>/../share/tpfemu/guest, an installed one
//     (cmake --install: bin/tpfemu, share/tpfemu/guest/).
// If none exists, the installed one, so that messages name where it should be. The
// two layouts are CMake's (os/CMakeLists.txt passes them in), the one place they are
// decided. The executable is found through /proc/self/exe, not the current directory.
std::string guest_dir();

}  // namespace os
