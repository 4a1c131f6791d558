// What STORE SYSTEM INFORMATION says of the configuration tpfemu's ipl runs in. The
// machine describes itself as QEMU and KVM describe theirs: configuration level 3, a
// virtual machine (SYSIB 3.2.2) in a logical partition (2.2.2) of a z15 (1.1.1). The
// virtual machine's name, UUID and control-program identifier are the user's to set
// (`tpfemu ipl --vm-name, --vm-uuid, --control-program`), as a hypervisor's guest has
// them from its hypervisor (QEMU's -name and -uuid; KVM's identifier is "KVM/Linux",
// z/VM's "z/VM"): an analyst running a test written for one hypervisor says which.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace emu {

struct VirtualMachineDescription {
  std::string name = "TPFEMU";             // 3.2.2's name field (8 bytes, EBCDIC)
  bool extended_name = false;              // also 3.2.2's extended name (UTF-8), as -name gives
  std::string control_program = "TPFEMU";  // the control-program identifier (16 bytes, EBCDIC)
  std::array<uint8_t, 16> uuid{};          // all zero: none given
};

// The EBCDIC (code page 037) byte of `ch`, for the characters SYSIB names hold: letters,
// digits, space and . - / _ ; 0 for any other.
uint8_t ebcdic_of(char ch);
// `text` in EBCDIC, padded with EBCDIC spaces (or cut) to `width` bytes.
void put_ebcdic(uint8_t* at, unsigned width, std::string_view text);
// The first character of `text` with no EBCDIC byte here, or npos.
size_t first_unencodable(std::string_view text);
// A UUID as 32 hexadecimal digits, with or without the usual dashes; false if it is not.
bool parse_uuid(std::string_view text, std::array<uint8_t, 16>& uuid);

}  // namespace emu
