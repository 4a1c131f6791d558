// tls_trace: records the heap allocations a real OpenSSL 3 TLS 1.3 server makes, as a
// text trace that the ECB heap experiment (APAR PJ47265, "shared SSL") replays against a
// guest heap. z/TPF is the TLS server, so only the server side is recorded: a client runs
// in the same process, over a memory BIO pair, but its allocations are left out.
//
//   tls_trace [--connections C] [--messages N] [--size BYTES] [--release-buffers]
//             [--out FILE] [--summary]
//   tls_trace --check FILE
//
// Trace lines: "m ID SIZE", "r ID SIZE", "f ID", phase lines "# handshake conn=C",
// "# message conn=C msg=N", "# close conn=C", and "#!" comments (header, trailer).
// heap/traces/README.md describes the format and the traces made with it.

#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace {

// ---------------------------------------------------------------------------------------
// Options

const char* const kUsage =
    "usage: tls_trace [--connections C] [--warmup W] [--messages N] [--size BYTES] [--release-buffers]\n"
    "                 [--out FILE] [--summary]\n"
    "       tls_trace --check FILE\n";

constexpr uint64_t kMaxSize = 1 << 20;  // SSL_write takes an int; 1 MB is plenty for records

struct Options {
  uint64_t connections = 1;
  uint64_t warmup = 0;  // connections made first and not recorded (OpenSSL's one-time caches)
  uint64_t messages = 10;
  uint64_t size = 256;
  bool release_buffers = false;
  bool summary = false;
  std::string out;    // empty: stdout
  std::string check;  // --check FILE: verify a trace instead of making one
  std::string command;
};

[[noreturn]] void usage_error(const std::string& message) {
  fmt::print(stderr, "tls_trace: {}\n{}", message, kUsage);
  std::exit(2);
}

uint64_t parse_count(std::string_view option, std::string_view text, uint64_t lo, uint64_t hi) {
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty())
    usage_error(fmt::format("{} {}: not a number", option, text));
  if (v < lo || v > hi) usage_error(fmt::format("{} {}: out of range {}..{}", option, text, lo, hi));
  return v;
}

// Shell-style quoting so that the "#! command:" line can be pasted back into a shell.
std::string quoted(std::string_view arg) {
  const bool plain = !arg.empty() && arg.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                           "0123456789-_./=:,+") == std::string_view::npos;
  if (plain) return std::string(arg);
  std::string q = "'";
  for (char c : arg) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

Options parse_options(int argc, char** argv) {
  Options o;
  o.command = quoted(argv[0]);
  for (int i = 1; i < argc; ++i) o.command += " " + quoted(argv[i]);
  bool making = false;  // an option that only makes sense when making a trace
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    auto value = [&]() -> std::string_view {
      if (i + 1 >= argc) usage_error(fmt::format("{} needs a value", arg));
      return argv[++i];
    };
    if (arg == "--connections") {
      o.connections = parse_count(arg, value(), 1, 100000);
    } else if (arg == "--warmup") {
      o.warmup = parse_count(arg, value(), 0, 1000);
    } else if (arg == "--messages") {
      o.messages = parse_count(arg, value(), 0, 10000000);
    } else if (arg == "--size") {
      o.size = parse_count(arg, value(), 1, kMaxSize);
    } else if (arg == "--release-buffers") {
      o.release_buffers = true;
    } else if (arg == "--out") {
      o.out = value();
    } else if (arg == "--summary") {
      o.summary = true;
    } else if (arg == "--check") {
      o.check = value();
      continue;
    } else if (arg == "--help" || arg == "-h") {
      fmt::print("{}", kUsage);
      std::exit(0);
    } else {
      usage_error(fmt::format("unknown option {}", arg));
    }
    making = true;
  }
  if (!o.check.empty() && making) usage_error("--check takes no other options");
  return o;
}

// ---------------------------------------------------------------------------------------
// The trace: allocation hooks write to it while the server SSL object is being driven.

enum Kind { kHandshake, kMessage, kClose, kKinds };
const char* const kKindNames[kKinds] = {"handshake", "message", "close"};

// Size classes of the summary: up to 32, 64, ..., 1024 bytes, and more.
constexpr std::array<uint64_t, 7> kClassLimits{32, 64, 128, 256, 512, 768, 1024};
constexpr size_t kClasses = kClassLimits.size() + 1;

