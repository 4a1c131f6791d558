// tpfemu's version: the project's version and, in a git checkout, the commit it was
// built from ("0.1 (git 5d5b8e7a1b2c-dirty)"); cmake/version.cmake writes it at build time.
#pragma once
#include <string_view>

namespace app {
std::string_view tpfemu_version();
}
