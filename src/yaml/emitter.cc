#include "yaml/emitter.h"

#include "yaml/utf8_bytes.h"

namespace tjr::yaml::detail {
namespace {

// Bytes that end a run of ordinary characters: a space or the first byte of
// a possible line break (LF, CR, NEL, LS, PS).
bool MayEndRun(unsigned char c) {
  return c == ' ' || c == '\n' || c == '\r' || c == 0xC2 || c == 0xE2;
}

// Where the run of ordinary bytes starting at `i` ends (always at the start
// of a character: continuation bytes never end a run).
std::size_t RunEnd(std::string_view value, std::size_t i) {
  const std::size_t size = value.size();
  while (i < size && !MayEndRun(static_cast<unsigned char>(value[i]))) ++i;
  return i;
}

// The escapes goyaml writes as a backslash and one letter.
struct ShortEscape {
  char32_t code;
  char letter;
};
constexpr ShortEscape kShortEscapes[] = {{0x00, '0'}, {0x07, 'a'},   {0x08, 'b'},  {0x09, 't'},
                                         {0x0A, 'n'}, {0x0B, 'v'},   {0x0C, 'f'},  {0x0D, 'r'},
                                         {0x1B, 'e'}, {0x22, '"'},   {0x5C, '\\'}, {0x85, 'N'},
                                         {0xA0, '_'}, {0x2028, 'L'}, {0x2029, 'P'}};

char HexDigit(unsigned value) {
  return static_cast<char>(value < 10 ? '0' + value : 'A' + value - 10);
}

}  // namespace

void Emitter::IncreaseIndent(bool flow, bool indentless) {
  if (indent_ < 0) {
    indent_ = flow ? kBestIndent : 0;
  } else if (!indentless) {
    indent_ += kBestIndent;
  }
}

void Emitter::WriteIndent() {
  const int indent = indent_ < 0 ? 0 : indent_;
  if (!indention_ || column_ > indent || (column_ == indent && !whitespace_)) PutBreak();
  if (column_ < indent) {
    out_->append(static_cast<std::size_t>(indent - column_), ' ');
    column_ = indent;
  }
  whitespace_ = true;
  indention_ = true;
}

void Emitter::WriteIndicator(std::string_view indicator, bool need_whitespace, bool is_whitespace,
                             bool is_indention) {
  if (need_whitespace && !whitespace_) Put(' ');
  out_->append(indicator);
  column_ += static_cast<int>(indicator.size());  // indicators are ASCII
  whitespace_ = is_whitespace;
  indention_ = indention_ && is_indention;
}

void Emitter::WriteChar(std::string_view value, std::size_t* i) {
  const std::size_t width = CharWidth(static_cast<unsigned char>(value[*i]));
  out_->append(value.substr(*i, width));
  ++column_;
  *i += width;
}

void Emitter::WriteRun(std::string_view value, std::size_t from, std::size_t to) {
  out_->append(value.substr(from, to - from));
  int columns = 0;
  for (std::size_t k = from; k < to; ++k) {
    columns += (static_cast<unsigned char>(value[k]) & 0xC0) != 0x80;
  }
  column_ += columns;
}

void Emitter::WriteBreak(std::string_view value, std::size_t* i) {
  if (value[*i] == '\n') {
    PutBreak();
    ++*i;
  } else {
    WriteChar(value, i);
    column_ = 0;
  }
}

void Emitter::WritePlain(std::string_view value, bool allow_breaks) {
  if (!whitespace_) Put(' ');
  bool spaces = false;
  bool breaks = false;
  const std::size_t size = value.size();
  std::size_t i = 0;
  while (i < size) {
    if (value[i] == ' ') {
      if (allow_breaks && !spaces && column_ > kBestWidth && !IsSpaceAt(value, i + 1)) {
        WriteIndent();
        ++i;
      } else {
        Put(' ');
        ++i;
      }
      spaces = true;
    } else if (IsBreakAt(value, i)) {
      if (!breaks && value[i] == '\n') PutBreak();
      WriteBreak(value, &i);
      indention_ = true;
      breaks = true;
    } else {
      if (breaks) WriteIndent();
      const std::size_t end = RunEnd(value, i + CharWidth(static_cast<unsigned char>(value[i])));
      WriteRun(value, i, end);
      i = end;
      indention_ = false;
      spaces = false;
      breaks = false;
    }
  }
  whitespace_ = false;
  indention_ = false;
}

void Emitter::WriteSingleQuoted(std::string_view value, bool allow_breaks) {
  WriteIndicator("'", true, false, false);
  bool spaces = false;
  bool breaks = false;
  const std::size_t size = value.size();
  std::size_t i = 0;
  while (i < size) {
    if (value[i] == ' ') {
      if (allow_breaks && !spaces && column_ > kBestWidth && i > 0 && i < size - 1 &&
          !IsSpaceAt(value, i + 1)) {
        WriteIndent();
        ++i;
      } else {
        Put(' ');
        ++i;
      }
      spaces = true;
    } else if (IsBreakAt(value, i)) {
      if (!breaks && value[i] == '\n') PutBreak();
      WriteBreak(value, &i);
      indention_ = true;
      breaks = true;
    } else {
      if (breaks) WriteIndent();
      if (value[i] == '\'') Put('\'');
      WriteChar(value, &i);
      indention_ = false;
      spaces = false;
      breaks = false;
    }
  }
  WriteIndicator("'", false, false, false);
  whitespace_ = false;
  indention_ = false;
}

void Emitter::WriteEscape(std::string_view value, std::size_t* i) {
  const char32_t v = DecodeAt(value, *i);
  *i += CharWidth(static_cast<unsigned char>(value[*i]));
  Put('\\');
  for (const ShortEscape& escape : kShortEscapes) {
    if (escape.code == v) {
      Put(escape.letter);
      return;
    }
  }
  int digits;
  if (v <= 0xFF) {
    Put('x');
    digits = 2;
  } else if (v <= 0xFFFF) {
    Put('u');
    digits = 4;
  } else {
    Put('U');
    digits = 8;
  }
  for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) {
    Put(HexDigit((v >> shift) & 0x0F));
  }
}

