#include "yaml/colon_key_mask.h"

namespace tjr::yaml::input {

std::vector<std::size_t> FindLineLeadingColons(std::string_view text) {
  std::vector<std::size_t> sites;
  std::size_t line = 0;
  while (line < text.size()) {
    std::size_t at = line;
    while (at < text.size() && text[at] == ' ') ++at;
    if (at + 1 < text.size() && text[at] == ':') {
      const char next = text[at + 1];
      if (next != ' ' && next != '\t' && next != '\n' && next != '\r') sites.push_back(at);
    }
    const std::size_t newline = text.find('\n', at);
    if (newline == std::string_view::npos) break;
    line = newline + 1;
  }
  return sites;
}

ColonMaskedText MaskColons(std::string_view text, const std::vector<std::size_t>& sites) {
  ColonMaskedText masked{std::string(text), sites};
  for (std::size_t site : sites) masked.text[site] = kColonMask;
  return masked;
}

bool ReadWithColonsMasked(std::string_view text, const MaskedRead& read) {
  std::vector<std::size_t> sites = FindLineLeadingColons(text);
  // Two reads at most: the second masks only what the first found to be
  // plain scalars' starts, and unmasking a byte inside a scalar leaves the
  // scalar where it was.
  for (int round = 0; round < 2 && !sites.empty(); ++round) {
    std::vector<std::size_t> starts;
    if (!read(MaskColons(text, sites), &starts)) return false;
    if (starts == sites) return true;
    sites = std::move(starts);
  }
  return false;
}

}  // namespace tjr::yaml::input
