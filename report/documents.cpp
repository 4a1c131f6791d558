#include "report/documents.h"

#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <stdexcept>

// From report/CMakeLists.txt: the configs folder relative to tpfemu's own folder, in
// the build tree (the source's) and once installed.
#ifndef TPFEMU_BUILD_CONFIGS_REL
#error "TPFEMU_BUILD_CONFIGS_REL must be defined by the build"
#endif
#ifndef TPFEMU_INSTALL_CONFIGS_REL
#error "TPFEMU_INSTALL_CONFIGS_REL must be defined by the build"
#endif

namespace report_html {

namespace {
namespace fs = std::filesystem;
constexpr const char* kFile = "document-figures.json";
}  // namespace

std::string document_figures_path() {
  std::error_code ec;
  const fs::path exe_dir = fs::read_symlink("/proc/self/exe", ec).parent_path();
  if (ec) return {};
  const fs::path build = (exe_dir / TPFEMU_BUILD_CONFIGS_REL / kFile).lexically_normal();
  if (fs::exists(build, ec)) return build.string();
  return (exe_dir / TPFEMU_INSTALL_CONFIGS_REL / kFile).lexically_normal().string();
}

report_json::Json document_entry(std::string_view config) {
  // Several files, or an overlay: not the configuration the document measured.
  if (config.empty() || config.find_first_of(", ") != std::string_view::npos) return nullptr;
  const std::string path = document_figures_path();
  std::ifstream in(path);
  if (!in) return nullptr;
  report_json::Json doc;
  try {
    doc = report_json::Json::parse(in);
  } catch (const report_json::Json::exception& e) {
    throw std::runtime_error(fmt::format("{}: not JSON: {}", path, e.what()));
  }
  const std::string name = fs::path(config).filename().string();
  if (!doc.contains("configurations") || !doc["configurations"].is_object())
    throw std::runtime_error(fmt::format("{}: no \"configurations\" object", path));
  const auto& all = doc["configurations"];
  if (!all.contains(name)) return nullptr;
  const auto& e = all[name];
  if (!e.is_object() || !e.contains("figures") || !e["figures"].is_array())
    throw std::runtime_error(fmt::format("{}: {}: no \"figures\" array", path, name));
  for (const auto& f : e["figures"])
    if (!f.is_object() || !f.contains("key") || !f["key"].is_string() || !f.contains("value") || !f["value"].is_number())
      throw std::runtime_error(fmt::format("{}: {}: a figure without a key or a number", path, name));
  return e;
}

}  // namespace report_html
