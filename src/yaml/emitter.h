#pragma once

#include <string>
#include <string_view>

namespace tjr::yaml::detail {

/// The output half of goyaml v2's emitter (emitterc.go): the column and
/// whitespace bookkeeping that decides line breaks and indentation, and the
/// four scalar writers with their folding at 80 columns. Tree walking (the
/// emitter's event state machine) lives in writer.cc.
class Emitter {
 public:
  static constexpr int kBestIndent = 2;
  static constexpr int kBestWidth = 80;

  explicit Emitter(std::string* out) : out_(out) {}

  int indent() const { return indent_; }
  void set_indent(int indent) { indent_ = indent; }
  /// True right after indentation or an indentation-preserving indicator
  /// ("- ", "? "); decides whether a sequence under a key is indented.
  bool indention() const { return indention_; }

  /// yaml_emitter_increase_indent (the caller saves and restores indent()).
  void IncreaseIndent(bool flow, bool indentless);
  /// Breaks the line unless already at the indentation, then pads to it.
  void WriteIndent();
  void WriteIndicator(std::string_view indicator, bool need_whitespace, bool is_whitespace,
                      bool is_indention);

  /// Scalars; `allow_breaks` is false for simple keys (no folding there).
  void WritePlain(std::string_view value, bool allow_breaks);
  void WriteSingleQuoted(std::string_view value, bool allow_breaks);
  void WriteDoubleQuoted(std::string_view value, bool allow_breaks);
  void WriteLiteral(std::string_view value);
  /// WritePlain of a word (printable ASCII, no spaces): nothing to fold or
  /// break, so it is one run of value.size() columns.
  void WritePlainWord(std::string_view value) {
    if (!whitespace_) Put(' ');
    out_->append(value);
    column_ += static_cast<int>(value.size());
    whitespace_ = false;
    indention_ = false;
  }

 private:
  void Put(char c) {
    out_->push_back(c);
    ++column_;
  }
  void PutBreak() {
    out_->push_back('\n');
    column_ = 0;
  }
  /// Copies the character at *i (one column), advancing *i.
  void WriteChar(std::string_view value, std::size_t* i);
  /// Copies the bytes [from, to) that hold no space or line break.
  void WriteRun(std::string_view value, std::size_t from, std::size_t to);
  /// A line break from the value: LF becomes a newline, the others are copied.
  void WriteBreak(std::string_view value, std::size_t* i);
  void WriteEscape(std::string_view value, std::size_t* i);

  std::string* out_;
  int indent_ = -1;
  int column_ = 0;
  bool whitespace_ = true;
  bool indention_ = true;
};

}  // namespace tjr::yaml::detail
