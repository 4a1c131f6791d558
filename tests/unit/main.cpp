#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdlib>

// unit_tests sits in build/tests/, not beside the guest images as tpfemu does, so it
// tells the path rule where they are (os/guest_dir.h), unless the caller already did.
int main(int argc, char* argv[]) {
  setenv("TPFEMU_GUEST_DIR", TPFEMU_GUEST_DIR, 0);
  return Catch::Session().run(argc, argv);
}
