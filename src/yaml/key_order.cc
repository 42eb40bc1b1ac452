#include "yaml/key_order.h"

#include <cstdint>

#include "yaml/unicode_class.h"
#include "yaml/utf8_bytes.h"

namespace tjr::yaml::detail {
namespace {

std::size_t PreviousCharStart(std::string_view s, std::size_t i) {
  do {
    --i;
  } while (i > 0 && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80);
  return i;
}

// Reads the run of digits starting at byte `i` the way goyaml does (each
// rune minus '0', wrapping in int64); returns the number of digit runes.
std::size_t DigitRun(std::string_view s, std::size_t i, std::uint64_t* number) {
  std::size_t count = 0;
  while (i < s.size()) {
    char32_t r = DecodeAt(s, i);
    if (!IsDigit(r)) break;
    *number = *number * 10 + static_cast<std::uint64_t>(static_cast<std::int64_t>(r) - '0');
    i += CharWidth(static_cast<unsigned char>(s[i]));
    ++count;
  }
  return count;
}

}  // namespace

bool GoyamlKeyLess(std::string_view a, std::string_view b) {
  // Equal runes are equal byte sequences, so find the first differing byte
  // and step back to the start of its character.
  std::size_t common = a.size() < b.size() ? a.size() : b.size();
  std::size_t i = 0;
  while (i < common && a[i] == b[i]) ++i;
  if (i == common) return a.size() < b.size();  // one is a prefix: fewer runes first
  while (i > 0 && (static_cast<unsigned char>(a[i]) & 0xC0) == 0x80) --i;

  const char32_t ra = DecodeAt(a, i);
  const char32_t rb = DecodeAt(b, i);
  const bool a_letter = IsLetter(ra);
  const bool b_letter = IsLetter(rb);
  if (a_letter && b_letter) return ra < rb;
  if (a_letter || b_letter) return b_letter;

  std::uint64_t an = 0;
  std::uint64_t bn = 0;
  if (ra == '0' || rb == '0') {
    // A zero inside a number that has a non-zero digit before it compares
    // as part of that number.
    for (std::size_t j = i; j > 0;) {
      j = PreviousCharStart(a, j);
      char32_t r = DecodeAt(a, j);
      if (!IsDigit(r)) break;
      if (r != '0') {
        an = 1;
        bn = 1;
        break;
      }
    }
  }
  const std::size_t a_digits = DigitRun(a, i, &an);
  const std::size_t b_digits = DigitRun(b, i, &bn);
  if (an != bn) return static_cast<std::int64_t>(an) < static_cast<std::int64_t>(bn);
  if (a_digits != b_digits) return a_digits < b_digits;
  return ra < rb;
}

void SortKeys(const std::vector<std::string_view>& keys, std::vector<std::size_t>* order,
              std::vector<std::size_t>* scratch) {
  std::vector<std::size_t>& v = *order;
  const std::size_t n = v.size();
  auto less = [&keys](std::size_t x, std::size_t y) { return GoyamlKeyLess(keys[x], keys[y]); };
  constexpr std::size_t kRun = 12;
  // Insertion sort on short runs, then bottom-up merges.
  for (std::size_t start = 0; start < n; start += kRun) {
    std::size_t end = start + kRun < n ? start + kRun : n;
    for (std::size_t k = start + 1; k < end; ++k) {
      std::size_t item = v[k];
      std::size_t j = k;
      while (j > start && less(item, v[j - 1])) {
        v[j] = v[j - 1];
        --j;
      }
      v[j] = item;
    }
  }
  if (n <= kRun) return;
  std::vector<std::size_t>& buffer = *scratch;
  buffer.resize(n);
  for (std::size_t width = kRun; width < n; width *= 2) {
    for (std::size_t left = 0; left < n; left += 2 * width) {
      std::size_t mid = left + width < n ? left + width : n;
      std::size_t right = left + 2 * width < n ? left + 2 * width : n;
      std::size_t x = left;
      std::size_t y = mid;
      std::size_t out = left;
      while (x < mid && y < right) buffer[out++] = less(v[y], v[x]) ? v[y++] : v[x++];
      while (x < mid) buffer[out++] = v[x++];
      while (y < right) buffer[out++] = v[y++];
    }
    v.swap(buffer);
  }
}

}  // namespace tjr::yaml::detail
