#pragma once

#include <cstdint>
#include <string>

#include "doc/node.h"

namespace tjr::yaml::testing {

/// Which strings the generator may produce.
struct GeneratorOptions {
  /// Only data `kubectl -o yaml` can print (see CheckKubectlPrintable).
  bool kubectl_printable = true;
  /// Allow NEL, LS, PS and CR: line breaks to goyaml's YAML 1.1 scanner but
  /// not to YAML 1.2 readers, and changed by the JSON round trip (NEL).
  bool yaml11_line_breaks = true;
  /// Allow invalid UTF-8 (kubectl prints each bad byte as U+FFFD).
  bool invalid_utf8 = false;
  /// Allow floats that kubectl prints as integers (3.0 as "3", -0.0 as "0",
  /// 1e18 as "1000000000000000000"), which read back as ints.
  bool integral_floats = true;
  /// Allow the key "<<", which goyaml writes plain and YAML readers then
  /// take for a merge key.
  bool merge_key = true;
  int max_depth = 5;
};

/// Seeded random trees that hit the YAML writer's decisions: quoting and
/// resolution look-alikes, indicators, folding lengths, literal blocks,
/// unicode and control characters, key-order edge cases, Go float formats.
/// Deterministic for a seed on every platform (no std distributions).
class TreeGenerator {
 public:
  explicit TreeGenerator(std::uint64_t seed, GeneratorOptions options = {});

  /// A mapping root.
  doc::Node Tree();
  doc::Node Value(int depth);
  std::string String();
  std::string Key();
  double Float();
  std::int64_t Int();

 private:
  std::uint64_t Next();
  std::size_t Below(std::size_t n) { return static_cast<std::size_t>(Next() % n); }
  bool OneIn(std::size_t n) { return Below(n) == 0; }
  std::string Piece();
  std::string LongText();
  double AnyFloat();
  bool Acceptable(const std::string& s, bool key) const;

  std::uint64_t state_;
  GeneratorOptions options_;
};

}  // namespace tjr::yaml::testing
