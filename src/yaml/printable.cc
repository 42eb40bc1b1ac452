#include "yaml/printable.h"

#include <cmath>
#include <string>

#include "base/field_path.h"
#include "gocompat/json_quote.h"
#include "gocompat/utf8.h"
#include "yaml/utf8_bytes.h"

namespace tjr::yaml {
namespace {

constexpr std::string_view kControl = "yaml: control characters are not allowed";
constexpr std::string_view kDocumentMarker = "yaml: found unexpected document indicator";
constexpr std::string_view kBrokenKey = "yaml: did not find expected ',' or '}'";
constexpr std::size_t kMaxKeyJsonChars = 1022;

// Characters goyaml's reader rejects that encoding/json does not escape.
bool RejectedByReader(char32_t c) {
  return c == 0x7F || (c >= 0x80 && c <= 0x9F && c != 0x85) || c == 0xFFFE || c == 0xFFFF;
}

// After a NEL, goyaml's scanner is at the start of a line, where "---" or
// "..." followed by a blank or a line break is a document marker. In the
// JSON text the only raw ones are a space and another NEL (encoding/json
// escapes the rest), and the closing quote follows the last character.
bool DocumentMarkerAt(std::string_view s, std::size_t i) {
  std::string_view rest = s.substr(i);
  if (!(rest.starts_with("---") || rest.starts_with("..."))) return false;
  rest.remove_prefix(3);
  return rest.starts_with(' ') || rest.starts_with("\xC2\x85");
}

std::string_view ProblemInValid(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t width = detail::CharWidth(c);
    const char32_t rune = detail::DecodeAt(s, i);
    if (RejectedByReader(rune)) return kControl;
    if (rune == 0x85 && DocumentMarkerAt(s, i + width)) return kDocumentMarker;
    i += width;
  }
  return {};
}

Status Check(const doc::Node& node, const FieldPath& path) {
  switch (node.kind()) {
    case doc::Kind::kFloat:
      if (std::isnan(node.float_value())) {
        return MakeError(node.location(), path.Upstream(), "json: unsupported value: NaN");
      }
      if (std::isinf(node.float_value())) {
        return MakeError(node.location(), path.Upstream(),
                         node.float_value() > 0 ? "json: unsupported value: +Inf"
                                                : "json: unsupported value: -Inf");
      }
      return Ok();
    case doc::Kind::kString:
      if (std::string_view problem = KubectlStringProblem(node.string_value()); !problem.empty()) {
        return MakeError(node.location(), path.Upstream(), std::string(problem));
      }
      return Ok();
    case doc::Kind::kSequence:
      for (std::size_t i = 0; i < node.size(); ++i) {
        Status status = Check(node[i], path.Index(i));
        if (!status.ok()) return status;
      }
      return Ok();
    case doc::Kind::kMapping:
      for (const doc::Field& field : node.fields()) {
        FieldPath child = path.Field(field.key);
        if (std::string_view problem = KubectlKeyProblem(field.key); !problem.empty()) {
          return MakeError(field.key_location, child.Upstream(), std::string(problem));
        }
        Status status = Check(field.value, child);
        if (!status.ok()) return status;
      }
      return Ok();
    default:
      return Ok();
  }
}

}  // namespace

std::string_view KubectlStringProblem(std::string_view s) {
  bool ascii = true;
  for (char c : s) {
    if (c == 0x7F) return kControl;
    if (static_cast<unsigned char>(c) >= 0x80) ascii = false;
  }
  if (ascii) return {};
  if (!gocompat::IsValidUtf8(s)) return ProblemInValid(gocompat::CoerceToValidUtf8(s));
  return ProblemInValid(s);
}

std::string_view KubectlKeyProblem(std::string_view key) {
  std::string_view problem = KubectlStringProblem(key);
  if (!problem.empty()) return problem;
  // A NEL stays raw in encoding/json's text and splits the key; replacing
  // invalid bytes never makes or breaks one.
  if (key.find("\xC2\x85") != std::string_view::npos) return kBrokenKey;
  // goyaml's scanner counts the characters of that text (an invalid byte is
  // the six characters \ufffd there).
  if (gocompat::JsonStringChars(key) > kMaxKeyJsonChars) return kBrokenKey;
  return {};
}

Status CheckKubectlPrintable(const doc::Node& root) { return Check(root, FieldPath()); }

}  // namespace tjr::yaml
