#include "flyte/template_render.h"

#include <cctype>

namespace tjr::flyte {
namespace {

// RE2's \s: [\t\n\f\r ].
bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'; }

}  // namespace

std::string RenderTemplate(const std::string& text, const TemplateValues& values) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t open = text.find("{{", i);
    if (open == std::string::npos) break;
    std::size_t p = open + 2;
    while (p < text.size() && IsSpace(text[p])) ++p;
    bool matched = false;
    if (p < text.size() && (text[p] == '.' || text[p] == '$')) {
      std::size_t start = ++p;
      while (p < text.size() && (std::isalnum(static_cast<unsigned char>(text[p])) || text[p] == '_')) ++p;
      std::string name;
      for (std::size_t k = start; k < p; ++k) {
        name += static_cast<char>(std::tolower(static_cast<unsigned char>(text[k])));
      }
      while (p < text.size() && IsSpace(text[p])) ++p;
      if (p + 1 < text.size() && text[p] == '}' && text[p + 1] == '}') {
        auto value = values.find(name);
        if (value != values.end()) {
          out.append(text, i, open - i);
          out += value->second;
          i = p + 2;
          matched = true;
        }
      }
    }
    if (!matched) {
      out.append(text, i, open + 2 - i);
      i = open + 2;
    }
  }
  out.append(text, i, std::string::npos);
  return out;
}

}  // namespace tjr::flyte
