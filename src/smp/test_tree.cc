#include "smp/test_tree.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <regex>

#include "doc/number_format.h"
#include "gocompat/utf8.h"

namespace tjr::smp::testing {
namespace {

class Parser {
 public:
  Parser(std::string_view text, std::string_view source)
      : text_(text), source_(InternSourceName(source)) {}

  Result<doc::Node> Document() {
    Result<doc::Node> value = Value();
    if (!value) return value;
    SkipSpace();
    if (pos_ < text_.size()) return Error("trailing text");
    return value;
  }

 private:
  Location Here() const { return Location{source_, line_, column_}; }

  Diagnostic Error(std::string message) const {
    return MakeError(Here(), "", "flow parse error: " + std::move(message));
  }

  void Advance() {
    if (text_[pos_] == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
    ++pos_;
  }

  void SkipSpace() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        Advance();
      } else if (c == '#') {
        while (pos_ < text_.size() && text_[pos_] != '\n') Advance();
      } else {
        return;
      }
    }
  }

  bool Peek(char c) {
    SkipSpace();
    return pos_ < text_.size() && text_[pos_] == c;
  }

  Result<doc::Node> Value() {
    SkipSpace();
    if (pos_ >= text_.size()) return Error("unexpected end");
    const char c = text_[pos_];
    if (c == '{') return Mapping();
    if (c == '[') return Sequence();
    if (c == '"' || c == '\'') {
      const Location at = Here();
      Result<std::string> text = Quoted();
      if (!text) return text.take_error();
      return doc::Node::String(std::move(text).value(), at);
    }
    return Plain();
  }

  Result<doc::Node> Mapping() {
    doc::Node map = doc::Node::Mapping(Here());
    Advance();
    while (!Peek('}')) {
      SkipSpace();
      const Location key_at = Here();
      std::string key;
      if (pos_ < text_.size() && (text_[pos_] == '"' || text_[pos_] == '\'')) {
        Result<std::string> quoted = Quoted();
        if (!quoted) return quoted.take_error();
        key = std::move(quoted).value();
      } else {
        key = PlainText();
        if (key.empty()) return Error("expected a key");
      }
      if (!Peek(':')) return Error("expected ':' after key " + key);
      Advance();
      Result<doc::Node> value = Value();
      if (!value) return value;
      if (map.Find(key) != nullptr) return Error("duplicate key " + key);
      map.Set(key, std::move(value).value(), key_at);
      if (Peek(',')) {
        Advance();
      } else if (!Peek('}')) {
        return Error("expected ',' or '}'");
      }
    }
    Advance();
    return map;
  }

  Result<doc::Node> Sequence() {
    doc::Node list = doc::Node::Sequence(Here());
    Advance();
    while (!Peek(']')) {
      Result<doc::Node> value = Value();
      if (!value) return value;
      list.push_back(std::move(value).value());
      if (Peek(',')) {
        Advance();
      } else if (!Peek(']')) {
        return Error("expected ',' or ']'");
      }
    }
    Advance();
    return list;
  }

  Result<std::string> Quoted() {
    const char quote = text_[pos_];
    Advance();
    std::string out;
    while (true) {
      if (pos_ >= text_.size()) return Error("unterminated string");
      const char c = text_[pos_];
      if (c == quote) {
        Advance();
        if (quote == '\'' && pos_ < text_.size() && text_[pos_] == '\'') {
          out += '\'';
          Advance();
          continue;
        }
        return out;
      }
      if (c == '\\' && quote == '"') {
        Advance();
        if (pos_ >= text_.size()) return Error("unterminated escape");
        const char e = text_[pos_];
        switch (e) {
          case 'n': out += '\n'; break;
          case 't': out += '\t'; break;
          case 'r': out += '\r'; break;
          case 'b': out += '\b'; break;
          case 'f': out += '\f'; break;
          case 'u': {
            if (pos_ + 4 >= text_.size()) return Error("short \\u escape");
            const unsigned long code =
                std::strtoul(std::string(text_.substr(pos_ + 1, 4)).c_str(), nullptr, 16);
            for (int i = 0; i < 4; ++i) Advance();
            gocompat::AppendUtf8(static_cast<char32_t>(code), &out);
            break;
          }
          default: out += e; break;
        }
        Advance();
        continue;
      }
      out += c;
      Advance();
    }
  }

