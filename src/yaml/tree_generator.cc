#include "yaml/tree_generator.h"

#include <bit>
#include <cmath>
#include <iterator>
#include <limits>
#include <string_view>

#include "yaml/printable.h"
#include "yaml/resolve.h"

namespace tjr::yaml::testing {
namespace {

// Whole values that goyaml's resolver reads as something other than a
// string, or nearly so.
constexpr std::string_view kLookAlikes[] = {"",
                                            "1",
                                            "0",
                                            "-1",
                                            "+1",
                                            "0123",
                                            "09",
                                            "0x1F",
                                            "0X1f",
                                            "0o17",
                                            "0b101",
                                            "0b-1",
                                            "-0b11",
                                            "1e3",
                                            "1E+3",
                                            "1.5",
                                            ".5",
                                            "-.5",
                                            "+.5e2",
                                            "1_000",
                                            "1__0",
                                            "_1",
                                            "1.",
                                            "1e400",
                                            ".5_5",
                                            "1:20",
                                            "-1:30:00",
                                            "1:60",
                                            "1:2:3.5",
                                            "9223372036854775807",
                                            "9223372036854775808",
                                            "-9223372036854775808",
                                            "-9223372036854775809",
                                            "18446744073709551615",
                                            "18446744073709551616",
                                            "true",
                                            "True",
                                            "yes",
                                            "No",
                                            "on",
                                            "OFF",
                                            "y",
                                            "n",
                                            "~",
                                            "null",
                                            "NULL",
                                            "Null",
                                            "<<",
                                            ".inf",
                                            "-.Inf",
                                            "+.INF",
                                            ".nan",
                                            ".NaN",
                                            "2001-12-14",
                                            "2001-1-2",
                                            "2001-12-14t21:59:43.10-05:00",
                                            "2001-12-14T21:59:43Z",
                                            "2001-12-14  21:59:43,5",
                                            "2002-2-29",
                                            "2024-02-29",
                                            "2001-13-01",
                                            "2001-12-14T24:00:00Z",
                                            "---",
                                            "..."};

constexpr std::string_view kPieces[] = {"a",
                                        "foo",
                                        "bar",
                                        "nginx",
                                        "kube-system",
                                        "app.kubernetes.io/name",
                                        "x",
                                        "hello",
                                        "Z",
                                        "_",
                                        "10",
                                        "9",
                                        "0",
                                        "-",
                                        ".",
                                        "/",
                                        "=",
                                        "$(VAR)",
                                        " ",
                                        " ",
                                        " ",
                                        "  ",
                                        "\n",
                                        "\n",
                                        "\n\n",
                                        ":",
                                        ": ",
                                        "#",
                                        " #",
                                        "- ",
                                        "? ",
                                        ",",
                                        "[",
                                        "]",
                                        "{",
                                        "}",
                                        "&",
                                        "*",
                                        "!",
                                        "|",
                                        ">",
                                        "'",
                                        "\"",
                                        "%",
                                        "@",
                                        "`",
                                        "\\",
                                        "---",
                                        "...",
                                        "é",
                                        "中文",
                                        "\xF0\x9F\x98\x80",
                                        "\xC2\xA0",
                                        "\xEF\xBB\xBF",
                                        "\t",
                                        "\x1B",
                                        "\x07",
                                        std::string_view("\0", 1),
                                        "true",
                                        "1e3",
                                        "\xED\x9F\xBF",
                                        "\xEE\x80\x80"};

// Breaks only goyaml's YAML 1.1 scanner knows, and bytes kubectl refuses.
constexpr std::string_view kYaml11Breaks[] = {"\xC2\x85", "\xE2\x80\xA8", "\xE2\x80\xA9", "\r"};
constexpr std::string_view kUnprintable[] = {"\x7F", "\xC2\x86", "\xEF\xBF\xBE", "\xEF\xBF\xBF"};
constexpr std::string_view kInvalidUtf8[] = {"\xFF", "\xC3", "\xED\xA0\x80"};

constexpr std::string_view kKeys[] = {"name",
                                      "image",
                                      "args",
                                      "a10",
                                      "a9",
                                      "a-b",
                                      "a.b",
                                      "a_b",
                                      "aB",
                                      "Ab",
                                      "Z",
                                      "_",
                                      "z",
                                      "a",
                                      "1",
                                      "2",
                                      "10",
                                      "x1y",
                                      "x01y",
                                      "app.kubernetes.io/name",
                                      "key with space",
                                      "ä",
                                      "é1",
                                      "κ"};

constexpr std::string_view kWords[] = {
    "lorem", "ipsum",      "dolor", "sit", "amet", "--flag=value", "consectetur", "a",
    "bb",    "adipiscing", "elit",  "sed", "do",   "eiusmod",      "tempor",      "incididunt"};

}  // namespace

TreeGenerator::TreeGenerator(std::uint64_t seed, GeneratorOptions options)
    : state_(seed * 0x9E3779B97F4A7C15ULL + 0x2545F4914F6CDD1DULL), options_(options) {}

std::uint64_t TreeGenerator::Next() {
  // splitmix64
  std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

bool TreeGenerator::Acceptable(const std::string& s, bool key) const {
  if (key && !options_.merge_key && s == "<<") return false;
  if (!options_.kubectl_printable) return true;
  return key ? KubectlKeyProblem(s).empty() : KubectlStringProblem(s).empty();
}

std::string TreeGenerator::Piece() {
  if (options_.yaml11_line_breaks && OneIn(20))
    return std::string(kYaml11Breaks[Below(std::size(kYaml11Breaks))]);
  if (!options_.kubectl_printable && OneIn(30))
    return std::string(kUnprintable[Below(std::size(kUnprintable))]);
  if (options_.invalid_utf8 && OneIn(30))
    return std::string(kInvalidUtf8[Below(std::size(kInvalidUtf8))]);
  return std::string(kPieces[Below(std::size(kPieces))]);
}

std::string TreeGenerator::LongText() {
  std::string text;
  const std::size_t target = 40 + Below(200);
  const bool no_spaces = OneIn(4);
  while (text.size() < target) {
    if (!text.empty()) {
      if (no_spaces) {
        text += OneIn(3) ? "," : "";
      } else {
        text += OneIn(8) ? "  " : " ";
      }
    }
    text += kWords[Below(std::size(kWords))];
    if (OneIn(25)) text += '\n';
  }
  if (OneIn(5)) text += '\n';
  if (OneIn(8)) text.insert(0, " ");
  return text;
}

std::string TreeGenerator::String() {
  for (;;) {
    std::string s;
    switch (Below(10)) {
      case 0:
      case 1:
        s = kLookAlikes[Below(std::size(kLookAlikes))];
        break;
      case 2:
        s = LongText();
        break;
      default: {
        const std::size_t pieces = 1 + Below(6);
        for (std::size_t i = 0; i < pieces; ++i) s += Piece();
        break;
      }
    }
    if (Acceptable(s, /*key=*/false)) return s;
  }
}

std::string TreeGenerator::Key() {
  for (;;) {
    std::string key;
    switch (Below(8)) {
      case 0:
        key = String();
        break;
      case 1:
        key = kLookAlikes[Below(std::size(kLookAlikes))];
        break;
      case 2:
        key = std::string(kKeys[Below(std::size(kKeys))]) +
              std::string(kKeys[Below(std::size(kKeys))]);
        break;
      case 3:
        if (OneIn(4)) {
          key = std::string(120 + Below(20), 'k');  // around the simple-key limit
          if (OneIn(2)) key[60] = ' ';
          break;
        }
        [[fallthrough]];
      default:
        key = kKeys[Below(std::size(kKeys))];
        break;
    }
    if (Acceptable(key, /*key=*/true)) return key;
  }
}

std::int64_t TreeGenerator::Int() {
  switch (Below(5)) {
    case 0:
      return static_cast<std::int64_t>(Below(10));
    case 1:
      return -static_cast<std::int64_t>(Below(1000));
    case 2:
      return std::numeric_limits<std::int64_t>::max() - static_cast<std::int64_t>(Below(3));
    case 3:
      return std::numeric_limits<std::int64_t>::min() + static_cast<std::int64_t>(Below(3));
    default:
      return static_cast<std::int64_t>(Next());
  }
}

double TreeGenerator::Float() {
  for (;;) {
    const double value = AnyFloat();
    if (options_.integral_floats) return value;
    const std::string text = detail::FloatText(value);
    if (text.find_first_of(".e") != std::string::npos) return value;
  }
}

double TreeGenerator::AnyFloat() {
  static constexpr double kFloats[] = {
      0.5,  1e-6, 1e-7, 1e21,   1e20,    1.5e19, -0.0,   123456.789, 1234567.5, 1e300,  0.1,
      -2.5, 3.0,  1e15, 1.8e19, -9.3e18, 9.3e18, 1e-300, 5e-324,     100.25,    0.0001, 0.00001};
  if (OneIn(3)) {
    for (;;) {
      double value = std::bit_cast<double>(Next());
      if (std::isfinite(value)) return value;
    }
  }
  return kFloats[Below(std::size(kFloats))];
}

doc::Node TreeGenerator::Value(int depth) {
  const std::size_t kind = depth >= options_.max_depth ? Below(5) : Below(9);
  switch (kind) {
    case 0:
      return doc::Node::Null();
    case 1:
      return doc::Node::Bool(OneIn(2));
    case 2:
      return doc::Node::Int(Int());
    case 3:
      return doc::Node::Float(Float());
    case 4:
      return doc::Node::String(String());
    case 5:
    case 6: {
      doc::Node map = doc::Node::Mapping();
      const std::size_t n = OneIn(10) ? Below(30) : Below(6);
      for (std::size_t i = 0; i < n; ++i) map.Set(Key(), Value(depth + 1));
      return map;
    }
    default: {
      doc::Node seq = doc::Node::Sequence();
      const std::size_t n = Below(5);
      for (std::size_t i = 0; i < n; ++i) seq.push_back(Value(depth + 1));
      return seq;
    }
  }
}

doc::Node TreeGenerator::Tree() {
  doc::Node root = doc::Node::Mapping();
  const std::size_t n = 1 + Below(6);
  for (std::size_t i = 0; i < n; ++i) root.Set(Key(), Value(1));
  return root;
}

}  // namespace tjr::yaml::testing
