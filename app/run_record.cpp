#include "app/run_record.h"

#include <cctype>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <openssl/evp.h>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <yaml-cpp/yaml.h>

#include "app/version.h"
#include "os/guest_dir.h"

namespace app {
using os::guest_dir;
using os::RunConfig;

namespace {

namespace fs = std::filesystem;

// The file a path key names, made absolute so the record loads from any folder; ""
// for one that names no file (workload.data_file's "(none)").
std::string resolved_file(const cfg::Config& c, const std::string& key) {
  try {
    const fs::path p = c.get_path(key, guest_dir());
    std::error_code ec;
    if (!fs::is_regular_file(p, ec)) return {};
    return fs::absolute(p).lexically_normal().string();
  } catch (const cfg::ConfigError&) {
    return {};
  }
}

std::string sha256_of_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "(cannot read)";
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  EVP_DigestInit_ex(ctx, EVP_sha256(), nullptr);
  char buf[1 << 16];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) EVP_DigestUpdate(ctx, buf, size_t(in.gcount()));
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned len = 0;
  EVP_DigestFinal_ex(ctx, md, &len);
  EVP_MD_CTX_free(ctx);
  std::string hex;
  for (unsigned i = 0; i < len; ++i) hex += fmt::format("{:02x}", md[i]);
  return hex;
}

bool plain_word(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || std::string_view("_./=:,+-@%").find(c) != std::string_view::npos))
      return false;
  return true;
}

// The configuration's values by dotted path: a map's keys joined by '.', a list's
// entries as NAME[N] (from 1).
void flatten(const YAML::Node& node, const std::string& prefix, std::map<std::string, std::string>& out) {
  if (node.IsMap()) {
    for (auto it = node.begin(); it != node.end(); ++it)
      flatten(it->second, prefix.empty() ? it->first.Scalar() : prefix + "." + it->first.Scalar(), out);
  } else if (node.IsSequence()) {
    for (size_t i = 0; i < node.size(); ++i) flatten(node[i], fmt::format("{}[{}]", prefix, i + 1), out);
  } else if (node.IsScalar()) {
    out[prefix] = node.Scalar();
  }
}

}  // namespace

std::string shell_command_line(const std::vector<std::string>& args) {
  std::string out;
  for (const std::string& a : args) {
    if (!out.empty()) out += ' ';
    if (plain_word(a)) {
      out += a;
      continue;
    }
    out += '\'';
    for (char c : a) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += '\'';
  }
  return out;
}

void write_run_record(std::ostream& out, const RunConfig& config, const std::vector<std::string>& command_line,
                      const std::vector<std::string>& files) {
  const cfg::Config& c = *config.values;
  out << "# What a tpfemu run ran. `tpfemu run` of this file runs the same configuration again.\n"
         "# Each value is followed by where it came from (default, FILE:LINE or --set).\n#\n";
  out << "# tpfemu: " << tpfemu_version() << "\n";
  if (!command_line.empty()) out << "# command: " << shell_command_line(command_line) << "\n";
  out << "# configuration files: ";
  for (size_t i = 0; i < files.size(); ++i) out << (i ? ", " : "") << files[i];
  out << (files.empty() ? "(none: the defaults)\n" : "\n");
  std::map<std::string, std::string> resolved;  // path key -> absolute file
  for (const cfg::KeyDecl& k : c.schema().keys()) {
    if (k.type != cfg::ValueType::Path) continue;
    const std::string file = resolved_file(c, k.path);
    if (file.empty()) continue;
    resolved[k.path] = file;
    out << "# " << k.path << ": " << file << "\n# " << k.path << " sha256: " << sha256_of_file(file) << "\n";
  }
  out << "\n";
  c.write_effective(out, [&](std::string_view key) {
    auto it = resolved.find(std::string(key));
    return it == resolved.end() ? std::string() : it->second;
  });
}

std::vector<std::string> recorded_file_changes(const RunConfig& config, const std::vector<std::string>& files) {
  std::vector<std::string> out;
  for (const std::string& f : files) {
    std::ifstream in(f);
    std::string first;
    if (!std::getline(in, first) || first.rfind("# What a tpfemu run ran.", 0) != 0) continue;
    RunRecord r;
    try {
      r = read_run_record(f);
    } catch (const std::runtime_error&) {
      continue;   // the configuration's own loading says what is wrong with it
    }
    for (const auto& [name, hash] : r.header) {
      const std::string suffix = " sha256";
      if (name.size() <= suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
        continue;
      const std::string key = name.substr(0, name.size() - suffix.size());
      const std::string now = resolved_file(*config.values, key);
      if (now.empty()) continue;
      const std::string now_hash = sha256_of_file(now);
      if (now_hash == hash) continue;
      auto rec = r.header.find(key);
      out.push_back(fmt::format("{}: {} was {} (sha256 {}) when recorded; this run uses {} (sha256 {}): its figures "
                                "may differ from the recorded run's",
                                f, key, rec == r.header.end() ? "?" : rec->second, hash, now, now_hash));
    }
  }
  return out;
}

RunRecord read_run_record(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(fmt::format("{}: cannot open (a run of an older tpfemu has no config.yaml)", path));
  std::stringstream text;
  text << in.rdbuf();
  RunRecord r;
  // The header: the "# name: value" lines after the first "#" line, up to the first that is not a comment.
  std::istringstream lines(text.str());
  bool in_header = false;
  for (std::string line; std::getline(lines, line) && line.rfind("#", 0) == 0;) {
    if (line == "#") {
      in_header = true;
      continue;
    }
    const size_t colon = line.find(": ");
    if (in_header && line.rfind("# ", 0) == 0 && colon != std::string::npos)
      r.header[line.substr(2, colon - 2)] = line.substr(colon + 2);
  }
  try {
    flatten(YAML::Load(text.str()), "", r.values);
  } catch (const YAML::Exception& e) {
    throw std::runtime_error(fmt::format("{}:{}: not YAML: {}", path, e.mark.line + 1, e.msg));
  }
  return r;
}

}  // namespace app
