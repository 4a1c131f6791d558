// A section of the configuration bound to the struct it configures: each key is
// declared once, with its default, unit, range and source (KeyDecl) AND the field
// its value lands in. Reading a validated Config into the struct then needs no code
// that names a key a second time:
//
//   const cfg::Section<SystemConfig>& system_section() {
//     static const cfg::Section<SystemConfig> s = [] {
//       cfg::Section<SystemConfig> s;
//       s.key({.path = "system.svc_cost", .type = T::Cycles, ...}, &SystemConfig::svc_cost);
//       return s;
//     }();
//     return s;
//   }
//   system_section().declare(schema);            // when the schema is built
//   SystemConfig sys = system_section().read(c);  // once the config is loaded and valid
//
// How a value lands in a field of type F:
//   bool          Bool
//   std::string   String, Enum
//   an integer    Integer, Size (bytes), Cycles, Frequency (Hz), Duration (ns)
//   double        Duration in milliseconds, Frequency in GHz, Integer as it is
// Anything else (an enum class, a list written as text, a scaled unit) lands through
// key_with and a function of its own.
#pragma once
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "config/config.h"

namespace cfg {

// The value of a key of type `type`, as a field of type F holds it (see above).
template <class F> F field_value(const ConfigValue& v, ValueType type) {
  if constexpr (std::is_same_v<F, bool>) {
    return std::get<bool>(v);
  } else if constexpr (std::is_same_v<F, std::string>) {
    return std::get<std::string>(v);
  } else if constexpr (std::is_same_v<F, double>) {
    if (type == ValueType::Duration) return double(std::get<uint64_t>(v)) / 1e6;
    if (type == ValueType::Frequency) return double(std::get<uint64_t>(v)) / 1e9;
    if (type == ValueType::Integer) return double(std::get<int64_t>(v));
    throw std::logic_error("config: a double field takes a duration, a frequency or an integer");
  } else {
    static_assert(std::is_integral_v<F>, "a field is bool, std::string, an integer or double; use key_with");
    if (const auto* i = std::get_if<int64_t>(&v)) return F(*i);
    return F(std::get<uint64_t>(v));
  }
}

template <class S> class Section {
 public:
  using Land = std::function<void(S&, const ConfigValue&)>;

  // The key's value lands in `field`: a member pointer (&S::svc_cost) or a function
  // S& -> F& for a nested field ([](S& s) -> auto& { return s.l1.size; }).
  template <class Field> Section& key(KeyDecl decl, Field field) {
    const ValueType type = decl.type;
    return key_with(std::move(decl), [field, type](S& s, const ConfigValue& v) {
      auto& to = std::invoke(field, s);
      to = field_value<std::remove_reference_t<decltype(to)>>(v, type);
    });
  }
  // The key's value lands through `land`: for a value that is converted (an enum
  // class), parsed further (a list written as text) or scaled.
  Section& key_with(KeyDecl decl, Land land) {
    return key_from(std::move(decl), [land](S& s, const Config& c, const std::string& path) { land(s, c.value(path)); });
  }
  // The key's value lands through `land`, which reads it from the Config itself: for
  // a path, resolved where the key was set (Config::get_path).
  Section& key_from(KeyDecl decl, std::function<void(S&, const Config&, const std::string& path)> land) {
    steps_.push_back([decl](Schema& schema) { schema.add(decl); });
    lands_.push_back({decl.path, std::move(land)});
    return *this;
  }
  Section& describe(std::string section, std::string text) {
    steps_.push_back([section, text](Schema& schema) { schema.describe(section, text); });
    return *this;
  }
  Section& check(std::string name, ConfigCheck fn) {
    steps_.push_back([name, fn](Schema& schema) { schema.check(name, fn); });
    return *this;
  }

  // Adds the keys, descriptions and checks to `schema`, in the order declared.
  void declare(Schema& schema) const {
    for (const auto& step : steps_) step(schema);
  }
  // The struct a loaded and validated Config describes.
  S read(const Config& config) const {
    S s{};
    for (const auto& [path, land] : lands_) land(s, config, path);
    return s;
  }

 private:
  std::vector<std::function<void(Schema&)>> steps_;
  std::vector<std::pair<std::string, std::function<void(S&, const Config&, const std::string&)>>> lands_;
};

}  // namespace cfg