size_t size_class(uint64_t size) {
  size_t c = 0;
  while (c < kClassLimits.size() && size > kClassLimits[c]) ++c;
  return c;
}

struct KindStats {
  uint64_t mallocs = 0, reallocs = 0, frees = 0, bytes = 0, largest = 0;
  std::array<uint64_t, kClasses> classes{};
};

class Trace {
 public:
  bool recording = false;  // true while a call into the server SSL object runs

  void start(std::FILE* out) { out_ = out; }

  void comment(std::string_view text) { write(fmt::format("#! {}\n", text)); }

  void phase(Kind kind, uint64_t conn, uint64_t msg = 0) {
    kind_ = kind;
    if (kind == kMessage)
      write(fmt::format("# message conn={} msg={}\n", conn, msg));
    else
      write(fmt::format("# {} conn={}\n", kKindNames[kind], conn));
  }

  void on_malloc(uintptr_t p, uint64_t size) {
    if (!recording || !out_) return;
    const uint64_t id = next_id_++;
    ids_[p] = id;
    count(size, true);
    write(fmt::format("m {} {}\n", id, size));
  }

  // A recorded buffer keeps its id however it moves. A realloc of a buffer the server
  // did not allocate, inside the window, hands the server a new buffer: an "m".
  void on_realloc(uintptr_t old, uintptr_t now, uint64_t size) {
    if (!out_) return;
    const auto it = ids_.find(old);
    if (it == ids_.end()) {
      if (recording) ++adopted_;
      return on_malloc(now, size);
    }
    const uint64_t id = it->second;
    ids_.erase(it);
    ids_[now] = id;
    if (!recording) ++outside_;
    count(size, false);
    write(fmt::format("r {} {}\n", id, size));
  }

  // Frees of recorded buffers are written wherever they happen, because the buffer is
  // the server's; frees of anything else (setup, the client) are not the server's.
  void on_free(uintptr_t p) {
    if (!out_) return;
    const auto it = ids_.find(p);
    if (it == ids_.end()) return;
    if (!recording) ++outside_;
    ++stats_[kind_].frees;
    write(fmt::format("f {}\n", it->second));
    ids_.erase(it);
  }

  // Writes the trailer and stops recording, so that cleanup does not reach the trace.
  void finish() {
    std::vector<uint64_t> live;
    for (const auto& [p, id] : ids_) live.push_back(id);
    std::sort(live.begin(), live.end());
    if (!live.empty()) {
      std::string text = "live-ids:";
      for (uint64_t id : live) text += fmt::format(" {}", id);
      comment(text);
    }
    comment(fmt::format("live: {}", live.size()));
    live_ = live.size();
    out_ = nullptr;
  }

  const KindStats& stats(Kind k) const { return stats_[k]; }
  uint64_t live() const { return live_; }
  uint64_t outside() const { return outside_; }
  uint64_t adopted() const { return adopted_; }

 private:
  // The size classes describe what mallocs ask for; a realloc only counts towards bytes.
  void count(uint64_t size, bool malloc) {
    KindStats& s = stats_[kind_];
    ++(malloc ? s.mallocs : s.reallocs);
    s.bytes += size;
    s.largest = std::max(s.largest, size);
    if (malloc) ++s.classes[size_class(size)];
  }

  void write(const std::string& line) {
    if (out_) std::fwrite(line.data(), 1, line.size(), out_);
  }

  std::FILE* out_ = nullptr;
  Kind kind_ = kHandshake;
  uint64_t next_id_ = 1;
  std::unordered_map<uintptr_t, uint64_t> ids_;  // addresses as numbers: an old one may be freed
  std::array<KindStats, kKinds> stats_{};
  uint64_t live_ = 0, outside_ = 0, adopted_ = 0;
};

Trace g_trace;

// OpenSSL's own CRYPTO_malloc returns NULL for 0 bytes without allocating; keep that.
void* hook_malloc(size_t size, const char*, int) {
  if (size == 0) return nullptr;
  void* p = std::malloc(size);
  if (p) g_trace.on_malloc(reinterpret_cast<uintptr_t>(p), size);
  return p;
}

