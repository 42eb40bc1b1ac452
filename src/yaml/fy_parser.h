#pragma once

// The libfyaml parser set up as both readers need it (reader.cc for values,
// reader_spans.cc for byte spans). Included only by the libfyaml adapter.

#include <libfyaml.h>

#include <memory>
#include <string_view>

namespace tjr::yaml::input {

struct FyDiagDeleter {
  void operator()(fy_diag* diag) const { fy_diag_destroy(diag); }
};
struct FyParserDeleter {
  void operator()(fy_parser* parser) const { fy_parser_destroy(parser); }
};

/// An event parser over one text and the diagnostics object that collects
/// its errors (libfyaml would otherwise print them to stderr).
struct FyParser {
  std::unique_ptr<fy_diag, FyDiagDeleter> diag;
  std::unique_ptr<fy_parser, FyParserDeleter> parser;
};

/// A parser over `text` (which must outlive it), configured as Kubernetes
/// reads YAML: quiet, no JSON mode, duplicate keys passed through to our
/// own check, sloppy flow indentation accepted as goyaml does. On failure,
/// `*failure` names what libfyaml refused and the result is empty.
FyParser OpenFyParser(std::string_view text, const char** failure);

}  // namespace tjr::yaml::input
