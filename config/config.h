// Configuration: a schema of keys, each declared once, and the values a run uses.
//
// A key has a dotted path (`machine.cache.l1.size`), a type, a default, a unit, a
// range or a list of choices, a one-line description and the source or reasoning
// of its default. A Config starts from the defaults; YAML files and `--set
// key.path=value` overrides change it; cross-field checks run last. Every error is
// a ConfigError whose message names the place, the key and the problem:
//
//   configs/x.yaml:12: machine.cache.l1.sise: unknown key (did you mean size?)
//   configs/x.yaml:7: machine.istreams: 65 is out of range 1..64
//   --set: machine.clock: "5.2 Ghz" is not a frequency (use e.g. 5.2GHz)
//
// Sections plug in the same way: each subsystem has a `declare_<section>_schema(
// Schema&)` that adds its keys and checks, and a function that turns a Config
// into its own value struct (see machine_config.cpp for `machine:`). A program
// builds one Schema from all the sections it knows; a top-level key that no
// declared key starts with is an unknown section.
//
// Units (see parse_size, parse_frequency_hz and parse_duration_ns below):
//   size       a whole number of bytes, or one followed by K, M, G or T (either case),
//              optionally followed by B or iB: 256, 4K, 4KB, 4KiB, 4k, 1M, 16G, 1T.
//              K, M, G and T are all powers of 1024. No spaces, no fractions, and no
//              lower-case b (that would mean bits).
//   frequency  a decimal number followed by GHz, MHz, kHz or Hz, written exactly so
//              and without a space: 5.2GHz, 800MHz. Held in Hz; read as GHz.
//   duration   a decimal number followed by s, ms, us or ns, written exactly so and
//              without a space: 2s, 0.5ms, 500us, 40ns; or a bare 0. Held in whole
//              nanoseconds (finer fractions are an error).
//   cycles, integer   a plain decimal whole number: 40. (integer may be negative.)
//   bool       true or false (any case).
//   enum       one of the declared choices, exactly.
//   string     any scalar.
//   path       a file's path, any scalar; a relative one is resolved when read (see
//              Config::get_path).
#pragma once
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <iosfwd>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace cfg {

// Bad input: a message for the user, naming the place and the key.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class ValueType { Integer, Size, Frequency, Cycles, Bool, String, Enum, Duration, Path };

// "integer", "size", ...; and the noun used in messages ("a whole number", "a size").
std::string_view type_name(ValueType t);

// Unit parsing on its own. Each throws ConfigError with a message that names the
// text but no place or key (the loader adds those), e.g.
//   "4Kb" is not a size (use e.g. 256, 4K, 1M, 16G or 1T)
uint64_t parse_size(std::string_view text);
uint64_t parse_frequency_hz(std::string_view text);
uint64_t parse_duration_ns(std::string_view text);
uint64_t parse_cycles(std::string_view text);
int64_t parse_integer(std::string_view text);
bool parse_bool(std::string_view text);

// The shortest exact spelling: 4096 -> "4K", 1536 KiB -> "1536K", 300 -> "300";
// 5200000000 Hz -> "5.2GHz", 800000000 Hz -> "800MHz";
// 1000000 ns -> "1ms", 1500 ns -> "1.5us", 0 -> "0".
std::string format_size(uint64_t bytes);
std::string format_frequency(uint64_t hz);
std::string format_duration(uint64_t ns);

// One key of the schema. Default, min and max are written as they would be in
// YAML ("128K", "5.2GHz", "8", "true"); min and max may be empty (unbounded).
// Every member has an initializer so designated initializers may leave any out.
struct KeyDecl {
  std::string path{};
  ValueType type = ValueType::Integer;
  std::string default_value{};
  std::string min{}, max{};
  std::vector<std::string> choices{};  // Enum only
  std::string unit{};                  // for people: "bytes", "GHz", "cycles", "ways", ...
  std::string description{};           // one line: what it is
  std::string source{};                // where the default comes from, or "estimate: why"
};

// A parsed value: Integer -> int64_t; Size (bytes), Cycles, Frequency (Hz),
// Duration (ns) -> uint64_t;
// Bool -> bool; String, Enum, Path (as written) -> std::string.
using ConfigValue = std::variant<int64_t, uint64_t, bool, std::string>;

class Config;
using ConfigCheck = std::function<void(const Config&)>;

// One entry of a list section (see ListDecl): its fields' values, as written, and
// where. Reads use the same types as Config's.
struct ListEntry {
  std::string list;    // the list's name, e.g. "operator"
  size_t index = 0;    // 0-based position in the list (entries of later files follow)
  std::string place;   // where the entry starts: "x.yaml:12"
  std::map<std::string, ConfigValue, std::less<>> values;  // every field (defaults filled)
  std::map<std::string, std::string, std::less<>> texts;   // as written (or the default)
  std::map<std::string, std::string, std::less<>> places;  // where each written field is

  uint64_t get_uint(std::string_view field) const;  // Size, Cycles, Frequency, Duration
  int64_t get_int(std::string_view field) const;
  bool get_bool(std::string_view field) const;
  const std::string& get_string(std::string_view field) const;
  const std::string& text(std::string_view field) const;
  // The name people see: "operator entry 3".
  std::string name() const;
  // An error about this entry, naming the field's place (or the entry's), the entry
  // and the field:  x.yaml:14: operator entry 2: command: <message>
  ConfigError error(std::string_view field, std::string_view message) const;
};

// A list section: a top-level name whose value is a YAML sequence of maps, each with
// declared fields, e.g.
//   operator:
//     - at: 2ms
//       command: ZTRAP EI START
// Fields are KeyDecls whose path is the field's name; an empty default_value makes
// the field required. Entries get the same checking as keys (types, units, ranges,
// unknown or duplicate fields with suggestions, file:line), then `check` (which
// throws entry.error(field, message)). Lists are given in YAML files only (not
// --set); each file's entries are appended to those of the files before it.
struct ListDecl {
  std::string name{};
  std::vector<KeyDecl> fields{};
  std::string description{};  // one line: what an entry does
  std::string example{};      // YAML lines of an example list (shown commented in listings)
  std::function<void(const ListEntry&)> check{};
};

// The declarations. Adding a key that is malformed (duplicate path, default out of
// range, no description, ...) is a programming error: std::logic_error.
class Schema {
 public:
  static constexpr size_t npos = size_t(-1);

  // Keys of one section must be added together: once another key has been added
  // after a section's keys, that section is closed (so listings nest cleanly).
  Schema& add(KeyDecl decl);
  // A one-line description of a section (an interior path such as `machine.cache`),
  // shown in listings and example files. The section must already have keys.
  Schema& describe(std::string_view section, std::string description);
  // A cross-field check, run by Config::validate after all values are in. It throws
  // Config::error(...) naming the keys involved.
  Schema& check(std::string name, ConfigCheck fn);
  // A list section (top level). Malformed declarations are std::logic_error.
  Schema& add_list(ListDecl decl);
  const std::vector<ListDecl>& lists() const { return lists_; }
  size_t list_index(std::string_view name) const;  // npos if not a list

  size_t index(std::string_view path) const;  // npos if not a key
  const KeyDecl* find(std::string_view path) const;
  const std::vector<KeyDecl>& keys() const { return keys_; }
  const ConfigValue& default_value(size_t i) const { return defaults_[i]; }
  // True for an interior path (a section or sub-section) such as "machine.cache".
  bool is_section(std::string_view path) const;
  // The names one level below `section` ("" for top-level), in declaration order.
  const std::vector<std::string>& children(std::string_view section) const;
  std::string_view section_description(std::string_view section) const;
  size_t check_count() const { return checks_.size(); }

  // Every key with its default, type, unit, range, description and source, in
  // declaration order. For `tpfemu config --list` and the configuration docs.
  void write_listing(std::ostream& out) const;
  // A YAML file that sets every key to its default, each commented with its
  // description, unit, range and source. `header` lines are written first as comments.
  void write_example(std::ostream& out, std::string_view header = {}) const;

 private:
  friend class Config;
  ConfigValue parse(size_t i, std::string_view text) const;  // type and range; ConfigError
  std::string range_text(size_t i) const;

  struct Bound {
    bool set = false;
    ConfigValue value;
  };
  std::vector<KeyDecl> keys_;
  std::vector<ConfigValue> defaults_;
  std::vector<Bound> min_, max_;
  std::map<std::string, size_t, std::less<>> index_;
  std::map<std::string, std::vector<std::string>, std::less<>> children_;  // "" = top level
  std::map<std::string, std::string, std::less<>> section_text_;
  std::vector<std::pair<std::string, ConfigCheck>> checks_;
  std::vector<ListDecl> lists_;
};

// The values of one run. Keeps a pointer to its schema, which must outlive it.
class Config {
 public:
  explicit Config(const Schema& schema);  // every key at its default

  // Apply a YAML document; `name` is used in messages (usually the file's path).
  // Keys not mentioned keep their values. Throws ConfigError.
  void load_yaml(std::string_view text, std::string_view name);
  void load_file(const std::string& path);
  // One `--set` override: "machine.istreams=8". Place in messages: "--set".
  void set(std::string_view assignment);
  // Set one key from text, with the place to name in messages.
  void set(std::string_view path, std::string_view text, std::string_view place);
  // The same, for a value read from a file: `folder` is the file's folder, against
  // which a Path value is resolved ("" for the current directory).
  void set(std::string_view path, std::string_view text, std::string_view place, std::string_view folder);
  // Run the schema's cross-field checks. Throws ConfigError.
  void validate() const;

  // Typed reads. Asking for a key that does not exist, or with the wrong type, is a
  // programming error (std::logic_error).
  int64_t get_int(std::string_view path) const;        // Integer
  uint64_t get_uint(std::string_view path) const;      // Size (bytes), Cycles, Frequency (Hz), Duration (ns)
  double get_ms(std::string_view path) const;          // Duration, in milliseconds
  double get_ghz(std::string_view path) const;         // Frequency
  bool get_bool(std::string_view path) const;          // Bool
  const std::string& get_string(std::string_view path) const;  // String, Enum, Path (as written)
  const ConfigValue& value(std::string_view path) const;

  // A Path key's file. The rule: an absolute path is taken as it is. A relative one
  // is looked for first in the folder of the YAML file that set it (for a `--set`,
  // the current directory, which is what a user typing it means; a default has no
  // such folder), then in `fallback` (tpfemu passes the guest image folder, so that
  // `tpf_apps.elf` needs no folder at all); the first that exists wins. Found
  // nowhere, a ConfigError names the place, the key and the folders tried:
  //   configs/demo.yaml:19: system.image: tpf_apps.elf: not found (looked in configs/, /usr/share/tpfemu/guest/)
  std::string get_path(std::string_view path, const std::string& fallback = {}) const;

  // The value as it was written ("128K"), and where ("x.yaml:12", "--set", or "" for
  // the default).
  const std::string& text(std::string_view path) const;
  const std::string& origin(std::string_view path) const;
  bool is_default(std::string_view path) const { return origin(path).empty(); }

  // The error a cross-field check throws. It names the first of `keys` that was set
  // by the user (or the first key if all are defaults) and the place it was set:
  //   x.yaml:9: machine.quantum: <message>
  ConfigError error(std::initializer_list<std::string_view> keys, std::string_view message) const;

  const Schema& schema() const { return *schema_; }

  // The effective configuration as YAML that loads back to the same values: every key
  // of the schema in declaration order, sections nested, each value as written and a
  // comment saying where it came from (default, FILE:LINE or --set); then each list's
  // entries with their fields' places. `shown`, when it returns a text for a key, writes
  // that text instead of the value as written (tpfemu: the file a path key resolved to)
  // and names the value as written in the comment. Nothing in it depends on the host's
  // time: same files and overrides, same bytes.
  using ShownValue = std::function<std::string(std::string_view path)>;
  void write_effective(std::ostream& out, const ShownValue& shown = {}) const;

  // The entries of a list section, in order (files in the order loaded). Asking for
  // a list that is not declared is std::logic_error.
  const std::vector<ListEntry>& list(std::string_view name) const;
  // Appends an entry (used by the YAML loader).
  void add_entry(size_t list, ListEntry entry) { lists_.at(list).push_back(std::move(entry)); }

 private:
  struct Entry {
    ConfigValue value;
    std::string text;
    std::string origin;
    // Where a relative Path value is looked for first: the setting file's folder ("."
    // for --set and a file in the current directory); empty for a default.
    std::string folder;
  };
  size_t require(std::string_view path) const;
  [[noreturn]] void unknown_key(std::string_view path, std::string_view place) const;

  const Schema* schema_;
  std::vector<Entry> entries_;
  std::vector<std::vector<ListEntry>> lists_;  // by Schema::lists() index
};

// Default values, then each file in turn, then each `--set`, then the checks.
Config load_config(const Schema& schema, const std::vector<std::string>& files,
                   const std::vector<std::string>& sets = {});

}  // namespace cfg
