#pragma once

// Inputs that crash libfyaml 0.7.12, found before it reads them.

#include <cstddef>
#include <optional>
#include <string_view>

namespace tjr::yaml::input {

/// An explicit key (`? `, at a line's start or after block entries `- `)
/// whose content is a block mapping with a tab before a value that starts
/// with `>`, `|`, `?`, `:` or `- ` (`? a:<TAB>>`): libfyaml 0.7.12 corrupts
/// its indentation stack on it and then crashes (SIGSEGV in
/// fy_parser_destroy; fuzz/corpus/yaml_reader/libfyaml-explicit-key-tab-*).
/// kubectl refuses every such text, since the key is a mapping (goyaml:
/// "invalid map key"). Returns the byte offset of the key's content (where
/// tjrender reports that error), or nothing.
std::optional<std::size_t> FindExplicitKeyTabCrash(std::string_view text);

}  // namespace tjr::yaml::input