void hook_free(void* p, const char*, int) {
  if (!p) return;
  // Looked up before free(), while the address still names this buffer.
  g_trace.on_free(reinterpret_cast<uintptr_t>(p));
  std::free(p);
}

void* hook_realloc(void* p, size_t size, const char* file, int line) {
  if (!p) return hook_malloc(size, file, line);
  if (size == 0) {
    hook_free(p, file, line);
    return nullptr;
  }
  const auto old = reinterpret_cast<uintptr_t>(p);
  void* now = std::realloc(p, size);
  if (now) g_trace.on_realloc(old, reinterpret_cast<uintptr_t>(now), size);
  return now;
}

// Opens the recording window for the duration of one call into the server.
class ServerWindow {
 public:
  explicit ServerWindow(bool server) : server_(server) {
    if (server_) g_trace.recording = true;
  }
  ~ServerWindow() {
    if (server_) g_trace.recording = false;
  }
  ServerWindow(const ServerWindow&) = delete;
  ServerWindow& operator=(const ServerWindow&) = delete;

 private:
  bool server_;
};

// ---------------------------------------------------------------------------------------
// OpenSSL setup (not recorded): contexts and an in-process self-signed certificate.

std::string g_out_path;  // removed on failure, so that no half trace is left behind

[[noreturn]] void openssl_fail(std::string_view what) {
  g_trace.recording = false;
  fmt::print(stderr, "tls_trace: {} failed\n", what);
  ERR_print_errors_fp(stderr);
  if (!g_out_path.empty()) std::remove(g_out_path.c_str());
  std::exit(1);
}

template <class T>
T* check(T* p, std::string_view what) {
  if (!p) openssl_fail(what);
  return p;
}

void check(int ok, std::string_view what) {
  if (ok <= 0) openssl_fail(what);
}

constexpr const char* kCommonName = "tpfemu-tls-trace";

X509* self_signed(EVP_PKEY* key) {
  X509* cert = check(X509_new(), "X509_new");
  check(X509_set_version(cert, X509_VERSION_3), "X509_set_version");
  check(ASN1_INTEGER_set(X509_get_serialNumber(cert), 1), "ASN1_INTEGER_set");
  check(X509_gmtime_adj(X509_getm_notBefore(cert), -3600), "X509_gmtime_adj");  // tolerate clock skew
  check(X509_gmtime_adj(X509_getm_notAfter(cert), 7 * 24 * 3600), "X509_gmtime_adj");
  X509_NAME* name = X509_get_subject_name(cert);
  check(X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>(kCommonName),
                                   -1, -1, 0),
        "X509_NAME_add_entry_by_txt");
  check(X509_set_issuer_name(cert, name), "X509_set_issuer_name");
  check(X509_set_pubkey(cert, key), "X509_set_pubkey");
  check(X509_sign(cert, key, EVP_sha256()), "X509_sign");
  return cert;
}

SSL_CTX* tls13_context(const SSL_METHOD* method) {
  SSL_CTX* ctx = check(SSL_CTX_new(method), "SSL_CTX_new");
  check(SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION), "SSL_CTX_set_min_proto_version");
  check(SSL_CTX_set_max_proto_version(ctx, TLS1_3_VERSION), "SSL_CTX_set_max_proto_version");
  return ctx;
}

struct Contexts {
  SSL_CTX* server = nullptr;
  SSL_CTX* client = nullptr;
};

Contexts make_contexts() {
  EVP_PKEY* key = check(EVP_EC_gen("P-256"), "EVP_EC_gen(P-256)");
  X509* cert = self_signed(key);
  Contexts c{tls13_context(TLS_server_method()), tls13_context(TLS_client_method())};
  check(SSL_CTX_use_certificate(c.server, cert), "SSL_CTX_use_certificate");
  check(SSL_CTX_use_PrivateKey(c.server, key), "SSL_CTX_use_PrivateKey");
  check(SSL_CTX_check_private_key(c.server), "SSL_CTX_check_private_key");
  // The client trusts exactly this certificate, so the handshake is a verified one.
  check(X509_STORE_add_cert(SSL_CTX_get_cert_store(c.client), cert), "X509_STORE_add_cert");
  SSL_CTX_set_verify(c.client, SSL_VERIFY_PEER, nullptr);
  X509_free(cert);
  EVP_PKEY_free(key);
  return c;
}

