#include "gocompat/type_name.h"

namespace tjr::gocompat {

std::string GoTypeString(std::string_view qualified_name) {
  std::string out;
  std::size_t i = 0;
  while (i < qualified_name.size()) {
    char c = qualified_name[i];
    if (c == '[' || c == ']' || c == '*') {
      out += c;
      ++i;
      continue;
    }
    std::size_t end = qualified_name.find_first_of("[]*", i);
    if (end == std::string_view::npos) end = qualified_name.size();
    std::string_view token = qualified_name.substr(i, end - i);
    std::size_t slash = token.rfind('/');
    out += slash == std::string_view::npos ? token : token.substr(slash + 1);
    i = end;
  }
  return out;
}

std::string_view GoTypeName(std::string_view qualified_name) {
  std::size_t slash = qualified_name.rfind('/');
  std::size_t from = slash == std::string_view::npos ? 0 : slash + 1;
  std::size_t dot = qualified_name.find('.', from);
  return dot == std::string_view::npos ? qualified_name.substr(from)
                                       : qualified_name.substr(dot + 1);
}

}  // namespace tjr::gocompat
