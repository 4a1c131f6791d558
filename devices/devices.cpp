#include "devices/devices.h"

#include <algorithm>
#include <cstdio>
#include <ostream>
#include <fmt/format.h>

#include "config/number_text.h"
#include "devices/guest/eadm.h"
#include "emu/cpu.h"
#include "emu/machine.h"
#include "os/ecb.h"
#include "os/run_config.h"
#include "os/simulated_time.h"
#include "report/report_json.h"

namespace {
// devices.txt in the project's one number style (config/number_text.h).
const flashsim::NumberStyle kStyle{
    .whole = [](uint64_t v) { return cfg::grouped(v); },
    .decimal = [](double v, int digits) { return cfg::grouped_fixed(v, digits); }};
}  // namespace

namespace devices {
namespace {

// An EADM request of an ECB: the transfer and the list its ECB waits on.
struct EadmRequest : Transfer {
  os::WaitList waiters;
  std::vector<uint64_t> guest;  // each block's storage address (reads land there at the completion)
};

uint32_t eadm_status(flashsim::Status s) { return s == flashsim::Status::Ok ? 0 : uint32_t(s) + 1; }

// An operator command of the devices, in z/OS's forms (spaces are not significant).
struct ScmCommand {
  enum Kind { Display, Detail, Config, Fail } kind = Display;
  std::string operand;  // CF SCM(operand)
  bool online = false;
  unsigned pair = 0, card = 0;
};

std::string squeeze(std::string_view text) {
  std::string o;
  for (char ch : text)
    if (ch != ' ' && ch != '\t') o += char(ch >= 'a' && ch <= 'z' ? ch - 'a' + 'A' : ch);
  return o;
}

bool is_scm_command(std::string_view text) {
  const std::string t = squeeze(text);
  return t.rfind("DM=SCM", 0) == 0 || t.rfind("CFSCM", 0) == 0 || t.rfind("FSCM", 0) == 0;
}

// Throws cfg::ConfigError naming what is wrong.
ScmCommand parse_scm_command(std::string_view text) {
  const std::string t = squeeze(text);
  ScmCommand c;
  if (t == "DM=SCM") return c;
  if (t == "DM=SCM(DETAIL)") return c.kind = ScmCommand::Detail, c;
  const auto bad = [&](const std::string& why) { return cfg::ConfigError(fmt::format("\"{}\": {}", text, why)); };
  if (t.rfind("DM=SCM", 0) == 0) throw bad("D M=SCM takes (DETAIL) or nothing");
  if (t.rfind("CFSCM(", 0) == 0) {
    const size_t close = t.find(')');
    if (close == std::string::npos) throw bad("CF SCM(...) has no closing parenthesis");
    c.kind = ScmCommand::Config;
    c.operand = t.substr(6, close - 6);
    const std::string rest = t.substr(close + 1);
    if (rest != ",ONLINE" && rest != ",OFFLINE") throw bad("CF SCM(amount) takes ,ONLINE or ,OFFLINE");
    c.online = rest == ",ONLINE";
    const size_t dash = c.operand.find('-');
    uint64_t a = 0, b = 0;
    const bool ok = dash == std::string::npos
                        ? flashsim::parse_amount(c.operand, a)
                        : flashsim::parse_amount(c.operand.substr(0, dash), a) &&
                              flashsim::parse_amount(c.operand.substr(dash + 1), b);
    if (!ok) throw bad(c.operand + " is not an amount (16G) or a range (48G-64G)");
    if (dash != std::string::npos && c.online) throw bad("a range is taken OFFLINE only; ONLINE takes an amount");
    return c;
  }
  if (t.rfind("CFSCM", 0) == 0) throw bad("CF SCM needs (amount) or (start-end)");
  unsigned pair = 9, card = 9;
  char tail = 0;
  if (std::sscanf(t.c_str(), "FSCM,FAIL,CARD=%u.%u%c", &pair, &card, &tail) == 2 && pair < 4 && card < 2) {
    c.kind = ScmCommand::Fail, c.pair = pair, c.card = card;
    return c;
  }
  throw bad("F SCM takes FAIL,CARD=pair.card (pair 0..3, card 0 or 1)");
}


// RMF's device activity (the Postprocessor's DASD Activity report's columns) for every
// device: the activity rate, the response time and its split. IOSQ is the time a
// request waited for its device before the device began it (queued); PEND, DISC and
// CONN are the parts of a 3390's service time its model computes (flashsim/dasd.h); SCM's
// service time has no such split: N/M, not modelled (its RESP less IOSQ is its service).
constexpr const char* kNotModelled = "N/M";
constexpr const char* kDevRow = "{:<6}{:<7}{:>10} {:>9} {:>8} {:>8} {:>8} {:>8} {:>8} {:>7}\n";

struct DeviceTimes {
  double rate = 0, resp_ms = 0, iosq_ms = 0, pend_ms = 0, disc_ms = 0, conn_ms = 0, util_percent = 0;
  bool split = false;
  uint64_t requests = 0;
};

DeviceTimes device_times(const flashsim::Device& d, uint64_t elapsed_ns) {
  const flashsim::DeviceStats& s = d.stats();
  DeviceTimes t;
  t.requests = s.requests - s.errors;
  t.split = s.split;
  const double n = double(std::max<uint64_t>(t.requests, 1));
  t.rate = elapsed_ns ? double(t.requests) / (double(elapsed_ns) / 1e9) : 0;
  t.resp_ms = double(s.response_ns_sum) / n / 1e6;
  t.iosq_ms = double(s.wait_ns_sum) / n / 1e6;
  t.pend_ms = double(s.pend_ns_sum) / n / 1e6;
  t.disc_ms = double(s.disc_ns_sum) / n / 1e6;
  t.conn_ms = double(s.conn_ns_sum) / n / 1e6;
  t.util_percent = elapsed_ns ? std::min(100.0, 100.0 * double(s.busy_ns) / double(elapsed_ns)) : 0;
  return t;
}

void write_device_activity_text(std::ostream& out, const std::vector<const flashsim::Device*>& all, uint64_t elapsed_ns) {
  out << "                              D E V I C E   A C T I V I T Y\n\n";
  out << fmt::format("           z/TPF (tpfemu)          SYSTEM ID N/A          DATE N/A            INTERVAL {}\n",
                     os::console_time(elapsed_ns));
  out << "           every request counted, none sampled; times in milliseconds, a request's mean\n\n";
  out << fmt::format(kDevRow, "DEV", "DEVICE", "DEVICE", "AVG", "AVG", "AVG", "AVG", "AVG", "AVG", "% DEV");
  out << fmt::format(kDevRow, "NUM", "TYPE", "ACTIVITY", "REQUESTS", "RESP", "IOSQ", "PEND", "DISC", "CONN", "UTIL");
  std::string rate_row = fmt::format(kDevRow, "", "", "RATE", "", "TIME", "TIME", "TIME", "TIME", "TIME", "");
  rate_row.erase(rate_row.find_last_not_of(" \n") + 1);
  out << rate_row << "\n";
  for (const flashsim::Device* d : all) {
    const DeviceTimes t = device_times(*d, elapsed_ns);
    const auto ms = [](double v) { return fmt::format("{:.3f}", v); };
    const bool scm = std::string(d->kind()) == "scm";
    out << fmt::format(kDevRow, scm ? "SCM" : d->name(), scm ? "SCM" : "3390", fmt::format("{:.3f}", t.rate),
                       t.requests, ms(t.resp_ms), ms(t.iosq_ms), t.split ? ms(t.pend_ms) : kNotModelled,
                       t.split ? ms(t.disc_ms) : kNotModelled, t.split ? ms(t.conn_ms) : kNotModelled,
                       fmt::format("{:.2f}", t.util_percent));
  }
  out << "\nIOSQ: queued for the device before it began the request. PEND: start I/O, channel and control-unit\n"
         "overhead; DISC: read misses staged from the drive; CONN: the records moved (the 3390 model's parts).\n"
         "N/M: not modelled (SCM's service time is not split; RESP - IOSQ is its service time).\n";
}

void write_device_activity_json(std::ostream& out, const std::vector<const flashsim::Device*>& all, uint64_t elapsed_ns) {
  using report_json::Json, report_json::fixed;
  Json rows = Json::array();
  for (const flashsim::Device* d : all) {
    const DeviceTimes t = device_times(*d, elapsed_ns);
    const auto split = [&](double v) { return t.split ? fixed(v, 6) : Json(kNotModelled); };
    rows.push_back({{"device", d->name()},
                    {"kind", d->kind()},
                    {"requests", t.requests},
                    {"activity_rate", fixed(t.rate, 3)},
                    {"resp_ms", fixed(t.resp_ms, 6)},
                    {"iosq_ms", fixed(t.iosq_ms, 6)},
                    {"pend_ms", split(t.pend_ms)},
                    {"disc_ms", split(t.disc_ms)},
                    {"conn_ms", split(t.conn_ms)},
                    {"util_percent", fixed(t.util_percent, 2)}});
  }
  report_json::write(out, {{"report", "RMF Device Activity (response time: IOSQ, PEND, DISC, CONN)"},
                           {"elapsed_s", fixed(double(elapsed_ns) / 1e9, 6)},
                           {"devices", rows}},
                     {.one_per_line = {"devices"}});
}

}  // namespace

emu::IoResult Port::start(uint64_t now, emu::IoOperation& op) {
  auto* t = dynamic_cast<Transfer*>(&op);
  if (!t) return {now, ~0u, "not a request for " + device_.name()};
  const uint64_t ns = std::max(ns_of(now), last_ns_);
  last_ns_ = ns;
  t->completion = device_.submit(ns, t->request);
  return {cycles_of(t->completion.time_ns), eadm_status(t->completion.status), t->completion.error};
}

void DeviceSubsystem::install(os::System& system) {
  system_ = &system;
  system.machine().storage().add_auxiliary([this] {
    emu::Storage::AuxiliaryCount c;
    for (const flashsim::Device* d : all()) c.simulated_bytes += d->contents_written(), c.host_bytes += d->contents_bytes();
    return c;
  });
  const double ghz = system.machine().config().clock_ghz;
  if (config_.scm.card_pairs > 0) {
    scm_ = std::make_unique<flashsim::ScmDevice>(config_.scm, "SCM");
    for (auto [pair, card] : config_.failed_cards) system.log("SCM: " + scm_->fail_card(pair, card, 0));
    ports_.push_back(std::make_unique<Port>(*scm_, ghz));
    scm_sch_ = system.attach_device(*ports_.back());
  }
  for (unsigned v = 0; v < config_.dasd_volumes; ++v) {
    flashsim::DasdConfig d = config_.dasd;
    d.device_number = 0x0980 + v;
    d.lcu = v % config_.dasd_lcus;
    d.seed = 1 + v;
    dasd_.push_back(std::make_unique<flashsim::DasdVolume>(d, fmt::format("{:04X}", d.device_number)));
    ports_.push_back(std::make_unique<Port>(*dasd_.back(), ghz));
    dasd_sch_.push_back(system.attach_device(*ports_.back()));
  }
  for (unsigned v = 0; v < config_.dump_volumes; ++v) {
    flashsim::DasdConfig d = config_.dasd;
    d.device_number = 0x09A0 + v;
    d.lcu = (config_.dasd_volumes + v) % config_.dasd_lcus;
    d.seed = 0x100 + v;
    dump_.push_back(std::make_unique<flashsim::DasdVolume>(d, fmt::format("{:04X}", d.device_number)));
    ports_.push_back(std::make_unique<Port>(*dump_.back(), ghz));
    dump_sch_.push_back(system.attach_device(*ports_.back()));
  }
  if (config_.plpa_volume) {
    flashsim::DasdConfig d = config_.dasd;
    d.device_number = 0x02E6;  // the seed's D ASM: SYS1.PLPA.PAGCOM on 02E6
    d.lcu = (config_.dasd_volumes + config_.dump_volumes) % config_.dasd_lcus;
    d.seed = 0x200;
    plpa_ = std::make_unique<flashsim::DasdVolume>(d, fmt::format("{:04X}", d.device_number));
    ports_.push_back(std::make_unique<Port>(*plpa_, ghz));
    plpa_sch_ = system.attach_device(*ports_.back());
  }
  system.add_svc({TPF_SVC_EADM, "EADM", os::SvcCost::Service, [this](emu::Cpu& c, os::Ecb& e) { eadm(c, e); }});
  system.add_operator_commands(
      "SCM",
      "D M=SCM                      storage-class memory: online, offline-available, pending offline (IEE174I)\n"
      "D M=SCM(DETAIL)              the same by increment\n"
      "CF SCM(16G),ONLINE           bring SCM online (IEE195I); CF SCM(16G|48G-64G),OFFLINE takes it offline\n"
      "F SCM,FAIL,CARD=0.1          fail card 1 of pair 0 (a fault: the pair serves from its mirror)\n",
      [this](const os::OperatorCommand& c, uint64_t now, uint64_t ns, bool) { return command(c, now, ns); });
  // The run's simulated time, or longer if a request started before its end completes after it.
  const auto elapsed_ns = [this, ghz] {
    uint64_t ns = uint64_t(double(system_->machine().elapsed_cycles()) / ghz);
    for (const flashsim::Device* d : all()) ns = std::max(ns, d->stats().last_completion_ns);
    return ns;
  };
  const auto any = [this] { return !ports_.empty(); };
  system.add_report({.name = "devices.txt",
                     .write = [this, elapsed_ns](std::ostream& out) { flashsim::write_devices_text(out, all(), elapsed_ns(), kStyle); },
                     .wanted = any});
  system.add_report({.name = "devices.json",
                     .write = [this, elapsed_ns](std::ostream& out) { flashsim::write_devices_json(out, all(), elapsed_ns()); },
                     .wanted = any});
  system.add_report({.name = "rmfdev.txt",
                     .write = [this, elapsed_ns](std::ostream& out) { write_device_activity_text(out, all(), elapsed_ns()); },
                     .wanted = any});
  system.add_report({.name = "rmfdev.json",
                     .write = [this, elapsed_ns](std::ostream& out) { write_device_activity_json(out, all(), elapsed_ns()); },
                     .wanted = any});
}

os::OperatorGrammars DeviceSubsystem::operator_grammars() const {
  return {{.owner = "SCM",
           .syntax = "D M=SCM[(DETAIL)], CF SCM(amount|start-end),ONLINE|OFFLINE, F SCM,FAIL,CARD=pair.card",
           .mine = is_scm_command,
           .check = [](std::string_view text) { parse_scm_command(text); }}};
}

// What a command answers (the console's lines) is also run.log's, at its time.
std::string DeviceSubsystem::command(const os::OperatorCommand& c, uint64_t now, uint64_t ns) {
  std::vector<std::string> lines;
  if (!scm_) {
    lines = {"ERROR at " + cfg::format_duration(ns) + ": the machine has no Flash Express (machine.scm.card_pairs: 0)"};
  } else {
    const ScmCommand k = parse_scm_command(c.text);  // checked when it was parsed
    switch (k.kind) {
      case ScmCommand::Display: lines = scm_->display(os::console_time(ns), ++message_number_); break;
      case ScmCommand::Detail: lines = scm_->display_detail(os::console_time(ns), ++message_number_); break;
      case ScmCommand::Config: lines = scm_->config_command(k.operand, k.online); break;
      case ScmCommand::Fail: lines = {scm_->fail_card(k.pair, k.card, ports_.front()->ns_of(now))}; break;
    }
  }
  return system_->operator_answer(now, c.text, lines);
}

std::vector<const flashsim::Device*> DeviceSubsystem::all() const {
  std::vector<const flashsim::Device*> v;
  if (scm_) v.push_back(scm_.get());
  for (const auto& d : dasd_) v.push_back(d.get());
  for (const auto& d : dump_) v.push_back(d.get());
  if (plpa_) v.push_back(plpa_.get());
  return v;
}

// TPF_SVC_EADM: r2 = the AOB's address in the ECB's storage. The blocks a write moves
// are read from storage now (the device takes them at the start); a read's land in
// storage at the completion, when the ECB is made ready with r2 = the status.
void DeviceSubsystem::eadm(emu::Cpu& cpu, os::Ecb& e) {
  ++eadm_requests_;
  emu::AddressSpace& space = *e.process->space;
  const uint64_t aob = cpu.gr[2];
  const auto fail = [&](uint32_t status, int msb, const std::string& why) {
    uint8_t raw[8];
    emu::Cpu::store_be<uint32_t>(raw, status);
    emu::Cpu::store_be<uint32_t>(raw + 4, uint32_t(msb));
    space.write_bytes(aob + offsetof(eadm_aob, status), raw, 8);
    system_->log(fmt::format("EADM: ECB {} ({}): {}", e.id, e.program, why));
    cpu.gr[2] = status;
  };
  if (!scm_) return fail(EADM_NO_SCM, -1, "the machine has no Flash Express (machine.scm.card_pairs: 0)");
  uint8_t head[32];
  if (!space.read_bytes(aob, head, sizeof head))
    return fail(EADM_BAD_AOB, -1, fmt::format("the AOB at {:#x} is not in the ECB's storage", aob));
  const uint32_t count = emu::Cpu::load_be<uint32_t>(head);
  if (count == 0 || count > EADM_MAX_MSBS)
    return fail(uint32_t(flashsim::Status::TooManyBlocks) + 1, -1,
                fmt::format("the AOB at {:#x} has {} MSBs (1 to {})", aob, count, EADM_MAX_MSBS));
  auto t = std::make_shared<EadmRequest>();
  t->request.tag = eadm_requests_;
  for (uint32_t k = 0; k < count; ++k) {
    uint8_t m[sizeof(eadm_msb)];
    const uint64_t at = aob + offsetof(eadm_aob, msb) + uint64_t(k) * sizeof(eadm_msb);
    if (!space.read_bytes(at, m, sizeof m))
      return fail(EADM_BAD_AOB, int(k), fmt::format("MSB {} at {:#x} is not in the ECB's storage", k, at));
    const uint8_t op = m[offsetof(eadm_msb, op)];
    const uint32_t size = m[offsetof(eadm_msb, size)] == EADM_1M ? flashsim::kBlock1M : flashsim::kBlock4K;
    const uint64_t data = emu::Cpu::load_be<uint64_t>(m + offsetof(eadm_msb, data));
    flashsim::Block b;
    b.op = op == EADM_WRITE ? flashsim::Op::Write : op == EADM_CLEAR ? flashsim::Op::Clear
         : op == EADM_RELEASE ? flashsim::Op::Release : flashsim::Op::Read;
    b.address = emu::Cpu::load_be<uint64_t>(m + offsetof(eadm_msb, scm));
    b.size = size;
    t->guest.push_back(b.op == flashsim::Op::Read ? data : 0);
    if (b.op == flashsim::Op::Read || b.op == flashsim::Op::Write) {
      t->buffers.emplace_back(size);
      if (b.op == flashsim::Op::Write && !space.read_bytes(data, t->buffers.back().data(), size))
        return fail(EADM_BAD_AOB, int(k), fmt::format("MSB {}: storage {:#x}, {} bytes, is not the ECB's", k, data, size));
    } else {
      t->buffers.emplace_back();
    }
    t->request.blocks.push_back(b);
  }
  for (size_t k = 0; k < t->request.blocks.size(); ++k)  // the buffers no longer move
    if (!t->buffers[k].empty()) t->request.blocks[k].data = t->buffers[k].data();
  system_->start_io(scm_sch_, cpu.cycles, t, [this, &e, aob, t](const emu::IoInterruption& i) { eadm_done(e, aob, t, i); });
  system_->park(cpu, e, t->waiters);
}

void DeviceSubsystem::eadm_done(os::Ecb& e, uint64_t aob, const std::shared_ptr<Transfer>& tr,
                                const emu::IoInterruption& i) {
  auto& t = static_cast<EadmRequest&>(*tr);
  emu::AddressSpace& space = *e.process->space;
  uint32_t status = i.status;
  int msb = t.completion.block;
  if (status == 0)
    for (size_t k = 0; k < t.guest.size(); ++k)
      if (t.guest[k] && !space.write_bytes(t.guest[k], t.buffers[k].data(), t.buffers[k].size())) {
        status = EADM_BAD_AOB, msb = int(k);
        break;
      }
  if (status) {
    system_->log(fmt::format("EADM: ECB {} ({}): status {}: {}", e.id, e.program, status,
                             i.detail.empty() ? "storage of a read is not the ECB's" : i.detail));
  }
  uint8_t raw[16];
  emu::Cpu::store_be<uint32_t>(raw, status);
  emu::Cpu::store_be<uint32_t>(raw + 4, uint32_t(msb));
  emu::Cpu::store_be<uint32_t>(raw + 8, 0);
  emu::Cpu::store_be<uint32_t>(raw + 12, 0);
  space.write_bytes(aob + offsetof(eadm_aob, status), raw, 8);
  const uint64_t us = uint64_t(double(i.time) / system_->machine().config().clock_ghz / 1000.0);
  emu::Cpu::store_be<uint64_t>(raw, us);
  space.write_bytes(aob + offsetof(eadm_aob, time_us), raw, 8);
  e.gr[2] = status;
  if (!t.waiters.empty()) t.waiters.pop_front();
  system_->make_ready(e, i.time);
}

}  // namespace devices