void Emitter::WriteDoubleQuoted(std::string_view value, bool allow_breaks) {
  WriteIndicator("\"", true, false, false);
  // goyaml tests for a byte order mark at the start of the value, not at the
  // current character: a value that starts with U+FEFF is escaped throughout.
  const bool starts_with_bom = value.starts_with("\xEF\xBB\xBF");
  bool spaces = false;
  const std::size_t size = value.size();
  std::size_t i = 0;
  while (i < size) {
    const char c = value[i];
    if (starts_with_bom || !IsPrintableAt(value, i) || IsBreakAt(value, i) || c == '"' ||
        c == '\\') {
      WriteEscape(value, &i);
      spaces = false;
    } else if (c == ' ') {
      if (allow_breaks && !spaces && column_ > kBestWidth && i > 0 && i < size - 1) {
        WriteIndent();
        if (IsSpaceAt(value, i + 1)) Put('\\');
        ++i;
      } else {
        Put(' ');
        ++i;
      }
      spaces = true;
    } else {
      WriteChar(value, &i);
      spaces = false;
    }
  }
  WriteIndicator("\"", false, false, false);
  whitespace_ = false;
  indention_ = false;
}

void Emitter::WriteLiteral(std::string_view value) {
  WriteIndicator("|", true, false, false);
  if (IsSpaceAt(value, 0) || IsBreakAt(value, 0)) {
    const char hint[] = {static_cast<char>('0' + kBestIndent)};
    WriteIndicator(std::string_view(hint, 1), false, false, false);
  }
  // Chomping: '-' without a final line break, '+' with two or more (or a
  // value that is only a line break), none for exactly one.
  char chomp = 0;
  if (value.empty()) {
    chomp = '-';
  } else {
    std::size_t i = value.size() - 1;
    while ((static_cast<unsigned char>(value[i]) & 0xC0) == 0x80) --i;
    if (!IsBreakAt(value, i)) {
      chomp = '-';
    } else if (i == 0) {
      chomp = '+';
    } else {
      --i;
      while ((static_cast<unsigned char>(value[i]) & 0xC0) == 0x80) --i;
      if (IsBreakAt(value, i)) chomp = '+';
    }
  }
  if (chomp != 0) WriteIndicator(std::string_view(&chomp, 1), false, false, false);
  PutBreak();
  indention_ = true;
  whitespace_ = true;
  bool breaks = true;
  const std::size_t size = value.size();
  std::size_t i = 0;
  while (i < size) {
    if (IsBreakAt(value, i)) {
      WriteBreak(value, &i);
      indention_ = true;
      breaks = true;
    } else {
      if (breaks) WriteIndent();
      const std::size_t end = RunEnd(value, i + CharWidth(static_cast<unsigned char>(value[i])));
      WriteRun(value, i, end);
      i = end;
      indention_ = false;
      breaks = false;
    }
  }
}

}  // namespace tjr::yaml::detail
