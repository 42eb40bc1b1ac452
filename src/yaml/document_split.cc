#include "yaml/document_split.h"

#include <cstring>

#include "json/locator.h"

namespace tjr::yaml::input {
namespace {

bool IsAsciiSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

std::string_view TrimSpace(std::string_view s) {
  while (!s.empty() && IsAsciiSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsAsciiSpace(s.back())) s.remove_suffix(1);
  return s;
}

bool IsBlank(std::string_view s) { return TrimSpace(s).empty(); }

// Whether libyaml's reader accepts the code point.
bool IsAllowedCodePoint(char32_t c) {
  return c == 0x09 || c == 0x0A || c == 0x0D || (c >= 0x20 && c <= 0x7E) || c == 0x85 ||
         (c >= 0xA0 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD) ||
         (c >= 0x10000 && c <= 0x10FFFF);
}

Diagnostic CharacterError(std::string_view stream, std::size_t offset, const std::string* file,
                          std::uint32_t first_line, const char* message) {
  json::Locator locator(stream, file, first_line);
  return AsInputError(MakeError(locator.At(offset), "", message));
}

}  // namespace

bool LooksLikeJson(std::string_view text) {
  for (char c : text) {
    if (!IsAsciiSpace(c)) return c == '{';
  }
  return false;
}

Result<std::vector<Chunk>> SplitDocuments(std::string_view text, const std::string* file,
                                          std::uint32_t first_line) {
  std::vector<Chunk> chunks;
  std::size_t chunk_start = 0;
  std::uint32_t chunk_line = first_line;
  std::uint32_t line = first_line;
  std::size_t pos = 0;
  auto flush = [&](std::size_t end) {
    std::string_view body = text.substr(chunk_start, end - chunk_start);
    if (!IsBlank(body)) chunks.push_back(Chunk{body, chunk_line});
  };
  while (pos < text.size()) {
    const void* nl = std::memchr(text.data() + pos, '\n', text.size() - pos);
    const std::size_t line_end = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - text.data())
                                    : text.size();
    const std::size_t next = nl ? line_end + 1 : text.size();
    if (text.compare(pos, 3, "---") == 0 && line_end - pos >= 3) {
      const std::string_view rest = TrimSpace(text.substr(pos + 3, line_end - pos - 3));
      if (!rest.empty() && rest[0] != '#') {
        return AsInputError(MakeError(Location{file, line, 1}, "",
                                      "invalid Yaml document separator: " + std::string(rest)));
      }
      flush(pos);
      chunk_start = next;
      chunk_line = line + 1;
    }
    pos = next;
    ++line;
  }
  flush(text.size());
  return chunks;
}

bool SameDocumentsAsYaml(std::string_view text) {
  std::size_t pos = 0;
  while (pos < text.size()) {
    const char c = text[pos];
    if (c == '%') return false;
    if ((c == '-' || c == '.') && text.size() - pos >= 3 && text[pos + 1] == c &&
        text[pos + 2] == c) {
      if (c == '.') return false;
      // "---" must be followed by the end of the line or a blank to be a
      // YAML document marker; kubectl also cuts at "---#comment".
      if (text.size() - pos > 3) {
        const char after = text[pos + 3];
        if (after != '\n' && after != '\r' && after != ' ' && after != '\t') return false;
      }
    }
    const void* nl = std::memchr(text.data() + pos, '\n', text.size() - pos);
    if (nl == nullptr) break;
    pos = static_cast<std::size_t>(static_cast<const char*>(nl) - text.data()) + 1;
  }
  return true;
}

Status CheckCharacters(std::string_view chunk, std::string_view stream, const std::string* file,
                       std::uint32_t first_line) {
  const auto* s = reinterpret_cast<const unsigned char*>(chunk.data());
  const std::size_t n = chunk.size();
  const std::size_t base = static_cast<std::size_t>(chunk.data() - stream.data());
  std::size_t i = 0;
  while (i < n) {
    // Fast path: eight printable ASCII bytes at a time.
    if (i + 8 <= n) {
      std::uint64_t word;
      std::memcpy(&word, s + i, 8);
      constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
      constexpr std::uint64_t kHighs = 0x8080808080808080ULL;
      // No byte >= 0x80, none < 0x20, none == 0x7F.
      const std::uint64_t below_space = (word - kOnes * 0x20) & ~word & kHighs;
      const std::uint64_t del = ((word ^ (kOnes * 0x7F)) - kOnes) & ~(word ^ (kOnes * 0x7F)) & kHighs;
      if (((word & kHighs) | below_space | del) == 0) {
        i += 8;
        continue;
      }
    }
    const unsigned char c = s[i];
    if (c < 0x80) {
      if (c >= 0x20 ? c == 0x7F : (c != '\t' && c != '\n' && c != '\r')) {
        return CharacterError(stream, base + i, file, first_line, "control characters are not allowed");
      }
      ++i;
      continue;
    }
    // libyaml's UTF-8 decoder, with its error messages.
    std::size_t width = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (width == 0) return CharacterError(stream, base + i, file, first_line, "invalid leading UTF-8 octet");
    if (i + width > n) {
      return CharacterError(stream, base + i, file, first_line, "incomplete UTF-8 octet sequence");
    }
    char32_t value = width == 2 ? (c & 0x1F) : width == 3 ? (c & 0x0F) : (c & 0x07);
    for (std::size_t k = 1; k < width; ++k) {
      if ((s[i + k] & 0xC0) != 0x80) {
        return CharacterError(stream, base + i, file, first_line, "invalid trailing UTF-8 octet");
      }
      value = (value << 6) | (s[i + k] & 0x3F);
    }
    if (!(width == 1 || (width == 2 && value >= 0x80) || (width == 3 && value >= 0x800) ||
          (width == 4 && value >= 0x10000))) {
      return CharacterError(stream, base + i, file, first_line, "invalid length of a UTF-8 sequence");
    }
    if ((value >= 0xD800 && value <= 0xDFFF) || value > 0x10FFFF) {
      return CharacterError(stream, base + i, file, first_line, "invalid Unicode character");
    }
    if (!IsAllowedCodePoint(value)) {
      return CharacterError(stream, base + i, file, first_line, "control characters are not allowed");
    }
    i += width;
  }
  return Ok();
}

}  // namespace tjr::yaml::input
