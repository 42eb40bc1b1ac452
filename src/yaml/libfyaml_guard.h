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

}  // namespace tjr::yaml::input
