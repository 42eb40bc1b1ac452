#include "gocompat/json_quote.h"

#include "gocompat/utf8.h"

namespace tjr::gocompat {
namespace {

constexpr char kHex[] = "0123456789abcdef";

// Bytes that encoding/json copies unchanged.
bool IsSafeAscii(unsigned char c) {
  return c >= 0x20 && c < 0x80 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&';
}

// How encoding/json writes the character at the start of non-empty `text`.
struct Piece {
  std::size_t size = 1;    // bytes of `text` it takes
  std::size_t length = 0;  // characters of its escape; 0 when copied as is
  char escape[6] = {};
};

Piece PieceAt(std::string_view text) {
  Piece piece;
  const auto set = [&piece](std::string_view escape) {
    piece.length = escape.size();
    for (std::size_t i = 0; i < escape.size(); ++i) piece.escape[i] = escape[i];
  };
  const auto c = static_cast<unsigned char>(text[0]);
  if (c < 0x80) {
    switch (c) {
      case '"': set("\\\""); break;
      case '\\': set("\\\\"); break;
      case '\b': set("\\b"); break;
      case '\f': set("\\f"); break;
      case '\n': set("\\n"); break;
      case '\r': set("\\r"); break;
      case '\t': set("\\t"); break;
      default:
        if (!IsSafeAscii(c)) {
          const char hex[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 0xF]};
          set(std::string_view(hex, 6));
        }
    }
    return piece;
  }
  const Rune rune = DecodeRune(text);
  piece.size = rune.size;
  if (IsInvalid(rune)) {
    set("\\ufffd");
  } else if (rune.value == 0x2028) {
    set("\\u2028");
  } else if (rune.value == 0x2029) {
    set("\\u2029");
  }
  return piece;
}

}  // namespace

void AppendJsonString(std::string_view value, std::string* out) {
  out->push_back('"');
  std::size_t start = 0;
  std::size_t i = 0;
  while (i < value.size()) {
    if (IsSafeAscii(static_cast<unsigned char>(value[i]))) {  // the common case, kept cheap
      ++i;
      continue;
    }
    const Piece piece = PieceAt(value.substr(i));
    if (piece.length > 0) {
      out->append(value.substr(start, i - start));
      out->append(piece.escape, piece.length);
      start = i + piece.size;
    }
    i += piece.size;
  }
  out->append(value.substr(start));
  out->push_back('"');
}

bool JsonStringHasEscapes(std::string_view value) {
  for (std::size_t i = 0; i < value.size();) {
    const Piece piece = PieceAt(value.substr(i));
    if (piece.length > 0) return true;
    i += piece.size;
  }
  return false;
}

std::size_t JsonStringChars(std::string_view value) {
  std::size_t chars = 0;
  for (std::size_t i = 0; i < value.size();) {
    const Piece piece = PieceAt(value.substr(i));
    chars += piece.length > 0 ? piece.length : 1;
    i += piece.size;
  }
  return chars;
}

}  // namespace tjr::gocompat
