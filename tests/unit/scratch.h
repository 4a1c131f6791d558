// Files a test writes (a YAML file to load, an expected text to compare) go into a
// folder of the test process's own in the system's temporary folder, removed when the
// process ends: never into the working directory, which may be the source tree.
#pragma once
#include <unistd.h>

#include <filesystem>
#include <string>

namespace test {

inline const std::filesystem::path& scratch_dir() {
  struct Folder {
    std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("tpfemu-unit-" + std::to_string(::getpid()));
    Folder() { std::filesystem::create_directories(path); }
    ~Folder() {
      std::error_code ec;
      std::filesystem::remove_all(path, ec);
    }
  };
  static const Folder folder;
  return folder.path;
}

// A path in the scratch folder.
inline std::string scratch_file(const std::string& name) { return (scratch_dir() / name).string(); }

}  // namespace test
