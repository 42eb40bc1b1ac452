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

std::size_t OffsetOfMark(std::string_view text, std::size_t line, std::size_t column) {
  std::size_t at = 0;
  for (std::size_t row = 1; row < line && at < text.size(); ++row) {
    const std::size_t newline = text.find('\n', at);
    if (newline == std::string_view::npos) return text.size();
    at = newline + 1;
  }
  // Columns count characters: skip UTF-8 continuation bytes.
  for (std::size_t col = 1; col < column && at < text.size() && text[at] != '\n'; ++col) {
    ++at;
    while (at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80) ++at;
  }
  return at;
}

bool RefusalIsAColonLine(std::string_view text, std::size_t scalar_begin) {
  bool line_start = false;  // only spaces since the last line break
  for (std::size_t at = scalar_begin; at < text.size(); ++at) {
    const char c = text[at];
    if (c == '\n') {
      line_start = true;
      continue;
    }
    if (c == ' ') continue;
    if (c == '#' && at > scalar_begin && (text[at - 1] == ' ' || text[at - 1] == '\t')) {
      // A comment ends the scalar's line.
      const std::size_t newline = text.find('\n', at);
      if (newline == std::string_view::npos) return false;
      at = newline - 1;
      continue;
    }
    if (c == ':') {
      const bool before_blank = at + 1 == text.size() || text[at + 1] == ' ' || text[at + 1] == '\t' ||
                                text[at + 1] == '\n' || text[at + 1] == '\r';
      if (line_start) return true;
      if (before_blank) return false;
    }
    line_start = false;
  }
  return false;
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