// ---------------------------------------------------------------------------------------
// Driving the two ends: non-blocking steps, alternated until both are done.

struct Endpoint {
  SSL* ssl = nullptr;
  BIO* bio = nullptr;  // our end of the pair, owned by ssl
  bool server = false;
};

// A step returns true when its operation is complete, false when it must wait for the peer.
using Step = std::function<bool(SSL*)>;

bool wait_or_fail(SSL* ssl, int ret, std::string_view what) {
  const int e = SSL_get_error(ssl, ret);
  if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE) return false;
  openssl_fail(fmt::format("{} (SSL_get_error {})", what, e));
}

bool drive(const Endpoint& ep, const Step& step) {
  ServerWindow window(ep.server);
  return step(ep.ssl);
}

uint64_t traffic(const Endpoint& ep) { return BIO_number_read(ep.bio) + BIO_number_written(ep.bio); }

// Alternates the steps, first a's, until both are done; no bytes moved and nothing
// finished in a round means both wait for each other.
void pump(std::string_view what, const Endpoint& a, const Step& step_a, const Endpoint& b, const Step& step_b) {
  bool done_a = false, done_b = false;
  while (!done_a || !done_b) {
    const uint64_t before = traffic(a) + traffic(b);
    const bool was_a = done_a, was_b = done_b;
    if (!done_a) done_a = drive(a, step_a);
    if (!done_b) done_b = drive(b, step_b);
    if (traffic(a) + traffic(b) == before && done_a == was_a && done_b == was_b)
      openssl_fail(fmt::format("{}: both ends wait for each other", what));
  }
}

bool handshake_step(SSL* ssl) {
  const int r = SSL_do_handshake(ssl);
  return r == 1 || wait_or_fail(ssl, r, "SSL_do_handshake");
}

// The first SSL_shutdown sends close_notify (returns 0); a later one sees the peer's (1).
bool shutdown_step(SSL* ssl) {
  const int r = SSL_shutdown(ssl);
  if (r == 1) return true;
  return r == 0 ? false : wait_or_fail(ssl, r, "SSL_shutdown");
}

Step write_step(const std::string& data) {
  return [&data](SSL* ssl) {
    const int n = SSL_write(ssl, data.data(), static_cast<int>(data.size()));
    return n > 0 || wait_or_fail(ssl, n, "SSL_write");
  };
}

// Reads until `into` is full; records may arrive in pieces.
Step read_step(std::string& into, size_t& got) {
  return [&into, &got](SSL* ssl) {
    while (got < into.size()) {
      const int n = SSL_read(ssl, into.data() + got, static_cast<int>(into.size() - got));
      if (n <= 0) return wait_or_fail(ssl, n, "SSL_read");
      got += static_cast<size_t>(n);
    }
    return true;
  };
}

// ---------------------------------------------------------------------------------------
// One connection: handshake, N request/echo exchanges, close.

constexpr size_t kPairBuffer = 64 * 1024;  // holds a few full records each way

std::pair<Endpoint, Endpoint> connect(const Contexts& ctx, const Options& o) {
  Endpoint client{check(SSL_new(ctx.client), "SSL_new(client)"), nullptr, false};
  Endpoint server{nullptr, nullptr, true};
  check(BIO_new_bio_pair(&client.bio, kPairBuffer, &server.bio, kPairBuffer), "BIO_new_bio_pair");
  SSL_set_bio(client.ssl, client.bio, client.bio);
  SSL_set_connect_state(client.ssl);
  ServerWindow window(true);  // SSL_new(server) is part of the handshake's allocations
  server.ssl = check(SSL_new(ctx.server), "SSL_new(server)");
  SSL_set_bio(server.ssl, server.bio, server.bio);
  SSL_set_accept_state(server.ssl);
  if (o.release_buffers) SSL_set_mode(server.ssl, SSL_MODE_RELEASE_BUFFERS);
  return {client, server};
}

std::string request_text(uint64_t size, uint64_t n) {
  std::string s(size, ' ');
  for (size_t i = 0; i < s.size(); ++i) s[i] = static_cast<char>('a' + (i + n) % 26);
  return s;
}

