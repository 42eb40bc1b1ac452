#include "yaml/flow_context.h"

namespace tjr::yaml::input {
namespace {

bool IsBlankOrBreak(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

}  // namespace

std::optional<FlowPlainRefusal> CheckFlowPlainScalar(std::string_view text, std::size_t begin,
                                                     std::size_t end, char closer) {
  if (begin >= end || end > text.size()) return std::nullopt;
  const std::string_view raw = text.substr(begin, end - begin);
  if (raw.front() == ':') {
    // goyaml's own error for a value indicator with no key before it.
    return FlowPlainRefusal{begin, "did not find expected node content (in a flow collection a ':' that "
                                   "starts a value is an indicator to goyaml, which kubectl uses; quote "
                                   "the value)"};
  }
  if (raw.front() == '?') {
    return FlowPlainRefusal{begin, "a '?' that starts a value in a flow collection is an explicit key "
                                   "to goyaml, which kubectl uses, and text to libfyaml; write '? ' with "
                                   "a space for a key, or quote the value"};
  }
  if (const std::size_t mark = raw.find('?'); mark != std::string_view::npos) {
    return FlowPlainRefusal{begin + mark, std::string("did not find expected ',' or '") + closer +
                                              "' (goyaml, which kubectl uses, ends an unquoted value in a "
                                              "flow collection at a '?'; quote the value)"};
  }
  if (end + 1 < text.size() && text[end] == ':' && !IsBlankOrBreak(text[end + 1])) {
    return FlowPlainRefusal{end, "a ':' before '" + std::string(1, text[end + 1]) +
                                     "' in a flow collection is text to goyaml, which kubectl uses, "
                                     "and a key's end to libfyaml; quote the value, or put a space "
                                     "after the ':' for a key"};
  }
  return std::nullopt;
}

std::optional<FlowPlainRefusal> CheckTagEnd(std::string_view text, std::size_t tag_end) {
  if (tag_end >= text.size() || IsBlankOrBreak(text[tag_end])) return std::nullopt;
  return FlowPlainRefusal{tag_end, std::string("did not find expected whitespace or line break after a tag (goyaml, "
                                               "which kubectl uses, reads '") +
                                       text[tag_end] +
                                       "' as part of the tag or refuses it; libfyaml ends the tag there): put "
                                       "a space after the tag"};
}

}  // namespace tjr::yaml::input
