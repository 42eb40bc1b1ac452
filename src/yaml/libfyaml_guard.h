#pragma once

// Inputs that crash libfyaml 0.7.12, found before it reads them.

#include <cstddef>
#include <optional>
#include <string_view>

namespace tjr::yaml::input {

/// An explicit key (`? `, at a line's start or after block entries `- `)
/// whose content (on its line or the next) is a block mapping with a tab before a value that starts
/// with `>`, `|`, `?`, `:` or `- ` (`? a:<TAB>>`): libfyaml 0.7.12 corrupts
/// its indentation stack on it and then crashes (SIGSEGV in
/// fy_parser_destroy; fuzz/corpus/yaml_reader/libfyaml-explicit-key-tab-*). An exhaustive run over
/// the short texts of `?`, `:`, blanks, `a`, `>`, `|`, `-`, `[`, `{`, `]`, quotes,
/// `#`, `,` and line breaks (up to 6 bytes; up to 7 over a smaller set) found
/// no crash this misses.
/// kubectl refuses every such text, since the key is a mapping (or a
/// sequence of them: goyaml's "invalid map key"). Returns where tjrender
/// reports that error, or nothing.
struct ExplicitKeyCrash {
  std::size_t at = 0;     ///< byte offset of the key's first node
  bool sequence = false;  ///< the key is a block sequence (`? - a:...`)
};
std::optional<ExplicitKeyCrash> FindExplicitKeyTabCrash(std::string_view text);

/// The wider net behind FindExplicitKeyTabCrash, which the fuzzers keep
/// finding new shapes past (a comment after the key, a key continued on
/// the next line, ...): every crash found so far needs both an explicit
/// key indicator (`?` then a blank or a line break) and a `:` whose
/// separating blanks hold a tab before `>`, `|`, `?`, `:` or `-`. A
/// document with both anywhere is refused; real manifests have neither,
/// kubectl refuses most such texts, and the way out is to write spaces.
/// Returns the offset of that `:`.
std::optional<std::size_t> FindTabIndicatorWithExplicitKey(std::string_view text);

/// The message for what FindTabIndicatorWithExplicitKey finds.
inline constexpr const char* kTabIndicatorWithExplicitKey =
    "a tab between ':' and an indicator in a document with an explicit key ('? ') is refused: "
    "libfyaml 0.7.12, the YAML parser, can crash on it; write spaces instead of the tab";

}  // namespace tjr::yaml::input
