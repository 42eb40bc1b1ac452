#pragma once
// The most lines a reader could count in a file, for the targets that
// check every location lies inside its file (krm_items, target_pin,
// tree_loader).
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tjr::fuzz {

/// Every LF, a CR not before an LF, and the breaks YAML 1.1 adds (NEL, LS,
/// PS) end one line.
inline std::uint32_t MostLines(std::string_view bytes) {
  std::uint32_t lines = 1;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (bytes[i] == '\n' || (bytes[i] == '\r' && (i + 1 == bytes.size() || bytes[i + 1] != '\n')) ||
        bytes.substr(i).starts_with("\xC2\x85") || bytes.substr(i).starts_with("\xE2\x80\xA8") ||
        bytes.substr(i).starts_with("\xE2\x80\xA9")) {
      ++lines;
    }
  }
  return lines;
}

}  // namespace tjr::fuzz
