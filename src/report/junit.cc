#include "report/junit.h"

#include "gocompat/utf8.h"

namespace tjr::report {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

struct CharSpan {
  std::size_t length;  // bytes of the sequence; 1 for a byte that starts none
  bool allowed;        // an XML 1.0 character
};

// The UTF-8 sequence at `text[i]` and whether XML 1.0 may carry it.
CharSpan NextChar(std::string_view text, std::size_t i) {
  const gocompat::Rune rune = gocompat::DecodeRune(text.substr(i));
  if (gocompat::IsInvalid(rune)) return {1, false};
  const char32_t c = rune.value;
  if (c < 0x80) return {1, c >= 0x20 || c == '\t' || c == '\n' || c == '\r'};
  // U+FFFE and U+FFFF are well-formed but not XML characters.
  return {rune.size, c != 0xFFFE && c != 0xFFFF};
}

std::string Escape(std::string_view text, bool attribute) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    CharSpan next = NextChar(text, i);
    if (!next.allowed) {
      out += kReplacement;
      i += next.length;
      continue;
    }
    if (next.length > 1) {
      out.append(text.substr(i, next.length));
      i += next.length;
      continue;
    }
    char c = text[i++];
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      case '\r': out += "&#13;"; break;
      case '\n': out += attribute ? "&#10;" : "\n"; break;
      case '\t': out += attribute ? "&#9;" : "\t"; break;
      default: out += c;
    }
  }
  return out;
}

std::string Counts(const std::vector<JunitCase>& cases) {
  std::size_t failures = 0;
  std::size_t errors = 0;
  std::size_t skipped = 0;
  for (const JunitCase& c : cases) {
    failures += c.status == JunitCase::Status::kFailed ? 1 : 0;
    errors += c.status == JunitCase::Status::kError ? 1 : 0;
    skipped += c.status == JunitCase::Status::kSkipped ? 1 : 0;
  }
  return "tests=\"" + std::to_string(cases.size()) + "\" failures=\"" + std::to_string(failures) +
         "\" errors=\"" + std::to_string(errors) + "\" skipped=\"" + std::to_string(skipped) +
         "\"";
}

}  // namespace

std::string XmlEscape(std::string_view text) { return Escape(text, /*attribute=*/false); }

std::string XmlEscapeAttribute(std::string_view text) { return Escape(text, /*attribute=*/true); }

std::string WriteJunit(std::string_view suite, const std::vector<JunitCase>& cases) {
  std::string counts = Counts(cases);
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<testsuites " + counts + ">\n";
  out += "  <testsuite name=\"" + XmlEscapeAttribute(suite) + "\" " + counts + ">\n";
  for (const JunitCase& c : cases) {
    out += "    <testcase name=\"" + XmlEscapeAttribute(c.name) + "\" classname=\"" +
           XmlEscapeAttribute(c.classname) + "\"";
    const char* element = nullptr;
    switch (c.status) {
      case JunitCase::Status::kPassed: break;
      case JunitCase::Status::kFailed: element = "failure"; break;
      case JunitCase::Status::kError: element = "error"; break;
      case JunitCase::Status::kSkipped: element = "skipped"; break;
    }
    if (element == nullptr) {
      out += "/>\n";
      continue;
    }
    out += ">\n      <" + std::string(element) + " message=\"" + XmlEscapeAttribute(c.message) +
           "\"";
    if (c.details.empty()) {
      out += "/>\n";
    } else {
      out += ">" + XmlEscape(c.details) + "</" + element + ">\n";
    }
    out += "    </testcase>\n";
  }
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

}  // namespace tjr::report