// The client sends a request; the server reads it and echoes it back, same size.
void exchange(const Endpoint& client, const Endpoint& server, const std::string& request) {
  std::string at_server(request.size(), '\0'), at_client(request.size(), '\0');
  size_t server_got = 0, client_got = 0;
  pump("request", client, write_step(request), server, read_step(at_server, server_got));
  pump("reply", server, write_step(at_server), client, read_step(at_client, client_got));
  if (at_client != request) openssl_fail("echo (the reply differs from the request)");
}

void run_connection(const Contexts& ctx, const Options& o, uint64_t conn, std::string& negotiated) {
  g_trace.phase(kHandshake, conn);
  auto [client, server] = connect(ctx, o);
  pump("handshake", client, handshake_step, server, handshake_step);
  // Asked of the client: calls on the server outside the window would go unrecorded.
  const char* group = SSL_group_to_name(client.ssl, SSL_get_negotiated_group(client.ssl));
  negotiated = fmt::format("{}, group {}", SSL_get_cipher_name(client.ssl), group ? group : "?");
  for (uint64_t n = 1; n <= o.messages; ++n) {
    g_trace.phase(kMessage, conn, n);
    exchange(client, server, request_text(o.size, n));
  }
  g_trace.phase(kClose, conn);
  pump("shutdown", client, shutdown_step, server, shutdown_step);
  {
    ServerWindow window(true);
    SSL_free(server.ssl);
  }
  SSL_free(client.ssl);
}

// ---------------------------------------------------------------------------------------
// Summary (stderr)

double per(uint64_t count, uint64_t n) { return n ? double(count) / double(n) : 0.0; }

void print_summary(const Options& o, const std::string& negotiated) {
  const uint64_t divisors[kKinds] = {o.connections, o.connections * o.messages, o.connections};
  const char* const labels[kKinds] = {"handshake (per connection)", "message (mean per message)",
                                      "close (per connection)"};
  fmt::print(stderr, "tls_trace: {}, {} connection(s), {} message(s) of {} bytes, {}, release buffers {}\n",
             OpenSSL_version(OPENSSL_VERSION), o.connections, o.messages, o.size, negotiated,
             o.release_buffers ? "on" : "off");
  fmt::print(stderr, "  {:<28} {:>9} {:>9} {:>9} {:>11}\n", "allocations", "malloc", "realloc", "free", "bytes");
  for (int k = 0; k < kKinds; ++k) {
    const KindStats& s = g_trace.stats(Kind(k));
    fmt::print(stderr, "  {:<28} {:>9.1f} {:>9.1f} {:>9.1f} {:>11.1f}\n", labels[k], per(s.mallocs, divisors[k]),
               per(s.reallocs, divisors[k]), per(s.frees, divisors[k]), per(s.bytes, divisors[k]));
  }
  fmt::print(stderr, "  {:<28}", "malloc sizes (all, total)");
  for (uint64_t limit : kClassLimits) fmt::print(stderr, " {:>6}", fmt::format("<={}", limit));
  fmt::print(stderr, " {:>6} {:>8}\n", "more", "largest");
  std::array<uint64_t, kClasses> all{};
  uint64_t largest = 0;
  for (int k = 0; k < kKinds; ++k) {
    const KindStats& s = g_trace.stats(Kind(k));
    fmt::print(stderr, "  {:<28}", kKindNames[k]);
    for (size_t c = 0; c < kClasses; ++c) {
      fmt::print(stderr, " {:>6}", s.classes[c]);
      all[c] += s.classes[c];
    }
    fmt::print(stderr, " {:>8}\n", s.largest);
    largest = std::max(largest, s.largest);
  }
  fmt::print(stderr, "  {:<28}", "all");
  for (uint64_t n : all) fmt::print(stderr, " {:>6}", n);
  fmt::print(stderr, " {:>8}\n", largest);
  fmt::print(stderr, "  largest allocation {} bytes; live at end {}\n", largest, g_trace.live());
  // Both should be 0; if not, the window or the hooks miss part of the server's work.
  fmt::print(stderr, "  frees/reallocs outside the server window {}; reallocs of unrecorded buffers inside it {}\n",
             g_trace.outside(), g_trace.adopted());
}