  // A plain scalar ends at a flow indicator, or at ':' followed by a space,
  // a flow indicator or the end.
  std::string PlainText() {
    const std::size_t start = pos_;
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == ',' || c == '[' || c == ']' || c == '{' || c == '}' || c == '\n' || c == '#') break;
      if (c == ':') {
        const char next = pos_ + 1 < text_.size() ? text_[pos_ + 1] : ' ';
        if (next == ' ' || next == '\n' || next == ',' || next == '}' || next == ']') break;
      }
      Advance();
    }
    std::string_view raw = text_.substr(start, pos_ - start);
    while (!raw.empty() && (raw.back() == ' ' || raw.back() == '\t')) raw.remove_suffix(1);
    return std::string(raw);
  }

  Result<doc::Node> Plain() {
    const Location at = Here();
    const std::string text = PlainText();
    if (text.empty()) return Error("expected a value");
    if (text == "null" || text == "~") return doc::Node::Null(at);
    if (text == "true") return doc::Node::Bool(true, at);
    if (text == "false") return doc::Node::Bool(false, at);
    static const std::regex kInt("[-+]?[0-9]+");
    static const std::regex kFloat("[-+]?([0-9]+\\.[0-9]*|\\.[0-9]+|[0-9]+)([eE][-+]?[0-9]+)?");
    if (std::regex_match(text, kInt)) {
      errno = 0;
      const long long value = std::strtoll(text.c_str(), nullptr, 10);
      if (errno == 0) return doc::Node::Int(value, at, text);
      return doc::Node::Float(std::strtod(text.c_str(), nullptr), at, text);
    }
    if (std::regex_match(text, kFloat)) {
      return doc::Node::Float(std::strtod(text.c_str(), nullptr), at, text);
    }
    return doc::Node::String(text, at);
  }

  std::string_view text_;
  const std::string* source_;
  std::size_t pos_ = 0;
  std::uint32_t line_ = 1;
  std::uint32_t column_ = 1;
};

void Render(const doc::Node& node, std::string& out) {
  switch (node.kind()) {
    case doc::Kind::kNull: out += "null"; return;
    case doc::Kind::kBool: out += node.bool_value() ? "true" : "false"; return;
    case doc::Kind::kInt: out += std::to_string(node.int_value()); return;
    case doc::Kind::kFloat: out += doc::FormatFloatShortestG(node.float_value()) + "f"; return;
    case doc::Kind::kString: {
      out += '"';
      for (char c : node.string_value()) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
      }
      out += '"';
      return;
    }
    case doc::Kind::kSequence: {
      out += '[';
      for (std::size_t i = 0; i < node.size(); ++i) {
        if (i > 0) out += ", ";
        Render(node[i], out);
      }
      out += ']';
      return;
    }
    case doc::Kind::kMapping: {
      out += '{';
      bool first = true;
      for (const doc::Field& field : node.fields()) {
        if (!first) out += ", ";
        first = false;
        out += field.key + ": ";
        Render(field.value, out);
      }
      out += '}';
      return;
    }
  }
}

}  // namespace

Result<doc::Node> ParseFlow(std::string_view text, std::string_view source_name) {
  return Parser(text, source_name).Document();
}

doc::Node Flow(std::string_view text, std::string_view source_name) {
  Result<doc::Node> parsed = ParseFlow(text, source_name);
  if (!parsed) {
    std::fprintf(stderr, "bad flow literal: %s\n%.*s\n", parsed.error().ToString().c_str(),
                 static_cast<int>(text.size()), text.data());
    std::abort();
  }
  return std::move(parsed).value();
}

std::string ToFlow(const doc::Node& node) {
  std::string out;
  Render(node, out);
  return out;
}

}  // namespace tjr::smp::testing
