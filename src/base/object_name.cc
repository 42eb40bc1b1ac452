#include "base/object_name.h"

namespace tjr {
namespace {

bool IsLowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

}  // namespace

bool MatchesDns1123Label(std::string_view name) {
  if (name.empty() || !IsLowerAlnum(name.front()) || !IsLowerAlnum(name.back())) return false;
  for (char c : name) {
    if (!IsLowerAlnum(c) && c != '-') return false;
  }
  return true;
}

bool MatchesDns1123Subdomain(std::string_view name) {
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = name.find('.', start);
    if (!MatchesDns1123Label(name.substr(start, dot == std::string_view::npos ? dot : dot - start))) return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

bool IsDns1123Label(std::string_view name) { return name.size() <= 63 && MatchesDns1123Label(name); }

bool IsDns1123Subdomain(std::string_view name) { return name.size() <= 253 && MatchesDns1123Subdomain(name); }

}  // namespace tjr