int make_trace(const Options& o) {
  std::FILE* out = stdout;
  if (!o.out.empty()) {
    out = std::fopen(o.out.c_str(), "w");
    if (!out) {
      fmt::print(stderr, "tls_trace: cannot write {}\n", o.out);
      return 1;
    }
    g_out_path = o.out;
  }
  const Contexts ctx = make_contexts();
  std::string negotiated;
  // Warm-up connections fill OpenSSL's process-wide caches (method and algorithm
  // fetches) once, so that the recorded connections are a long-running server's.
  for (uint64_t conn = 1; conn <= o.warmup; ++conn) run_connection(ctx, o, conn, negotiated);
  g_trace.start(out);
  g_trace.comment("tls_trace: heap allocations of an OpenSSL TLS 1.3 server (server side only)");
  g_trace.comment(fmt::format("openssl: {}", OpenSSL_version(OPENSSL_VERSION)));
  g_trace.comment(fmt::format("command: {}", o.command));
  g_trace.comment(fmt::format("options: connections={} messages={} size={} release-buffers={} warmup={}",
                              o.connections, o.messages, o.size, o.release_buffers ? "on" : "off", o.warmup));
  for (uint64_t conn = 1; conn <= o.connections; ++conn) run_connection(ctx, o, conn, negotiated);
  g_trace.comment(fmt::format("negotiated: {}", negotiated));
  g_trace.finish();
  SSL_CTX_free(ctx.server);
  SSL_CTX_free(ctx.client);
  const bool failed = std::ferror(out) != 0;
  if ((out != stdout ? std::fclose(out) : std::fflush(out)) != 0 || failed) {
    fmt::print(stderr, "tls_trace: error writing {}\n", o.out.empty() ? "stdout" : o.out);
    return 1;
  }
  if (o.summary) print_summary(o, negotiated);
  return 0;
}

// ---------------------------------------------------------------------------------------
// --check: the grammar of a trace file.

class Checker {
 public:
  // Returns an empty string when the line is well formed, else the problem.
  std::string line(uint64_t no, std::string_view text) {
    line_no_ = no;
    if (text.empty()) return "an empty line";
    if (ended_) return "a line after the final '#! live: N'";
    if (text.starts_with("#!")) return comment(text);
    const std::vector<std::string_view> f = fields(text);
    for (std::string_view field : f)
      if (field.empty()) return "an empty field (fields are separated by one space)";
    if (f[0] == "#") return phase(f);
    if (f[0] == "m" || f[0] == "r" || f[0] == "f") return event(f);
    return fmt::format("not an event, phase or '#!' comment: \"{}\"", text);
  }

  // Returns the problem with the file as a whole, if any.
  std::string end() const {
    if (!ended_) return "missing the final '#! live: N' line";
    return "";
  }

  uint64_t events() const { return events_; }

 private:
  enum State { kNone, kInHandshake, kInMessage, kInClose };

  static std::vector<std::string_view> fields(std::string_view text) {
    std::vector<std::string_view> f;
    size_t start = 0;
    for (size_t sp; (sp = text.find(' ', start)) != std::string_view::npos; start = sp + 1)
      f.push_back(text.substr(start, sp - start));
    f.push_back(text.substr(start));
    return f;
  }

  // Decimal, no sign, no leading zeros: the form the tool writes.
  static bool number(std::string_view text, uint64_t& v) {
    if (text.empty() || (text.size() > 1 && text[0] == '0')) return false;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    return ec == std::errc() && end == text.data() + text.size();
  }

  static bool keyed(std::string_view field, std::string_view key, uint64_t& v) {
    return field.starts_with(key) && field.size() > key.size() && field[key.size()] == '=' &&
           number(field.substr(key.size() + 1), v) && v > 0;
  }

  std::string comment(std::string_view text) {
    if (!text.starts_with("#! live: ")) return "";
    uint64_t n = 0;
    if (!number(text.substr(9), n)) return "'#! live:' needs a count";
    if (n != live_.size()) return fmt::format("'#! live: {}' but {} buffer(s) are live", n, live_.size());
    if (state_ == kNone) return "the trace has no phase lines";
    if (state_ != kInClose) return fmt::format("the trace ends in {}, not in a close phase", where());
    ended_ = true;
    return "";
  }

