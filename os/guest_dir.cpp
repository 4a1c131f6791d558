#include "os/guest_dir.h"

#include <cstdlib>
#include <filesystem>

// From os/CMakeLists.txt: the guest folder relative to tpfemu's own folder, in the
// build tree and once installed.
#ifndef TPFEMU_BUILD_GUEST_REL
#error "TPFEMU_BUILD_GUEST_REL must be defined by the build"
#endif
#ifndef TPFEMU_INSTALL_GUEST_REL
#error "TPFEMU_INSTALL_GUEST_REL must be defined by the build"
#endif

namespace os {

std::string guest_dir() {
  namespace fs = std::filesystem;
  if (const char* env = std::getenv("TPFEMU_GUEST_DIR"); env && *env) return env;
  std::error_code ec;
  fs::path exe_dir = fs::read_symlink("/proc/self/exe", ec).parent_path();
  if (ec) return {};  // no /proc: only the configuration's own folder is searched
  fs::path build = (exe_dir / TPFEMU_BUILD_GUEST_REL).lexically_normal();
  if (fs::is_directory(build, ec)) return build.string();
  return (exe_dir / TPFEMU_INSTALL_GUEST_REL).lexically_normal().string();
}

}  // namespace os