  std::string where() const {
    switch (state_) {
      case kNone: return "the start";
      case kInHandshake: return fmt::format("handshake conn={}", conn_);
      case kInMessage: return fmt::format("message conn={} msg={}", conn_, msg_);
      case kInClose: return fmt::format("close conn={}", conn_);
    }
    return "";
  }

  // Connections count from 1; each is handshake, messages 1, 2, ..., close.
  std::string phase(const std::vector<std::string_view>& f) {
    uint64_t conn = 0, msg = 0;
    if (f.size() < 3 || !keyed(f[2], "conn", conn)) return "a phase line needs conn=C (C from 1)";
    const std::string_view name = f[1];
    if (name == "message" && (f.size() != 4 || !keyed(f[3], "msg", msg)))
      return "a message phase needs conn=C msg=N (N from 1)";
    if (name != "message" && f.size() != 3) return fmt::format("{}: unexpected fields after conn=C", name);
    if (name == "handshake") {
      if (conn != conn_ + 1 || (state_ != kNone && state_ != kInClose))
        return fmt::format("handshake conn={} after {}", conn, where());
      state_ = kInHandshake;
      conn_ = conn;
      msg_ = 0;
    } else if (name == "message") {
      if (conn != conn_ || msg != msg_ + 1 || (state_ != kInHandshake && state_ != kInMessage))
        return fmt::format("message conn={} msg={} after {}", conn, msg, where());
      state_ = kInMessage;
      msg_ = msg;
    } else if (name == "close") {
      if (conn != conn_ || (state_ != kInHandshake && state_ != kInMessage))
        return fmt::format("close conn={} after {}", conn, where());
      state_ = kInClose;
    } else {
      return fmt::format("unknown phase \"{}\" (handshake, message, close)", name);
    }
    return "";
  }

  std::string event(const std::vector<std::string_view>& f) {
    const bool sized = f[0] != "f";
    if (f.size() != (sized ? 3u : 2u)) return fmt::format("'{}' takes {}", f[0], sized ? "ID SIZE" : "ID");
    uint64_t id = 0, size = 0;
    if (!number(f[1], id) || id == 0) return fmt::format("bad buffer id \"{}\"", f[1]);
    if (sized && (!number(f[2], size) || size == 0)) return fmt::format("bad size \"{}\"", f[2]);
    if (state_ == kNone) return "an event before the first phase line";
    ++events_;
    if (f[0] == "m") {
      if (id != next_id_) return fmt::format("m {}: expected the next id, {}", id, next_id_);
      ++next_id_;
      live_.insert(id);
      return "";
    }
    if (!live_.count(id)) {
      const auto it = freed_.find(id);
      if (it != freed_.end()) return fmt::format("{} {}: buffer {} was freed on line {}", f[0], id, id, it->second);
      return fmt::format("{} {}: buffer {} was never allocated", f[0], id, id);
    }
    if (f[0] == "f") {
      live_.erase(id);
      freed_[id] = line_no_;
    }
    return "";
  }

  State state_ = kNone;
  uint64_t conn_ = 0, msg_ = 0, next_id_ = 1, events_ = 0;
  std::set<uint64_t> live_;
  std::map<uint64_t, uint64_t> freed_;  // id -> line of its free
  bool ended_ = false;
  uint64_t line_no_ = 0;
};

int check_trace(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    fmt::print(stderr, "tls_trace: cannot read {}\n", path);
    return 1;
  }
  Checker checker;
  std::string text;
  uint64_t no = 0;
  while (std::getline(in, text)) {
    if (const std::string problem = checker.line(++no, text); !problem.empty()) {
      fmt::print(stderr, "{}:{}: {}\n", path, no, problem);
      return 1;
    }
  }
  if (const std::string problem = checker.end(); !problem.empty()) {
    fmt::print(stderr, "{}:{}: {}\n", path, no + 1, problem);
    return 1;
  }
  fmt::print("ok {} events\n", checker.events());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // Must precede every other OpenSSL call: OpenSSL refuses once it has allocated.
  if (!CRYPTO_set_mem_functions(hook_malloc, hook_realloc, hook_free)) {
    fmt::print(stderr, "tls_trace: CRYPTO_set_mem_functions refused (OpenSSL had already allocated)\n");
    return 1;
  }
  const Options o = parse_options(argc, argv);
  return o.check.empty() ? make_trace(o) : check_trace(o.check);
}
